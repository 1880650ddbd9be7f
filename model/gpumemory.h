// SPDX-License-Identifier: MIT
#pragma once

#include "model/types.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace strobe {

// The GPU memory a program held at one moment, as the profiler recorded it (Kineto `[memory]`
// instants: the caching allocator's totals after each allocation or free).
struct GpuMemorySample {
    TimeNs time = 0;
    std::uint64_t allocated = 0;
    std::optional<std::uint64_t> reserved;
};

// Allocated bytes over time on one GPU: a counter lane of the timeline.
struct GpuMemoryTrack {
    std::uint32_t deviceId = 0;
    std::vector<GpuMemorySample> samples; // by time (ties in recorded order)

    // The first sample with the most bytes allocated (within `window` when given: samples at
    // times in [start, end)); nullptr when there is none.
    const GpuMemorySample* peak(std::optional<TimeRange> window = std::nullopt) const {
        const GpuMemorySample* best = nullptr;
        for (const GpuMemorySample& s : samples) {
            if (window && (s.time < window->start || s.time >= window->end))
                continue;
            if (!best || s.allocated > best->allocated)
                best = &s;
        }
        return best;
    }
};

} // namespace strobe
