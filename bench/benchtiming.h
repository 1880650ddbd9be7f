// SPDX-License-Identifier: MIT
#pragma once

// What the timing programs in bench/ share: wall and CPU seconds, the machine's load (other work
// stretches every wall time) and the median of repeated rounds.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <time.h>
#include <vector>

namespace strobe::bench {

inline double seconds(std::chrono::steady_clock::time_point a,
                      std::chrono::steady_clock::time_point b) {
    return std::chrono::duration<double>(b - a).count();
}

// CPU seconds of this process (CLOCK_PROCESS_CPUTIME_ID, every thread) or of the calling thread
// (CLOCK_THREAD_CPUTIME_ID).
inline double cpuSeconds(clockid_t clock) {
    timespec t{};
    clock_gettime(clock, &t);
    return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
}

// The 1-minute load average, 0 when it cannot be read.
inline double loadAverage() {
    double avg = 0;
    if (std::FILE* f = std::fopen("/proc/loadavg", "r")) {
        if (std::fscanf(f, "%lf", &avg) != 1)
            avg = 0;
        std::fclose(f);
    }
    return avg;
}

// The median of the rounds (the upper one of an even count), 0 for none.
inline double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

} // namespace strobe::bench
