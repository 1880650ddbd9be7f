// SPDX-License-Identifier: MIT
#pragma once

#include <QHash>
#include <QPair>
#include <QSize>
#include <QStaticText>
#include <QString>

class QFont;
class QFontMetrics;
class QPainter;

namespace strobe {

class LaneLayout;
struct TimelinePalette;

// Width of the lane name column left of the lanes, logical pixels.
inline constexpr int kLaneHeaderWidth = 260;

// `text` as the lane name column shows it in `width` pixels: whole where it fits; else a name
// ending in its id (a thread's "NAME [tid]", a process's "NAME [pid]") keeps the id whole and cuts
// the name at its end ("thread 2910249 (pt_main… [2910249]"), a pinned lane's path ("GPU 0 /
// Stream 7 / Kernels") is cut in the middle so both ends still say whose lane of which kind, and
// anything else is cut at its end. The ellipsis is the font's (QFontMetrics::elidedText).
QString elidedLaneLabel(const QString& text, const QFontMetrics& metrics, int width);

// The names of the lane name column cut to its width and shaped once, for a caller that paints
// the column again and again (LaneHeader): it repaints on every vertical scroll and hand-over,
// while its names and width rarely change, and QPainter::drawText shaped each name on each paint
// (2 to 3 ms a paint of 12 to 76 rows on a 2-core machine; 0.4 to 0.9 ms from kept names).
class HeaderLabels {
public:
    // `text` cut to `width` pixels in `font` (elidedLaneLabel), ready to draw; `fontKey` is
    // font.key(). Valid until the next call.
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
