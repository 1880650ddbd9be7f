// SPDX-License-Identifier: MIT
#pragma once

#include "model/types.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace strobe {

// Summary of a set of durations, as every statistics table prints it.
struct DurationStats {
    std::uint64_t count = 0;
    TimeNs total = 0;
    TimeNs min = 0;
    TimeNs max = 0;
    double mean = 0;
    double median = 0; // mean of the two middle values for an even count
    double stddev = 0; // sample standard deviation (n - 1); 0 for a single value
};

// Median of sorted values; 0 when empty.
inline double medianOfSorted(const std::vector<TimeNs>& sorted) {
    const std::size_t n = sorted.size();
    if (n == 0)
        return 0;
    if (n % 2 == 1)
        return double(sorted[n / 2]);
    // Halve first so two large values cannot overflow.
    return double(sorted[n / 2 - 1]) / 2.0 + double(sorted[n / 2]) / 2.0;
}

// Summarises `values`, sorting them in place.
inline DurationStats durationStats(std::vector<TimeNs>& values) {
    DurationStats s;
    s.count = values.size();
    if (values.empty())
        return s;
    std::sort(values.begin(), values.end());
    s.min = values.front();
    s.max = values.back();
    for (TimeNs v : values)
        s.total = saturatingAdd(s.total, v); // hostile files: a sum never wraps negative
    s.mean = double(s.total) / double(s.count);
    s.median = medianOfSorted(values);
    if (s.count > 1) {
        // Two passes in long double: durations of 1e9 ns squared lose nothing that matters.
        long double sq = 0;
        const long double mean = (long double)(s.total) / (long double)(s.count);
        for (TimeNs v : values) {
            const long double d = (long double)(v)-mean;
            sq += d * d;
        }
        s.stddev = double(std::sqrt(sq / (long double)(s.count - 1)));
    }
    return s;
}

} // namespace strobe
