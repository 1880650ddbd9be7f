// SPDX-License-Identifier: MIT
// The Operators panel's table: its columns by grouping, the text and raw values of each cell,
// and sorting on SortRole through the panel's proxy.
#include "model/itemmodels/namefilterproxy.h"
#include "model/itemmodels/operatortablemodel.h"
#include "model/itemmodels/tableroles.h"

#include <QAbstractItemModelTester>
#include <gtest/gtest.h>

using namespace strobe;

namespace {

OperatorTable sampleTable(OperatorGrouping grouping) {
    OperatorTable t;
    t.grouping = grouping;
    t.deviceTime = 10'000;
    OperatorRow conv;
    conv.name = QStringLiteral("aten::cudnn_convolution");
    conv.shapes = grouping == OperatorGrouping::NameAndShapes
                      ? QStringLiteral("[[32, 3, 224, 224], [64, 3, 7, 7]]")
                      : QString();
    conv.calls = 53;
    conv.hostSelf = 1'500'000;
    conv.hostTotal = 2'250'000;
    conv.deviceSelf = 7'000;
    conv.deviceTotal = 7'000;
    conv.devicePercent = 70.0;
    conv.longest = 12;
    OperatorRow none;
    none.name = QStringLiteral("(no operator)");
    none.noOperator = true;
    none.deviceSelf = 2'000;
    none.deviceTotal = 2'000;
    none.devicePercent = 20.0;
    OperatorRow add;
    add.name = QStringLiteral("aten::add_");
    add.calls = 161;
    add.hostSelf = 900;
    add.hostTotal = 4'000'000;
    add.deviceSelf = 1'000;
    add.deviceTotal = 1'000;
    add.devicePercent = 10.0;
    add.longest = 40;
    t.rows = {conv, none, add};
    return t;
}

QString cell(const QAbstractItemModel& m, int row, int column, int role = Qt::DisplayRole) {
    return m.data(m.index(row, column), role).toString();
}

TEST(OperatorTableModel, ColumnsByGroupingAndCellValues) {
    OperatorTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    EXPECT_EQ(model.rowCount(), 0);
    model.setTable(sampleTable(OperatorGrouping::Name));
    ASSERT_EQ(model.rowCount(), 3);
    ASSERT_EQ(model.columnCount(), 7); // no Input shapes column
    QStringList headers;
    for (int c = 0; c < model.columnCount(); ++c)
        headers << model.headerData(c, Qt::Horizontal).toString();
    EXPECT_EQ(headers, (QStringList{QStringLiteral("Name"), QStringLiteral("Calls"),
                                    QStringLiteral("Host self"), QStringLiteral("Host total"),
                                    QStringLiteral("Device self"), QStringLiteral("Device total"),
                                    QStringLiteral("Device %")}));
    EXPECT_EQ(model.columnAt(1), OperatorTableModel::Calls);
    EXPECT_EQ(model.sectionOf(OperatorTableModel::Shapes), -1);
    EXPECT_EQ(model.sectionOf(OperatorTableModel::DevicePercent), 6);
    EXPECT_EQ(cell(model, 0, 0), QStringLiteral("aten::cudnn_convolution"));
    EXPECT_EQ(cell(model, 0, 1), QStringLiteral("53"));
    EXPECT_EQ(cell(model, 0, 2), QStringLiteral("1.500 ms"));
    EXPECT_EQ(model.data(model.index(0, 2), SortRole).toLongLong(), 1'500'000);
    EXPECT_EQ(cell(model, 0, 4), QStringLiteral("7.000 \u00b5s"));
    EXPECT_EQ(cell(model, 0, 6), QStringLiteral("70.00 %"));
    EXPECT_DOUBLE_EQ(model.data(model.index(0, 6), SortRole).toDouble(), 70.0);
    EXPECT_EQ(model.data(model.index(2, 1), ExportRole).toULongLong(), 161u);
    EXPECT_EQ(model.data(model.index(0, 0), Qt::TextAlignmentRole).toInt(),
              int(Qt::AlignLeft | Qt::AlignVCenter));
    EXPECT_EQ(model.data(model.index(0, 3), Qt::TextAlignmentRole).toInt(),
              int(Qt::AlignRight | Qt::AlignVCenter));
    EXPECT_TRUE(cell(model, 1, 0, Qt::ToolTipRole).contains(QStringLiteral("no operator")));
    EXPECT_EQ(model.rowAt(2)->longest, 40u);
    EXPECT_EQ(model.rowAt(3), nullptr);
    // Quantities sort largest first on the first click, names A to Z.
    EXPECT_EQ(model.headerData(0, Qt::Horizontal, Qt::InitialSortOrderRole).toInt(),
              int(Qt::AscendingOrder));
    EXPECT_EQ(model.headerData(4, Qt::Horizontal, Qt::InitialSortOrderRole).toInt(),
              int(Qt::DescendingOrder));

    model.setTable(sampleTable(OperatorGrouping::NameAndShapes));
    ASSERT_EQ(model.columnCount(), 8);
    EXPECT_EQ(model.headerData(1, Qt::Horizontal).toString(), QStringLiteral("Input shapes"));
    EXPECT_EQ(model.headerData(2, Qt::Horizontal).toString(), QStringLiteral("Calls"));
    EXPECT_EQ(cell(model, 0, 1), QStringLiteral("[[32, 3, 224, 224], [64, 3, 7, 7]]"));
    EXPECT_EQ(cell(model, 0, 2), QStringLiteral("53"));
    EXPECT_EQ(model.sectionOf(OperatorTableModel::Shapes), 1);
}

TEST(OperatorTableModel, SortsRawNumbersAndFiltersByName) {
    OperatorTableModel model;
    model.setTable(sampleTable(OperatorGrouping::Name));
    NameFilterProxy proxy;
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::Fatal);
    proxy.setSourceModel(&model);
    auto names = [&] {
        QStringList v;
        for (int r = 0; r < proxy.rowCount(); ++r)
            v << cell(proxy, r, 0);
        return v;
    };
    // Host total: 4 ms > 2.25 ms > 0, as numbers ("4.000 ms" < "2.250 ms" as text would not).
    proxy.sort(model.sectionOf(OperatorTableModel::HostTotal), Qt::DescendingOrder);
    EXPECT_EQ(names(),
              (QStringList{QStringLiteral("aten::add_"), QStringLiteral("aten::cudnn_convolution"),
                           QStringLiteral("(no operator)")}));
    proxy.sort(model.sectionOf(OperatorTableModel::HostSelf), Qt::DescendingOrder);
    EXPECT_EQ(names().first(), QStringLiteral("aten::cudnn_convolution"));
    EXPECT_TRUE(proxy.setNameFilter(NameFilter(QStringLiteral("aten::"), false)));
    EXPECT_EQ(proxy.rowCount(), 2);
    EXPECT_TRUE(proxy.setNameFilter(NameFilter(QStringLiteral("^aten::a"), true)));
    EXPECT_EQ(names(), (QStringList{QStringLiteral("aten::add_")}));
}

} // namespace
