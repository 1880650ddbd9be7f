// SPDX-License-Identifier: MIT
// The passes of the rows that hold events: lane rows (draw items or summary columns) and the
// projected NVTX rows.
#include "model/analysis/nvtxprojection.h"
#include "model/lod/timelinelod.h"
#include "model/trace.h"
#include "render/geometry/lanelayout.h"
#include "render/geometry/timelineframe.h"
#include "render/paint/lanepainter.h"
#include "render/paint/lanepasses.h"
#include "render/paint/paintcontext.h"
#include "render/paint/pixelblend.h"

#include <QFontMetrics>
#include <QPainter>
#include <algorithm>
#include <cmath>

namespace strobe {

namespace {
constexpr int kLabelMinPx = 24;
constexpr int kLabelPad = 3;

// The 1 px margins above and below a row drawn from one line.
void fillRowMargins(QPainter& p, const PaintContext& ctx, const LayoutRow& row, int y,
                    const QColor& background) {
    p.fillRect(QRect(0, y, ctx.width, 1), background);
    p.fillRect(QRect(0, y + row.height - 1, ctx.width, 1), background);
}

// A summarised row: one device pixel per column, every covered column drawn in its
// representative event's colour, washed like a folded run, stronger the busier the column (never
// below 45%); one line inside the row's margins, so each pixel of the row is written once.
void paintSummaryRow(QPainter& p, const PaintContext& ctx, const TimelineFrame& frame,
                     const FrameRow& row, LaneLook& look, const QColor& background) {
    const LayoutRow& r = *row.layout;
    const int cols = std::max(1, int(std::ceil(ctx.width * ctx.dpr)));
    const std::vector<SummaryColumn>& columns = *row.columns;
    const std::vector<QRgb>& classes = look.colors.classColors(ctx.palette, *frame.lod(), r.lane);
    const QRgb bg = background.rgb();
    QRgb* line = look.line.begin(cols, r.height - 2, ctx.dpr);
    std::uint32_t lastRep = RowSummary::kNone;
    QRgb fg = 0;
    for (int i = 0; i < cols; ++i) {
        const SummaryColumn& c = columns[std::size_t(i)];
        if (!c.covered) {
            line[i] = bg;
            continue;
        }
        if (c.rep != lastRep) { // long events span many columns: look their colour up once
            lastRep = c.rep;
            fg = c.rep < classes.size() ? classes[c.rep] : bg;
        }
        line[i] = blend(bg, fg, 115 + int(140.0f * c.busy));
    }
    look.line.blit(p, row.y + 1);
    fillRowMargins(p, ctx, r, row.y, background);
}
} // namespace

const QColor& rowBackground(const PaintContext& ctx, const LayoutRow& row) {
    return ctx.layout->isAlternate(row) ? ctx.palette.rowAlternate : ctx.palette.background;
}

void paintLaneRow(QPainter& p, const PaintContext& ctx, const TimelineFrame& frame,
                  const FrameRow& frameRow, LaneLook& look) {
    const FrameRow& fr = frame.await(frameRow); // its items or columns are final from here
    const LayoutRow& row = *fr.layout;
    const int y = fr.y;
    const QColor& background = rowBackground(ctx, row);
    if (fr.summaryLevel)
        return paintSummaryRow(p, ctx, frame, fr, look, background);
    const std::vector<DrawItem>& items = *fr.items;
    const RowView rv = frame.trace()->lane(row.lane).rowView(row.row);
    const QFontMetrics fm(ctx.font);
    const double top = y + 1, h = row.height - 2;
    const int textBase = y + (row.height + fm.ascent() - fm.descent()) / 2;
    // Many items (a row folded at a middle zoom): colour one image line and blit it, as
    // fillRect per item costs more than the folding; labels still go on top, per item. The line
    // holds the background between items, so the row is not filled under it: each pixel is
    // written once, not twice (at a middle zoom most rows are lines, and a frame is bound by the
    // memory it writes).
    const bool asLine = !ctx.oneRectPerItem && items.size() > LanePainter::kLineItems;
    if (asLine) {
        const int cols = std::max(1, int(std::ceil(ctx.width * ctx.dpr)));
        QRgb* px = look.line.begin(cols, row.height - 2, ctx.dpr);
        std::fill(px, px + cols, background.rgb());
        // floor(x * dpr + 0.5), without the libm call per item (x is within [-1, width + 1]).
        auto devicePx = [dpr = ctx.dpr](double x) {
            const double v = x * dpr + 0.5;
            const int t = int(v);
            return t - int(double(t) > v);
        };
        for (const DrawItem& it : items) {
            const int d0 = std::clamp(devicePx(it.x0), 0, cols);
            const int d1 = std::clamp(std::max(devicePx(it.x1), d0 + 1), 0, cols);
            std::fill(px + d0, px + d1, look.colors.itemColor(ctx.palette, row.lane, rv, it));
        }
        look.line.blit(p, y + 1);
        fillRowMargins(p, ctx, row, y, background);
    } else {
        p.fillRect(QRect(0, y, ctx.width, row.height), background);
    }
    for (const DrawItem& it : items) {
        if (asLine && it.isFolded)
            continue; // coloured into the line, and a folded run has no label
        const double x0 = ctx.snap(it.x0);
        const double x1 = std::max(ctx.snap(it.x1), x0 + 1.0);
        if (!asLine)
            p.fillRect(QRectF(x0, top, x1 - x0, h),
                       QColor::fromRgb(look.colors.itemColor(ctx.palette, row.lane, rv, it)));
        const double vis0 = std::max(0.0, x0), vis1 = std::min(double(ctx.width), x1);
        if (it.isFolded || vis1 - vis0 < kLabelMinPx)
            continue;
        const std::uint32_t mid = rv.laneIndex(it.first + it.count / 2);
        const int avail = int(vis1 - vis0) - 2 * kLabelPad;
        p.setPen(ctx.palette.textOnBar);
        look.labels.draw(p, ctx.font, QPointF(vis0 + kLabelPad, textBase),
                         look.eventName(row.lane, mid), avail);
    }
}

void paintProjectedRow(QPainter& p, const PaintContext& ctx, const FrameRow& fr, LaneLook& look) {
    const LayoutRow& row = *fr.layout;
    const int y = fr.y;
    p.fillRect(QRect(0, y, ctx.width, row.height), rowBackground(ctx, row));
    const ProjectedNvtxLane* proj = fr.projected;
    if (!proj)
        return;
    const std::vector<DrawItem>& items = *fr.items;
    const RowView rv = proj->lane.rowView(row.row);
    const QFontMetrics fm(ctx.font);
    const double top = y + 1, h = row.height - 2;
    const int textBase = y + (row.height + fm.ascent() - fm.descent()) / 2;
    for (const DrawItem& it : items) {
        const double x0 = ctx.snap(it.x0);
        const double x1 = std::max(ctx.snap(it.x1), x0 + 1.0);
        const std::uint32_t mid = rv.laneIndex(it.first + it.count / 2);
        // The colour of the CPU-side range, so the two line up by eye.
        const EventRef src = proj->source[proj->lane.payload(mid)];
        const QRgb c = look.colors.eventColor(ctx.palette, src.lane, src.index).rgb();
        p.fillRect(QRectF(x0, top, x1 - x0, h),
                   QColor::fromRgb(it.isFolded ? washed(c, ctx.palette.folded.rgb()) : c));
        const double vis0 = std::max(0.0, x0), vis1 = std::min(double(ctx.width), x1);
        if (it.isFolded || vis1 - vis0 < kLabelMinPx)
            continue;
        const QString& name = proj->label(proj->lane.payload(mid));
        const int avail = int(vis1 - vis0) - 2 * kLabelPad;
        p.setPen(ctx.palette.textOnBar);
        look.labels.draw(p, ctx.font, QPointF(vis0 + kLabelPad, textBase), name, avail);
    }
}

} // namespace strobe
