// SPDX-License-Identifier: MIT
#include "render/geometry/timelinegeometry.h"

#include "model/trace.h"
#include "render/geometry/lanelayout.h"

#include <algorithm>

namespace strobe {

ViewFrame ViewFrame::make(const LaneLayout* layout, TimeRange view, int width, int height,
                          int scrollY, double dpr, TimeNs idleThreshold) {
    ViewFrame f;
    f.layout = layout;
    f.view = view;
    f.width = width;
    f.height = height;
    f.map = TimeMapping::fromRange(view, width);
    f.nsPerPx = f.map.nsPerPx();
    f.scrollY = scrollY;
    f.dpr = dpr;
    f.idleThreshold = idleThreshold;
    return f;
}

void TimelineGeometry::setTrace(const Trace* trace, std::shared_ptr<const TimelineLod> lod) {
    Q_ASSERT(!m_frameAlive);
    m_trace = trace;
    m_lod = std::move(lod);
    ++m_generation;
    ++m_traceGeneration;
    clearRows();
    m_spareItems.clear(); // the new trace's frames need not be alike
    m_gaps.clear();
}

void TimelineGeometry::setProjectedNvtx(const std::vector<ProjectedNvtxLane>* lanes) {
    Q_ASSERT(!m_frameAlive);
    m_projected = lanes;
    ++m_generation;
    clearRows();
}

void TimelineGeometry::checkCacheKey(const ViewFrame& frame) {
    const CacheKey key{frame.view, frame.width, m_generation};
    if (!(key == m_key)) {
        Q_ASSERT(!m_frameAlive); // its rows would be cleared under it
        m_key = key;
        clearRows();
    }
}

void TimelineGeometry::clearRows() {
    for (auto& [id, items] : m_rows) {
        items.clear();
        m_spareItems.push_back(std::move(items));
    }
    m_rows.clear();
}

std::pair<std::vector<DrawItem>*, bool> TimelineGeometry::rowEntry(std::uint64_t id) {
    const auto [it, inserted] = m_rows.try_emplace(id);
    if (inserted && !m_spareItems.empty()) {
        it->second = std::move(m_spareItems.back());
        m_spareItems.pop_back();
    }
    return {&it->second, inserted};
}

const std::vector<DrawItem>& TimelineGeometry::rowItems(const ViewFrame& frame, std::uint32_t lane,
                                                        std::uint16_t row) {
    checkCacheKey(frame);
    const std::uint64_t id = (std::uint64_t(lane) << 16) | row;
    const auto [items, inserted] = rowEntry(id);
    if (inserted && m_trace && lane < m_trace->lanes().size() &&
        row < m_trace->lane(lane).rowCount()) {
        foldRunsInto(m_trace->lane(lane).rowView(row), frame.view.start, frame.nsPerPx, frame.width,
                     kMinPx, *items);
    }
    return *items;
}

std::vector<TimelineGeometry::PendingRow>
TimelineGeometry::claimRows(const ViewFrame& frame, std::span<const RowKey> rows) {
    checkCacheKey(frame);
    std::vector<PendingRow> out;
    if (!m_trace)
        return out;
    for (const RowKey& k : rows) {
        if (k.lane >= m_trace->lanes().size() || k.row >= m_trace->lane(k.lane).rowCount())
            continue;
        const auto [items, inserted] = rowEntry((std::uint64_t(k.lane) << 16) | k.row);
        if (!inserted)
            continue;
        const Lane& lane = m_trace->lane(k.lane);
        const RowView rv = lane.rowView(k.row);
        const std::uint32_t first = rv.firstEndingAfter(frame.view.start);
        const std::uint32_t last = rv.firstStartingAtOrAfter(frame.view.end);
        out.push_back({&lane, k.row, items, last > first ? last - first : 0});
    }
    return out;
}

void TimelineGeometry::fillRow(const ViewFrame& frame, const PendingRow& row) {
    foldRunsInto(row.lane->rowView(row.row), frame.view.start, frame.nsPerPx, frame.width, kMinPx,
                 *row.items);
}

std::optional<int> TimelineGeometry::summaryLevel(const ViewFrame& frame, std::uint32_t lane,
                                                  std::uint16_t row) const {
    const RowSummary* s = m_lod ? m_lod->rowSummary(lane, row) : nullptr;
    if (!s || !m_trace || frame.width <= 0)
        return std::nullopt;
    const int cols = std::max(1, int(std::ceil(frame.width * frame.dpr)));
    const auto level = s->levelFor(frame.nsPerPx / frame.dpr);
    if (!level)
        return std::nullopt;
    const RowView rv = m_trace->lane(lane).rowView(row);
    const std::uint32_t first = rv.firstEndingAfter(frame.view.start);
    const std::uint32_t last = rv.firstStartingAtOrAfter(frame.view.end);
    if (last <= first || last - first <= std::uint64_t(kSummaryEventsPerPx) * std::uint64_t(cols))
        return std::nullopt;
    return level;
}

const ProjectedNvtxLane* TimelineGeometry::projectedNvtx(std::uint32_t deviceId) const {
    if (!m_projected)
        return nullptr;
    for (const ProjectedNvtxLane& p : *m_projected) {
        if (p.deviceId == deviceId)
            return &p;
    }
    return nullptr;
}

const std::vector<DrawItem>& TimelineGeometry::projectedItems(const ViewFrame& frame,
                                                              std::uint32_t deviceId,
                                                              std::uint16_t row) {
    checkCacheKey(frame);
    // Bit 63 keeps projected rows apart from trace lanes in the cache.
    const std::uint64_t id = (std::uint64_t(1) << 63) | (std::uint64_t(deviceId) << 16) | row;
    const auto [items, inserted] = rowEntry(id);
    const ProjectedNvtxLane* p = projectedNvtx(deviceId);
    if (inserted && p && row < p->lane.rowCount())
        foldRunsInto(p->lane.rowView(row), frame.view.start, frame.nsPerPx, frame.width, kMinPx,
                     *items);
    return *items;
}

const GpuUtilization* TimelineGeometry::utilization(std::uint32_t deviceId) const {
    const std::vector<GpuUtilization>* all = m_lod ? m_lod->utilization() : nullptr;
    if (!all)
        return nullptr;
    for (const auto& u : *all) {
        if (u.deviceId == deviceId)
            return &u;
    }
    return nullptr;
}

const std::vector<TimeRange>& TimelineGeometry::idleGaps(std::uint32_t deviceId, TimeNs threshold) {
    static const std::vector<TimeRange> none;
    const GpuUtilization* u = utilization(deviceId);
    if (!u)
        return none; // still being built: cache nothing
    if (const std::vector<TimeRange>* built = m_lod->idleGaps(deviceId, threshold))
        return *built; // found on the worker with the utilisation
    auto [entry, inserted] = m_gaps.try_emplace(deviceId);
    if (inserted || entry->second.first != threshold) {
        entry->second.first = threshold;
        entry->second.second = strobe::idleGaps(u->all.busy(), threshold);
    }
    return entry->second.second;
}

std::vector<TimeRange> TimelineGeometry::idleMarks(const ViewFrame& frame, std::uint32_t deviceId) {
    std::vector<TimeRange> out;
    for (const TimeRange& g : idleGaps(deviceId, frame.idleThreshold)) {
        if (g.start < frame.view.end && g.end > frame.view.start)
            out.push_back(g);
    }
    return out;
}

std::vector<PixelSpan> TimelineGeometry::idleMarkSpans(const ViewFrame& frame,
                                                       std::uint32_t deviceId) {
    // Zoomed out, thousands of gaps share a pixel: merge those that touch on screen and jump
    // past the ones inside what is already drawn.
    const std::vector<TimeRange>& gaps = idleGaps(deviceId, frame.idleThreshold);
    auto firstEndingAfter = [&](auto from, TimeNs t) {
        return std::lower_bound(from, gaps.end(), t,
                                [](const TimeRange& g, TimeNs v) { return g.end <= v; });
    };
    std::vector<PixelSpan> out;
    std::optional<PixelSpan> run;
    for (auto g = firstEndingAfter(gaps.begin(), frame.view.start);
         g != gaps.end() && g->start < frame.view.end;) {
        const double x0 = frame.snap(std::max(-1.0, frame.map.toPx(g->start)));
        const double x1 =
            std::max(x0 + 1.0, frame.snap(std::min(frame.width + 1.0, frame.map.toPx(g->end))));
        if (run && x0 <= run->x1) {
            run->x1 = std::max(run->x1, x1);
        } else {
            if (run)
                out.push_back(*run);
            run = PixelSpan{x0, x1};
        }
        // The next gap that can still add pixels ends after the run's right edge.
        g = firstEndingAfter(g + 1, frame.map.toTime(run->x1));
    }
    if (run)
        out.push_back(*run);
    return out;
}

TimelineHit TimelineGeometry::hitTest(const ViewFrame& frame, QPoint pos) {
    TimelineHit hit;
    hit.row = frame.layout ? frame.layout->rowAt(pos.y(), frame.scrollY) : nullptr;
    const bool projected = hit.row && hit.row->kind == LayoutRowKind::ProjectedNvtx;
    if (!hit.row || !m_trace || (hit.row->kind != LayoutRowKind::LaneRow && !projected))
        return hit;
    const ProjectedNvtxLane* proj = projected ? projectedNvtx(hit.row->deviceId) : nullptr;
    if (projected && !proj)
        return hit;
    const auto& items = projected ? projectedItems(frame, hit.row->deviceId, hit.row->row)
                                  : rowItems(frame, hit.row->lane, hit.row->row);
    // The pixel column [x, x + 1) under the point; items are sorted by x, so the last one
    // starting left of the column's end is the only candidate.
    const double x = pos.x();
    auto it = std::upper_bound(items.begin(), items.end(), x + 1.0,
                               [](double v, const DrawItem& d) { return v <= d.x0; });
    if (it == items.begin())
        return hit;
    --it;
    if (it->x1 <= x)
        return hit;
    hit.item = *it;
    const RowView rv = projected ? proj->lane.rowView(hit.row->row)
                                 : m_trace->lane(hit.row->lane).rowView(hit.row->row);
    std::uint32_t k = it->first;
    if (it->isFolded) { // the covered event nearest the point
        const TimeNs time = frame.map.toTime(x + 0.5);
        k = std::clamp(rv.firstEndingAfter(time), it->first, it->first + it->count - 1);
    }
    hit.event = projected ? proj->source[proj->lane.payload(rv.laneIndex(k))]
                          : EventRef{hit.row->lane, rv.laneIndex(k)};
    return hit;
}

std::optional<QRectF> TimelineGeometry::eventRectIn(const Trace* trace, const ViewFrame& frame,
                                                    EventRef ref) {
    if (!trace || !frame.layout || !ref.isValid() || ref.lane >= trace->lanes().size() ||
        ref.index >= trace->lane(ref.lane).size())
        return std::nullopt;
    const Lane& l = trace->lane(ref.lane);
    const LayoutRow* r = frame.layout->findLaneRow(ref.lane, l.row(ref.index));
    if (!r)
        return std::nullopt;
    const double x0 = frame.map.toPx(l.start(ref.index));
    const double x1 =
        std::max(x0 + 1.0, frame.map.toPx(effectiveEnd(l.start(ref.index), l.end(ref.index))));
    return QRectF(x0, frame.layout->viewY(*r, frame.scrollY), x1 - x0, r->height);
}

} // namespace strobe
