// SPDX-License-Identifier: MIT
#pragma once

#include <QSize>

class QFont;
class QPainter;

namespace strobe {

class LaneLayout;
struct TimelinePalette;

// Width of the lane name column left of the lanes, logical pixels.
inline constexpr int kLaneHeaderWidth = 260;

// Draws the lane name column into [0, size) of `p`: group names with their expand/collapse
// arrows, lane names (pinned ones in their own colour), row bands matching the lanes, for
// `layout` scrolled down by `scrollY`. `baseFont` is the widget's (or application's) font.
void paintLaneHeader(QPainter& p, QSize size, const LaneLayout& layout, int scrollY,
                     const TimelinePalette& palette, const QFont& baseFont);

} // namespace strobe
