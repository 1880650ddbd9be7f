// SPDX-License-Identifier: MIT
#pragma once

#include "model/trace.h"

#include <QHash>
#include <array>
#include <atomic>
#include <map>
#include <memory>
#include <tuple>
#include <unordered_map>

namespace strobe {

class CorrelationIndex;

// Collects a trace's events in any order and turns them into a frozen Trace: sorts every lane,
// assigns rows, joins GPU work to the API calls that launched it (by process and correlation
// id), drops processes and threads without events, and puts lanes in display order.
// Loaders (nsys SQLite, tests) talk to this; nothing else constructs a Trace.
// Hashes every field of a launch configuration (interning ~all kernel rows goes through it).
struct KernelConfigHash {
    std::size_t operator()(const KernelConfig& c) const noexcept;
};

class TraceBuilder {
public:
    explicit TraceBuilder(QString filePath);
    ~TraceBuilder();

    StringTable& strings() { return m_trace->m_strings; }
    StringId intern(std::string_view s) { return m_trace->m_strings.intern(s); }
    TraceMetadata& metadata() { return m_trace->m_meta; }
    TraceCounts& counts() { return m_trace->m_counts; }

    // Adds `count` to the warning `kind`; `message` has a %1 for the total count.
    void warn(const QString& kind, std::uint64_t count, const QString& message);

    void setProcessName(std::uint32_t pid, StringId name);
    void setThreadName(std::uint32_t pid, std::uint32_t tid, StringId name);
    // A later description of the same id replaces the earlier one. Past kMaxGpuDescriptions
    // distinct GPUs, further descriptions are dropped and counted in one warning.
    void addGpu(const GpuInfo& gpu);
    static constexpr std::size_t kMaxGpuDescriptions = 4096;
    void setStreamInfo(std::uint32_t pid, std::uint32_t contextId, std::uint32_t streamId,
                       std::optional<std::int32_t> priority, std::uint8_t flag);

    void addApiCall(std::uint32_t pid, std::uint32_t tid, TimeNs start, TimeNs end, StringId name,
                    const ApiCallRecord& rec);
    void addOsrtCall(std::uint32_t pid, std::uint32_t tid, TimeNs start, TimeNs end, StringId name,
                     const OsrtRecord& rec);
    // `domain` is the domain's name id (0: the default domain). Push/pop ranges and marks go to
    // the thread's lane of that domain; start/end ranges to the process's start/end lane.
    void addNvtx(std::uint32_t pid, std::uint32_t tid, StringId domain, TimeNs start, TimeNs end,
                 StringId name, NvtxRecord rec, std::optional<std::uint32_t> endTid);
    // `kind` is CpuOps or Python: the thread's lane of that kind, nested by containment.
    void addCpuOp(LaneKind kind, std::uint32_t pid, std::uint32_t tid, TimeNs start, TimeNs end,
                  StringId name, const CpuOpRecord& rec);
    void addKernel(std::uint32_t pid, std::uint32_t deviceId, std::uint32_t contextId,
                   std::uint32_t streamId, TimeNs start, TimeNs end, const KernelConfig& config,
                   std::optional<std::uint32_t> correlationId,
                   std::optional<std::uint64_t> graphNode);
    // The same with `config` an index kernelConfig() gave: a reader that knows its kernels'
    // configurations up front spares the lookup of each kernel's.
    void addKernel(std::uint32_t pid, std::uint32_t deviceId, std::uint32_t contextId,
                   std::uint32_t streamId, TimeNs start, TimeNs end, std::uint32_t config,
                   std::optional<std::uint32_t> correlationId,
                   std::optional<std::uint64_t> graphNode);
    // The index of `config` among the trace's kernel configurations, added if new.
    std::uint32_t kernelConfig(const KernelConfig& config);
    // The communicator and message of the kernel added last (KernelRecord::processGroup,
    // messageBytes); kNoString and nullopt leave them unrecorded.
    void setLastKernelCollective(StringId processGroup, std::optional<std::uint64_t> bytes);
    void addMemcpy(std::uint32_t pid, std::uint32_t deviceId, std::uint32_t contextId,
                   std::uint32_t streamId, TimeNs start, TimeNs end, StringId name,
                   MemcpyRecord rec);
    void addMemset(std::uint32_t pid, std::uint32_t deviceId, std::uint32_t contextId,
                   std::uint32_t streamId, TimeNs start, TimeNs end, StringId name,
                   MemsetRecord rec);
    void addSync(SyncRecord rec);
    // One reading of a GPU's memory use (any order; sorted by time at finish()).
    void addGpuMemorySample(std::uint32_t deviceId, const GpuMemorySample& sample);

    // For a reader that adds GPU work out of its table's order (the nsys reader's sampled
    // passes): each kernel, memcpy and memset added after setRowOrderKey(k) counts as coming
    // after those of lower keys and after those of key k added before it. finish() and
    // finishGpuPreview() sort each lane from that order, so that events of equal start and end
    // end up as a read in the table's order leaves them. Without it: the order added.
    void setRowOrderKey(std::int64_t key) {
        m_rowOrderKey = key;
        m_rowOrderKeyed = true;
    }

    // Freezes the trace; returns nullptr when `cancel` became true meanwhile. Lanes are sorted
    // one at a time, unless `laneThreads` > 1: then on that many threads, biggest first, which
    // raises the peak by the sorting buffers of the lanes in flight (for a load whose peak is
    // not the point, such as the GPU side's quick pass).
    std::unique_ptr<Trace> finish(const std::atomic<bool>* cancel = nullptr, int laneThreads = 1);
    // A frozen copy of what was added so far on the GPU side only (kernels, memcpys, memsets and
    // their lanes, GPUs, streams, processes), for showing a large trace before its CPU side is
    // read. This builder is left as it was. No warnings; launching API calls are not joined.
    // `stage` says how much of the GPU side it holds (metadata().stage); `extent`, where the
    // reader estimates the whole trace lies, widens its time range so that the view does not
    // jump when the rest arrives. Its lanes are sorted on `laneThreads` threads (see finish()).
    std::unique_ptr<Trace> finishGpuPreview(const std::atomic<bool>* cancel = nullptr,
                                            TraceStage stage = TraceStage::GpuSide,
                                            std::optional<TimeRange> extent = {},
                                            int laneThreads = 1) const;
    // Makes a frozen trace of the GPU side a preview, as finishGpuPreview's are: `stage`, no
    // warnings, the time range widened to `extent`.
    static void markGpuPreview(Trace& t, TraceStage stage, std::optional<TimeRange> extent);

private:
    // The key of a (pid, tid) pair in the builder's hash maps.
    static quint64 pairKey(std::uint32_t a, std::uint32_t b) { return (quint64(a) << 32) | b; }
    struct PendingWarning {
        std::uint64_t count = 0;
        QString message;
    };
    std::uint32_t threadIndex(std::uint32_t pid, std::uint32_t tid);
    std::uint32_t processIndex(std::uint32_t pid);
    std::uint32_t streamIndex(std::uint32_t pid, std::uint32_t deviceId, std::uint32_t contextId,
                              std::uint32_t streamId);
    std::uint32_t laneIndex(LaneKind kind, std::uint32_t owner, StringId domain = 0);
    // Moves times outside [kMinTime, kMaxTime] inside it, counting each event so changed.
    void clampTimes(TimeNs& start, TimeNs& end);
    void sortProcessesAndThreads();
    void orderLanes();
    // Sorts lane `lane` and assigns its rows (an NVTX range's depth is its row).
    void finalizeLane(std::uint32_t lane);
    // Where setRowOrderKey() keys the rows: the run of events from `index` on in lane `lane`
    // has the current key.
    void noteRowOrder(std::uint32_t lane, std::uint32_t index);
    // The order of lane `lane`'s events by their keys; empty where that is the order added.
    std::vector<std::uint32_t> keyedOrder(std::uint32_t lane) const;
    // Moves the staged records into the Trace's slim tables in lane order (kernels in start
    // order) and joins GPU work to the API calls that launched it (model/recordstore.cpp).
    void storeRecords();
    std::uint64_t storeLaunches(); // returns the GPU operations whose call is not recorded
    // After the API calls are stored: links copies, sets and syncs to their calls and makes each
    // staged kernel's correlation id its call's index; returns those whose call is not recorded.
    std::uint64_t joinGpuWorkToCalls();
    void storeKernels(std::uint64_t& dangling);
    void storeCpuRanges(); // OS runtime calls, CPU ops and NVTX
    template <typename Fill> void gather(LaneFamily family, Fill&& fill);

    std::unique_ptr<Trace> m_trace;
    std::map<QString, PendingWarning> m_pendingWarnings;
    QHash<std::uint32_t, StringId> m_processNames;
    QHash<quint64, StringId> m_threadNames;
    QHash<quint64, std::uint32_t> m_threadIndex;
    QHash<std::uint32_t, std::uint32_t> m_processIndex;
    QHash<std::uint32_t, std::uint32_t> m_gpuIndex; // device id -> index in the trace's GPUs
    std::unordered_map<std::uint32_t, std::size_t> m_gpuMemoryIndex; // device id -> track
    std::uint64_t m_droppedGpus = 0; // descriptions past kMaxGpuDescriptions
    std::map<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t, std::uint32_t>, std::uint32_t>
        m_streamIndex;
    std::map<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>,
             std::pair<std::optional<std::int32_t>, std::uint8_t>>
        m_streamInfo;
    std::map<std::tuple<int, std::uint32_t, StringId>, std::uint32_t> m_laneIndex;
    // The last lookups, which a reader's next event mostly repeats (its thread, its stream, the
    // lane of each kind it last added to), spared the maps.
    struct LaneHit {
        std::uint32_t owner = 0;
        StringId domain = 0;
        std::uint32_t lane = ~0u;
    };
    std::array<LaneHit, std::size_t(LaneKind::Uvm) + 1> m_lastLane;
    quint64 m_lastThreadKey = 0;
    std::uint32_t m_lastThread = ~0u;
    std::tuple<std::uint32_t, std::uint32_t, std::uint32_t, std::uint32_t> m_lastStreamKey;
    std::uint32_t m_lastStream = ~0u;
    std::unordered_map<KernelConfig, std::uint32_t, KernelConfigHash> m_configIndex;
    // Records as the loaders add them, until finish() stores them in the Trace; the lanes'
    // payload columns index these while building.
    // Staged as small as the join allows (a kernel 8 bytes, not 24): the staging of every table
    // exists at once at the end of a scan, which makes the load's peak. What few rows have
    // (graph nodes, non-zero return values) is kept beside, by stage index in rising order.
    // The process of each, which the join needs, is its lane's (stream or thread).
    struct StagedKernel {
        std::uint32_t config = 0;
        std::uint32_t correlationId = 0;
    };
    std::vector<StagedKernel> m_stageKernels;
    std::vector<bool> m_stageKernelCorrelated; // per staged kernel: it has a correlation id
    std::vector<bool> m_stageKernelLinked;     // in finish(): its correlationId is its call's index
    std::vector<std::pair<std::uint32_t, std::uint64_t>> m_stageGraphNodes;  // (kernel, node)
    std::vector<std::pair<std::uint32_t, StringId>> m_stageKernelGroups;     // (kernel, group)
    std::vector<std::pair<std::uint32_t, std::uint64_t>> m_stageKernelBytes; // (kernel, bytes)
    // API calls: the correlation id, and one bit for a driver call (eventClass 1), 4 bytes a call
    // instead of a padded 8.
    std::vector<std::uint32_t> m_stageApiCorrelation;
    std::vector<bool> m_stageApiDriver;
    std::vector<std::pair<std::uint32_t, std::int64_t>> m_stageApiReturns; // (call, non-zero)
    std::vector<MemcpyRecord> m_stageMemcpys;
    std::vector<MemsetRecord> m_stageMemsets;
    std::vector<std::uint32_t> m_memcpyPid, m_memsetPid;
    std::vector<OsrtRecord> m_stageOsrt;
    // NVTX ranges: 5 bytes each, not NvtxRecord's 32. A range's depth is its row, known after
    // finalize; its thread is its lane's, except for start/end ranges (a process's lane), whose
    // threads are kept beside, as categories and end threads (rare) are.
    static constexpr std::uint8_t kNvtxStyleMask = 3, kNvtxHasEnd = 4, kNvtxHasColor = 8;
    std::vector<std::uint8_t> m_stageNvtxFlags;  // NvtxStyle | kNvtxHasEnd | kNvtxHasColor
    std::vector<std::uint32_t> m_stageNvtxColor; // ARGB, when kNvtxHasColor
    std::vector<std::pair<std::uint32_t, std::uint32_t>> m_stageNvtxThreads;    // (range, thread)
    std::vector<std::pair<std::uint32_t, std::int32_t>> m_stageNvtxCategories;  // (range, value)
    std::vector<std::pair<std::uint32_t, std::uint32_t>> m_stageNvtxEndThreads; // (range, thread)
    std::vector<CpuOpRecord> m_stageCpuOps;
    // setRowOrderKey(): per lane (by index; none where no key was set), the runs of events of
    // one key, as added. A run per block of rows a lane has events in.
    struct KeyedRun {
        std::int64_t key = 0;
        std::uint32_t first = 0; // the run's first event
    };
    std::vector<std::vector<KeyedRun>> m_keyedRuns;
    std::int64_t m_rowOrderKey = 0;
    bool m_rowOrderKeyed = false;
    std::uint64_t m_clampedEvents = 0;
};

} // namespace strobe
