// SPDX-License-Identifier: MIT
#include "widgets/timeline/geometry/rulerticks.h"

#include <gtest/gtest.h>

using namespace strobe;

TEST(RulerTicks, TickLabelsResolveTheStep) {
    EXPECT_EQ(formatTickLabel(0, 1000), QStringLiteral("0"));
    EXPECT_EQ(formatTickLabel(500, 100), QStringLiteral("500 ns"));
    EXPECT_EQ(formatTickLabel(1'234'568'000, 2000), QStringLiteral("1.234568 s"));
    EXPECT_EQ(formatTickLabel(1'500'000'000, 500'000'000), QStringLiteral("1.5 s"));
    EXPECT_EQ(formatTickLabel(20'000, 10'000), QStringLiteral("20 \u00b5s"));
    EXPECT_EQ(formatTickLabel(3'000'000, 1'000'000), QStringLiteral("3 ms"));
}

struct TickCase {
    TimeRange view;
    int width;
    TimeNs step;
    std::size_t count;
};

class TicksTest : public ::testing::TestWithParam<TickCase> {};

TEST_P(TicksTest, StepIsOneTwoFiveTimesPowerOfTen) {
    const TickCase c = GetParam();
    const RulerTicks t = computeTicks(c.view, 0, c.width, 100);
    EXPECT_EQ(t.step, c.step);
    EXPECT_EQ(t.ticks.size(), c.count);
    for (TimeNs tick : t.ticks) {
        EXPECT_EQ(tick % c.step, 0);
        EXPECT_GE(tick, c.view.start);
        EXPECT_LT(tick, c.view.end);
    }
}

INSTANTIATE_TEST_SUITE_P(ZoomLevels, TicksTest,
                         ::testing::Values(
                             // 1 s over 1000 px, >= 100 px apart: 100 ms steps, 10 ticks
                             TickCase{{0, 1'000'000'000}, 1000, 100'000'000, 10},
                             // 1 us over 1000 px: 100 ns
                             TickCase{{0, 1'000}, 1000, 100, 10},
                             // 3 ms over 1000 px: 0.3 ms -> 500 us
                             TickCase{{0, 3'000'000}, 1000, 500'000, 6},
                             // 150 ns over 1000 px: 15 ns -> 20 ns
                             TickCase{{10, 160}, 1000, 20, 7}));
