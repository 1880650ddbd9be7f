// SPDX-License-Identifier: MIT
#include "render/paint/paintcontext.h"

namespace strobe {

QFont laneFont(const QFont& base) {
    QFont f = base;
    f.setPointSizeF(f.pointSizeF() * 0.9);
    return f;
}

PaintContext makePaintContext(const Trace* trace, const LaneLayout* layout, TimeRange view,
                              QSize size, int scrollY, double dpr, TimeNs idleThreshold,
                              const TimelinePalette& palette, const QFont& baseFont) {
    PaintContext ctx;
    static_cast<ViewFrame&>(ctx) =
        ViewFrame::make(layout, view, size.width(), size.height(), scrollY, dpr, idleThreshold);
    ctx.trace = trace;
    ctx.palette = palette;
    ctx.font = laneFont(baseFont);
    return ctx;
}

} // namespace strobe
