// SPDX-License-Identifier: MIT
#pragma once

#include "model/lane.h"
#include "model/types.h"

#include <cstdint>
#include <vector>

namespace strobe {

// One thing to draw in a row: a single event or a folded run of events, in row order.
struct DrawItem {
    std::uint32_t first = 0; // row position (RowView k) of the first event covered
    std::uint32_t count = 0; // events covered, consecutive in the row
    double x0 = 0, x1 = 0;   // pixels, x1 - x0 >= 1, clamped to [-1, widthPx + 1]
    bool isFolded = false;   // count > 1: draw as a counted run, not as one event
};

// The level-of-detail rule. An event at least `minPx` wide is drawn alone. Narrower events fold
// into one item with their neighbours while each next event is narrower than `minPx` and starts
// less than `minPx` after the item's current right edge. Every item is at least 1 px wide.
// Only events overlapping [viewStart, viewStart + widthPx * nsPerPx) are visited, and folding
// skips ahead with binary search, so the cost is O(widthPx / minPx * log n), whatever n is.
std::vector<DrawItem> foldRuns(const RowView& row, TimeNs viewStart, double nsPerPx, int widthPx,
                               double minPx);

// Same, appending to `out` (lets a painter reuse one buffer per frame).
void foldRunsInto(const RowView& row, TimeNs viewStart, double nsPerPx, int widthPx, double minPx,
                  std::vector<DrawItem>& out);

} // namespace strobe
