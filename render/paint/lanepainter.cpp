// SPDX-License-Identifier: MIT
#include "render/paint/lanepainter.h"

#include "model/cudaapi.h"
#include "model/rangename.h"
#include "model/timeformat.h"
#include "model/trace.h"
#include "render/geometry/countercolumns.h"
#include "render/geometry/lanelayout.h"
#include "render/geometry/timelinegeometry.h"
#include "render/paint/sharework.h"

#include <QBrush>
#include <QFontMetrics>
#include <QPaintEngine>
#include <QPainter>
#include <QStringBuilder>
#include <QThread>
#include <QTransform>
#include <algorithm>
#include <cmath>

namespace strobe {

namespace {
constexpr int kLabelMinPx = 24;
constexpr int kLabelPad = 3;

// A lane row's background: the alternate band on every other row.
const QColor& rowBackground(const PaintContext& ctx, const LayoutRow& row) {
    return ctx.layout->isAlternate(row) ? ctx.palette.rowAlternate : ctx.palette.background;
}

// `over` at `alpha` (0..255) on `under`, both opaque: red and blue, then green, each pair of
// channels mixed in one multiply (Qt's INTERPOLATE_PIXEL_255), as this runs once per pixel column.
QRgb blend(QRgb under, QRgb over, int alpha) {
    const auto a = std::uint32_t(std::clamp(alpha, 0, 255)), b = 255 - a;
    auto mix = [a, b](std::uint32_t u, std::uint32_t o) {
        std::uint32_t t = (o & 0xff00ffu) * a + (u & 0xff00ffu) * b;
        return ((t + ((t >> 8) & 0xff00ffu) + 0x800080u) >> 8) & 0xff00ffu;
    };
    return 0xff000000u | mix(under, over) | (mix(under >> 8, over >> 8) << 8);
}

// A folded run's colour: `c` halfway towards the palette's folded grey.
QRgb washed(QRgb c, QRgb folded) {
    return qRgb((qRed(c) + qRed(folded)) / 2, (qGreen(c) + qGreen(folded)) / 2,
                (qBlue(c) + qBlue(folded)) / 2);
}
} // namespace

void LanePainter::useTraceOf(const TimelineGeometry& geometry) {
    if (geometry.trace() == m_trace && geometry.traceGeneration() == m_traceGeneration)
        return;
    m_trace = geometry.trace();
    m_traceGeneration = geometry.traceGeneration();
    m_names.clear();
    m_labels.clear();
    m_colors.clear();
    m_classColors.clear();
}

ColorCategory LanePainter::categoryOf(std::uint32_t lane, std::uint32_t index) const {
    const Lane& l = m_trace->lane(lane);
    const auto name = m_trace->strings().view(l.nameId(index));
    switch (l.kind()) {
    case LaneKind::Kernels:
        return classifyKernel(name);
    case LaneKind::Memcpy:
    case LaneKind::Uvm:
        return classifyMemcpy(m_trace->memcpys()[l.payload(index)].copyKind);
    case LaneKind::Memset:
        return ColorCategory::Memset;
    case LaneKind::CudaApi:
    case LaneKind::Osrt:
        return classifyApiCall(name);
    case LaneKind::Nvtx:
    case LaneKind::NvtxStartEnd:
    case LaneKind::CpuOps:
    case LaneKind::Python:
        return ColorCategory::Nvtx;
    }
    return ColorCategory::OtherKernel;
}

quint64 LanePainter::colorKey(bool dark, std::uint32_t lane, std::uint32_t index) const {
    return colorKeyOf(dark, colorIdentity(*m_trace, lane, index));
}

quint64 LanePainter::colorKeyOf(bool dark, quint64 identity) {
    return identity >> 62 ? identity : (quint64(dark) << 63) | identity; // NVTX colours keep theirs
}

QColor LanePainter::eventColor(const TimelinePalette& palette, std::uint32_t lane,
                               std::uint32_t index) {
    const Lane& l = m_trace->lane(lane);
    if (l.kind() == LaneKind::Nvtx || l.kind() == LaneKind::NvtxStartEnd) {
        // The range's own colour, from the trace (its alpha byte is not meaningful).
        if (const auto argb = m_trace->nvtxColor(l.payload(index)))
            return QColor::fromRgb(QRgb(*argb | 0xff000000u));
    }
    const quint64 key = colorKey(palette.dark, lane, index);
    if (auto it = m_colors.constFind(key); it != m_colors.constEnd())
        return it.value();
    std::string_view name = m_trace->strings().view(l.nameId(index));
    if (l.kind() == LaneKind::Nvtx || l.kind() == LaneKind::NvtxStartEnd)
        name = groupedRangeNameUtf8(name); // every call of an operator in the operator's colour
    const QColor c = palette.eventColor(categoryOf(lane, index), stableNameHash(name));
    m_colors.insert(key, c);
    return c;
}

const QString& LanePainter::eventName(std::uint32_t lane, std::uint32_t index) {
    const Lane& l = m_trace->lane(lane);
    const StringId id = l.nameId(index);
    auto it = m_names.find(id);
    if (it == m_names.end()) {
        QString s = m_trace->string(id);
        if (l.kind() == LaneKind::CudaApi)
            s = cudaapi::displayName(s);
        it = m_names.insert(id, s);
    }
    return it.value();
}

const std::vector<QRgb>& LanePainter::classColors(const TimelinePalette& palette,
                                                  const TimelineLod& lod, std::uint32_t lane) {
    const std::span<const std::uint32_t> examples = lod.colorClasses(lane);
    LaneClassColors& c = m_classColors[lane];
    // Event colours follow the theme alone (see m_colors); the folded grey washes them.
    const QRgb folded = palette.folded.rgb();
    if (c.rgb.size() != examples.size() || c.dark != palette.dark || c.folded != folded) {
        c.dark = palette.dark;
        c.folded = folded;
        c.rgb.resize(examples.size());
        for (std::size_t k = 0; k < examples.size(); ++k)
            c.rgb[k] = washed(eventColor(palette, lane, examples[k]).rgb(), folded);
    }
    return c.rgb;
}

QRgb* LanePainter::lineImage(int columns, int logicalHeight, qreal dpr) {
    if (m_line.width() != columns)
        m_line = QImage(columns, 1, QImage::Format_RGB32);
    m_lineHeight = logicalHeight;
    m_lineDpr = dpr;
    return reinterpret_cast<QRgb*>(m_line.scanLine(0));
}

void LanePainter::blitLine(QPainter& p, int y) {
    blitLine(p, m_line, y, m_lineHeight, m_lineDpr);
}

void LanePainter::blitLine(QPainter& p, const QImage& line, int y, int logicalHeight, qreal dpr) {
    const QRectF rect(0, y, line.width() / dpr, logicalHeight);
    if (p.paintEngine() && p.paintEngine()->type() != QPaintEngine::Raster) {
        p.drawImage(rect, line); // an SVG has no texture brushes: the line as an image
        return;
    }
    // The line tiled down the rectangle as a texture: one copy per device pixel, never scaled
    // (the brush maps the line's pixels 1:1 onto device pixels whatever the ratio).
    QBrush brush(line);
    if (dpr != 1.0)
        brush.setTransform(QTransform::fromScale(1.0 / dpr, 1.0 / dpr));
    p.fillRect(rect, brush);
}

void LanePainter::prepareRows(const PaintContext& ctx, const TimelineGeometry& geometry) {
    m_rowJobs.clear();
    m_foldRows.clear();
    const TimelineLod* lod = geometry.lod();
    const int pinned = ctx.layout->pinnedHeight();
    // Every visible lane row in painting order; a row drawn from its summary gets its job here,
    // a row to fold once claimRows says whether it is folded already.
    std::vector<std::pair<const LayoutRow*, int>> visible; // (row, summary level or -1)
    auto collect = [&](const std::vector<LayoutRow>& rows, int clipTop) {
        for (const LayoutRow& r : rows) {
            if (r.kind != LayoutRowKind::LaneRow || !isVisible(ctx, r, clipTop))
                continue;
            const auto level = ctx.oneRectPerItem || !lod
                                   ? std::nullopt
                                   : geometry.summaryLevel(ctx, r.lane, r.row);
            visible.emplace_back(&r, level.value_or(-1));
            if (!level)
                m_foldRows.push_back({r.lane, r.row});
        }
    };
    collect(ctx.layout->rows(), pinned);
    collect(ctx.layout->pinnedRows(), 0);
    const std::vector<TimelineGeometry::PendingRow> folds = geometry.claimRows(ctx, m_foldRows);
    std::size_t nextFold = 0; // claimRows keeps the order of the rows it was given
    for (const auto& [r, level] : visible) {
        if (level >= 0) {
            m_rowJobs.push_back(RowJob{r,
                                       level,
                                       {},
                                       &classColors(ctx.palette, *lod, r->lane),
                                       rowBackground(ctx, *r).rgb()});
        } else if (nextFold < folds.size() && folds[nextFold].lane == &m_trace->lane(r->lane) &&
                   folds[nextFold].row == r->row) {
            m_rowJobs.push_back(RowJob{r, -1, folds[nextFold++], nullptr, 0});
        }
    }
    Q_ASSERT(nextFold == folds.size());
    if (m_summaryColumns.size() < m_rowJobs.size()) {
        m_summaryColumns.resize(m_rowJobs.size());
        m_summaryLines.resize(m_rowJobs.size());
    }
}

void LanePainter::runRowJob(const PaintContext& ctx, const TimelineGeometry& geometry,
                            std::size_t k) {
    const RowJob& job = m_rowJobs[k];
    if (job.level < 0)
        return TimelineGeometry::fillRow(ctx, job.fold);
    const LayoutRow& r = *job.row;
    const int cols = std::max(1, int(std::ceil(ctx.width * ctx.dpr)));
    std::vector<SummaryColumn>& columns = m_summaryColumns[k];
    geometry.lod()
        ->rowSummary(r.lane, r.row)
        ->columns(m_trace->lane(r.lane).rowView(r.row), ctx.view.start, ctx.nsPerPx / ctx.dpr, cols,
                  job.level, columns);
    // One device pixel per column, every covered column drawn: its representative event's
    // colour, washed like a folded run, stronger the busier the column (never below 45%).
    std::vector<QRgb>& line = m_summaryLines[k];
    line.resize(std::size_t(cols));
    const std::vector<QRgb>& classes = *job.classColors;
    std::uint32_t lastRep = RowSummary::kNone;
    QRgb fg = 0;
    for (int i = 0; i < cols; ++i) {
        const SummaryColumn& c = columns[std::size_t(i)];
        if (!c.covered) {
            line[std::size_t(i)] = job.background;
            continue;
        }
        if (c.rep != lastRep) { // long events span many columns: look their colour up once
            lastRep = c.rep;
            fg = c.rep < classes.size() ? classes[c.rep] : job.background;
        }
        line[std::size_t(i)] = blend(job.background, fg, 115 + int(140.0f * c.busy));
    }
}

void LanePainter::paintSummaryRow(QPainter& p, const PaintContext& ctx, const LayoutRow& row, int y,
                                  std::size_t job, const QColor& background) {
    const std::vector<QRgb>& line = m_summaryLines[job];
    const QImage image(reinterpret_cast<const uchar*>(line.data()), int(line.size()), 1,
                       QImage::Format_RGB32);
    blitLine(p, image, y + 1, row.height - 2, ctx.dpr);
    blitRowMargins(p, ctx, row, y, background);
}

void LanePainter::blitRowLine(QPainter& p, const PaintContext& ctx, const LayoutRow& row, int y,
                              const QColor& background) {
    blitLine(p, y + 1);
    blitRowMargins(p, ctx, row, y, background);
}

void LanePainter::blitRowMargins(QPainter& p, const PaintContext& ctx, const LayoutRow& row, int y,
                                 const QColor& background) {
    p.fillRect(QRect(0, y, ctx.width, 1), background); // the 1 px margins above and below
    p.fillRect(QRect(0, y + row.height - 1, ctx.width, 1), background);
}

bool LanePainter::isVisible(const PaintContext& ctx, const LayoutRow& row, int clipTop) {
    const int y = ctx.layout->viewY(row, ctx.scrollY);
    return y + row.height > clipTop && y < ctx.height;
}

void LanePainter::paint(QPainter& p, const PaintContext& ctx, const TimelineGeometry& geometry) {
    useTraceOf(geometry);
    if (!m_trace || !ctx.layout) {
        p.fillRect(QRect(0, 0, ctx.width, ctx.height), ctx.palette.background);
        return;
    }
    ++m_paintCount;
    p.setRenderHint(QPainter::Antialiasing, false);
    p.setFont(ctx.font);
    prepareRows(ctx, geometry);
    // A summarised row's columns and line, or folding a row of a few thousand visible events,
    // is a good part of a frame at full or middle zoom: the rows are independent, so idle cores
    // take them in painting order while this thread paints the rows they finished (a helper
    // takes a few hundred microseconds to wake on a virtual machine, so small frames keep it
    // all here). The painting and the colours' caches stay on this thread.
    std::size_t summaries = 0;
    std::uint64_t foldEvents = 0;
    for (const RowJob& j : m_rowJobs) {
        summaries += j.level >= 0;
        foldEvents += j.level < 0 ? j.fold.visible : 0;
    }
    const bool worthHelpers = summaries >= 8 || foldEvents >= kShareFoldEvents;
    const int helpers = worthHelpers ? std::clamp(QThread::idealThreadCount() - 1, 0, 3) : 0;
    RowJobs jobs(m_rowJobs.size(), helpers,
                 [this, &ctx, &geometry](std::size_t k) { runRowJob(ctx, geometry, k); });
    m_nextRowJob = 0;
    auto paintRows = [&](const std::vector<LayoutRow>& rows, int clipTop) {
        for (const LayoutRow& r : rows) {
            if (!isVisible(ctx, r, clipTop))
                continue;
            const int y = ctx.layout->viewY(r, ctx.scrollY);
            if (r.kind == LayoutRowKind::GroupHeader)
                p.fillRect(QRect(0, y, ctx.width, r.height), ctx.palette.groupHeader);
            else if (r.kind == LayoutRowKind::Utilization)
                paintUtilization(p, ctx, geometry, r, y);
            else if (r.kind == LayoutRowKind::ProjectedNvtx)
                paintProjectedRow(p, ctx, geometry, r, y);
            else if (r.kind == LayoutRowKind::MemoryCounter)
                paintMemoryCounter(p, ctx, r, y);
            else
                paintLaneRow(p, ctx, geometry, jobs, r, y);
        }
    };
    const int pinned = ctx.layout->pinnedHeight();
    p.save();
    p.setClipRect(QRect(0, pinned, ctx.width, ctx.height - pinned));
    paintRows(ctx.layout->rows(), pinned);
    p.restore();
    // Each row painted its whole rectangle, its background included; only what lies below the
    // rows is filled here, so a frame writes each pixel about once (a canvas-wide fill first
    // costs a tenth of a full zoom-out frame at 2560x1440).
    const int below = std::max(pinned, pinned + ctx.layout->contentHeight() - ctx.scrollY);
    if (below < ctx.height)
        p.fillRect(QRect(0, below, ctx.width, ctx.height - below), ctx.palette.background);
    if (pinned > 0) {
        paintRows(ctx.layout->pinnedRows(), 0);
        p.fillRect(QRect(0, pinned - 1, ctx.width, 1), ctx.palette.text);
    }
    jobs.finish(); // every job was awaited by its row; this rethrows what a last one threw
}

QRgb LanePainter::itemColor(const TimelinePalette& palette, std::uint32_t lane, const RowView& rv,
                            const DrawItem& it) {
    // Folded runs: the middle event's hue, washed towards grey.
    const std::uint32_t index = rv.laneIndex(it.first + it.count / 2);
    const quint64 id = colorIdentity(*m_trace, lane, index);
    if (id >> 62) { // an NVTX range's own colour (its alpha byte is not meaningful)
        const QRgb c = QRgb(id) | 0xff000000u;
        return it.isFolded ? washed(c, palette.folded.rgb()) : c;
    }
    const quint64 key = colorKeyOf(palette.dark, id);
    ItemColors& slot = m_itemColors[(key * 0x9E3779B97F4A7C15ull) >> 56];
    static_assert(kItemColorSlots == 256);
    if (slot.paint != m_paintCount || slot.key != key) {
        const QRgb c = eventColor(palette, lane, index).rgb();
        slot = ItemColors{m_paintCount, key, c, washed(c, palette.folded.rgb())};
    }
    return it.isFolded ? slot.washed : slot.plain;
}

void LanePainter::paintLaneRow(QPainter& p, const PaintContext& ctx,
                               const TimelineGeometry& geometry, RowJobs& jobs,
                               const LayoutRow& row, int y) {
    const QColor& background = rowBackground(ctx, row);
    // Rows are painted in the order prepareRows met them (the same rows, by the same isVisible):
    // this row's job, if it has one, is the next, and its results are read only once it is
    // awaited; a row to fold without one was folded before (an earlier frame, or its first
    // occurrence in this one).
    if (m_nextRowJob < m_rowJobs.size() && m_rowJobs[m_nextRowJob].row == &row) {
        const std::size_t job = m_nextRowJob++;
        jobs.await(job);
        if (m_rowJobs[job].level >= 0)
            return paintSummaryRow(p, ctx, row, y, job, background);
    }
    const std::vector<DrawItem>& items = geometry.rowItems(ctx, row.lane, row.row);
    const Lane& lane = m_trace->lane(row.lane);
    const RowView rv = lane.rowView(row.row);
    const QFontMetrics fm(ctx.font);
    const double top = y + 1, h = row.height - 2;
    const int textBase = y + (row.height + fm.ascent() - fm.descent()) / 2;
    // Many items (a row folded at a middle zoom): colour one image line and blit it, as
    // fillRect per item costs more than the folding; labels still go on top, per item. The line
    // holds the background between items, so the row is not filled under it: each pixel is
    // written once, not twice (at a middle zoom most rows are lines, and a frame is bound by the
    // memory it writes).
    const bool asLine = !ctx.oneRectPerItem && items.size() > kLineItems;
    if (asLine) {
        const int cols = std::max(1, int(std::ceil(ctx.width * ctx.dpr)));
        QRgb* px = lineImage(cols, row.height - 2, ctx.dpr);
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
            std::fill(px + d0, px + d1, itemColor(ctx.palette, row.lane, rv, it));
        }
        blitRowLine(p, ctx, row, y, background);
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
                       QColor::fromRgb(itemColor(ctx.palette, row.lane, rv, it)));
        const double vis0 = std::max(0.0, x0), vis1 = std::min(double(ctx.width), x1);
        if (it.isFolded || vis1 - vis0 < kLabelMinPx)
            continue;
        const std::uint32_t mid = rv.laneIndex(it.first + it.count / 2);
        const int avail = int(vis1 - vis0) - 2 * kLabelPad;
        p.setPen(ctx.palette.textOnBar);
        m_labels.draw(p, ctx.font, QPointF(vis0 + kLabelPad, textBase), eventName(row.lane, mid),
                      avail);
    }
}

void LanePainter::paintUtilization(QPainter& p, const PaintContext& ctx,
                                   const TimelineGeometry& geometry, const LayoutRow& row, int y) {
    const GpuUtilization* u = geometry.utilization(row.deviceId);
    if (!u) { // still being built on the worker: say so rather than show an idle GPU
        p.fillRect(QRect(0, y, ctx.width, row.height), ctx.palette.rowAlternate);
        p.setPen(ctx.palette.text);
        p.drawText(QRect(4, y, ctx.width - 8, row.height), Qt::AlignVCenter | Qt::AlignLeft,
                   QStringLiteral("Computing utilisation\u2026"));
        return;
    }
    // Two thin strips (utilisationHalves): kernels on top, copies below, so a GPU that only
    // moves data never looks like one that computes. One busy fraction per device pixel column,
    // blended over the idle colour into one image line: any work in a column shows, at least
    // 35% opaque, so short bursts stay visible.
    const int cols = std::max(1, int(std::ceil(ctx.width * ctx.dpr)));
    const double nsPerCol = ctx.nsPerPx / ctx.dpr;
    const QRgb idle = ctx.palette.utilIdle.rgb();
    const auto [top, bottom] = utilizationHalves(row.height);
    // The strips cover all but the margins above and below them.
    const int stripsEnd = bottom.first + bottom.second;
    p.fillRect(QRect(0, y, ctx.width, top.first), ctx.palette.utilIdle);
    p.fillRect(QRect(0, y + stripsEnd, ctx.width, std::max(0, row.height - stripsEnd)),
               ctx.palette.utilIdle);
    const auto strip = [&](const DeviceUtilization& d, QRgb busy, int y0, int h) {
        const std::vector<float> f = d.busyFractions(ctx.view.start, nsPerCol, cols);
        QRgb* px = lineImage(cols, h, ctx.dpr);
        for (int i = 0; i < cols; ++i) {
            const float v = f[std::size_t(i)];
            px[i] = v <= 0.f ? idle : blend(idle, busy, int(90 + 165 * v));
        }
        blitLine(p, y + y0);
    };
    strip(u->kernels, ctx.palette.utilKernel.rgb(), top.first, top.second);
    strip(u->copies, ctx.palette.utilCopy.rgb(), bottom.first, bottom.second);
    // Idle stretches longer than the threshold: a marker band along the bottom.
    const int markHeight = std::min(4, row.height - 2);
    for (const PixelSpan& s : geometry.idleMarkSpans(ctx, row.deviceId))
        p.fillRect(QRectF(s.x0, y + row.height - 1 - markHeight, s.x1 - s.x0, markHeight),
                   ctx.palette.idleMark);
}

void LanePainter::paintMemoryCounter(QPainter& p, const PaintContext& ctx, const LayoutRow& row,
                                     int y) {
    p.fillRect(QRect(0, y, ctx.width, row.height), ctx.palette.background);
    const GpuMemoryTrack* track = m_trace->gpuMemoryOf(row.deviceId);
    const GpuMemorySample* peak = track ? track->peak() : nullptr;
    if (!peak || peak->allocated == 0)
        return;
    const int cols = std::max(1, int(std::ceil(ctx.width)));
    const auto values = counterColumns(*track, ctx.view.start, ctx.nsPerPx, cols);
    const QColor fill = ctx.palette.eventColor(ColorCategory::MemcpyDtoD, 0);
    const double h = row.height - 3;
    for (int i = 0; i < cols; ++i) {
        if (!values[std::size_t(i)])
            continue;
        const int bar = std::max(
            1, int(std::lround(h * double(*values[std::size_t(i)]) / double(peak->allocated))));
        p.fillRect(QRect(i, y + row.height - 1 - bar, 1, bar), fill);
    }
    const double px = double(peak->time - ctx.view.start) / ctx.nsPerPx;
    const QString label = QStringLiteral("peak ") % formatBytes(peak->allocated);
    p.setPen(ctx.palette.text);
    if (px >= 0 && px < ctx.width) {
        p.fillRect(QRectF(ctx.snap(px), y, 1, row.height), ctx.palette.selection);
        p.drawText(QRectF(ctx.snap(px) + 3, y, 200, row.height / 2 + 2),
                   Qt::AlignLeft | Qt::AlignVCenter, label);
    } else {
        p.drawText(QRect(4, y, ctx.width - 8, row.height / 2 + 2),
                   Qt::AlignRight | Qt::AlignVCenter, label);
    }
}

void LanePainter::paintProjectedRow(QPainter& p, const PaintContext& ctx,
                                    const TimelineGeometry& geometry, const LayoutRow& row, int y) {
    p.fillRect(QRect(0, y, ctx.width, row.height), rowBackground(ctx, row));
    const ProjectedNvtxLane* proj = geometry.projectedNvtx(row.deviceId);
    if (!proj)
        return;
    const std::vector<DrawItem>& items = geometry.projectedItems(ctx, row.deviceId, row.row);
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
        const QRgb c = eventColor(ctx.palette, src.lane, src.index).rgb();
        p.fillRect(QRectF(x0, top, x1 - x0, h),
                   QColor::fromRgb(it.isFolded ? washed(c, ctx.palette.folded.rgb()) : c));
        const double vis0 = std::max(0.0, x0), vis1 = std::min(double(ctx.width), x1);
        if (it.isFolded || vis1 - vis0 < kLabelMinPx)
            continue;
        const QString& name = proj->label(proj->lane.payload(mid));
        const int avail = int(vis1 - vis0) - 2 * kLabelPad;
        p.setPen(ctx.palette.textOnBar);
        m_labels.draw(p, ctx.font, QPointF(vis0 + kLabelPad, textBase), name, avail);
    }
}

} // namespace strobe
