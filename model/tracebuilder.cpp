// SPDX-License-Identifier: MIT
// TraceBuilder as the readers use it: the identities (processes, threads, GPUs, streams, lanes,
// kernel configurations), the events added to their lanes, and the counted warnings. Freezing
// the whole into a Trace is tracefreeze.cpp; the records' storage recordstore.cpp.
#include "model/tracebuilder.h"

#include <algorithm>
#include <bit>
#include <limits>

namespace strobe {

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
    if (m_rowOrderKeyed)
        noteRowOrder(laneIdx, l.size());
    const auto index = std::uint32_t(m_stageKernels.size());
    l.appendUnnamed(start, end, index); // named by its configuration in finalizeLane()
    m_stageKernels.push_back(StagedKernel{config, correlationId.value_or(0)});
    m_stageKernelCorrelated.push_back(correlationId.has_value());
    if (graphNode)
        m_stageGraphNodes.emplace_back(index, *graphNode);
}

void TraceBuilder::setLastKernelCollective(StringId processGroup,
                                           std::optional<std::uint64_t> bytes) {
    Q_ASSERT(!m_stageKernels.empty());
    const auto index = std::uint32_t(m_stageKernels.size() - 1);
    if (processGroup != kNoString)
        m_stageKernelGroups.emplace_back(index, processGroup);
    if (bytes)
        m_stageKernelBytes.emplace_back(index, *bytes);
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
    if (m_rowOrderKeyed)
        noteRowOrder(laneIdx, l.size());
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
    if (m_rowOrderKeyed)
        noteRowOrder(laneIdx, l.size());
    l.append(start, end, name, std::uint32_t(m_stageMemsets.size()));
    m_stageMemsets.push_back(rec);
    m_memsetPid.push_back(pid);
}

void TraceBuilder::noteRowOrder(std::uint32_t lane, std::uint32_t index) {
    if (m_keyedRuns.size() <= lane)
        m_keyedRuns.resize(std::size_t(lane) + 1);
    std::vector<KeyedRun>& runs = m_keyedRuns[lane];
    if (!runs.empty() && runs.back().key == m_rowOrderKey)
        return;
    if (runs.empty() && index > 0) // added before any key: first
        runs.push_back({std::numeric_limits<std::int64_t>::min(), 0});
    runs.push_back({m_rowOrderKey, index});
}

std::vector<std::uint32_t> TraceBuilder::keyedOrder(std::uint32_t lane) const {
    if (lane >= m_keyedRuns.size())
        return {};
    const std::vector<KeyedRun>& runs = m_keyedRuns[lane];
    auto byKey = [](const KeyedRun& a, const KeyedRun& b) { return a.key < b.key; };
    if (std::is_sorted(runs.begin(), runs.end(), byKey))
        return {};
    const auto size = std::uint32_t(m_trace->m_lanes[lane].size());
    // Each run's end is the next run's first, as added; then the runs in key order.
    std::vector<std::pair<KeyedRun, std::uint32_t>> spans(runs.size());
    for (std::size_t k = 0; k < runs.size(); ++k)
        spans[k] = {runs[k], k + 1 < runs.size() ? runs[k + 1].first : size};
    std::stable_sort(spans.begin(), spans.end(),
                     [&](const auto& a, const auto& b) { return byKey(a.first, b.first); });
    std::vector<std::uint32_t> order;
    order.reserve(size);
    for (const auto& [run, end] : spans) {
        for (std::uint32_t i = run.first; i < end; ++i)
            order.push_back(i);
    }
    return order;
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

} // namespace strobe
