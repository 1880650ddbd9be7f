// SPDX-License-Identifier: MIT
#include "render/geometry/countercolumns.h"

#include "model/lod/timemapping.h"

#include <algorithm>
#include <cmath>

namespace strobe {

std::vector<std::optional<std::uint64_t>> counterColumns(const GpuMemoryTrack& track, TimeNs start,
                                                         double nsPerColumn, int columns) {
    std::vector<std::optional<std::uint64_t>> out(std::size_t(std::max(0, columns)));
    const auto& s = track.samples;
    const auto at = [&](int i) { // saturating: a view may be wider than int64 reaches
        return saturatingAdd(start, TimeMapping::saturatingNs(std::floor(double(i) * nsPerColumn)));
    };
    auto it = s.begin();
    std::optional<std::uint64_t> held; // the counter's value at the current window's start
    for (int i = 0; i < columns; ++i) {
        const TimeNs begin = at(i), end = at(i + 1);
        // Samples at or before the window's start only set the value it starts with.
        if (i == 0)
            it = std::upper_bound(s.begin(), s.end(), begin,
                                  [](TimeNs t, const GpuMemorySample& x) { return t < x.time; });
        if (i == 0 && it != s.begin())
            held = std::prev(it)->allocated;
        for (; it != s.end() && it->time <= begin; ++it)
            held = it->allocated;
        std::optional<std::uint64_t> top = held;
        // Samples inside the window: each is a moment of the counter.
        for (; it != s.end() && it->time < end; ++it) {
            top = std::max(top.value_or(0), it->allocated);
            held = it->allocated;
        }
        out[std::size_t(i)] = top;
    }
    return out;
}

} // namespace strobe
