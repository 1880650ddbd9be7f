// SPDX-License-Identifier: MIT
#include "model/lod/timemapping.h"

#include <gtest/gtest.h>

#include <limits>

using strobe::TimeMapping;
using strobe::TimeNs;
using strobe::TimeRange;

struct MappingCase {
    TimeRange view;
    double width;
    TimeNs t;
    double expectedPx;
};

class TimeMappingTest : public ::testing::TestWithParam<MappingCase> {};

TEST_P(TimeMappingTest, MapsTimeToPixelAndBack) {
    const MappingCase c = GetParam();
    const TimeMapping m = TimeMapping::fromRange(c.view, c.width);
    EXPECT_DOUBLE_EQ(m.toPx(c.t), c.expectedPx);
    // Back to time: within one pixel's worth of nanoseconds (rounded down).
    const TimeNs back = m.toTime(m.toPx(c.t));
    EXPECT_LE(std::abs(back - c.t), std::max<TimeNs>(1, TimeNs(m.nsPerPx())));
}

INSTANTIATE_TEST_SUITE_P(ZoomLevels, TimeMappingTest,
                         ::testing::Values(
                             // 1 s over 1000 px: 1 ms per pixel
                             MappingCase{{0, 1'000'000'000}, 1000, 500'000'000, 500.0},
                             // 1 us over 1000 px: 1 ns per pixel
                             MappingCase{{1'000, 2'000}, 1000, 1'250, 250.0},
                             // 100 ns over 2000 px: 20 px per ns (deep zoom-in)
                             MappingCase{{0, 100}, 2000, 7, 140.0},
                             // before the view: negative pixels, no clamping
                             MappingCase{{1'000'000, 2'000'000}, 1000, 0, -1000.0},
                             // negative trace times (nsys session time)
                             MappingCase{{-5'000, 5'000}, 100, -5'000, 0.0},
                             MappingCase{{-5'000, 5'000}, 100, 0, 50.0}));

TEST(TimeMapping, KeepsNanosecondPrecisionFarFromZero) {
    // 2^62 ns: subtracting in double first would lose the low bits.
    const TimeNs base = TimeNs(1) << 62;
    const TimeMapping m = TimeMapping::fromRange({base, base + 10}, 10);
    EXPECT_DOUBLE_EQ(m.toPx(base + 3), 3.0);
    EXPECT_EQ(m.toTime(7.5), base + 7);
}

TEST(TimeMapping, EmptyRangeCountsAsOneNanosecond) {
    const TimeMapping m = TimeMapping::fromRange({10, 10}, 100);
    EXPECT_DOUBLE_EQ(m.pxPerNs, 100.0);
}

// Issue 46 item 4: a view wider than int64 reaches (a hostile trace zoomed out) once made the
// span and the pixel offsets wrap, so ticks and bars landed anywhere.
TEST(TimeMapping, AViewSpanningAllOfInt64DoesNotWrap) {
    constexpr TimeNs kMax = std::numeric_limits<TimeNs>::max();
    constexpr TimeNs kMin = std::numeric_limits<TimeNs>::min();
    const TimeMapping m = TimeMapping::fromRange({kMin, kMax}, 1000);
    EXPECT_GT(m.pxPerNs, 0.0);
    EXPECT_NEAR(m.toPx(kMin), 0.0, 1e-9);
    EXPECT_NEAR(m.toPx(0), 500.0, 1e-6);
    EXPECT_NEAR(m.toPx(kMax), 1000.0, 1e-6);
    // Exact where the difference fits: the low bits survive.
    const TimeMapping near = TimeMapping::fromRange({kMax - 10, kMax}, 10);
    EXPECT_DOUBLE_EQ(near.toPx(kMax - 7), 3.0);
    EXPECT_LT(near.toPx(kMin), -1e18); // far to the left, not wrapped to the right
}
