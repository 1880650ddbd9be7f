// SPDX-License-Identifier: MIT
#pragma once

#include "render/paint/lanelook.h"

#include <cstddef>
#include <utility>

class QPainter;

namespace strobe {

struct PaintContext;
class TimelineFrame;

// Where a utilisation strip of `height` logical pixels draws its kernel (first) and copy (second)
// strips: (offset from the row's top, height) each, a 1 px margin above and below.
inline std::pair<std::pair<int, int>, std::pair<int, int>> utilizationHalves(int height) {
    const int inner = std::max(2, height - 2);
    const int top = inner / 2;
    return {{1, top}, {1 + top, inner - top}};
}

// Draws the lane rows and GPU utilisation strips of one TimelineFrame: rows from their draw
// items, or from their summary columns where the frame says so, the projected NVTX rows, the
// utilisation strips with their idle marks and the memory counters (the row passes,
// lanepasses.h). It reads the frame and never changes geometry; what it keeps between frames is
// painting only (LaneLook: colours per trace, the names and glyph runs of the bars' labels, an
// image line reused between rows), so any QPainter (a widget, a QImage, an SVG generator) gets
// the same picture from the same frame and context, however often it is painted.
class LanePainter {
public:
    // A folded row with more items than this is coloured into one image line and blitted.
    static constexpr std::size_t kLineItems = 96;

    // The whole canvas: every row of `frame` with its background, and the background below the
    // rows; nothing else (overlays: paintOverlay). `ctx` is the frame's view with the look
    // (palette, font); frame.view() must be the frame ctx describes.
    void paint(QPainter& p, const PaintContext& ctx, const TimelineFrame& frame);

private:
    LaneLook m_look;
};

} // namespace strobe
