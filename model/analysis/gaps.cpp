// SPDX-License-Identifier: MIT
#include "model/analysis/gaps.h"

#include "model/analysis/waitcalls.h"
#include "model/cudaapi.h"
#include "model/lod/utilization.h"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

namespace strobe {

QString gapCauseKey(GapCause cause) {
    switch (cause) {
    case GapCause::LaunchOverhead:
        return QStringLiteral("launch-overhead");
    case GapCause::Sync:
        return QStringLiteral("sync");
    case GapCause::CpuBusy:
        return QStringLiteral("cpu-busy");
    case GapCause::CpuWait:
        return QStringLiteral("cpu-wait");
    case GapCause::NoCpuActivity:
        return QStringLiteral("no-cpu-activity");
    case GapCause::Unknown:
        break;
    }
    return QStringLiteral("unknown");
}

QString busyWorkKey(BusyWork work) {
    switch (work) {
    case BusyWork::Kernels:
        return QStringLiteral("kernels");
    case BusyWork::Copies:
        return QStringLiteral("copies");
    case BusyWork::All:
        break;
    }
    return QStringLiteral("all");
}

std::optional<BusyWork> busyWorkFromKey(QStringView key) {
    for (BusyWork w : {BusyWork::All, BusyWork::Kernels, BusyWork::Copies}) {
        if (key == busyWorkKey(w))
            return w;
    }
    return std::nullopt;
}

namespace {

TimeNs overlap(TimeNs s, TimeNs e, TimeRange g) {
    return std::max<TimeNs>(0, std::min(e, g.end) - std::max(s, g.start));
}

bool coversHalf(TimeNs covered, TimeRange g) {
    return covered * 2 >= g.duration();
}

// Everything the classification looks up per gap, gathered once per trace.
class GapClassifier {
public:
    // `busy`: the work whose start and end bound a gap (the next work, the work before).
    GapClassifier(const Trace& t, BusyWork busy)
        : m_t(t) {
        const auto threads = t.threads().size();
        m_api.resize(threads);
        m_osrt.resize(threads);
        m_nvtx.resize(threads);
        for (std::uint32_t li = 0; li < t.lanes().size(); ++li) {
            const Lane& l = t.lane(li);
            switch (l.kind()) {
            case LaneKind::CudaApi:
                m_api[l.owner()].push_back(li);
                break;
            case LaneKind::Osrt:
                m_osrt[l.owner()].push_back(li);
                break;
            case LaneKind::Nvtx:
                m_nvtx[l.owner()].push_back(li);
                break;
            case LaneKind::Kernels:
            case LaneKind::Memcpy:
            case LaneKind::Memset: {
                const StreamInfo& s = t.streams()[l.owner()];
                const bool kernels = l.kind() == LaneKind::Kernels;
                if (busy == BusyWork::All || kernels == (busy == BusyWork::Kernels))
                    m_deviceLanes[s.deviceId].push_back(li);
                else
                    m_deviceLanes.try_emplace(s.deviceId); // the device still has work
                m_devicePids[s.deviceId].insert(s.pid);
                break;
            }
            default:
                break;
            }
        }
        for (const SyncRecord& s : t.syncs()) {
            if (s.api.isValid())
                m_syncCalls.insert({s.api.lane, s.api.index});
        }
    }

    std::vector<std::uint32_t> devices() const {
        std::set<std::uint32_t> ids;
        for (const auto& [id, lanes] : m_deviceLanes)
            ids.insert(id);
        for (const GpuInfo& g : m_t.gpus())
            ids.insert(g.id);
        return {ids.begin(), ids.end()};
    }

    void classify(GpuGap& gap);

private:
    bool isSyncCall(std::uint32_t lane, std::uint32_t i) {
        if (m_syncCalls.count({lane, i}))
            return true;
        const StringId id = m_t.lane(lane).nameId(i);
        auto it = m_syncNames.find(id);
        if (it == m_syncNames.end())
            it = m_syncNames
                     .emplace(id, cudaapi::syncRole(m_t.strings().view(id)) ==
                                      cudaapi::SyncRole::BlocksHost)
                     .first;
        return it->second;
    }
    // A GPU operation of the device ending (atEnd) or starting at `t`; prefers one with a
    // recorded launch call.
    EventRef gpuOpAt(std::uint32_t device, TimeNs t, bool atEnd) const;
    std::optional<std::uint32_t> threadOf(EventRef apiCall) const {
        if (!apiCall.isValid())
            return std::nullopt;
        return m_t.lane(apiCall.lane).owner();
    }
    // Threads of the processes that use the device, `first` (if any) in front.
    std::vector<std::uint32_t> processThreads(std::uint32_t device,
                                              std::optional<std::uint32_t> first) const;
    EventRef innermostNvtxAt(std::uint32_t thread, TimeNs t) const;

    const Trace& m_t;
    std::vector<std::vector<std::uint32_t>> m_api, m_osrt, m_nvtx; // lanes per thread
    std::map<std::uint32_t, std::vector<std::uint32_t>> m_deviceLanes;
    std::map<std::uint32_t, std::set<std::uint32_t>> m_devicePids;
    std::set<std::pair<std::uint32_t, std::uint32_t>> m_syncCalls;
    std::unordered_map<StringId, bool> m_syncNames;
};

EventRef GapClassifier::gpuOpAt(std::uint32_t device, TimeNs t, bool atEnd) const {
    EventRef found;
    auto it = m_deviceLanes.find(device);
    if (it == m_deviceLanes.end())
        return found;
    // Within a row both starts and ends are sorted: one binary search per row finds the
    // operation whose start (or effective end) is exactly t.
    for (std::uint32_t li : it->second) {
        const Lane& l = m_t.lane(li);
        for (std::uint16_t r = 0; r < l.rowCount(); ++r) {
            const RowView rv = l.rowView(r);
            const std::uint32_t k =
                atEnd ? rv.firstEndingAfter(t - 1) : rv.firstStartingAtOrAfter(t);
            if (k >= rv.size())
                continue;
            const bool match = atEnd ? effectiveEnd(rv.start(k), rv.end(k)) == t : rv.start(k) == t;
            if (!match)
                continue;
            const EventRef ref{li, rv.laneIndex(k)};
            if (!found.isValid() ||
                (!m_t.partnerOf(found).isValid() && m_t.partnerOf(ref).isValid()))
                found = ref;
        }
    }
    return found;
}

std::vector<std::uint32_t> GapClassifier::processThreads(std::uint32_t device,
                                                         std::optional<std::uint32_t> first) const {
    std::vector<std::uint32_t> out;
    if (first)
        out.push_back(*first);
    const auto pids = m_devicePids.find(device);
    for (std::uint32_t th = 0; th < m_t.threads().size(); ++th) {
        if (first && th == *first)
            continue;
        if (pids == m_devicePids.end() || pids->second.count(m_t.threads()[th].pid))
            out.push_back(th);
    }
    return out;
}

EventRef GapClassifier::innermostNvtxAt(std::uint32_t thread, TimeNs t) const {
    EventRef best;
    int bestDepth = -1;
    for (std::uint32_t li : m_nvtx[thread]) {
        const Lane& l = m_t.lane(li);
        for (std::uint32_t i : l.stabbing(t)) {
            const std::uint32_t p = l.payload(i);
            if (m_t.nvtxStyle(p) != NvtxStyle::Mark && int(m_t.nvtxDepth(p)) > bestDepth) {
                bestDepth = m_t.nvtxDepth(p);
                best = {li, i};
            }
        }
    }
    return best;
}

void GapClassifier::classify(GpuGap& gap) {
    const TimeRange g = gap.range;
    gap.before = gpuOpAt(gap.deviceId, g.start, true);
    gap.after = gpuOpAt(gap.deviceId, g.end, false);
    const EventRef launch = gap.after.isValid() ? m_t.partnerOf(gap.after) : EventRef{};
    std::optional<std::uint32_t> th = threadOf(launch);
    if (!th && gap.before.isValid())
        th = threadOf(m_t.partnerOf(gap.before));
    gap.thread = th;
    if (th)
        gap.enclosingNvtx = innermostNvtxAt(*th, g.start + g.duration() / 2);
    GapEvidence& ev = gap.evidence;

    // 1. Launch overhead: the call that launched the next work was running for half the gap.
    if (launch.isValid()) {
        const Lane& l = m_t.lane(launch.lane);
        const TimeNs s = l.start(launch.index);
        const TimeNs covered = overlap(s, g.end, g);
        if (s < g.end && coversHalf(covered, g)) {
            gap.cause = GapCause::LaunchOverhead;
            gap.event = launch;
            ev.rule = GapRule::LaunchOverhead;
            ev.call = launch;
            ev.callCoveredNs = covered;
            ev.callStart = s;
            return;
        }
    }

    // 2. Sync wait: a synchronisation call of the device's processes (the launching thread's
    // first) covers at least half of the gap.
    struct Best {
        EventRef ref;
        std::uint32_t thread = 0;
        TimeNs covered = 0;
    };
    Best wait;
    for (std::uint32_t t : processThreads(gap.deviceId, th)) {
        for (std::uint32_t li : m_api[t]) {
            const Lane& l = m_t.lane(li);
            l.forEachOverlapping(g.start, g.end, [&](std::uint32_t i) {
                const TimeNs c = overlap(l.start(i), l.end(i), g);
                if (c > wait.covered && coversHalf(c, g) && isSyncCall(li, i))
                    wait = {EventRef{li, i}, t, c};
            });
        }
        if (wait.ref.isValid())
            break; // the launching thread's own wait wins over other threads'
    }
    if (wait.ref.isValid()) {
        gap.cause = GapCause::Sync;
        gap.thread = wait.thread;
        gap.event = wait.ref;
        ev.rule = GapRule::SyncWait;
        ev.call = wait.ref;
        ev.callCoveredNs = wait.covered;
        return;
    }

    // A sync call of the launching thread in progress when the GPU went idle and returning
    // inside the gap: it drained the queue (rule 4, after CPU work that followed it).
    Best drain;
    if (th) {
        for (std::uint32_t li : m_api[*th]) {
            const Lane& l = m_t.lane(li);
            l.forEachOverlapping(g.start, g.start + 1, [&](std::uint32_t i) {
                if (l.start(i) <= g.start && l.end(i) > g.start && l.end(i) <= g.end &&
                    isSyncCall(li, i) && (!drain.ref.isValid() || l.end(i) > drain.covered))
                    drain = {EventRef{li, i}, *th, l.end(i)}; // covered holds the return time
            });
        }
    }

    // 3. CPU busy: the launching thread spent half the gap in an NVTX range (the deepest such,
    // begun after a draining sync returned), an OS runtime call or a CUDA call that neither
    // synchronises nor launches the next work.
    if (th) {
        EventRef range;
        int depth = -1;
        TimeNs rangeCovered = 0;
        for (std::uint32_t li : m_nvtx[*th]) {
            const Lane& l = m_t.lane(li);
            l.forEachOverlapping(g.start, g.end, [&](std::uint32_t i) {
                const std::uint32_t p = l.payload(i);
                const TimeNs c = overlap(l.start(i), l.end(i), g);
                if (m_t.nvtxStyle(p) == NvtxStyle::Mark || !coversHalf(c, g) ||
                    int(m_t.nvtxDepth(p)) <= depth)
                    return;
                if (drain.ref.isValid() && l.start(i) < drain.covered)
                    return; // encloses the sync: context, not what the thread did after it
                range = {li, i};
                depth = m_t.nvtxDepth(p);
                rangeCovered = c;
            });
        }
        EventRef call;
        TimeNs callCovered = 0;
        bool waiting = false; // `call` is an OS runtime call that blocks (isOsWaitCall)
        for (std::uint32_t li : m_osrt[*th]) {
            const Lane& l = m_t.lane(li);
            l.forEachOverlapping(g.start, g.end, [&](std::uint32_t i) {
                const TimeNs c = overlap(l.start(i), l.end(i), g);
                if (c > callCovered && coversHalf(c, g)) {
                    call = {li, i};
                    callCovered = c;
                }
            });
        }
        // A CUDA call that is neither a sync nor the launch (cudaMalloc, cudaFree, ...) keeps
        // the thread as busy as any other host work.
        EventRef api;
        TimeNs apiCovered = 0;
        for (std::uint32_t li : m_api[*th]) {
            const Lane& l = m_t.lane(li);
            l.forEachOverlapping(g.start, g.end, [&](std::uint32_t i) {
                const TimeNs c = overlap(l.start(i), l.end(i), g);
                if (c > apiCovered && coversHalf(c, g) && !isSyncCall(li, i)) {
                    api = {li, i};
                    apiCovered = c;
                }
            });
        }
        if (call.isValid())
            waiting = isOsWaitCall(m_t.strings().view(m_t.lane(call.lane).nameId(call.index)));
        if (!call.isValid() && api.isValid()) {
            call = api;
            callCovered = apiCovered;
        }
        if (waiting) {
            // Not busy but blocked: the wait is what to look at, the range is context.
            gap.cause = GapCause::CpuWait;
            gap.event = call;
            ev.rule = GapRule::CpuWait;
            ev.call = call;
            ev.callCoveredNs = callCovered;
            if (range.isValid()) {
                ev.nvtxRange = range;
                ev.rangeCoveredNs = rangeCovered;
            }
            return;
        }
        if (range.isValid() || call.isValid()) {
            gap.cause = GapCause::CpuBusy;
            gap.event = range.isValid() ? range : call;
            ev.rule = GapRule::CpuBusy;
            if (range.isValid()) {
                ev.nvtxRange = range;
                ev.rangeCoveredNs = rangeCovered;
            }
            if (call.isValid()) {
                ev.call = call;
                ev.callCoveredNs = callCovered;
            }
            return;
        }
    }

    // 4. Sync drain.
    if (drain.ref.isValid()) {
        gap.cause = GapCause::Sync;
        gap.event = drain.ref;
        ev.rule = GapRule::SyncDrain;
        ev.call = drain.ref;
        ev.returnedAt = drain.covered;
        return;
    }

    // 5. No CPU activity: no CUDA call of the device's processes overlaps the gap, apart from
    // the call launching the next work.
    std::uint64_t calls = 0;
    for (std::uint32_t t : processThreads(gap.deviceId, th)) {
        for (std::uint32_t li : m_api[t]) {
            m_t.lane(li).forEachOverlapping(g.start, g.end, [&](std::uint32_t i) {
                if (!(EventRef{li, i} == launch))
                    ++calls;
            });
        }
    }
    gap.event = launch.isValid() ? launch : gap.after;
    ev.call = launch;
    if (calls == 0) {
        gap.cause = GapCause::NoCpuActivity;
        ev.rule = GapRule::NoCpuActivity;
        return;
    }
    gap.cause = GapCause::Unknown;
    ev.rule = GapRule::OtherCalls;
    ev.otherCalls = calls;
}

// In a kernels-only analysis a gap may be full of copies: say how much, since that is often why.
void noteCopies(GpuGap& gap, BusyWork busy, const DeviceUtilization& copies) {
    if (busy != BusyWork::Kernels)
        return;
    const TimeNs c = copies.busyTime(gap.range.start, gap.range.end);
    if (c > 0)
        gap.evidence.copyNs = c;
}

} // namespace

namespace {

std::span<const std::uint32_t> lanesOf(const DeviceWorkLanes& lanes, std::uint32_t device) {
    const auto it = lanes.find(device);
    return it == lanes.end() ? std::span<const std::uint32_t>{} : it->second;
}

// Calls fn for each busy interval of `busy`, in order, merged (touching intervals merge): the
// kernels', the copies' or their union, walked without building the union.
template <class Fn>
void forEachBusy(const std::vector<TimeRange>& kernels, const std::vector<TimeRange>& copies,
                 BusyWork busy, Fn&& fn) {
    const std::vector<TimeRange> none;
    const std::vector<TimeRange>& a = busy == BusyWork::Copies ? none : kernels;
    const std::vector<TimeRange>& b = busy == BusyWork::Kernels ? none : copies;
    std::optional<TimeRange> cur;
    std::size_t i = 0, j = 0;
    while (i < a.size() || j < b.size()) {
        const bool takeA = j >= b.size() || (i < a.size() && a[i].start <= b[j].start);
        const TimeRange& r = takeA ? a[i++] : b[j++];
        if (cur && r.start <= cur->end) {
            cur->end = std::max(cur->end, r.end);
            continue;
        }
        if (cur)
            fn(*cur);
        cur = r;
    }
    if (cur)
        fn(*cur);
}

// The summary of one device without gap causes; `busyRanges` receives its busy intervals and
// `copies` its copy intervals, where not null (summarizeGpus keeps neither: at 10M events the
// union it built took 57 MB on top of the loaded trace, strobe-cli info's peak).
// `lanes`: the device's work lanes (deviceWorkLanes), found once for all devices: looking for
// each device's among all the lanes made a trace of 100k busy GPUs take minutes.
DeviceIdleSummary summarize(const Trace& trace, std::uint32_t device,
                            std::span<const std::uint32_t> lanes, BusyWork busy, TimeNs threshold,
                            std::vector<TimeRange>* busyRanges, std::vector<TimeRange>* copies) {
    DeviceIdleSummary sum;
    sum.deviceId = device;
    const std::vector<TimeRange> kernels = busyIntervals(trace, lanes, BusyWork::Kernels);
    std::vector<TimeRange> copyRanges = busyIntervals(trace, lanes, BusyWork::Copies);
    sum.kernelNs = totalDuration(kernels);
    sum.copyNs = totalDuration(copyRanges);
    if (busyRanges) {
        busyRanges->clear();
        busyRanges->reserve((busy == BusyWork::Copies ? 0 : kernels.size()) +
                            (busy == BusyWork::Kernels ? 0 : copyRanges.size()));
    }
    forEachBusy(kernels, copyRanges, busy, [&](const TimeRange& r) {
        sum.busyNs = saturatingAdd(sum.busyNs, r.duration());
        if (sum.busySpan) { // the stretch since the last busy end
            const TimeRange gap{sum.busySpan->end, r.start};
            if (gap.duration() > 0 && gap.duration() >= threshold) {
                ++sum.gapCount;
                sum.idleNs = saturatingAdd(sum.idleNs, gap.duration());
            }
            sum.busySpan->end = r.end;
        } else {
            sum.busySpan = r;
        }
        if (busyRanges)
            busyRanges->push_back(r);
    });
    const TimeRange wall = trace.timeRange();
    if (sum.busySpan) {
        sum.idleBeforeNs = std::max<TimeNs>(0, sum.busySpan->start - wall.start);
        sum.idleAfterNs = std::max<TimeNs>(0, wall.end - sum.busySpan->end);
    }
    sum.tracePercent =
        wall.duration() > 0 ? 100.0 * double(sum.idleNs) / double(wall.duration()) : 0.0;
    if (copies)
        *copies = std::move(copyRanges);
    return sum;
}

} // namespace

std::vector<DeviceIdleSummary> summarizeGpus(const Trace& trace, TimeNs minDuration,
                                             BusyWork busy) {
    std::vector<DeviceIdleSummary> out;
    const DeviceWorkLanes lanes = deviceWorkLanes(trace);
    for (std::uint32_t device : GapClassifier(trace, busy).devices())
        out.push_back(summarize(trace, device, lanesOf(lanes, device), busy,
                                std::max<TimeNs>(1, minDuration), nullptr, nullptr));
    return out;
}

GapAnalysis findGaps(const Trace& trace, TimeNs minDuration, BusyWork busy) {
    GapAnalysis out;
    out.threshold = std::max<TimeNs>(1, minDuration);
    out.busy = busy;
    GapClassifier classifier(trace, busy);
    const DeviceWorkLanes lanes = deviceWorkLanes(trace);
    for (std::uint32_t device : classifier.devices()) {
        std::vector<TimeRange> busyRanges, copies;
        out.devices.push_back(summarize(trace, device, lanesOf(lanes, device), busy, out.threshold,
                                        &busyRanges, &copies));
        const DeviceUtilization copyTime(device, std::move(copies));
        for (const TimeRange& r : idleGaps(busyRanges, out.threshold)) {
            GpuGap gap;
            gap.deviceId = device;
            gap.range = r;
            classifier.classify(gap);
            noteCopies(gap, busy, copyTime);
            out.gaps.push_back(std::move(gap));
        }
    }
    return out;
}

GpuGap explainGap(const Trace& trace, std::uint32_t deviceId, TimeRange range, BusyWork busy) {
    GpuGap gap;
    gap.deviceId = deviceId;
    gap.range = range;
    if (range.duration() <= 0)
        return gap; // nothing to explain; cause unknown, rule None
    GapClassifier(trace, busy).classify(gap);
    noteCopies(gap, busy,
               DeviceUtilization(deviceId, busyIntervals(trace, deviceId, BusyWork::Copies)));
    return gap;
}

} // namespace strobe
