// SPDX-License-Identifier: MIT
#include "model/timeformat.h"

#include <gtest/gtest.h>

using namespace strobe;

TEST(TimeFormat, DurationsPickTheirUnit) {
    EXPECT_EQ(formatDuration(523), QStringLiteral("523 ns"));
    EXPECT_EQ(formatDuration(12'400), QStringLiteral("12.40 \u00b5s"));
    EXPECT_EQ(formatDuration(1'234'000), QStringLiteral("1.234 ms"));
    EXPECT_EQ(formatDuration(2'500'000'000), QStringLiteral("2.500 s"));
}

TEST(TimeFormat, ParsesTimesWithUnitsExactly) {
    const std::pair<const char16_t*, TimeNs> cases[] = {
        {u"1.2s", 1'200'000'000},
        {u"1.35 s", 1'350'000'000},
        {u"120ms", 120'000'000},
        {u"350us", 350'000},
        {u"350\u00b5s", 350'000},
        {u"800ns", 800},
        {u"2500", 2'500},
        {u"0", 0},
        {u".5ms", 500'000},
        {u"-2ms", -2'000'000},
        {u"+7", 7},
        {u"1.2345678919s", 1'234'567'891}, // digits past the nanosecond are dropped
        {u"0.0000000019s", 1},
        {u"1.5ns", 1},
    };
    for (const auto& [text, want] : cases)
        EXPECT_EQ(parseTime(QStringView(text)), want) << QString::fromUtf16(text).toStdString();
}

TEST(TimeFormat, RejectsWhatIsNotATime) {
    for (const char16_t* text : {u"", u"s", u"ms", u"1.2 sec", u"1h", u"12parsecs", u"1..2s",
                                 u"--1", u"1e9", u"0x10", u"99999999999999999999", u"5000000000s"})
        EXPECT_FALSE(parseTime(QStringView(text)).has_value())
            << QString::fromUtf16(text).toStdString();
}
