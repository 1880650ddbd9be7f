// SPDX-License-Identifier: MIT
#include "render/paint/lanepainter.h"

#include "render/geometry/lanelayout.h"
#include "render/geometry/timelineframe.h"
#include "render/paint/lanepasses.h"
#include "render/paint/paintcontext.h"

#include <QPainter>
#include <algorithm>

namespace strobe {

void LanePainter::paint(QPainter& p, const PaintContext& ctx, const TimelineFrame& frame) {
    Q_ASSERT(frame.view().view == ctx.view && frame.view().width == ctx.width &&
             frame.view().height == ctx.height && frame.view().scrollY == ctx.scrollY &&
             frame.view().layout == ctx.layout);
    m_look.useTrace(frame.trace(), frame.traceGeneration());
    if (!frame.trace() || !ctx.layout) {
        p.fillRect(QRect(0, 0, ctx.width, ctx.height), ctx.palette.background);
        return;
    }
    m_look.colors.beginPaint();
    p.setRenderHint(QPainter::Antialiasing, false);
    p.setFont(ctx.font);
    // The frame's row jobs run on idle cores in painting order (TimelineFrame): each lane row
    // waits for its own job, so the first rows are painted while helpers compute later ones.
    // The painting and the colours' caches stay on this thread.
    auto paintRows = [&](std::span<const FrameRow> rows) {
        for (const FrameRow& r : rows) {
            switch (r.layout->kind) {
            case LayoutRowKind::GroupHeader:
                p.fillRect(QRect(0, r.y, ctx.width, r.layout->height), ctx.palette.groupHeader);
                break;
            case LayoutRowKind::Utilization:
                paintUtilizationRow(p, ctx, r, m_look);
                break;
            case LayoutRowKind::ProjectedNvtx:
                paintProjectedRow(p, ctx, r, m_look);
                break;
            case LayoutRowKind::MemoryCounter:
                paintMemoryCounterRow(p, ctx, r);
                break;
            case LayoutRowKind::LaneRow:
                paintLaneRow(p, ctx, frame, r, m_look);
                break;
            }
        }
    };
    const int pinned = frame.pinnedHeight();
    p.save();
    p.setClipRect(QRect(0, pinned, ctx.width, ctx.height - pinned));
    paintRows(frame.scrolledRows());
    p.restore();
    // Each row painted its whole rectangle, its background included; only what lies below the
    // rows is filled here, so a frame writes each pixel about once (a canvas-wide fill first
    // costs a tenth of a full zoom-out frame at 2560x1440).
    const int below = frame.rowsBottom();
    if (below < ctx.height)
        p.fillRect(QRect(0, below, ctx.width, ctx.height - below), ctx.palette.background);
    if (pinned > 0) {
        paintRows(frame.pinnedRows());
        p.fillRect(QRect(0, pinned - 1, ctx.width, 1), ctx.palette.text);
    }
    frame.finish(); // every job was awaited by its row; this rethrows what a last one threw
}

} // namespace strobe
