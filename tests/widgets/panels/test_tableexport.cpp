// SPDX-License-Identifier: MIT
#include "model/itemmodels/tableroles.h"
#include "tests/widgets/panels/paneltesthelpers.h"
#include "widgets/panels/tableexport.h"

#include <QClipboard>
#include <QStandardItemModel>
#include <QTableView>
#include <gtest/gtest.h>

using namespace strobe;
using namespace strobe::test;

namespace {

QStandardItemModel* sampleModel(QObject* parent) {
    auto* m = new QStandardItemModel(0, 3, parent);
    m->setHorizontalHeaderLabels(
        {QStringLiteral("Name"), QStringLiteral("Total"), QStringLiteral("Note")});
    auto row = [&](const QString& name, qlonglong total, const QString& note) {
        auto* n = new QStandardItem(name);
        auto* t = new QStandardItem(QStringLiteral("formatted"));
        t->setData(total, ExportRole);
        m->appendRow({n, t, new QStandardItem(note)});
    };
    row(QStringLiteral("void f<int, 2>(int)"), 1200, QStringLiteral("say \"hi\""));
    row(QStringLiteral("plain"), 5, QStringLiteral("multi\nline"));
    return m;
}

TEST(TableExport, CsvUsesExportRoleAndQuotesPerRfc4180) {
    QObject owner;
    auto* m = sampleModel(&owner);
    EXPECT_EQ(modelToCsv(*m), QStringLiteral("Name,Total,Note\r\n"
                                             "\"void f<int, 2>(int)\",1200,\"say \"\"hi\"\"\"\r\n"
                                             "plain,5,\"multi\nline\"\r\n"));
    EXPECT_EQ(modelToCsv(*m, {1}),
              QStringLiteral("Name,Total,Note\r\nplain,5,\"multi\nline\"\r\n"));
}

TEST(TableExport, CopiesSelectedRowsToTheClipboard) {
    QTableView view;
    view.setModel(sampleModel(&view));
    view.setSelectionBehavior(QAbstractItemView::SelectRows);
    view.selectRow(1);
    EXPECT_EQ(copyViewRowsToClipboard(view), 1);
    EXPECT_EQ(QApplication::clipboard()->text(),
              QStringLiteral("Name,Total,Note\r\nplain,5,\"multi\nline\"\r\n"));
    view.clearSelection();
    EXPECT_EQ(copyViewRowsToClipboard(view), 2);
}

} // namespace
