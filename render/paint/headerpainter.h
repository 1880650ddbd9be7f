// SPDX-License-Identifier: MIT
#pragma once

#include <QHash>
#include <QPair>
#include <QSize>
#include <QStaticText>
#include <QString>

class QFont;
class QPainter;

namespace strobe {

class LaneLayout;
struct TimelinePalette;

// Width of the lane name column left of the lanes, logical pixels.
inline constexpr int kLaneHeaderWidth = 260;

// The names of the lane name column cut to its width and shaped once, for a caller that paints
// the column again and again (LaneHeader): it repaints on every vertical scroll and hand-over,
// while its names and width rarely change, and QPainter::drawText shaped each name on each paint
// (2 to 3 ms a paint of 12 to 76 rows on a 2-core machine; 0.4 to 0.9 ms from kept names).
class HeaderLabels {
public:
    // `text` cut in the middle to `width` pixels in `font` (QFontMetrics::elidedText), ready to
    // draw; `fontKey` is font.key(). Valid until the next call.
    const QStaticText& elided(const QString& text, const QFont& font, const QString& fontKey,
                              int width);
    std::size_t size() const { return m_count; }
    static constexpr std::size_t kMaxLabels = 4096; // then it starts again

private:
    QHash<QString, QHash<QPair<QString, int>, QStaticText>> m_byFont; // by QFont::key()
    std::size_t m_count = 0;
};

// Draws the lane name column into [0, size) of `p`: group names with their expand/collapse
// arrows, lane names (pinned ones in their own colour), row bands matching the lanes, for
// `layout` scrolled down by `scrollY`. `baseFont` is the widget's (or application's) font.
// `labels`, where given, keeps the names shaped between paints: the only state of this pass,
// owned by its caller, and text, not geometry (the rows are the layout's).
void paintLaneHeader(QPainter& p, QSize size, const LaneLayout& layout, int scrollY,
                     const TimelinePalette& palette, const QFont& baseFont,
                     HeaderLabels* labels = nullptr);

} // namespace strobe
