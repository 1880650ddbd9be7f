// SPDX-License-Identifier: MIT
#pragma once

#include "model/types.h"

#include <QString>
#include <span>
#include <vector>

namespace strobe {

struct BookmarkSet;

// A marked time range (a bookmark's note) on the ruler's time axis; a zero-length range marks
// an instant.
struct RulerMark {
    TimeRange range;
    QString label;
};

// The notes of `set` (trace time) as marks on an axis whose 0 is the trace's time `origin`, in
// the order they were made. The view slots are not marks.
std::vector<RulerMark> noteMarks(const BookmarkSet& set, TimeNs origin = 0);

// Where a mark is drawn on the ruler: its flag at `x` (the range's start, or the view's left
// edge for a range that began before it), the range's bar from `x` to `barEnd` (at least 1 px),
// and `labelRoom` pixels beside the flag for its label before the next flag or the edge.
struct RulerFlag {
    double x = 0;
    double barEnd = 0;
    double labelRoom = 0;
    QString label;
    friend bool operator==(const RulerFlag&, const RulerFlag&) = default;
};

// Width of a flag's pennant, logical pixels; the label starts after it.
inline constexpr double kRulerFlagWidth = 8;

// The flags of the `marks` that meet `view` on a ruler `width` pixels wide, left to right (equal
// x: in the order given). A mark that ends before the view or starts at or after its end is left
// out; an instant exactly at the view's start is kept.
std::vector<RulerFlag> layoutRulerFlags(std::span<const RulerMark> marks, TimeRange view,
                                        int width);

} // namespace strobe
