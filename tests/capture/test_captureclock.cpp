// SPDX-License-Identifier: MIT
// The capture's clocks: nanoseconds of the system clocks, read the way the kernel gives them.
#include "capture/captureclock.h"

#include <gtest/gtest.h>

#include <chrono>
#include <ctime>

using namespace strobe::capture;

TEST(CaptureClock, MonotonicNanosecondsAreTheKernelsAndNeverGoBack) {
    timespec before{};
    ::clock_gettime(CLOCK_MONOTONIC, &before);
    const std::int64_t a = monotonicNs();
    const std::int64_t b = clockNs(CLOCK_MONOTONIC);
    timespec after{};
    ::clock_gettime(CLOCK_MONOTONIC, &after);
    const std::int64_t lo = std::int64_t(before.tv_sec) * 1'000'000'000 + before.tv_nsec;
    const std::int64_t hi = std::int64_t(after.tv_sec) * 1'000'000'000 + after.tv_nsec;
    EXPECT_LE(lo, a);
    EXPECT_LE(a, b);
    EXPECT_LE(b, hi);
}

TEST(CaptureClock, RealtimeIsNanosecondsSinceTheEpoch) {
    const std::int64_t seconds = std::time(nullptr);
    const std::int64_t ns = realtimeNs();
    // Within two seconds of time(), in nanoseconds (not micro- or milliseconds).
    EXPECT_NEAR(double(ns) / 1e9, double(seconds), 2.0);
    EXPECT_LE(clockNs(CLOCK_REALTIME) - ns, std::int64_t(2'000'000'000));
    EXPECT_GE(clockNs(CLOCK_REALTIME), ns);
}
