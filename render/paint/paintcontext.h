// SPDX-License-Identifier: MIT
#pragma once

#include "render/geometry/timelinegeometry.h"
#include "render/paint/timelinecolors.h"

#include <QFont>
#include <QSize>

namespace strobe {

class Trace;

// Everything one paint of the lane canvas needs, computed once per paint and passed by const
// reference to every lane painter: the frame the geometry is queried in, plus how to draw it.
struct PaintContext : ViewFrame {
    const Trace* trace = nullptr;
    TimelinePalette palette;
    QFont font; // the lanes' labels
    // Vector output (SVG): every draw item is its own rectangle, never a row painted from its
    // summary or blitted as one image line, so the file holds one element per drawn item.
    bool oneRectPerItem = false;
};

// The font of lane labels and header names: 90 % of the widget's (or application's) font.
QFont laneFont(const QFont& base);

// The context of one paint of `trace`'s lanes laid out by `layout`, over `view`, `size` logical
// pixels at `dpr`, scrolled down by `scrollY`. `baseFont` is the widget's (or application's)
// font. The view and a headless renderer both build their context here, so they draw alike.
PaintContext makePaintContext(const Trace* trace, const LaneLayout* layout, TimeRange view,
                              QSize size, int scrollY, double dpr, TimeNs idleThreshold,
                              const TimelinePalette& palette, const QFont& baseFont);

} // namespace strobe
