// SPDX-License-Identifier: MIT
#pragma once

#include "model/gpumemory.h"
#include "model/lane.h"
#include "model/records.h"
#include "model/stringtable.h"
#include "model/types.h"

#include <QString>
#include <memory>
#include <optional>
#include <vector>

namespace strobe {

// A data anomaly found while loading: counted, shown, never fatal.
struct TraceWarning {
    QString kind; // stable machine-readable key, e.g. "null-end"
    std::uint64_t count = 0;
    QString message; // one sentence for people, with the count
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
    // The GPU with this deviceId, or nullptr.
    const GpuInfo* gpuById(std::uint32_t deviceId) const;

    const std::vector<Lane>& lanes() const { return m_lanes; }
    const Lane& lane(std::uint32_t i) const { return m_lanes[i]; }

    // Kernels ordered by start (ties by lane, then lane order).
    std::size_t kernelCount() const { return m_kernels.size(); }
    KernelLaunch kernelAt(std::size_t i) const;
    const std::vector<KernelRecord>& kernels() const { return m_kernels; }
    const std::vector<KernelConfig>& kernelConfigs() const { return m_kernelConfigs; }
    const std::vector<MemcpyRecord>& memcpys() const { return m_memcpys; }
    const std::vector<MemsetRecord>& memsets() const { return m_memsets; }
    const std::vector<ApiCallRecord>& apiCalls() const { return m_apiCalls; }
    const std::vector<OsrtRecord>& osrtCalls() const { return m_osrt; }
    const std::vector<CpuOpRecord>& cpuOps() const { return m_cpuOps; } // CpuOps and Python lanes
    const std::vector<NvtxRecord>& nvtx() const { return m_nvtx; }
    const std::vector<SyncRecord>& syncs() const { return m_syncs; }
    // GPU memory use over time, one track per GPU that recorded any, by device id.
    const std::vector<GpuMemoryTrack>& gpuMemory() const { return m_gpuMemory; }
    // The track of `deviceId`, or nullptr when the trace recorded none for it.
    const GpuMemoryTrack* gpuMemoryOf(std::uint32_t deviceId) const;

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

    std::size_t memoryBytes() const;

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
    std::vector<KernelRecord> m_kernels;
    std::vector<KernelConfig> m_kernelConfigs;
    std::vector<MemcpyRecord> m_memcpys;
    std::vector<MemsetRecord> m_memsets;
    std::vector<ApiCallRecord> m_apiCalls;
    std::vector<OsrtRecord> m_osrt;
    std::vector<CpuOpRecord> m_cpuOps;
    std::vector<NvtxRecord> m_nvtx;
    std::vector<SyncRecord> m_syncs;
    std::vector<GpuMemoryTrack> m_gpuMemory;
};

} // namespace strobe
