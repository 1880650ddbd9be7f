// SPDX-License-Identifier: MIT
// TraceBuilder's finish: each lane sorted and compressed (on the load's threads), processes and
// threads ordered by their names, lanes ordered as the timeline shows them, and the GPU-side
// previews a reader sends before the rest.
#include "model/tracebuilder.h"

#include "model/heappages.h"
#include "model/loadboundary.h"
#include "model/runonthreads.h"

#include <QStringBuilder>
#include <algorithm>
#include <numeric>

namespace strobe {

void TraceBuilder::finalizeLane(std::uint32_t lane) {
    Lane& l = m_trace->m_lanes[lane];
    const bool gpu = isGpuLane(l.kind()) || l.kind() == LaneKind::NvtxStartEnd;
    if (l.kind() == LaneKind::Kernels) // named by configuration: 4 bytes a kernel less staged
        l.finalize(
            RowPolicy::FirstFit,
            [&](std::uint32_t p) {
                return m_trace->m_kernelConfigs[m_stageKernels[p].config].shortName;
            },
            keyedOrder(lane));
    else
        l.finalize(gpu ? RowPolicy::FirstFit : RowPolicy::Nesting, nullptr, keyedOrder(lane));
}

std::unique_ptr<Trace> TraceBuilder::finish(const std::atomic<bool>* cancel, int laneThreads) {
    Trace& t = *m_trace;

    // The trace's extent, before open NVTX ranges are stretched to its end.
    TimeNs first = std::numeric_limits<TimeNs>::max(), last = std::numeric_limits<TimeNs>::min();
    for (const Lane& l : t.m_lanes) {
        for (std::uint32_t i = 0; i < l.size(); ++i) {
            first = std::min(first, l.start(i));
            last = std::max(last, l.end(i));
        }
    }
    if (first > last)
        first = last = 0;
    t.m_range = TimeRange{first, last};
    for (Lane& l : t.m_lanes) {
        if (l.kind() != LaneKind::Nvtx && l.kind() != LaneKind::NvtxStartEnd)
            continue;
        l.endOpenEventsAt(
            last, [&](std::uint32_t i) { return !(m_stageNvtxFlags[l.payload(i)] & kNvtxHasEnd); });
    }
    if (isCancelled(cancel))
        return nullptr;

    // Sort each lane (its payload column follows) and assign rows. One lane at a time, the
    // smallest first, so that the lanes done are in their frozen form when the biggest ones'
    // buffers are allocated: on two threads the finish of a 10M-event nsys trace took 0.13 s
    // less, but two lanes' sorting buffers at once raised the load's peak by 7 B per event.
    // With laneThreads > 1, the biggest first, each thread claiming the next.
    std::vector<std::uint32_t> bySize(t.m_lanes.size());
    std::iota(bySize.begin(), bySize.end(), 0u);
    std::stable_sort(bySize.begin(), bySize.end(), [&](std::uint32_t a, std::uint32_t b) {
        return t.m_lanes[a].size() < t.m_lanes[b].size();
    });
    returnFreedHeapPages(); // what the scan freed, before the lanes' sorting buffers
    if (laneThreads > 1 && bySize.size() > 1) {
        std::reverse(bySize.begin(), bySize.end());
        std::atomic<std::size_t> next{0};
        runOnThreads(laneThreads, [&] {
            try {
                for (std::size_t k;
                     (k = next.fetch_add(1)) < bySize.size() && !isCancelled(cancel);)
                    finalizeLane(bySize[k]);
            } catch (...) {
                next = bySize.size(); // the others stop at their lane
                throw;
            }
        });
    } else {
        for (const std::uint32_t li : bySize) {
            finalizeLane(li);
            if (isCancelled(cancel))
                return nullptr;
        }
    }
    if (isCancelled(cancel))
        return nullptr;
    std::vector<std::vector<KeyedRun>>().swap(m_keyedRuns);
    std::uint64_t overflowEvents = 0;
    for (const Lane& l : t.m_lanes)
        overflowEvents += l.overflowEvents();

    for (auto [pid, name] : m_processNames.asKeyValueRange()) {
        if (auto it = m_processIndex.constFind(pid); it != m_processIndex.constEnd())
            t.m_processes[it.value()].name = name;
    }
    for (auto& th : t.m_threads) {
        if (auto it = m_threadNames.constFind(pairKey(th.pid, th.tid));
            it != m_threadNames.constEnd())
            th.name = it.value();
    }
    for (auto& s : t.m_streams) {
        if (auto it = m_streamInfo.find({s.pid, s.contextId, s.streamId});
            it != m_streamInfo.end()) {
            s.priority = it->second.first;
            s.flag = it->second.second;
        }
        // Every device that ran work has a GPU, described or not (the cap is on descriptions).
        if (!m_gpuIndex.contains(s.deviceId)) {
            GpuInfo g;
            g.id = s.deviceId;
            m_gpuIndex.insert(g.id, std::uint32_t(t.m_gpus.size()));
            t.m_gpus.push_back(g);
        }
    }
    std::sort(t.m_gpus.begin(), t.m_gpus.end(),
              [](const GpuInfo& a, const GpuInfo& b) { return a.id < b.id; });

    std::sort(
        t.m_gpuMemory.begin(), t.m_gpuMemory.end(),
        [](const GpuMemoryTrack& a, const GpuMemoryTrack& b) { return a.deviceId < b.deviceId; });
    for (GpuMemoryTrack& track : t.m_gpuMemory)
        std::stable_sort(
            track.samples.begin(), track.samples.end(),
            [](const GpuMemorySample& a, const GpuMemorySample& b) { return a.time < b.time; });

    sortProcessesAndThreads();
    orderLanes();
    storeRecords();

    warn(QStringLiteral("row-overflow"), overflowEvents,
         QStringLiteral("%1 events found all ") % QString::number(Lane::kMaxRows) %
             QStringLiteral(" rows of their lane busy; they are drawn overlapping in its last "
                            "row."));
    warn(QStringLiteral("too-many-gpus"), m_droppedGpus,
         QStringLiteral("%1 GPU descriptions beyond the first ") %
             QString::number(kMaxGpuDescriptions) %
             QStringLiteral(" were dropped; their GPUs are shown without a name or properties."));
    m_droppedGpus = 0;
    warn(QStringLiteral("time-out-of-range"), m_clampedEvents,
         QStringLiteral("%1 events have times beyond the representable range (2^62 ns, about "
                        "146 years, either side of zero); they were clamped to it."));
    m_clampedEvents = 0;
    for (auto& [kind, w] : m_pendingWarnings)
        t.m_warnings.push_back(TraceWarning{kind, w.count, w.message.arg(w.count)});
    return std::move(m_trace);
}

std::unique_ptr<Trace> TraceBuilder::finishGpuPreview(const std::atomic<bool>* cancel,
                                                      TraceStage stage,
                                                      std::optional<TimeRange> extent,
                                                      int laneThreads) const {
    const Trace& src = *m_trace;
    TraceBuilder copy(src.m_filePath);
    Trace& dst = *copy.m_trace;
    dst.m_meta = src.m_meta;
    dst.m_counts = src.m_counts;
    dst.m_strings = src.m_strings;
    dst.m_processes = src.m_processes;
    dst.m_gpus = src.m_gpus;
    dst.m_streams = src.m_streams;
    dst.m_kernelConfigs = src.m_kernelConfigs;
    dst.m_gpuMemory = src.m_gpuMemory;
    for (std::size_t li = 0; li < src.m_lanes.size(); ++li) {
        if (!isGpuLane(src.m_lanes[li].kind()))
            continue;
        if (li < m_keyedRuns.size() && !m_keyedRuns[li].empty()) {
            copy.m_keyedRuns.resize(dst.m_lanes.size() + 1);
            copy.m_keyedRuns.back() = m_keyedRuns[li];
        }
        dst.m_lanes.push_back(src.m_lanes[li]);
    }
    copy.m_stageKernels = m_stageKernels;
    copy.m_stageKernelCorrelated = m_stageKernelCorrelated;
    copy.m_stageGraphNodes = m_stageGraphNodes;
    copy.m_stageKernelGroups = m_stageKernelGroups;
    copy.m_stageKernelBytes = m_stageKernelBytes;
    copy.m_stageMemcpys = m_stageMemcpys;
    copy.m_stageMemsets = m_stageMemsets;
    copy.m_memcpyPid = m_memcpyPid;
    copy.m_memsetPid = m_memsetPid;
    copy.m_processNames = m_processNames;
    copy.m_processIndex = m_processIndex;
    copy.m_gpuIndex = m_gpuIndex;
    copy.m_streamInfo = m_streamInfo;
    std::unique_ptr<Trace> preview = copy.finish(cancel, laneThreads);
    if (preview)
        markGpuPreview(*preview, stage, extent);
    return preview;
}

void TraceBuilder::markGpuPreview(Trace& t, TraceStage stage, std::optional<TimeRange> extent) {
    t.m_warnings.clear(); // the CPU side, which resolves them, is still to come
    t.m_meta.stage = stage;
    if (extent && !extent->isEmpty()) {
        TimeRange& r = t.m_range;
        const bool noEvents = std::all_of(t.m_lanes.begin(), t.m_lanes.end(),
                                          [](const Lane& l) { return l.size() == 0; });
        r = noEvents ? *extent
                     : TimeRange{std::min(r.start, extent->start), std::max(r.end, extent->end)};
    }
}

void TraceBuilder::sortProcessesAndThreads() {
    // Events arrive table by table, so first-seen order says little: show processes by pid
    // and threads by (pid, tid), and follow the new indices wherever they are stored.
    Trace& t = *m_trace;
    auto sortedOrder = [](std::size_t n, auto less) {
        std::vector<std::uint32_t> order(n);
        std::iota(order.begin(), order.end(), 0u);
        std::stable_sort(order.begin(), order.end(), less);
        std::vector<std::uint32_t> newIndex(n);
        for (std::uint32_t i = 0; i < n; ++i)
            newIndex[order[i]] = i;
        return std::make_pair(order, newIndex);
    };
    const auto [pOrder, pNew] =
        sortedOrder(t.m_processes.size(), [&](std::uint32_t a, std::uint32_t b) {
            return t.m_processes[a].pid < t.m_processes[b].pid;
        });
    const auto [tOrder, tNew] =
        sortedOrder(t.m_threads.size(), [&](std::uint32_t a, std::uint32_t b) {
            const ThreadInfo &x = t.m_threads[a], &y = t.m_threads[b];
            return std::tie(x.pid, x.tid) < std::tie(y.pid, y.tid);
        });
    std::vector<ProcessInfo> processes;
    for (std::uint32_t i : pOrder)
        processes.push_back(t.m_processes[i]);
    std::vector<ThreadInfo> threads;
    for (std::uint32_t i : tOrder) {
        threads.push_back(t.m_threads[i]);
        threads.back().process = pNew[threads.back().process];
    }
    t.m_processes = std::move(processes);
    t.m_threads = std::move(threads);
    for (Lane& l : t.m_lanes) {
        if (l.kind() == LaneKind::NvtxStartEnd)
            l.m_owner = pNew[l.m_owner];
        else if (!isGpuLane(l.kind()))
            l.m_owner = tNew[l.m_owner];
    }
    for (auto& [range, thread] : m_stageNvtxThreads)
        thread = tNew[thread];
    for (auto& [range, thread] : m_stageNvtxEndThreads)
        thread = tNew[thread];
}

void TraceBuilder::orderLanes() {
    Trace& t = *m_trace;
    auto key = [&](const Lane& l) {
        // (side, pid or device, tid or context, stream, kind, domain name)
        std::tuple<int, std::uint64_t, std::uint64_t, std::uint64_t, int, std::string_view> k{};
        const int kind = int(l.kind());
        const auto domain = t.m_strings.view(l.domain());
        switch (ownerOf(l.kind())) {
        case LaneOwner::Thread: {
            const ThreadInfo& th = t.m_threads[l.owner()];
            // Python frames and framework operators sit above the API calls they make.
            const int rank = l.kind() == LaneKind::Python   ? -2
                             : l.kind() == LaneKind::CpuOps ? -1
                                                            : kind;
            // The main thread (tid == pid) first, then by tid.
            return std::make_tuple(0, std::uint64_t(th.pid), std::uint64_t(th.tid != th.pid),
                                   std::uint64_t(th.tid), rank, domain);
        }
        case LaneOwner::Process:
            return std::make_tuple(0, std::uint64_t(t.m_processes[l.owner()].pid), std::uint64_t(2),
                                   std::uint64_t(0), kind, domain);
        case LaneOwner::Stream: {
            const StreamInfo& s = t.m_streams[l.owner()];
            return std::make_tuple(1, std::uint64_t(s.deviceId),
                                   (std::uint64_t(s.contextId) << 32) | s.pid,
                                   std::uint64_t(s.streamId), kind, domain);
        }
        case LaneOwner::Device:
            return std::make_tuple(1, std::uint64_t(l.owner()), ~std::uint64_t(0),
                                   ~std::uint64_t(0), kind, domain);
        }
        return k;
    };
    std::vector<std::uint32_t> order(t.m_lanes.size());
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(),
                     [&](auto a, auto b) { return key(t.m_lanes[a]) < key(t.m_lanes[b]); });
    std::vector<std::uint32_t> newIndex(order.size());
    std::vector<Lane> lanes;
    lanes.reserve(order.size());
    for (std::uint32_t i = 0; i < order.size(); ++i) {
        newIndex[order[i]] = i;
        lanes.push_back(std::move(t.m_lanes[order[i]]));
    }
    t.m_lanes = std::move(lanes);
}

} // namespace strobe
