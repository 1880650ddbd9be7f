// SPDX-License-Identifier: MIT
#pragma once

// The tests' oracle for "which pixel columns hold an event": column i of a view starting at v0
// with nsPerColumn covers [v0 + floor(i * nsPerColumn), v0 + floor((i + 1) * nsPerColumn)), and
// holds an event when the event's [start, effectiveEnd) overlaps it. Computed event by event with
// two binary searches over the columns' bounds (O(events log columns)), none of the painter's or
// the row summary's code: a sweep of every event for every column took minutes under the
// sanitizers.

#include "model/lane.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace strobe::test {

inline std::vector<bool> columnsHoldingEvents(const RowView& row, TimeNs v0, double nsPerColumn,
                                              int columns) {
    const auto n = static_cast<std::size_t>(columns);
    std::vector<TimeNs> from(n), to(n);
    for (int i = 0; i < columns; ++i) {
        from[std::size_t(i)] = v0 + TimeNs(std::floor(i * nsPerColumn));
        to[std::size_t(i)] = v0 + TimeNs(std::floor((i + 1) * nsPerColumn));
    }
    std::vector<bool> holds(n, false);
    for (std::uint32_t k = 0; k < row.size(); ++k) {
        const TimeNs a = row.start(k), b = effectiveEnd(a, row.end(k));
        // The columns overlapping [a, b): those ending after a and starting before b.
        const auto first = std::upper_bound(to.begin(), to.end(), a) - to.begin();
        const auto last = std::lower_bound(from.begin(), from.end(), b) - from.begin();
        for (auto i = first; i < last; ++i)
            holds[std::size_t(i)] = true;
    }
    return holds;
}

} // namespace strobe::test
