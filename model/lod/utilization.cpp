// SPDX-License-Identifier: MIT
#include "model/lod/utilization.h"

#include "model/lod/timemapping.h"
#include "model/trace.h"

#include <algorithm>
#include <cmath>

namespace strobe {

namespace {
bool countsAs(const Lane& lane, BusyWork work) {
    switch (lane.kind()) {
    case LaneKind::Kernels:
        return work != BusyWork::Copies;
    case LaneKind::Memcpy:
    case LaneKind::Memset:
        return work != BusyWork::Kernels;
    default:
        return false;
    }
}
} // namespace

DeviceWorkLanes deviceWorkLanes(const Trace& trace) {
    DeviceWorkLanes out;
    for (std::uint32_t li = 0; li < trace.lanes().size(); ++li) {
        const Lane& lane = trace.lane(li);
        if (countsAs(lane, BusyWork::All))
            out[trace.streams()[lane.owner()].deviceId].push_back(li);
    }
    return out;
}

std::vector<TimeRange> busyIntervals(const Trace& trace, std::uint32_t deviceId, BusyWork work) {
    std::vector<std::uint32_t> lanes;
    for (std::uint32_t li = 0; li < trace.lanes().size(); ++li) {
        const Lane& lane = trace.lane(li);
        if (countsAs(lane, work) && trace.streams()[lane.owner()].deviceId == deviceId)
            lanes.push_back(li);
    }
    return busyIntervals(trace, lanes, work);
}

std::vector<TimeRange> busyIntervals(const Trace& trace, std::span<const std::uint32_t> lanes,
                                     BusyWork work) {
    // A k-way merge of the start-sorted lanes, merging as it goes: the result is the only
    // array, reserved once at its largest size (no growth slack, no merge buffers; at 10M events
    // the copies and buffers of a sort-and-merge doubled strobe-cli info's peak over the load's).
    struct Cursor {
        const Lane* lane;
        std::uint32_t next; // the lane's next event
    };
    std::vector<Cursor> heap;
    std::size_t total = 0;
    for (const std::uint32_t li : lanes) {
        const Lane& lane = trace.lane(li);
        if (!countsAs(lane, work) || lane.size() == 0)
            continue;
        heap.push_back({&lane, 0});
        total += lane.size();
    }
    // A min-heap on the next event's start (std heaps keep the largest first).
    const auto later = [](const Cursor& a, const Cursor& b) {
        return a.lane->start(a.next) > b.lane->start(b.next);
    };
    std::make_heap(heap.begin(), heap.end(), later);
    std::vector<TimeRange> merged;
    merged.reserve(total);
    while (!heap.empty()) {
        std::pop_heap(heap.begin(), heap.end(), later);
        Cursor& c = heap.back();
        const TimeNs s = c.lane->start(c.next), e = effectiveEnd(s, c.lane->end(c.next));
        if (!merged.empty() && s <= merged.back().end)
            merged.back().end = std::max(merged.back().end, e);
        else
            merged.push_back({s, e});
        if (++c.next < c.lane->size())
            std::push_heap(heap.begin(), heap.end(), later);
        else
            heap.pop_back();
    }
    // Overlapping work (concurrent kernels) merges into far fewer intervals than events: give
    // the rest back to a caller that keeps the result (DeviceUtilization).
    if (merged.size() < merged.capacity() / 4 * 3)
        merged.shrink_to_fit();
    return merged;
}

std::vector<TimeRange> uniteIntervals(const std::vector<TimeRange>& a,
                                      const std::vector<TimeRange>& b) {
    std::vector<TimeRange> out;
    out.reserve(a.size() + b.size());
    std::size_t i = 0, j = 0;
    while (i < a.size() || j < b.size()) {
        const bool takeA = j >= b.size() || (i < a.size() && a[i].start <= b[j].start);
        const TimeRange& r = takeA ? a[i++] : b[j++];
        if (!out.empty() && r.start <= out.back().end)
            out.back().end = std::max(out.back().end, r.end);
        else
            out.push_back(r);
    }
    return out;
}

TimeNs totalDuration(const std::vector<TimeRange>& intervals) {
    TimeNs sum = 0;
    for (const TimeRange& r : intervals)
        sum = saturatingAdd(sum, r.duration());
    return sum;
}

std::vector<TimeRange> idleGaps(const std::vector<TimeRange>& busy, TimeNs minDuration) {
    std::vector<TimeRange> gaps;
    for (std::size_t i = 1; i < busy.size(); ++i) {
        const TimeRange gap{busy[i - 1].end, busy[i].start};
        if (gap.duration() > 0 && gap.duration() >= minDuration)
            gaps.push_back(gap);
    }
    return gaps;
}

DeviceUtilization::DeviceUtilization(std::uint32_t deviceId, std::vector<TimeRange> busy)
    : m_deviceId(deviceId)
    , m_busy(std::move(busy)) {
    m_prefix.resize(m_busy.size() + 1, 0);
    for (std::size_t i = 0; i < m_busy.size(); ++i)
        m_prefix[i + 1] = m_prefix[i] + m_busy[i].duration();
    if (m_busy.size() >= RowSummary::kMinEvents)
        m_summary = RowSummary::build(m_busy);
}

TimeNs DeviceUtilization::busyTime(TimeNs a, TimeNs b) const {
    if (b <= a || m_busy.empty())
        return 0;
    // Busy time before t: whole intervals ending by t plus the part of the one containing t.
    auto before = [&](TimeNs t) {
        const auto it = std::upper_bound(m_busy.begin(), m_busy.end(), t,
                                         [](TimeNs v, const TimeRange& r) { return v < r.start; });
        const auto i = std::size_t(it - m_busy.begin()); // intervals starting at or before t
        if (i == 0)
            return TimeNs(0);
        const TimeRange& r = m_busy[i - 1];
        return m_prefix[i - 1] + (std::min(t, r.end) - r.start);
    };
    return before(b) - before(a);
}

std::vector<float> DeviceUtilization::busyFractions(TimeNs start, double nsPerBucket,
                                                    int buckets) const {
    std::vector<float> out(std::size_t(std::max(0, buckets)), 0.0f);
    if (nsPerBucket <= 0 || m_busy.empty())
        return out;
    if (const auto level = m_summary.levelFor(nsPerBucket)) {
        const TimeNs end = start + TimeNs(double(buckets) * nsPerBucket);
        const auto from = std::lower_bound(m_busy.begin(), m_busy.end(), start,
                                           [](const TimeRange& r, TimeNs t) { return r.end <= t; });
        const auto to = std::lower_bound(from, m_busy.end(), end,
                                         [](const TimeRange& r, TimeNs t) { return r.start < t; });
        if (to - from > std::ptrdiff_t(kSummaryIntervalsPerBucket) * buckets) {
            std::vector<SummaryColumn> cols;
            m_summary.columns(m_busy, start, nsPerBucket, buckets, *level, cols);
            for (std::size_t i = 0; i < cols.size(); ++i) // covered: never shown as idle
                out[i] = cols[i].covered ? std::max(cols[i].busy, 1e-6f) : 0.0f;
            return out;
        }
    }
    // Busy time before t, for t that never decrease: the interval cursor only moves forward, so
    // each bucket costs O(log of the intervals it holds) rather than O(log n).
    std::size_t next =
        std::size_t(std::upper_bound(m_busy.begin(), m_busy.end(), start,
                                     [](TimeNs v, const TimeRange& r) { return v < r.start; }) -
                    m_busy.begin()); // intervals starting at or before the current t
    auto before = [&](TimeNs t) {
        // Gallop, then bisect: zoomed out, thousands of intervals can lie between two buckets.
        std::size_t lo = next, hi = next, step = 1;
        while (hi < m_busy.size() && m_busy[hi].start <= t) {
            lo = hi + 1;
            hi = std::min(m_busy.size(), hi + step);
            step *= 2;
        }
        next = std::size_t(
            std::upper_bound(m_busy.begin() + std::ptrdiff_t(lo),
                             m_busy.begin() + std::ptrdiff_t(std::min(hi, m_busy.size())), t,
                             [](TimeNs v, const TimeRange& r) { return v < r.start; }) -
            m_busy.begin());
        if (next == 0)
            return TimeNs(0);
        const TimeRange& r = m_busy[next - 1];
        return m_prefix[next - 1] + (std::min(t, r.end) - r.start);
    };
    TimeNs a = start;
    TimeNs busyBeforeA = before(a);
    for (int i = 0; i < buckets; ++i) {
        // Saturating: a view may be wider than int64 reaches (a trace over the clamped range).
        const TimeNs b = saturatingAdd(
            start, TimeMapping::saturatingNs(std::round(double(i + 1) * nsPerBucket)));
        if (b > a) {
            const TimeNs busyBeforeB = before(b);
            out[std::size_t(i)] =
                float(double(busyBeforeB - busyBeforeA) / TimeMapping::difference(b, a));
            busyBeforeA = busyBeforeB;
            a = b;
        }
    }
    return out;
}

std::vector<GpuUtilization> buildUtilization(const Trace& trace, const std::atomic<bool>* cancel) {
    std::vector<GpuUtilization> out;
    out.reserve(trace.gpus().size());
    // The lanes of every device found once: asking all the lanes for each GPU's in turn made a
    // trace of many GPUs quadratic.
    const DeviceWorkLanes byDevice = deviceWorkLanes(trace);
    for (const GpuInfo& g : trace.gpus()) {
        if (cancel && cancel->load(std::memory_order_relaxed))
            return {};
        const auto it = byDevice.find(g.id);
        const std::span<const std::uint32_t> lanes =
            it == byDevice.end() ? std::span<const std::uint32_t>{} : it->second;
        std::vector<TimeRange> kernels = busyIntervals(trace, lanes, BusyWork::Kernels);
        std::vector<TimeRange> copies = busyIntervals(trace, lanes, BusyWork::Copies);
        std::vector<TimeRange> all = uniteIntervals(kernels, copies);
        GpuUtilization u;
        u.deviceId = g.id;
        u.all = DeviceUtilization(g.id, std::move(all));
        u.kernels = DeviceUtilization(g.id, std::move(kernels));
        u.copies = DeviceUtilization(g.id, std::move(copies));
        out.push_back(std::move(u));
    }
    return out;
}

} // namespace strobe
