// SPDX-License-Identifier: MIT
#include "model/tracebuilder.h"

#include "model/heappages.h"
#include "model/loadboundary.h"
#include "model/runonthreads.h"

#include <QStringBuilder>
#include <algorithm>
#include <bit>
#include <numeric>
#include <unordered_map>

namespace strobe {

namespace {
quint64 pairKey(std::uint32_t a, std::uint32_t b) {
    return (quint64(a) << 32) | b;
}
} // namespace

TraceBuilder::TraceBuilder(QString filePath)
    : m_trace(std::make_unique<Trace>()) {
    m_trace->m_filePath = std::move(filePath);
}

TraceBuilder::~TraceBuilder() = default;

void TraceBuilder::warn(const QString& kind, std::uint64_t count, const QString& message) {
    if (count == 0)
        return;
    auto& w = m_pendingWarnings[kind];
    w.count += count;
    w.message = message;
}

void TraceBuilder::setProcessName(std::uint32_t pid, StringId name) {
    m_processNames.insert(pid, name);
}

void TraceBuilder::setThreadName(std::uint32_t pid, std::uint32_t tid, StringId name) {
    m_threadNames.insert(pairKey(pid, tid), name);
}

void TraceBuilder::addGpu(const GpuInfo& gpu) {
    auto& gpus = m_trace->m_gpus;
    if (auto it = m_gpuIndex.constFind(gpu.id); it != m_gpuIndex.constEnd()) {
        gpus[it.value()] = gpu;
        return;
    }
    if (gpus.size() >= kMaxGpuDescriptions) {
        ++m_droppedGpus;
        return;
    }
    m_gpuIndex.insert(gpu.id, std::uint32_t(gpus.size()));
    gpus.push_back(gpu);
}

void TraceBuilder::setStreamInfo(std::uint32_t pid, std::uint32_t contextId, std::uint32_t streamId,
                                 std::optional<std::int32_t> priority, std::uint8_t flag) {
    m_streamInfo[{pid, contextId, streamId}] = {priority, flag};
}

std::uint32_t TraceBuilder::processIndex(std::uint32_t pid) {
    if (auto it = m_processIndex.constFind(pid); it != m_processIndex.constEnd())
        return it.value();
    const auto idx = std::uint32_t(m_trace->m_processes.size());
    m_trace->m_processes.push_back(ProcessInfo{pid, kNoString});
    m_processIndex.insert(pid, idx);
    return idx;
}

std::uint32_t TraceBuilder::threadIndex(std::uint32_t pid, std::uint32_t tid) {
    const quint64 key = pairKey(pid, tid);
    if (key == m_lastThreadKey && m_lastThread != ~0u)
        return m_lastThread;
    std::uint32_t idx = 0;
    if (auto it = m_threadIndex.constFind(key); it != m_threadIndex.constEnd()) {
        idx = it.value();
    } else {
        const std::uint32_t proc = processIndex(pid);
        idx = std::uint32_t(m_trace->m_threads.size());
        m_trace->m_threads.push_back(ThreadInfo{pid, tid, kNoString, proc});
        m_threadIndex.insert(key, idx);
    }
    m_lastThreadKey = key;
    m_lastThread = idx;
    return idx;
}

std::uint32_t TraceBuilder::streamIndex(std::uint32_t pid, std::uint32_t deviceId,
                                        std::uint32_t contextId, std::uint32_t streamId) {
    const auto key = std::make_tuple(deviceId, contextId, streamId, pid);
    if (key == m_lastStreamKey && m_lastStream != ~0u)
        return m_lastStream;
    if (auto it = m_streamIndex.find(key); it != m_streamIndex.end()) {
        m_lastStreamKey = key;
        return m_lastStream = it->second;
    }
    processIndex(pid);
    const auto idx = std::uint32_t(m_trace->m_streams.size());
    StreamInfo s;
    s.deviceId = deviceId;
    s.contextId = contextId;
    s.streamId = streamId;
    s.pid = pid;
    m_trace->m_streams.push_back(s);
    m_streamIndex.emplace(key, idx);
    return idx;
}

std::uint32_t TraceBuilder::laneIndex(LaneKind kind, std::uint32_t owner, StringId domain) {
    LaneHit& hit = m_lastLane[std::size_t(kind)];
    if (hit.lane != ~0u && hit.owner == owner && hit.domain == domain)
        return hit.lane;
    const auto key = std::make_tuple(int(kind), owner, domain);
    std::uint32_t idx = 0;
    if (auto it = m_laneIndex.find(key); it != m_laneIndex.end()) {
        idx = it->second;
    } else {
        idx = std::uint32_t(m_trace->m_lanes.size());
        m_trace->m_lanes.emplace_back(kind, owner);
        m_trace->m_lanes.back().setDomain(domain);
        m_laneIndex.emplace(key, idx);
    }
    hit = {owner, domain, idx};
    return idx;
}

std::size_t KernelConfigHash::operator()(const KernelConfig& c) const noexcept {
    // Every field, packed into ten words that are mixed independently and then summed: one
    // multiply chain through all the fields cost 50 ns a kernel, a fifth of reading its row.
    auto word = [](std::uint32_t lo, std::uint32_t hi) {
        return std::uint64_t(lo) | std::uint64_t(hi) << 32;
    };
    auto bits = [](const std::optional<float>& f) {
        return f ? std::bit_cast<std::uint32_t>(*f) : 0xFFFFFFFFu;
    };
    const std::uint32_t flags = c.launchType | c.cacheConfig << 8 | c.sharedMemLimitConfig << 16 |
                                std::uint32_t(c.detail) << 24 |
                                std::uint32_t(c.shortNameDerived) << 26 |
                                std::uint32_t(c.unrecorded) << 27;
    const RecordedOccupancy& o = c.recordedOccupancy;
    const std::uint64_t words[] = {word(c.shortName, c.demangledName),
                                   word(c.mangledName, c.registersPerThread),
                                   word(std::uint32_t(c.grid[0]), std::uint32_t(c.grid[1])),
                                   word(std::uint32_t(c.grid[2]), std::uint32_t(c.block[0])),
                                   word(std::uint32_t(c.block[1]), std::uint32_t(c.block[2])),
                                   word(c.staticSharedBytes, c.dynamicSharedBytes),
                                   word(c.localBytesPerThread, c.sharedMemoryExecuted),
                                   c.localBytesTotal,
                                   word(flags, bits(o.blocksPerSm)),
                                   word(bits(o.warpsPerSm), bits(o.achievedOccupancyPercent))};
    // The offsets follow from the process's secret hash seed: each word's step can be undone,
    // so with known offsets a file could pair words to collide at will (one bucket, O(n^2)).
    std::uint64_t h = 0;
    std::uint64_t position = 0x9E3779B97F4A7C15ull ^ std::uint64_t(QHashSeed::globalSeed());
    position = (position ^ (position >> 31)) * 0xBF58476D1CE4E5B9ull;
    for (std::uint64_t w : words) {
        w += position;
        w = (w ^ (w >> 31)) * 0xBF58476D1CE4E5B9ull;
        h += w ^ (w >> 27);
        position += 0x9E3779B97F4A7C15ull;
    }
    h = (h ^ (h >> 30)) * 0xBF58476D1CE4E5B9ull; // splitmix64's finaliser
    h = (h ^ (h >> 27)) * 0x94D049BB133111EBull;
    return std::size_t(h ^ (h >> 31));
}

std::uint32_t TraceBuilder::kernelConfig(const KernelConfig& c) {
    if (auto it = m_configIndex.find(c); it != m_configIndex.end())
        return it->second;
    const auto idx = std::uint32_t(m_trace->m_kernelConfigs.size());
    m_trace->m_kernelConfigs.push_back(c);
    m_configIndex.emplace(c, idx);
    return idx;
}

void TraceBuilder::clampTimes(TimeNs& start, TimeNs& end) {
    const TimeNs s = clampTime(start), e = clampTime(end);
    if (s != start || e != end)
        ++m_clampedEvents;
    start = s;
    end = e;
}

void TraceBuilder::addApiCall(std::uint32_t pid, std::uint32_t tid, TimeNs start, TimeNs end,
                              StringId name, const ApiCallRecord& rec) {
    clampTimes(start, end);
    Lane& l = m_trace->m_lanes[laneIndex(LaneKind::CudaApi, threadIndex(pid, tid))];
    const auto index = std::uint32_t(m_stageApiCorrelation.size());
    l.append(start, end, name, index);
    m_stageApiCorrelation.push_back(rec.correlationId);
    m_stageApiDriver.push_back(rec.eventClass == 1);
    if (rec.returnValue != 0)
        m_stageApiReturns.emplace_back(index, rec.returnValue);
}

void TraceBuilder::addOsrtCall(std::uint32_t pid, std::uint32_t tid, TimeNs start, TimeNs end,
                               StringId name, const OsrtRecord& rec) {
    clampTimes(start, end);
    Lane& l = m_trace->m_lanes[laneIndex(LaneKind::Osrt, threadIndex(pid, tid))];
    l.append(start, end, name, std::uint32_t(m_stageOsrt.size()));
    m_stageOsrt.push_back(rec);
}

void TraceBuilder::addNvtx(std::uint32_t pid, std::uint32_t tid, StringId domain, TimeNs start,
                           TimeNs end, StringId name, NvtxRecord rec,
                           std::optional<std::uint32_t> endTid) {
    clampTimes(start, end);
    rec.thread = threadIndex(pid, tid);
    if (endTid && *endTid != tid)
        rec.endThread = threadIndex(pid, *endTid);
    const std::uint32_t lane = rec.style == NvtxStyle::StartEnd
                                   ? laneIndex(LaneKind::NvtxStartEnd, processIndex(pid), domain)
                                   : laneIndex(LaneKind::Nvtx, rec.thread, domain);
    const auto index = std::uint32_t(m_stageNvtxFlags.size());
    m_trace->m_lanes[lane].append(start, rec.style == NvtxStyle::Mark ? start : end, name, index);
    // The range's depth is its row, set when it is stored (rec.depth is not read).
    static_assert(std::uint8_t(NvtxStyle::Mark) <= kNvtxStyleMask);
    m_stageNvtxFlags.push_back(std::uint8_t(std::uint8_t(rec.style) |
                                            (rec.hasEnd ? kNvtxHasEnd : 0) |
                                            (rec.color ? kNvtxHasColor : 0)));
    m_stageNvtxColor.push_back(rec.color.value_or(0));
    if (rec.style == NvtxStyle::StartEnd) // a process's lane: its thread is not the lane's
        m_stageNvtxThreads.emplace_back(index, rec.thread);
    if (rec.category)
        m_stageNvtxCategories.emplace_back(index, *rec.category);
    if (rec.endThread)
        m_stageNvtxEndThreads.emplace_back(index, *rec.endThread);
}

void TraceBuilder::addCpuOp(LaneKind kind, std::uint32_t pid, std::uint32_t tid, TimeNs start,
                            TimeNs end, StringId name, const CpuOpRecord& rec) {
    Q_ASSERT(kind == LaneKind::CpuOps || kind == LaneKind::Python);
    Lane& l = m_trace->m_lanes[laneIndex(kind, threadIndex(pid, tid))];
    l.append(start, end, name, std::uint32_t(m_stageCpuOps.size()));
    m_stageCpuOps.push_back(rec);
}

void TraceBuilder::addKernel(std::uint32_t pid, std::uint32_t deviceId, std::uint32_t contextId,
                             std::uint32_t streamId, TimeNs start, TimeNs end,
                             const KernelConfig& config, std::optional<std::uint32_t> correlationId,
                             std::optional<std::uint64_t> graphNode) {
    addKernel(pid, deviceId, contextId, streamId, start, end, kernelConfig(config), correlationId,
              graphNode);
}

void TraceBuilder::addKernel(std::uint32_t pid, std::uint32_t deviceId, std::uint32_t contextId,
                             std::uint32_t streamId, TimeNs start, TimeNs end, std::uint32_t config,
                             std::optional<std::uint32_t> correlationId,
                             std::optional<std::uint64_t> graphNode) {
    Q_ASSERT(config < m_trace->m_kernelConfigs.size());
    clampTimes(start, end);
    const std::uint32_t stream = streamIndex(pid, deviceId, contextId, streamId);
    const std::uint32_t laneIdx = laneIndex(LaneKind::Kernels, stream);
    Lane& l = m_trace->m_lanes[laneIdx];
    const auto index = std::uint32_t(m_stageKernels.size());
    l.appendUnnamed(start, end, index); // named by its configuration in finalizeLane()
    m_stageKernels.push_back(StagedKernel{config, correlationId.value_or(0)});
    m_stageKernelCorrelated.push_back(correlationId.has_value());
    if (graphNode)
        m_stageGraphNodes.emplace_back(index, *graphNode);
}

void TraceBuilder::addMemcpy(std::uint32_t pid, std::uint32_t deviceId, std::uint32_t contextId,
                             std::uint32_t streamId, TimeNs start, TimeNs end, StringId name,
                             MemcpyRecord rec) {
    clampTimes(start, end);
    rec.stream = streamIndex(pid, deviceId, contextId, streamId);
    const bool migration = rec.copyKind >= MemcpyKind::UnifiedHtoD;
    const std::uint32_t laneIdx =
        migration ? laneIndex(LaneKind::Uvm, deviceId) : laneIndex(LaneKind::Memcpy, rec.stream);
    Lane& l = m_trace->m_lanes[laneIdx];
    l.append(start, end, name, std::uint32_t(m_stageMemcpys.size()));
    m_stageMemcpys.push_back(rec);
    m_memcpyPid.push_back(pid);
}

void TraceBuilder::addMemset(std::uint32_t pid, std::uint32_t deviceId, std::uint32_t contextId,
                             std::uint32_t streamId, TimeNs start, TimeNs end, StringId name,
                             MemsetRecord rec) {
    clampTimes(start, end);
    rec.stream = streamIndex(pid, deviceId, contextId, streamId);
    const std::uint32_t laneIdx = laneIndex(LaneKind::Memset, rec.stream);
    Lane& l = m_trace->m_lanes[laneIdx];
    l.append(start, end, name, std::uint32_t(m_stageMemsets.size()));
    m_stageMemsets.push_back(rec);
    m_memsetPid.push_back(pid);
}

void TraceBuilder::addSync(SyncRecord rec) {
    clampTimes(rec.start, rec.end);
    m_trace->m_syncs.push_back(rec);
}

void TraceBuilder::addGpuMemorySample(std::uint32_t deviceId, const GpuMemorySample& sample) {
    auto& tracks = m_trace->m_gpuMemory;
    const auto [it, added] = m_gpuMemoryIndex.try_emplace(deviceId, tracks.size());
    if (added)
        tracks.push_back(GpuMemoryTrack{deviceId, {}});
    tracks[it->second].samples.push_back(sample);
}

void TraceBuilder::finalizeLane(Lane& l) {
    const bool gpu = isGpuLane(l.kind()) || l.kind() == LaneKind::NvtxStartEnd;
    if (l.kind() == LaneKind::Kernels) // named by configuration: 4 bytes a kernel less staged
        l.finalize(RowPolicy::FirstFit, [&](std::uint32_t p) {
            return m_trace->m_kernelConfigs[m_stageKernels[p].config].shortName;
        });
    else
        l.finalize(gpu ? RowPolicy::FirstFit : RowPolicy::Nesting);
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
                    finalizeLane(t.m_lanes[bySize[k]]);
            } catch (...) {
                next = bySize.size(); // the others stop at their lane
                throw;
            }
        });
    } else {
        for (const std::uint32_t li : bySize) {
            finalizeLane(t.m_lanes[li]);
            if (isCancelled(cancel))
                return nullptr;
        }
    }
    if (isCancelled(cancel))
        return nullptr;
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
                                                      std::optional<TimeRange> extent) const {
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
    for (const Lane& l : src.m_lanes) {
        if (isGpuLane(l.kind()))
            dst.m_lanes.push_back(l);
    }
    copy.m_stageKernels = m_stageKernels;
    copy.m_stageKernelCorrelated = m_stageKernelCorrelated;
    copy.m_stageGraphNodes = m_stageGraphNodes;
    copy.m_stageMemcpys = m_stageMemcpys;
    copy.m_stageMemsets = m_stageMemsets;
    copy.m_memcpyPid = m_memcpyPid;
    copy.m_memsetPid = m_memsetPid;
    copy.m_processNames = m_processNames;
    copy.m_processIndex = m_processIndex;
    copy.m_gpuIndex = m_gpuIndex;
    copy.m_streamInfo = m_streamInfo;
    std::unique_ptr<Trace> preview = copy.finish(cancel);
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
        switch (l.kind()) {
        case LaneKind::CudaApi:
        case LaneKind::Osrt:
        case LaneKind::Nvtx:
        case LaneKind::CpuOps:
        case LaneKind::Python: {
            const ThreadInfo& th = t.m_threads[l.owner()];
            // Python frames and framework operators sit above the API calls they make.
            const int rank = l.kind() == LaneKind::Python   ? -2
                             : l.kind() == LaneKind::CpuOps ? -1
                                                            : kind;
            // The main thread (tid == pid) first, then by tid.
            return std::make_tuple(0, std::uint64_t(th.pid), std::uint64_t(th.tid != th.pid),
                                   std::uint64_t(th.tid), rank, domain);
        }
        case LaneKind::NvtxStartEnd:
            return std::make_tuple(0, std::uint64_t(t.m_processes[l.owner()].pid), std::uint64_t(2),
                                   std::uint64_t(0), kind, domain);
        case LaneKind::Kernels:
        case LaneKind::Memcpy:
        case LaneKind::Memset: {
            const StreamInfo& s = t.m_streams[l.owner()];
            return std::make_tuple(1, std::uint64_t(s.deviceId),
                                   (std::uint64_t(s.contextId) << 32) | s.pid,
                                   std::uint64_t(s.streamId), kind, domain);
        }
        case LaneKind::Uvm:
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
