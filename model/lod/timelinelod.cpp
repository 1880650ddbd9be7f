// SPDX-License-Identifier: MIT
#include "model/lod/timelinelod.h"

#include "model/trace.h"

#include <algorithm>
#include <numeric>
#include <unordered_map>

namespace strobe {

std::uint64_t colorIdentity(const Trace& trace, std::uint32_t lane, std::uint32_t index) {
    const Lane& l = trace.lane(lane);
    if (l.kind() == LaneKind::Nvtx || l.kind() == LaneKind::NvtxStartEnd) {
        if (const auto argb = trace.nvtxColor(l.payload(index)))
            return (std::uint64_t(1) << 62) | *argb; // its own colour, whatever the theme
    }
    std::uint64_t sub = l.nameId(index);
    if (l.kind() == LaneKind::Memcpy || l.kind() == LaneKind::Uvm)
        sub = std::uint64_t(trace.memcpys()[l.payload(index)].copyKind);
    return (std::uint64_t(l.kind()) << 40) | sub;
}

TimelineLod::TimelineLod(std::shared_ptr<const Trace> trace, TimeNs idleThreshold)
    : m_trace(std::move(trace))
    , m_rows(m_trace ? m_trace->lanes().size() : 0)
    , m_classes(m_rows.size())
    , m_laneReady(std::make_unique<std::atomic<bool>[]>(m_rows.size()))
    , m_idleThreshold(idleThreshold) {}

const RowSummary* TimelineLod::rowSummary(std::uint32_t lane, std::uint16_t row) const {
    if (lane >= m_rows.size() || !m_laneReady[lane].load(std::memory_order_acquire))
        return nullptr;
    const auto& rows = m_rows[lane];
    return row < rows.size() && !rows[row].isEmpty() ? &rows[row] : nullptr;
}

std::span<const std::uint32_t> TimelineLod::colorClasses(std::uint32_t lane) const {
    if (lane >= m_rows.size() || !m_laneReady[lane].load(std::memory_order_acquire))
        return {};
    return m_classes[lane];
}

std::size_t TimelineLod::memoryBytes() const {
    std::size_t bytes = 0;
    for (std::size_t lane = 0; lane < m_rows.size(); ++lane) {
        if (!m_laneReady[lane].load(std::memory_order_acquire))
            continue;
        for (const RowSummary& r : m_rows[lane])
            bytes += r.memoryBytes();
        bytes += m_classes[lane].capacity() * sizeof(std::uint32_t);
    }
    return bytes;
}

const std::vector<TimeRange>* TimelineLod::idleGaps(std::uint32_t deviceId,
                                                    TimeNs threshold) const {
    if (threshold != m_idleThreshold || !utilization())
        return nullptr;
    for (std::size_t i = 0; i < m_idleGaps.size(); ++i) {
        if (m_util[i].deviceId == deviceId)
            return &m_idleGaps[i];
    }
    return nullptr;
}

const std::vector<GpuUtilization>* TimelineLod::utilization() const {
    return m_utilReady.load(std::memory_order_acquire) ? &m_util : nullptr;
}

void TimelineLod::build(const std::atomic<bool>& cancelled, const std::function<void()>& progress) {
    if (!m_trace)
        return;
    const Trace& t = *m_trace;
    // The biggest lanes cost the most to fold, so they get their summaries first.
    std::vector<std::uint32_t> order(m_rows.size());
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
        return t.lane(a).size() > t.lane(b).size();
    });
    for (std::uint32_t lane : order) {
        if (cancelled.load(std::memory_order_relaxed))
            return;
        const Lane& l = t.lane(lane);
        std::vector<RowSummary> rows(l.rowCount());
        // Representatives become colour classes here, so painting needs no per-event lookup.
        std::unordered_map<std::uint64_t, std::uint32_t> classOf;
        std::vector<std::uint32_t> examples;
        for (std::uint16_t r = 0; r < l.rowCount(); ++r) {
            const RowView rv = l.rowView(r);
            if (rv.size() < RowSummary::kMinEvents)
                continue;
            if (cancelled.load(std::memory_order_relaxed))
                return; // a lane of dense rows is a long step of its own
            rows[r] = RowSummary::build(rv);
            rows[r].mapRepresentatives([&](std::uint32_t k) {
                const std::uint32_t index = rv.laneIndex(k);
                const auto [it, added] = classOf.try_emplace(colorIdentity(t, lane, index),
                                                             std::uint32_t(examples.size()));
                if (added)
                    examples.push_back(index);
                return it->second;
            });
        }
        m_rows[lane] = std::move(rows);
        m_classes[lane] = std::move(examples);
        m_laneReady[lane].store(true, std::memory_order_release);
    }
    if (progress)
        progress();
    if (cancelled.load(std::memory_order_relaxed))
        return;
    m_util = buildUtilization(t, &cancelled);
    if (cancelled.load(std::memory_order_relaxed))
        return;
    if (m_idleThreshold >= 0) {
        for (const GpuUtilization& u : m_util)
            m_idleGaps.push_back(strobe::idleGaps(u.all.busy(), m_idleThreshold));
    }
    m_utilReady.store(true, std::memory_order_release);
    m_complete.store(true, std::memory_order_release);
    if (progress)
        progress();
}

} // namespace strobe
