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
