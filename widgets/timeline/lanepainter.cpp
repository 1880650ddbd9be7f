// SPDX-License-Identifier: MIT
#include "widgets/timeline/lanepainter.h"

#include "model/trace.h"
#include "widgets/timeline/lanelayout.h"

#include <QFontMetrics>
#include <QPainter>
#include <algorithm>
#include <cmath>
#include <cstring>

namespace strobe {

namespace {
constexpr int kLabelMinPx = 24;
constexpr int kLabelPad = 3;
} // namespace

void LanePainter::setTrace(const Trace* trace, std::shared_ptr<const TimelineLod> lod) {
    m_trace = trace;
    m_lod = std::move(lod);
    ++m_generation;
    m_rows.clear();
    m_gaps.clear();
    m_names.clear();
    m_textWidth.clear();
    m_colors.clear();
    m_classColors.clear();
}

const std::vector<DrawItem>& LanePainter::rowItems(const PaintContext& ctx, std::uint32_t lane,
                                                   std::uint16_t row) {
    checkCacheKey(ctx);
    const std::uint64_t id = (std::uint64_t(lane) << 16) | row;
    auto [it, inserted] = m_rows.try_emplace(id);
    if (inserted && m_trace && lane < m_trace->lanes().size() &&
        row < m_trace->lane(lane).rowCount()) {
        foldRunsInto(m_trace->lane(lane).rowView(row), ctx.view.start, ctx.nsPerPx, ctx.width,
                     kMinPx, it->second);
    }
    return it->second;
}

void LanePainter::checkCacheKey(const PaintContext& ctx) {
    const CacheKey key{ctx.view, ctx.width, m_generation};
    if (!(key == m_key)) {
        m_key = key;
        m_rows.clear();
    }
}

void LanePainter::setProjectedNvtx(const std::vector<ProjectedNvtxLane>* lanes) {
    m_projected = lanes;
    ++m_generation;
    m_rows.clear();
}

const ProjectedNvtxLane* LanePainter::projectedNvtx(std::uint32_t deviceId) const {
    if (!m_projected)
        return nullptr;
    for (const ProjectedNvtxLane& p : *m_projected) {
        if (p.deviceId == deviceId)
            return &p;
    }
    return nullptr;
}

const std::vector<DrawItem>&
LanePainter::projectedItems(const PaintContext& ctx, std::uint32_t deviceId, std::uint16_t row) {
    checkCacheKey(ctx);
    // Bit 63 keeps projected rows apart from trace lanes in the cache.
    const std::uint64_t id = (std::uint64_t(1) << 63) | (std::uint64_t(deviceId) << 16) | row;
    auto [it, inserted] = m_rows.try_emplace(id);
    const ProjectedNvtxLane* p = projectedNvtx(deviceId);
    if (inserted && p && row < p->lane.rowCount())
        foldRunsInto(p->lane.rowView(row), ctx.view.start, ctx.nsPerPx, ctx.width, kMinPx,
                     it->second);
    return it->second;
}

const DeviceUtilization* LanePainter::utilization(std::uint32_t deviceId) const {
    const std::vector<DeviceUtilization>* all = m_lod ? m_lod->utilization() : nullptr;
    if (!all)
        return nullptr;
    for (const auto& u : *all) {
        if (u.deviceId() == deviceId)
            return &u;
    }
    return nullptr;
}

const std::vector<TimeRange>& LanePainter::idleGaps(std::uint32_t deviceId, TimeNs threshold) {
    static const std::vector<TimeRange> none;
    const DeviceUtilization* u = utilization(deviceId);
    if (!u)
        return none; // still being built: cache nothing
    auto& entry = m_gaps[deviceId];
    if (entry.first != threshold) {
        entry.first = threshold;
        entry.second = strobe::idleGaps(u->busy(), threshold);
    }
    return entry.second;
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
    const quint64 id = colorIdentity(*m_trace, lane, index);
    return id >> 62 ? id : (quint64(dark) << 63) | id; // NVTX colours do not follow the theme
}

QColor LanePainter::eventColor(const TimelinePalette& palette, std::uint32_t lane,
                               std::uint32_t index) {
    const Lane& l = m_trace->lane(lane);
    if (l.kind() == LaneKind::Nvtx || l.kind() == LaneKind::NvtxStartEnd) {
        if (const auto argb = m_trace->nvtx()[l.payload(index)].color)
            return QColor::fromRgb(QRgb(*argb | 0xff000000u));
    }
    const quint64 key = colorKey(palette.dark, lane, index);
    if (auto it = m_colors.constFind(key); it != m_colors.constEnd())
        return it.value();
    const QColor c = palette.eventColor(categoryOf(lane, index),
                                        stableNameHash(m_trace->strings().view(l.nameId(index))));
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
            s = Trace::stripApiVersionSuffix(s);
        it = m_names.insert(id, s);
    }
    return it.value();
}

QRgb LanePainter::classColor(const TimelinePalette& palette, std::uint32_t lane, std::uint32_t cls,
                             std::vector<ClassColor>& cache) {
    const std::span<const std::uint32_t> examples = m_lod->colorClasses(lane);
    if (cache.size() != examples.size())
        cache.assign(examples.size(), ClassColor{});
    ClassColor& slot = cache[cls];
    if (slot.paint != m_paintCount) { // colours follow the palette of this paint
        const QColor c = eventColor(palette, lane, examples[cls]), f = palette.folded;
        slot.paint = m_paintCount;
        slot.rgb =
            qRgb((c.red() + f.red()) / 2, (c.green() + f.green()) / 2, (c.blue() + f.blue()) / 2);
    }
    return slot.rgb;
}

std::optional<int> LanePainter::summaryLevel(const PaintContext& ctx, std::uint32_t lane,
                                             std::uint16_t row) const {
    const RowSummary* s = m_lod ? m_lod->rowSummary(lane, row) : nullptr;
    if (!s || !m_trace || ctx.width <= 0)
        return std::nullopt;
    const int cols = std::max(1, int(std::ceil(ctx.width * ctx.dpr)));
    const auto level = s->levelFor(ctx.nsPerPx / ctx.dpr);
    if (!level)
        return std::nullopt;
    const RowView rv = m_trace->lane(lane).rowView(row);
    const std::uint32_t first = rv.firstEndingAfter(ctx.view.start);
    const std::uint32_t last = rv.firstStartingAtOrAfter(ctx.view.end);
    if (last <= first || last - first <= std::uint64_t(kSummaryEventsPerPx) * std::uint64_t(cols))
        return std::nullopt;
    return level;
}

bool LanePainter::paintsFromSummary(const PaintContext& ctx, std::uint32_t lane,
                                    std::uint16_t row) const {
    return summaryLevel(ctx, lane, row).has_value();
}

QRgb LanePainter::blend(QRgb under, QRgb over, int alpha) {
    auto mix = [alpha](int b, int f) { return b + (f - b) * alpha / 255; };
    return qRgb(mix(qRed(under), qRed(over)), mix(qGreen(under), qGreen(over)),
                mix(qBlue(under), qBlue(over)));
}

QRgb* LanePainter::lineImage(int columns, int logicalHeight, qreal dpr) {
    const int h = std::max(1, int(std::lround(logicalHeight * dpr)));
    if (m_line.width() != columns || m_line.height() != h) {
        m_line = QImage(columns, h, QImage::Format_RGB32);
        m_line.setDevicePixelRatio(dpr);
    }
    return reinterpret_cast<QRgb*>(m_line.scanLine(0));
}

void LanePainter::blitLine(QPainter& p, int y) {
    // The first line copied down the image, so the image is blitted, never scaled.
    const auto bytes = std::size_t(m_line.width()) * sizeof(QRgb);
    for (int line = 1; line < m_line.height(); ++line)
        std::memcpy(m_line.scanLine(line), m_line.constScanLine(0), bytes);
    p.drawImage(QPointF(0, y), m_line);
}

bool LanePainter::paintSummaryRow(QPainter& p, const PaintContext& ctx, const LayoutRow& row, int y,
                                  QColor background) {
    const auto level = summaryLevel(ctx, row.lane, row.row);
    if (!level)
        return false;
    const RowSummary& s = *m_lod->rowSummary(row.lane, row.row);
    const RowView rv = m_trace->lane(row.lane).rowView(row.row);
    const int cols = std::max(1, int(std::ceil(ctx.width * ctx.dpr)));
    s.columns(rv, ctx.view.start, ctx.nsPerPx / ctx.dpr, cols, *level, m_columns);
    // One device pixel per column, every covered column drawn: its representative event's
    // colour, washed like a folded run, stronger the busier the column (never below 45%).
    QRgb* px = lineImage(cols, row.height - 2, ctx.dpr);
    const QRgb bg = background.rgb();
    std::vector<ClassColor>& classCache = m_classColors[row.lane];
    std::uint32_t lastRep = RowSummary::kNone;
    QRgb fg = 0;
    for (int i = 0; i < cols; ++i) {
        const SummaryColumn& c = m_columns[std::size_t(i)];
        if (!c.covered) {
            px[i] = bg;
            continue;
        }
        if (c.rep != lastRep) { // long events span many columns: look their colour up once
            lastRep = c.rep;
            fg = classColor(ctx.palette, row.lane, c.rep, classCache);
        }
        px[i] = blend(bg, fg, 115 + int(140.0f * c.busy));
    }
    blitLine(p, y + 1);
    return true;
}

void LanePainter::paint(QPainter& p, const PaintContext& ctx) {
    ++m_paintCount;
    p.setRenderHint(QPainter::Antialiasing, false);
    p.setFont(ctx.font);
    auto paintRows = [&](const std::vector<LayoutRow>& rows, int clipTop) {
        for (const LayoutRow& r : rows) {
            const int y = ctx.layout->viewY(r, ctx.scrollY);
            if (y + r.height <= clipTop || y >= ctx.height)
                continue;
            if (r.kind == LayoutRowKind::GroupHeader)
                p.fillRect(QRect(0, y, ctx.width, r.height), ctx.palette.groupHeader);
            else if (r.kind == LayoutRowKind::Utilization)
                paintUtilization(p, ctx, r, y);
            else if (r.kind == LayoutRowKind::ProjectedNvtx)
                paintProjectedRow(p, ctx, r, y);
            else
                paintLaneRow(p, ctx, r, y);
        }
    };
    const int pinned = ctx.layout->pinnedHeight();
    p.save();
    p.setClipRect(QRect(0, pinned, ctx.width, ctx.height - pinned));
    paintRows(ctx.layout->rows(), pinned);
    p.restore();
    if (pinned > 0) {
        paintRows(ctx.layout->pinnedRows(), 0);
        p.fillRect(QRect(0, pinned - 1, ctx.width, 1), ctx.palette.text);
    }
}

QColor LanePainter::itemColor(const TimelinePalette& palette, std::uint32_t lane, const RowView& rv,
                              const DrawItem& it) {
    QColor c = eventColor(palette, lane, rv.laneIndex(it.first + it.count / 2));
    if (it.isFolded) { // folded runs: the middle event's hue, washed towards grey
        const QColor f = palette.folded;
        c = QColor((c.red() + f.red()) / 2, (c.green() + f.green()) / 2, (c.blue() + f.blue()) / 2);
    }
    return c;
}

void LanePainter::paintLaneRow(QPainter& p, const PaintContext& ctx, const LayoutRow& row, int y) {
    const bool alternate = (row.y / LaneLayout::kRowHeight) % 2;
    if (alternate)
        p.fillRect(QRect(0, y, ctx.width, row.height), ctx.palette.rowAlternate);
    if (paintSummaryRow(p, ctx, row, y,
                        alternate ? ctx.palette.rowAlternate : ctx.palette.background))
        return;
    const std::vector<DrawItem>& items = rowItems(ctx, row.lane, row.row);
    const Lane& lane = m_trace->lane(row.lane);
    const RowView rv = lane.rowView(row.row);
    const QFontMetrics fm(ctx.font);
    const double top = y + 1, h = row.height - 2;
    const int textBase = y + (row.height + fm.ascent() - fm.descent()) / 2;
    // Many items (a row folded at a middle zoom): colour one image line and blit it, as
    // fillRect per item costs more than the folding; labels still go on top, per item.
    const bool asLine = items.size() > kLineItems;
    if (asLine) {
        const int cols = std::max(1, int(std::ceil(ctx.width * ctx.dpr)));
        QRgb* px = lineImage(cols, row.height - 2, ctx.dpr);
        std::fill(px, px + cols,
                  (alternate ? ctx.palette.rowAlternate : ctx.palette.background).rgb());
        for (const DrawItem& it : items) {
            const int d0 = std::clamp(int(std::floor(it.x0 * ctx.dpr + 0.5)), 0, cols);
            const int d1 =
                std::clamp(std::max(int(std::floor(it.x1 * ctx.dpr + 0.5)), d0 + 1), 0, cols);
            const QColor c = itemColor(ctx.palette, row.lane, rv, it);
            std::fill(px + d0, px + d1, c.rgb());
        }
        blitLine(p, y + 1);
    }
    for (const DrawItem& it : items) {
        const double x0 = ctx.snap(it.x0);
        const double x1 = std::max(ctx.snap(it.x1), x0 + 1.0);
        const std::uint32_t mid = rv.laneIndex(it.first + it.count / 2);
        if (!asLine)
            p.fillRect(QRectF(x0, top, x1 - x0, h), itemColor(ctx.palette, row.lane, rv, it));
        const double vis0 = std::max(0.0, x0), vis1 = std::min(double(ctx.width), x1);
        if (it.isFolded || vis1 - vis0 < kLabelMinPx)
            continue;
        const StringId id = lane.nameId(mid);
        const QString& name = eventName(row.lane, mid);
        const int avail = int(vis1 - vis0) - 2 * kLabelPad;
        auto w = m_textWidth.find(id);
        if (w == m_textWidth.end())
            w = m_textWidth.insert(id, fm.horizontalAdvance(name));
        p.setPen(ctx.palette.dark ? QColor(0x10, 0x10, 0x10) : ctx.palette.textOnBar);
        const QPointF at(vis0 + kLabelPad, textBase);
        if (w.value() <= avail)
            p.drawText(at, name);
        else
            p.drawText(at, fm.elidedText(name, Qt::ElideRight, avail));
    }
}

void LanePainter::paintUtilization(QPainter& p, const PaintContext& ctx, const LayoutRow& row,
                                   int y) {
    const DeviceUtilization* u = utilization(row.deviceId);
    if (!u) { // still being built on the worker: say so rather than show an idle GPU
        p.fillRect(QRect(0, y, ctx.width, row.height), ctx.palette.rowAlternate);
        p.setPen(ctx.palette.text);
        p.drawText(QRect(4, y, ctx.width - 8, row.height), Qt::AlignVCenter | Qt::AlignLeft,
                   QStringLiteral("Computing utilisation\u2026"));
        return;
    }
    p.fillRect(QRect(0, y, ctx.width, row.height), ctx.palette.utilIdle);
    // One busy fraction per device pixel column, blended over the idle colour into one image
    // line: any work in a column shows, at least 35% opaque, so short bursts stay visible.
    const int cols = std::max(1, int(std::ceil(ctx.width * ctx.dpr)));
    const double nsPerCol = ctx.nsPerPx / ctx.dpr;
    const std::vector<float> f = u->busyFractions(ctx.view.start, nsPerCol, cols);
    const QRgb idle = ctx.palette.utilIdle.rgb(), busy = ctx.palette.utilBusy.rgb();
    QRgb* px = lineImage(cols, row.height - 2, ctx.dpr);
    for (int i = 0; i < cols; ++i) {
        const float v = f[std::size_t(i)];
        px[i] = v <= 0.f ? idle : blend(idle, busy, int(90 + 165 * v));
    }
    blitLine(p, y + 1);
    // Idle stretches longer than the threshold: a marker band along the bottom, 1 px minimum.
    // Zoomed out, thousands of gaps share a pixel: merge those that touch on screen and jump
    // past the ones inside what is already drawn.
    const std::vector<TimeRange>& gaps = idleGaps(row.deviceId, ctx.idleThreshold);
    auto firstEndingAfter = [&](auto from, TimeNs t) {
        return std::lower_bound(from, gaps.end(), t,
                                [](const TimeRange& g, TimeNs v) { return g.end <= v; });
    };
    auto flush = [&](double x0, double x1) {
        p.fillRect(QRectF(x0, y + row.height - 5, x1 - x0, 4), ctx.palette.idleMark);
    };
    std::optional<std::pair<double, double>> run;
    for (auto g = firstEndingAfter(gaps.begin(), ctx.view.start);
         g != gaps.end() && g->start < ctx.view.end;) {
        const double x0 = ctx.snap(std::max(-1.0, ctx.map.toPx(g->start)));
        const double x1 =
            std::max(x0 + 1.0, ctx.snap(std::min(ctx.width + 1.0, ctx.map.toPx(g->end))));
        if (run && x0 <= run->second) {
            run->second = std::max(run->second, x1);
        } else {
            if (run)
                flush(run->first, run->second);
            run = std::make_pair(x0, x1);
        }
        // The next gap that can still add pixels ends after the run's right edge.
        g = firstEndingAfter(g + 1, ctx.map.toTime(run->second));
    }
    if (run)
        flush(run->first, run->second);
}

void LanePainter::paintProjectedRow(QPainter& p, const PaintContext& ctx, const LayoutRow& row,
                                    int y) {
    if ((row.y / LaneLayout::kRowHeight) % 2)
        p.fillRect(QRect(0, y, ctx.width, row.height), ctx.palette.rowAlternate);
    const ProjectedNvtxLane* proj = projectedNvtx(row.deviceId);
    if (!proj)
        return;
    const std::vector<DrawItem>& items = projectedItems(ctx, row.deviceId, row.row);
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
        QColor c = eventColor(ctx.palette, src.lane, src.index);
        if (it.isFolded) {
            const QColor f = ctx.palette.folded;
            c = QColor((c.red() + f.red()) / 2, (c.green() + f.green()) / 2,
                       (c.blue() + f.blue()) / 2);
        }
        p.fillRect(QRectF(x0, top, x1 - x0, h), c);
        const double vis0 = std::max(0.0, x0), vis1 = std::min(double(ctx.width), x1);
        if (it.isFolded || vis1 - vis0 < kLabelMinPx)
            continue;
        const QString& name = eventName(src.lane, src.index);
        const int avail = int(vis1 - vis0) - 2 * kLabelPad;
        p.setPen(ctx.palette.dark ? QColor(0x10, 0x10, 0x10) : ctx.palette.textOnBar);
        p.drawText(QPointF(vis0 + kLabelPad, textBase), fm.elidedText(name, Qt::ElideRight, avail));
    }
}

} // namespace strobe
