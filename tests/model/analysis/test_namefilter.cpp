// SPDX-License-Identifier: MIT
// The name filter of every table (the proxy the statistics tabs filter through:
// tests/model/itemmodels/test_namefilterproxy.cpp).
#include "model/analysis/namefilter.h"

#include "tests/support/qtprinters.h"

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

} // namespace
