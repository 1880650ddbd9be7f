// SPDX-License-Identifier: MIT
#pragma once

#include "model/types.h"
#include "render/geometry/rulerflags.h"

#include <QRectF>
#include <QSize>
#include <QString>
#include <optional>
#include <span>

class QFont;
class QFontMetrics;
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

// The two labels at the top of the ruler, each a box and its text: the time under the cursor,
// centred on it, and the measured range's duration, centred on the range. When the two would
// overlap the duration moves beside the cursor label (on the side of the range's middle when
// there is room, else the other side) and is left out only when neither side has room: the
// labels never overlap.
struct RulerLabels {
    std::optional<QRectF> cursor, measured;
    QString cursorText, measuredText;
};
RulerLabels layoutRulerLabels(const RulerContent& content, int width, const QFontMetrics& fm);

// Draws the time ruler into [0, size) of `p`: its background and, when there is `content`
// (a trace), the ticks, labels, measured range and cursor time. `baseFont` is the widget's (or
// application's) font; labels use 85 % of it. A pass that keeps no state: the ticks are computed
// from `content` on each paint (computeTicks), the ruler is one short line of text. `flags`
// (layoutRulerFlags, for this width and view) are the bookmarks' notes: a pennant and a bar
// along the top for each, its label beside the pennant where there is room.
void paintTimeRuler(QPainter& p, QSize size, const TimelinePalette& palette, const QFont& baseFont,
                    const std::optional<RulerContent>& content,
                    std::span<const RulerFlag> flags = {});

} // namespace strobe
