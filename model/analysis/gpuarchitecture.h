// SPDX-License-Identifier: MIT
#pragma once

// What Strobe knows about a GPU without the trace telling it: per-architecture limits by compute
// capability, and the compute capability of GPU product and chip names. Used when an export has
// no TARGET_INFO_GPU limits (a reduced export, or one that never had them).

#include "model/records.h"

#include <QString>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace strobe {

class Trace;

struct ComputeCapability {
    std::uint32_t major = 0, minor = 0;
    QString toString() const { return QString::number(major) + u'.' + QString::number(minor); }
    friend bool operator==(const ComputeCapability&, const ComputeCapability&) = default;
};

// One row of the CUDA C++ Programming Guide's "Compute capabilities" table (technical
// specifications per compute capability), plus the allocation rules of the CUDA occupancy
// calculator (cuda_occupancy.h) that the guide does not list.
struct ArchitectureLimits {
    ComputeCapability cc;
    std::uint32_t maxWarpsPerSm = 0;
    std::uint32_t maxBlocksPerSm = 0;
    std::uint32_t registersPerSm = 0;            // 32-bit registers
    std::uint32_t maxRegistersPerBlock = 0;      // 32-bit registers
    std::uint32_t maxRegistersPerThread = 0;     // 255 on every listed architecture
    std::uint32_t registerAllocationUnit = 0;    // registers, allocated per warp
    std::uint32_t warpAllocationGranularity = 0; // warps (register file sub-partitions)
    std::uint32_t sharedPerSm = 0;               // bytes
    std::uint32_t sharedPerBlock = 0;            // bytes without opting in (48 KiB)
    std::uint32_t sharedPerBlockOptin = 0;       // bytes, the most one block may opt in to
    std::uint32_t sharedAllocationUnit = 0;      // bytes
    std::uint32_t sharedReservedPerBlock = 0;    // bytes the driver keeps per block (8.0 and up)
    std::uint32_t maxThreadsPerBlock = 0;
    std::uint32_t threadsPerWarp = 0;
};

// Every architecture of the table, compute capability 5.0 to 12.1, in ascending order.
std::span<const ArchitectureLimits> architectureTable();
// The row for `cc`; nullptr when the table has none (before 5.0, or newer than it knows).
const ArchitectureLimits* architectureLimits(ComputeCapability cc);
// The compute capability of a GPU product name ("NVIDIA H100 80GB HBM3" -> 9.0, "Tesla T4" ->
// 7.5) or chip name ("GA100" -> 8.0); none for a name the table does not know. Case-insensitive.
std::optional<ComputeCapability> computeCapabilityOfName(std::string_view name);

// Where the limits an occupancy calculation uses came from.
enum class GpuLimitsSource : std::uint8_t {
    Trace,             // the trace recorded them (nsys TARGET_INFO_GPU, Kineto deviceProperties)
    ArchitectureTable, // architectureTable(), by a compute capability the trace recorded or
                       // one derived from the GPU's name
    Unknown,           // neither: see GpuLimits::basis
};

// How resolveGpuLimits found the limits, or what it missed (model/reports' gpuLimitsNote says it).
enum class GpuLimitsBasis : std::uint8_t {
    Trace,                // the trace records them all
    RecordedCapability,   // the table, by the compute capability the trace records
    CapabilityOfName,     // the table, by the capability `name` implies
    CapabilityNotInTable, // unknown: the recorded capability is outside the table
    NameNotInTable,       // unknown: no limits or capability, and `name` is not a known GPU
    NothingRecorded,      // unknown: no limits, capability or name
};

struct GpuLimits {
    GpuInfo gpu; // the trace's GPU; with source ArchitectureTable its limits are the table's
    GpuLimitsSource source = GpuLimitsSource::Unknown;
    GpuLimitsBasis basis = GpuLimitsBasis::Trace;
    ComputeCapability capability; // the one looked up in the table (or not found there)
    QString name; // CapabilityOfName: the name it came from; NameNotInTable: the GPU's name
};

// The limits for occupancy on `gpu` (whose strings live in `trace`): the trace's own when it has
// them all, else the architecture table's for the compute capability the trace records or the
// GPU's product or chip name implies.
GpuLimits resolveGpuLimits(const Trace& trace, const GpuInfo& gpu);
// As above for the GPU with this device id; a GPU the trace does not list at all is Unknown.
GpuLimits resolveGpuLimits(const Trace& trace, std::uint32_t deviceId);

// "trace", "architecture-table", "unknown": the key scripts read (strobe-cli info --json).
QString gpuLimitsSourceKey(GpuLimitsSource source);

} // namespace strobe
