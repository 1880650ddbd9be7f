// SPDX-License-Identifier: MIT
#pragma once

#include "model/types.h"

#include <QSize>
#include <optional>

class QFont;
class QPainter;

namespace strobe {

struct TimelinePalette;

// Height of the time ruler above the lanes, logical pixels.
inline constexpr int kTimeRulerHeight = 30;

// What the ruler shows: `view` with tick labels counted from `origin` (the trace start), the
// measured range with its duration, and the time under the cursor.
struct RulerContent {
    TimeRange view;
    TimeNs origin = 0;
    std::optional<TimeRange> measured;
    std::optional<TimeNs> cursor;
};

// Draws the time ruler into [0, size) of `p`: its background and, when there is `content`
// (a trace), the ticks, labels, measured range and cursor time. `baseFont` is the widget's (or
// application's) font; labels use 85 % of it.
void paintTimeRuler(QPainter& p, QSize size, const TimelinePalette& palette, const QFont& baseFont,
                    const std::optional<RulerContent>& content);

} // namespace strobe
