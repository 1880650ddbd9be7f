// SPDX-License-Identifier: MIT
// The Operators panel's second table: the kernels one operator launched, by kernel name.
#include "model/itemmodels/operatorkernelsmodel.h"
#include "model/itemmodels/tableroles.h"

#include <QAbstractItemModelTester>
#include <QSortFilterProxyModel>
#include <gtest/gtest.h>

using namespace strobe;

namespace {

TEST(OperatorKernelsModel, RowsRolesAndLongestLaunch) {
    OperatorKernelsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setRows({{QStringLiteral("void implicit_gemm()"), 2, 2500, 1500},
                   {QStringLiteral("void bias_add()"), 1, 200, 200}},
                  {std::uint32_t(3)});
    ASSERT_EQ(model.rowCount(), 2);
    ASSERT_EQ(model.columnCount(), 4);
    EXPECT_EQ(model.headerData(0, Qt::Horizontal).toString(), QStringLiteral("Kernel"));
    EXPECT_EQ(model.headerData(3, Qt::Horizontal).toString(), QStringLiteral("Longest"));
    EXPECT_EQ(model.data(model.index(0, OperatorKernelsModel::Kernel)).toString(),
              QStringLiteral("void implicit_gemm()"));
    EXPECT_EQ(model.data(model.index(0, OperatorKernelsModel::Count)).toString(),
              QStringLiteral("2"));
    EXPECT_EQ(model.data(model.index(0, OperatorKernelsModel::Total)).toString(),
              QStringLiteral("2.500 \u00b5s"));
    EXPECT_EQ(model.data(model.index(0, OperatorKernelsModel::Longest), SortRole).toLongLong(),
              1500);
    EXPECT_EQ(model.longestLaunchAt(0), std::optional<std::uint32_t>(3));
    EXPECT_EQ(model.longestLaunchAt(1), std::nullopt); // not given
    EXPECT_EQ(model.longestLaunchAt(2), std::nullopt);

    QSortFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    proxy.setSortRole(SortRole);
    proxy.sort(OperatorKernelsModel::Longest, Qt::AscendingOrder);
    EXPECT_EQ(proxy.data(proxy.index(0, 0)).toString(), QStringLiteral("void bias_add()"));
    model.setRows({});
    EXPECT_EQ(model.rowCount(), 0);
}

} // namespace
