// SPDX-License-Identifier: MIT
#include "render/geometry/rulerticks.h"

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

namespace {
// Whether `t` lies on the grid of `step` counted from `origin`, without computing t - origin.
bool onGrid(TimeNs t, TimeNs origin, TimeNs step) {
    return ((t % step) - (origin % step)) % step == 0;
}

// Every property the painter relies on: in the view, rising, on the grid, bounded in number.
void expectWellFormed(const RulerTicks& r, TimeRange view, TimeNs origin, std::size_t maxMajor) {
    ASSERT_GE(r.step, 1);
    ASSERT_GE(r.minorStep, 1);
    EXPECT_LE(r.ticks.size(), maxMajor);
    EXPECT_LE(r.minorTicks.size(), 5 * maxMajor + 5);
    for (const std::vector<TimeNs>* list : {&r.ticks, &r.minorTicks}) {
        const TimeNs step = list == &r.ticks ? r.step : r.minorStep;
        for (std::size_t i = 0; i < list->size(); ++i) {
            const TimeNs t = (*list)[i];
            EXPECT_GE(t, view.start);
            EXPECT_LT(t, view.end);
            EXPECT_TRUE(onGrid(t, origin, step)) << t << " step " << step;
            if (i) {
                EXPECT_GT(t, (*list)[i - 1]);
            }
        }
    }
}
} // namespace

// Issue 46 item 4: a trace clamped to [-2^62, 2^62] shows a view of 2^63 - 2 ns from its
// start; the painter's minor-tick loop stepped past INT64_MAX, wrapped, and never ended. The
// minor ticks now come from computeTicks, bounded, and stop below the view's end.
TEST(RulerTicks, MinorTicksOfAViewSpanningAllOfInt64AreBounded) {
    constexpr TimeNs kMax = std::numeric_limits<TimeNs>::max();
    const TimeRange view{0, 2 * kMaxTime};
    const RulerTicks r = computeTicks(view, 0, 1680, 90);
    EXPECT_EQ(r.step, TimeNs(500'000'000'000'000'000)); // 2^63 ns over 1680 / 90 labels
    EXPECT_EQ(r.minorStep, TimeNs(100'000'000'000'000'000));
    ASSERT_EQ(r.minorTicks.size(), 93u); // 0, 1e17, ..., 9.2e18; 9.3e18 is past INT64_MAX
    EXPECT_EQ(r.minorTicks.back(), TimeNs(9'200'000'000'000'000'000));
    expectWellFormed(r, view, 0, 1680 / 90 + 2);
    // From INT64_MIN to INT64_MAX: the step comes from the whole span (in doubles), so the ticks
    // reach across the view rather than stopping at the cap halfway.
    const TimeRange all{std::numeric_limits<TimeNs>::min(), kMax};
    const RulerTicks across = computeTicks(all, 0, 1000, 100);
    EXPECT_EQ(across.step, TimeNs(2'000'000'000'000'000'000));
    ASSERT_EQ(across.ticks.size(), 9u); // -8e18, -6e18, ..., 8e18
    EXPECT_EQ(across.ticks.front(), TimeNs(-8'000'000'000'000'000'000));
    EXPECT_EQ(across.ticks.back(), TimeNs(8'000'000'000'000'000'000));
    expectWellFormed(across, all, 0, 12);
    for (const TimeRange v : {TimeRange{kMax - 1000, kMax}, TimeRange{-1, kMax},
                              TimeRange{std::numeric_limits<TimeNs>::min(), kMax}}) {
        for (int width : {1, 360, 1920, 16384}) {
            const RulerTicks t = computeTicks(v, v.start, width, 90);
            expectWellFormed(t, v, v.start, std::size_t(width) / 90 + 2);
        }
    }
}

TEST(RulerTicks, DegenerateViewsGiveNoTicks) {
    for (const TimeRange v : {TimeRange{5, 5}, TimeRange{kMaxTime, kMaxTime},
                              TimeRange{kMinTime, kMinTime}, TimeRange{100, -100}}) {
        const RulerTicks r = computeTicks(v, 0, 1000, 90);
        EXPECT_TRUE(r.ticks.empty()) << v.start;
        EXPECT_TRUE(r.minorTicks.empty()) << v.start;
    }
    EXPECT_TRUE(computeTicks({0, 1000}, 0, 0, 90).ticks.empty());
    EXPECT_TRUE(computeTicks({0, 1000}, 0, -5, 90).minorTicks.empty());
}

// The origin (the trace start) may lie further from the view than int64 reaches: the ticks stay
// on its grid and in the view rather than vanishing or wrapping.
TEST(RulerTicks, AnOriginFarFromTheViewKeepsTheGrid) {
    constexpr TimeNs kMin = std::numeric_limits<TimeNs>::min();
    const TimeRange view{kMaxTime - 1'000'000'000, kMaxTime};
    for (TimeNs origin : {kMin, kMin + 7, kMinTime, TimeNs(0), kMaxTime}) {
        const RulerTicks r = computeTicks(view, origin, 1000, 100);
        EXPECT_EQ(r.step, 100'000'000);
        EXPECT_EQ(r.ticks.size(), 10u) << origin;
        expectWellFormed(r, view, origin, 12);
        // The labels read the saturated distance from the origin, without wrapping.
        EXPECT_FALSE(formatTickLabel(saturatingSub(r.ticks.front(), origin), r.step).isEmpty());
    }
}

// However wide the picture and however small the spacing, the count stays bounded.
TEST(RulerTicks, AHugeWidthIsCapped) {
    const RulerTicks r = computeTicks({0, 1'000'000}, 0, std::numeric_limits<int>::max(), 0);
    EXPECT_EQ(r.step, 1);
    EXPECT_EQ(r.ticks.size(), kMaxRulerTicks);
    EXPECT_EQ(r.minorTicks.size(), 5 * kMaxRulerTicks + 5);
    expectWellFormed(r, {0, 1'000'000}, 0, kMaxRulerTicks);
}
