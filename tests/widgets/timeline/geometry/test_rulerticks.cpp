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

// A hostile file's view can span the whole int64 range: the step stays large, the tick count is
// bounded by the width, and no arithmetic wraps (before the fix the span overflowed, the step
// became 1 ns and the loop ran until memory ran out).
TEST(RulerTicks, ExtremeViewsGiveFewTicks) {
    constexpr TimeNs kMax = std::numeric_limits<TimeNs>::max();
    for (const TimeRange view : {TimeRange{-1, kMax}, TimeRange{-kMax, kMax},
                                 TimeRange{kMinTime, kMaxTime}, TimeRange{kMax - 10, kMax}}) {
        const RulerTicks t = computeTicks(view, view.start, 1000, 100);
        EXPECT_LE(t.ticks.size(), 12u);
        for (std::size_t i = 0; i < t.ticks.size(); ++i) {
            EXPECT_GE(t.ticks[i], view.start);
            EXPECT_LT(t.ticks[i], view.end);
            if (i) {
                EXPECT_GT(t.ticks[i], t.ticks[i - 1]);
            }
        }
    }
    const RulerTicks wide = computeTicks({-1, kMax}, 0, 1000, 100);
    EXPECT_EQ(wide.step, TimeNs(1'000'000'000'000'000'000));
    EXPECT_EQ(wide.ticks.size(), 10u); // 0, 1e18, ..., 9e18
    EXPECT_EQ(formatTickLabel(std::numeric_limits<TimeNs>::min(), wide.step),
              QStringLiteral("-9223372037 s"));
}
