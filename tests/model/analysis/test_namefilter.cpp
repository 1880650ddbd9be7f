// SPDX-License-Identifier: MIT
// The name filter of every table, and the proxy the statistics tabs filter through.
#include "model/analysis/namefilter.h"
#include "model/itemmodels/namefilterproxy.h"
#include "model/itemmodels/tableroles.h"

#include "tests/support/qtprinters.h"

#include <QAbstractItemModelTester>
#include <QStringListModel>
#include <gtest/gtest.h>

using namespace strobe;

namespace {

TEST(NameFilter, PlainTextIsACaseInsensitiveSubstring) {
    const NameFilter f(QStringLiteral("MM"), false);
    EXPECT_TRUE(f.isValid());
    EXPECT_FALSE(f.isOpen());
    EXPECT_TRUE(f.matches(QStringLiteral("aten::mm")));
    EXPECT_FALSE(f.matches(QStringLiteral("aten::relu")));
    // Plain text is not a pattern: the dot is a dot.
    const NameFilter dot(QStringLiteral("a.b"), false);
    EXPECT_FALSE(dot.matches(QStringLiteral("axb")));
    EXPECT_TRUE(dot.matches(QStringLiteral("xa.by")));
}

TEST(NameFilter, RegexIsSearchedCaseInsensitively) {
    const NameFilter f(QStringLiteral("^aten::(mm|BMM)$"), true);
    EXPECT_TRUE(f.matches(QStringLiteral("aten::mm")));
    EXPECT_TRUE(f.matches(QStringLiteral("ATEN::bmm")));
    EXPECT_FALSE(f.matches(QStringLiteral("aten::mm_out")));
}

TEST(NameFilter, EmptyAndInvalidLetEverythingThrough) {
    EXPECT_TRUE(NameFilter().isOpen());
    EXPECT_TRUE(NameFilter().matches(QStringLiteral("anything")));
    const NameFilter bad(QStringLiteral("aten::(mm"), true);
    EXPECT_FALSE(bad.isValid());
    EXPECT_TRUE(bad.isOpen());
    EXPECT_TRUE(bad.matches(QStringLiteral("x")));
    // The same text as plain text is valid and matches literally.
    EXPECT_TRUE(NameFilter(QStringLiteral("aten::(mm"), false).isValid());
}

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
