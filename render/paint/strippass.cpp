// SPDX-License-Identifier: MIT
// The passes of the per-GPU rows: the utilisation strip and the memory counter.
#include "model/gpumemory.h"
#include "model/lod/utilization.h"
#include "model/timeformat.h"
#include "model/trace.h"
#include "render/geometry/lanelayout.h"
#include "render/geometry/timelineframe.h"
#include "render/paint/lanepainter.h"
#include "render/paint/lanepasses.h"
#include "render/paint/paintcontext.h"
#include "render/paint/pixelblend.h"

#include <QPainter>
#include <QStringBuilder>
#include <algorithm>
#include <cmath>

namespace strobe {

QString utilizationPendingText(const Trace* trace) {
    return trace && trace->metadata().gpuSampleStride > 1
               ? QStringLiteral("Utilisation once every GPU row is read\u2026")
               : QStringLiteral("Computing utilisation\u2026");
}

void paintUtilizationRow(QPainter& p, const PaintContext& ctx, const FrameRow& fr, LaneLook& look) {
    const LayoutRow& row = *fr.layout;
    const int y = fr.y;
    if (!fr.utilization) { // not built (yet): say so rather than show an idle GPU
        p.fillRect(QRect(0, y, ctx.width, row.height), ctx.palette.rowAlternate);
        p.setPen(ctx.palette.text);
        p.drawText(QRect(4, y, ctx.width - 8, row.height), Qt::AlignVCenter | Qt::AlignLeft,
                   utilizationPendingText(ctx.trace));
        return;
    }
    // Two thin strips (utilizationHalves): kernels on top, copies below, so a GPU that only
    // moves data never looks like one that computes. One busy fraction per device pixel column,
    // blended over the idle colour into one image line: any work in a column shows, at least
    // 35% opaque, so short bursts stay visible.
    const int cols = std::max(1, int(std::ceil(ctx.width * ctx.dpr)));
    const QRgb idle = ctx.palette.utilIdle.rgb();
    const auto [top, bottom] = utilizationHalves(row.height);
    // The strips cover all but the margins above and below them.
    const int stripsEnd = bottom.first + bottom.second;
    p.fillRect(QRect(0, y, ctx.width, top.first), ctx.palette.utilIdle);
    p.fillRect(QRect(0, y + stripsEnd, ctx.width, std::max(0, row.height - stripsEnd)),
               ctx.palette.utilIdle);
    const auto strip = [&](const std::vector<float>& f, QRgb busy, int y0, int h) {
        QRgb* px = look.line.begin(cols, h, ctx.dpr);
        for (int i = 0; i < cols; ++i) {
            const float v = f[std::size_t(i)];
            px[i] = v <= 0.f ? idle : blend(idle, busy, int(90 + 165 * v));
        }
        look.line.blit(p, y + y0);
    };
    strip(fr.kernelBusy, ctx.palette.utilKernel.rgb(), top.first, top.second);
    strip(fr.copyBusy, ctx.palette.utilCopy.rgb(), bottom.first, bottom.second);
    // Idle stretches longer than the threshold: a marker band along the bottom.
    const int markHeight = std::min(4, row.height - 2);
    for (const PixelSpan& s : fr.idleSpans)
        p.fillRect(QRectF(s.x0, y + row.height - 1 - markHeight, s.x1 - s.x0, markHeight),
                   ctx.palette.idleMark);
}

void paintMemoryCounterRow(QPainter& p, const PaintContext& ctx, const FrameRow& fr) {
    const LayoutRow& row = *fr.layout;
    const int y = fr.y;
    p.fillRect(QRect(0, y, ctx.width, row.height), ctx.palette.background);
    const GpuMemorySample* peak = fr.memory ? fr.memory->peak() : nullptr;
    if (!peak || peak->allocated == 0)
        return;
    const std::vector<std::optional<std::uint64_t>>& values = fr.counter;
    const QColor fill = ctx.palette.eventColor(ColorCategory::MemcpyDtoD, 0);
    const double h = row.height - 3;
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (!values[i])
            continue;
        const int bar =
            std::max(1, int(std::lround(h * double(*values[i]) / double(peak->allocated))));
        p.fillRect(QRect(int(i), y + row.height - 1 - bar, 1, bar), fill);
    }
    const double px = double(peak->time - ctx.view.start) / ctx.nsPerPx;
    const QString label = QStringLiteral("peak ") % formatBytes(peak->allocated);
    const int labelHeight = row.height / 2 + 2; // whole pixels, in both boxes
    p.setPen(ctx.palette.text);
    if (px >= 0 && px < ctx.width) {
        p.fillRect(QRectF(ctx.snap(px), y, 1, row.height), ctx.palette.selection);
        p.drawText(QRectF(ctx.snap(px) + 3, y, 200, labelHeight), Qt::AlignLeft | Qt::AlignVCenter,
                   label);
    } else {
        p.drawText(QRect(4, y, ctx.width - 8, labelHeight), Qt::AlignRight | Qt::AlignVCenter,
                   label);
    }
}

} // namespace strobe
