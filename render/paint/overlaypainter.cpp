// SPDX-License-Identifier: MIT
#include "render/paint/overlaypainter.h"

#include "model/cudaapi.h"
#include "model/trace.h"
#include "render/geometry/lanelayout.h"
#include "render/geometry/timelineframe.h"
#include "render/paint/paintcontext.h"

#include <QFontMetricsF>
#include <QPainter>
#include <QPainterPath>
#include <QStringBuilder>
#include <cmath>

namespace strobe {

namespace {
// The partner's name as the lanes show it (API calls without their version suffix).
QString partnerName(const Trace& t, EventRef ref) {
    const Lane& l = t.lane(ref.lane);
    const QString name = t.string(l.nameId(ref.index));
    return l.kind() == LaneKind::CudaApi ? cudaapi::displayName(name) : name;
}

void outline(QPainter& p, const QRectF& r, const QColor& c, qreal width) {
    p.setPen(QPen(c, width));
    p.setBrush(Qt::NoBrush);
    p.drawRect(r.adjusted(-1, 0, 1, -1));
}

void arrowHead(QPainter& p, QPointF from, QPointF to, const QColor& c) {
    const double a = std::atan2(to.y() - from.y(), to.x() - from.x());
    const double len = 8, spread = 0.45;
    QPainterPath head(to);
    head.lineTo(to - QPointF(len * std::cos(a - spread), len * std::sin(a - spread)));
    head.lineTo(to - QPointF(len * std::cos(a + spread), len * std::sin(a + spread)));
    head.closeSubpath();
    p.fillPath(head, c);
}

// A small triangle at the canvas edge pointing towards an event that is off screen.
// Every visible search match (the frame's search marks): a yellow tint with an outline, as
// browsers mark the matches of a find; the current match is the selection, outlined above them.
void paintSearchMarks(QPainter& p, const PaintContext& ctx, const TimelineFrame& frame) {
    const QColor tint =
        ctx.palette.dark ? QColor(0xff, 0xe0, 0x30, 120) : QColor(0xff, 0xe0, 0x00, 130);
    const QColor edge = ctx.palette.dark ? QColor(0xff, 0xe8, 0x60) : QColor(0xb0, 0x8a, 0x00);
    const auto paintRows = [&](std::span<const FrameRow> rows) {
        for (const FrameRow& row : rows) {
            const double y = row.y, h = row.layout->height;
            for (const PixelSpan& m : row.searchMarks) {
                const QRectF r(m.x0, y + 1, m.x1 - m.x0, std::max(1.0, h - 2));
                p.fillRect(r, tint);
                p.setPen(QPen(edge, 1.0));
                p.setBrush(Qt::NoBrush);
                p.drawRect(r.adjusted(0.5, 0.5, -0.5, -0.5));
            }
        }
    };
    p.save();
    p.setRenderHint(QPainter::Antialiasing, false);
    p.setClipRect(QRectF(0, frame.pinnedHeight(), ctx.width, ctx.height));
    paintRows(frame.scrolledRows());
    p.setClipping(false);
    paintRows(frame.pinnedRows());
    p.restore();
}

void offscreenIndicator(QPainter& p, const PaintContext& ctx, QRectF target, const QColor& c,
                        const QString& name) {
    const double cx = std::clamp(target.center().x(), 10.0, ctx.width - 10.0);
    const double cy = std::clamp(target.center().y(), 10.0, ctx.height - 10.0);
    const QPointF at(cx, cy);
    QPointF dir(target.center().x() - cx, target.center().y() - cy);
    const double n = std::hypot(dir.x(), dir.y());
    if (n < 1)
        return;
    dir /= n;
    arrowHead(p, at - dir * 12, at + dir * 4, c);
    // The partner's name on a plate of its own, so it never mixes with the bars' labels.
    const QFontMetricsF fm(p.font());
    const QString text = fm.elidedText(name, Qt::ElideRight, 220);
    const double w = fm.horizontalAdvance(text) + 8, h = fm.height() + 2;
    const double x = std::clamp(dir.x() > 0.5 ? cx - 16 - w : cx + 10, 2.0, ctx.width - w - 2);
    const QRectF plate(x, std::clamp(cy - h / 2, 0.0, ctx.height - h), w, h);
    p.setPen(c);
    p.setBrush(ctx.palette.background);
    p.drawRoundedRect(plate, 3, 3);
    p.setPen(ctx.palette.text);
    p.drawText(plate, Qt::AlignCenter, text);
}
} // namespace

void paintOverlay(QPainter& p, const PaintContext& ctx, const TimelineFrame& frame,
                  const OverlayState& state) {
    const Trace* t = ctx.trace;
    auto eventRect = [&](EventRef ref) { return frame.eventRect(ref); };
    p.save();
    p.setRenderHint(QPainter::Antialiasing, true);
    const QRectF canvasRect(0, 0, ctx.width, ctx.height);

    if (const auto range = state.measured) {
        const double x0 = ctx.map.toPx(range->start), x1 = ctx.map.toPx(range->end);
        p.fillRect(QRectF(x0, 0, std::max(1.0, x1 - x0), ctx.height), ctx.palette.measure);
    }

    paintSearchMarks(p, ctx, frame);

    if (const auto hr = eventRect(state.hover); hr && state.hover != state.selection)
        outline(p, *hr, ctx.palette.text, 1.0);

    const EventRef sel = state.selection;
    const auto selRect = eventRect(sel);
    if (selRect)
        outline(p, *selRect, ctx.palette.selection, 2.0);
    const EventRef partner = t ? t->partnerOf(sel) : EventRef{};
    if (partner.isValid()) {
        const auto partRect = eventRect(partner);
        if (partRect)
            outline(p, *partRect, ctx.palette.partner, 2.0);
        if (selRect && partRect) {
            // Launch (API call) -> GPU work, whichever of the two is selected.
            const bool selIsGpu = isGpuLane(t->lane(sel.lane).kind());
            const QRectF api = selIsGpu ? *partRect : *selRect;
            const QRectF gpu = selIsGpu ? *selRect : *partRect;
            const QPointF from(api.left(), api.bottom());
            const QPointF to(gpu.left(), gpu.top());
            if (canvasRect.contains(to) || canvasRect.contains(from)) {
                p.setPen(QPen(ctx.palette.partner, 1.5));
                p.drawLine(from, to);
                arrowHead(p, from, to, ctx.palette.partner);
            }
            if (!canvasRect.intersects(*partRect))
                offscreenIndicator(p, ctx, *partRect, ctx.palette.partner,
                                   partnerName(*t, partner));
        } else if (selRect && !partRect) {
            // The partner's row is collapsed or hidden: point up or down at its group.
            offscreenIndicator(p, ctx, selRect->translated(0, -ctx.height), ctx.palette.partner,
                               partnerName(*t, partner));
        }
    }

    if (const auto cursor = state.cursor) {
        const double x = ctx.snap(ctx.map.toPx(*cursor));
        p.setRenderHint(QPainter::Antialiasing, false);
        p.fillRect(QRectF(x, 0, 1.0 / ctx.dpr, ctx.height), ctx.palette.cursor);
    }
    p.restore();
}

} // namespace strobe
