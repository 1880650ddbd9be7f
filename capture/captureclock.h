// SPDX-License-Identifier: MIT
#pragma once

// The clocks of a capture, read in one place: CLOCK_MONOTONIC is the timeline of every event
// (the launcher's start, CUPTI's timestamps, NVTX ranges), CLOCK_REALTIME dates the session.
// Inline, so that the injection library keeps them hidden and the launcher needs no CUPTI.

#include <cstdint>
#include <time.h>

namespace strobe::capture {

// Nanoseconds of `clock` now (CLOCK_MONOTONIC, CLOCK_REALTIME...).
inline std::int64_t clockNs(clockid_t clock) {
    timespec ts{};
    ::clock_gettime(clock, &ts);
    return std::int64_t(ts.tv_sec) * 1000000000LL + ts.tv_nsec;
}

inline std::int64_t monotonicNs() {
    return clockNs(CLOCK_MONOTONIC);
}

inline std::int64_t realtimeNs() {
    return clockNs(CLOCK_REALTIME);
}

} // namespace strobe::capture
