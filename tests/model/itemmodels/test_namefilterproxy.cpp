// SPDX-License-Identifier: MIT
// The proxy the statistics tabs filter through, with the name filter of every table.
#include "model/analysis/namefilter.h"
#include "model/itemmodels/namefilterproxy.h"
#include "model/itemmodels/tableroles.h"

#include "tests/support/qtprinters.h"

#include <QAbstractItemModelTester>
#include <QStringListModel>
#include <gtest/gtest.h>

using namespace strobe;

namespace {

TEST(NameFilterProxy, KeepsTheRowsWhoseFirstColumnMatches) {
    QStringListModel source(
        {QStringLiteral("aten::mm"), QStringLiteral("aten::relu"), QStringLiteral("aten::bmm")});
    NameFilterProxy proxy;
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::Fatal);
    proxy.setSourceModel(&source);
    EXPECT_EQ(proxy.sortRole(), int(SortRole));
    EXPECT_EQ(proxy.rowCount(), 3);
    EXPECT_TRUE(proxy.setNameFilter(NameFilter(QStringLiteral("MM"), false)));
    ASSERT_EQ(proxy.rowCount(), 2);
    EXPECT_EQ(proxy.index(0, 0).data().toString(), QStringLiteral("aten::mm"));
    EXPECT_EQ(proxy.index(1, 0).data().toString(), QStringLiteral("aten::bmm"));
    EXPECT_TRUE(proxy.setNameFilter(NameFilter(QStringLiteral("^aten::mm$"), true)));
    EXPECT_EQ(proxy.rowCount(), 1);
    EXPECT_FALSE(proxy.setNameFilter(NameFilter(QStringLiteral("("), true)));
    EXPECT_EQ(proxy.rowCount(), 3); // an invalid pattern hides nothing
    EXPECT_TRUE(proxy.setNameFilter(NameFilter()));
    EXPECT_EQ(proxy.rowCount(), 3);
}

} // namespace
