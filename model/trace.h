// SPDX-License-Identifier: MIT
#pragma once

#include "model/gpumemory.h"
#include "model/lane.h"
#include "model/recordcolumns.h"
#include "model/records.h"
#include "model/stringtable.h"
#include "model/traceparts.h"
#include "model/types.h"

#include <QString>
#include <array>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace strobe {

// A data anomaly found while loading: counted, shown, never fatal.
struct TraceWarning {
    QString kind; // stable machine-readable key, e.g. "null-end"
    std::uint64_t count = 0;
    QString message; // one sentence for people, with the count
};

// What a Trace holds: all that was read, or a preview a reader sent while loading
// (LoadOptions::preview) to be replaced by the next.
enum class TraceStage : std::uint8_t {
    Complete,     // a finished load
    GpuSide,      // every row of the GPU tables, none of the CPU side yet
    GpuSideBegun, // part of the GPU tables' rows (their first, or a spread sample: see
                  // TraceMetadata::gpuSampleStride), over the whole trace's estimated extent
};

struct TraceMetadata {
    QString format;      // "nsys-sqlite", "kineto-json"
    QString productName; // "Nsight Systems", "Strobe" (own captures), "PyTorch Profiler"
    std::optional<QString> nsysVersion;   // EXPORT_PRODUCT_VERSION
    std::optional<QString> schemaVersion; // EXPORT_SCHEMA_VERSION
    std::optional<std::int64_t> sessionStartUtcNs;
    QString commandLine; // of the profiled program, when recorded
    // Distributed training: which rank of how many processes wrote this trace, when recorded.
    std::optional<std::uint32_t> rank;
    std::optional<std::uint32_t> worldSize;
    QString distributedBackend; // "nccl", "gloo"; empty when not recorded
    // What the reader read (LoadOptions::parts). A part left out has no lanes, records or
    // warnings, and its counts are 0 meaning "not read", never "none recorded".
    TraceParts loadedParts = kAllTraceParts;
    TraceStage stage = TraceStage::Complete; // never cached: previews are not
    // Of a GpuSideBegun preview read in sampled passes (LoadOptions::gpuSampleMinRows): it holds
    // one block of rowids in every gpuSampleStride of each GPU table, spread over the whole
    // table (a power of two above 1). 1 for every other trace: the first rows of the GPU tables,
    // or all of them.
    std::uint32_t gpuSampleStride = 1;
};

// Counts of the source tables' rows, with the meaning `strobe-cli info` documents.
struct TraceCounts {
    std::uint64_t kernels = 0;
    std::uint64_t memcpys = 0;
    std::uint64_t memsets = 0;
    std::uint64_t cudaApiCalls = 0;
    std::uint64_t nvtxRanges = 0;
    std::uint64_t nvtxMarks = 0;
    std::uint64_t osrtCalls = 0;
    std::uint64_t syncs = 0;
    std::uint64_t cpuOps = 0;          // framework operators (lanes of kind CpuOps)
    std::uint64_t pythonFunctions = 0; // Python frames (lanes of kind Python)
};

// A loaded trace. Built by a loader, then frozen by finalize(): afterwards nothing moves and
// every reader may share it across threads without locks.
class Trace {
    // Decoders of the record tables (kernels(), apiCalls(), nvtx(), cpuOps()).
    KernelRecord kernelRecord(std::uint32_t i) const;
    ApiCallRecord apiCallRecord(std::uint32_t i) const;
    NvtxRecord nvtxRecord(std::uint32_t i) const;
    CpuOpRecord cpuOpRecord(std::uint32_t i) const;

public:
    Trace();
    ~Trace();
    Trace(const Trace&) = delete;
    Trace& operator=(const Trace&) = delete;

    QString filePath() const { return m_filePath; }
    const TraceMetadata& metadata() const { return m_meta; }
    const TraceCounts& counts() const { return m_counts; }
    const std::vector<TraceWarning>& warnings() const { return m_warnings; }
    // [first event start, last event end); empty range when the trace has no events.
    TimeRange timeRange() const { return m_range; }

    const StringTable& strings() const { return m_strings; }
    QString string(StringId id) const { return m_strings.string(id); }

    const std::vector<ProcessInfo>& processes() const { return m_processes; }
    const std::vector<ThreadInfo>& threads() const { return m_threads; }
    const std::vector<GpuInfo>& gpus() const { return m_gpus; }
    const std::vector<StreamInfo>& streams() const { return m_streams; }
    // The GPU with this deviceId, or nullptr; O(log GPUs) (gpus() is sorted by id).
    const GpuInfo* gpuById(std::uint32_t deviceId) const;

    const std::vector<Lane>& lanes() const { return m_lanes; }
    const Lane& lane(std::uint32_t i) const { return m_lanes[i]; }

    // The record tables. Each reads as a table of the record structs of model/records.h, decoded
    // on access from slimmer storage (the private section below): index them with
    // Lane::payload(). Loops over millions of records use the field accessors instead, which read
    // one field without decoding the rest.
    using KernelTable = RecordView<Trace, KernelRecord, &Trace::kernelRecord>;
    using ApiCallTable = RecordView<Trace, ApiCallRecord, &Trace::apiCallRecord>;
    using NvtxTable = RecordView<Trace, NvtxRecord, &Trace::nvtxRecord>;
    using CpuOpTable = RecordView<Trace, CpuOpRecord, &Trace::cpuOpRecord>;

    // Kernels ordered by start (ties by lane, then lane order).
    std::size_t kernelCount() const { return m_kernels.size(); }
    KernelLaunch kernelAt(std::size_t i) const;
    KernelTable kernels() const { return KernelTable(*this, m_kernels.size()); }
    // Where kernel i is drawn, and its launch configuration, without decoding the rest.
    EventRef kernelRef(std::size_t i) const {
        return eventAtPosition(LaneFamily::Kernels, m_kernels[i].self);
    }
    std::uint32_t kernelConfigIndex(std::size_t i) const { return m_kernels[i].config; }
    // The API call that launched kernel i, without decoding the rest; invalid when none.
    EventRef kernelApi(std::size_t i) const {
        return m_kernels[i].api != kNoRecord ? refOfRecord(LaneFamily::ApiCalls, m_kernels[i].api)
                                             : EventRef{};
    }
    // True when API call i is a driver call (ApiCallRecord::eventClass 1).
    bool apiIsDriver(std::uint32_t i) const { return m_apiDriver.test(i); }
    std::uint32_t kernelStreamIndex(std::size_t i) const {
        return m_lanes[kernelRef(i).lane].owner();
    }
    const std::vector<KernelConfig>& kernelConfigs() const { return m_kernelConfigs; }
    const std::vector<MemcpyRecord>& memcpys() const { return m_memcpys; }
    const std::vector<MemsetRecord>& memsets() const { return m_memsets; }
    ApiCallTable apiCalls() const { return ApiCallTable(*this, m_apiCalls.size()); }
    // The kernel, memcpy or memset API call i launched; invalid when none.
    EventRef apiGpuOp(std::uint32_t i) const;
    const std::vector<OsrtRecord>& osrtCalls() const { return m_osrt; }
    CpuOpTable cpuOps() const {
        return CpuOpTable(*this, m_cpuOpExternal.size());
    } // CpuOps, Python
    // CPU op i's recorded input shapes (CpuOpRecord::inputShapes) without decoding the rest.
    StringId cpuOpInputShapes(std::uint32_t i) const {
        return m_cpuOpShapes.at(i).value_or(kNoString);
    }
    // Calls fn(i, shapes) for each CPU op i in [first, last) with recorded input shapes, in
    // order: a loop over a lane's records without a search per record.
    template <typename Fn>
    void forEachCpuOpInputShapes(std::uint32_t first, std::uint32_t last, Fn&& fn) const {
        m_cpuOpShapes.forEachIn(first, last, std::forward<Fn>(fn));
    }
    NvtxTable nvtx() const { return NvtxTable(*this, m_nvtx.size()); }
    std::optional<std::uint32_t> nvtxColor(std::uint32_t i) const { return m_nvtxColor.at(i); }
    NvtxStyle nvtxStyle(std::uint32_t i) const { return NvtxStyle((m_nvtx[i] >> 16) & 3); }
    std::uint16_t nvtxDepth(std::uint32_t i) const { return std::uint16_t(m_nvtx[i]); }
    bool nvtxHasEnd(std::uint32_t i) const { return ((m_nvtx[i] >> 18) & 1) != 0; }
    const std::vector<SyncRecord>& syncs() const { return m_syncs; }
    // GPU memory use over time, one track per GPU that recorded any, by device id.
    const std::vector<GpuMemoryTrack>& gpuMemory() const { return m_gpuMemory; }
    // The track of `deviceId`, or nullptr when the trace recorded none for it.
    const GpuMemoryTrack* gpuMemoryOf(std::uint32_t deviceId) const;

    // The event whose record is `index` in its family's table (Lane::payload's inverse).
    EventRef refOfRecord(LaneFamily family, std::uint32_t index) const;

    // Index into kernels() of the kernel drawn at `ref`, if it is one.
    std::optional<std::uint32_t> kernelIndexOf(EventRef ref) const;
    // The launching API call of a GPU operation, or the GPU operation of an API call.
    EventRef partnerOf(EventRef ref) const;

    // Label shown in the lane header and by `strobe-cli info`: owner and kind,
    // "python [4242] / CUDA API", "GPU 0 (NVIDIA H100) / Stream 7 / Kernels".
    QString laneLabel(std::uint32_t lane) const;
    // The kind part alone: "CUDA API", "NVTX (MPI)", "Kernels".
    QString laneKindLabel(std::uint32_t lane) const;
    // "GPU 0 (NVIDIA H100 80GB HBM3)", or "GPU 0" when the export did not name it.
    QString gpuLabel(std::uint32_t deviceId) const;
    // Which parts threadLabel gives: the lane headers and gap sentences say "python [4242]",
    // the event details add the process, "python [4242] (pid 4242)".
    enum class ThreadLabelForm : std::uint8_t { NameAndTid, WithPid };
    // Thread `thread` (index into threads()) for people: its name ("Thread" when unnamed) and
    // tid, in `form`; "unknown" for an index past threads().
    QString threadLabel(std::uint32_t thread,
                        ThreadLabelForm form = ThreadLabelForm::NameAndTid) const;
    // Process `process` (index into processes()): "python [4242]", "Process [4242]" when
    // unnamed; "unknown" for an index past processes().
    QString processLabel(std::uint32_t process) const;

    std::size_t memoryBytes() const;
    // Where memoryBytes() goes: one row per lane kind (the lanes' own storage) and per record
    // table, in a fixed order; rows with no events are left out.
    struct MemoryUse {
        QString what;             // "Kernels lanes", "kernel records", "strings"
        std::uint64_t events = 0; // events (or records) the row's bytes hold
        std::size_t bytes = 0;
    };
    std::vector<MemoryUse> memoryBreakdown() const;

private:
    friend class TraceBuilder;
    friend class TraceCodec; // the reopen cache (formats/cache) stores and restores every member

    QString m_filePath;
    TraceMetadata m_meta;
    TraceCounts m_counts;
    std::vector<TraceWarning> m_warnings;
    TimeRange m_range;
    StringTable m_strings;
    std::vector<ProcessInfo> m_processes;
    std::vector<ThreadInfo> m_threads;
    std::vector<GpuInfo> m_gpus;
    std::vector<StreamInfo> m_streams;
    std::vector<Lane> m_lanes;

    // Record storage. Every table but the kernels' is in lane order: the lanes of one family
    // (m_familyLanes, in lane order) hold consecutive runs of it from their recordBase(), so a
    // record index and an EventRef convert into each other without a stored link. Kernels are in
    // start order; their lanes keep an explicit payload column and each kernel its position in
    // the family. Fields most records lack live in sparse columns.
    static constexpr std::uint32_t kNoRecord = 0xFFFFFFFF;
    std::array<std::vector<std::uint32_t>, kLaneFamilies> m_familyLanes;
    struct KernelSlot {
        std::uint32_t self = 0;        // position among the kernel lanes' events
        std::uint32_t config = 0;      // index into m_kernelConfigs
        std::uint32_t api = kNoRecord; // index into m_apiCalls of the launching call
    };
    std::vector<KernelSlot> m_kernels;
    SparseColumn<std::uint32_t> m_kernelCorrelation; // kernels not linked to an API call
    SparseColumn<std::uint64_t> m_kernelGraphNode;
    SparseColumn<StringId> m_kernelProcessGroup;      // collectives' KernelRecord::processGroup
    SparseColumn<std::uint64_t> m_kernelMessageBytes; // and messageBytes
    std::vector<KernelConfig> m_kernelConfigs;
    std::vector<MemcpyRecord> m_memcpys;
    std::vector<MemsetRecord> m_memsets;
    struct ApiSlot {
        std::uint32_t correlationId = 0;
        std::uint32_t gpuOp = 0; // GpuOpTag in the top two bits, the record index below
    };
    enum GpuOpTag : std::uint32_t { kNoGpuOp = 0, kKernelOp = 1, kMemcpyOp = 2, kMemsetOp = 3 };
    static constexpr std::uint32_t kGpuOpIndexMask = 0x3FFFFFFF;
    std::vector<ApiSlot> m_apiCalls;
    BitColumn m_apiDriver;                  // eventClass 1
    SparseColumn<std::int64_t> m_apiReturn; // non-zero return values
    std::vector<OsrtRecord> m_osrt;
    std::vector<std::uint32_t> m_cpuOpExternal;
    BitColumn m_cpuOpHasExternal;
    SparseColumn<StringId> m_cpuOpShapes; // operators that recorded their input shapes
    std::vector<std::uint32_t> m_nvtx;    // depth (16 bits) | style << 16 | hasEnd << 18
    SparseColumn<std::uint32_t> m_nvtxColor;
    SparseColumn<std::int32_t> m_nvtxCategory;
    SparseColumn<std::uint32_t> m_nvtxThread; // start/end ranges; else the lane's thread
    SparseColumn<std::uint32_t> m_nvtxEndThread;
    std::vector<SyncRecord> m_syncs;
    std::vector<GpuMemoryTrack> m_gpuMemory;

    EventRef refOfGpuOp(std::uint32_t tagged) const;
    // The event at `position` among the events of the family's lanes, in lane order.
    EventRef eventAtPosition(LaneFamily family, std::uint32_t position) const;
};

} // namespace strobe
