// SPDX-License-Identifier: MIT
// The representable time range and the saturating arithmetic that hostile files rely on.
#include "model/records.h"
#include "model/timeformat.h"
#include "model/types.h"

#include <gtest/gtest.h>

using namespace strobe;

namespace {
constexpr TimeNs kMax = std::numeric_limits<TimeNs>::max();
constexpr TimeNs kMin = std::numeric_limits<TimeNs>::min();
} // namespace

TEST(TimeArithmetic, LimitIsJustUnderTwoToThe62) {
    EXPECT_EQ(kMaxTime, 4'611'686'018'427'387'903);
    EXPECT_EQ(kMinTime, -4'611'686'018'427'387'903);
    // The widest representable interval still has a positive length.
    EXPECT_EQ(TimeRange({kMinTime, kMaxTime}).duration(), 9'223'372'036'854'775'806);
}

TEST(TimeArithmetic, SubtractionAndAdditionSaturate) {
    EXPECT_EQ(saturatingSub(kMax, -1), kMax);
    EXPECT_EQ(saturatingSub(kMin, 1), kMin);
    EXPECT_EQ(saturatingSub(-7, 5), -12);
    EXPECT_EQ(saturatingAdd(kMax, 1), kMax);
    EXPECT_EQ(saturatingAdd(kMin, -1), kMin);
    EXPECT_EQ(saturatingAdd(-7, 5), -2);
    EXPECT_EQ(clampTime(kMax), kMaxTime);
    EXPECT_EQ(clampTime(kMin), kMinTime);
    EXPECT_EQ(clampTime(-5), -5);
}

TEST(TimeArithmetic, ExtremeIntervalsNeverGetNegativeLengths) {
    // The audit's kernel: start -(2^63 - 1), end 2^63 - 1; and start -1, end INT64_MAX.
    EXPECT_EQ(TimeRange({kMin + 1, kMax}).duration(), kMax);
    EXPECT_EQ(TimeRange({-1, kMax}).duration(), kMax);
    KernelLaunch k;
    k.start = -1;
    k.end = kMax;
    EXPECT_EQ(k.duration(), kMax);
    EXPECT_EQ(effectiveEnd(kMax, kMax), kMax); // a point at the very end stays a point
    EXPECT_EQ(effectiveEnd(5, 5), 6);
}

TEST(TimeFormat, FixedDurationsOfExtremeValues) {
    EXPECT_EQ(formatDurationFixed(kMin), QStringLiteral("-9223372036.855 s"));
    EXPECT_EQ(formatDurationFixed(kMax), QStringLiteral("9223372036.855 s"));
    EXPECT_EQ(formatDurationFixed(-2), QStringLiteral("-2 ns"));
    EXPECT_EQ(formatDuration(kMin), QStringLiteral("-9223372036.9 s"));
}
