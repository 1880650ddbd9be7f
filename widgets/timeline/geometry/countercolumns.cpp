// SPDX-License-Identifier: MIT
#include "widgets/timeline/geometry/countercolumns.h"

#include <algorithm>
#include <cmath>

namespace strobe {

std::vector<std::optional<std::uint64_t>> counterColumns(const GpuMemoryTrack& track, TimeNs start,
                                                         double nsPerColumn, int columns) {
    std::vector<std::optional<std::uint64_t>> out(std::size_t(std::max(0, columns)));
    const auto& s = track.samples;
    const auto at = [&](int i) { return start + TimeNs(std::floor(double(i) * nsPerColumn)); };
    // The last sample at or before the first window's start carries its value into it.
    auto it = std::upper_bound(s.begin(), s.end(), start,
                               [](TimeNs t, const GpuMemorySample& x) { return t < x.time; });
    std::optional<std::uint64_t> held;
    if (it != s.begin())
        held = std::prev(it)->allocated;
    for (int i = 0; i < columns; ++i) {
        const TimeNs end = at(i + 1);
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
