// SPDX-License-Identifier: MIT
#pragma once

#include "model/types.h"

#include <array>
#include <cstdint>
#include <optional>

namespace strobe {

struct ProcessInfo {
    std::uint32_t pid = 0;
    StringId name = kNoString;
};

struct ThreadInfo {
    std::uint32_t pid = 0;
    std::uint32_t tid = 0;
    StringId name = kNoString; // empty when nsys recorded no name
    std::uint32_t process = 0; // index into Trace::processes()
};

// One GPU with the properties the viewer and the occupancy calculation need.
// Limits are 0 when the trace did not record them (see hasLimits()).
struct GpuInfo {
    std::uint32_t id = 0; // the deviceId that kernels, memcpys and memsets carry
    StringId name = kNoString;
    std::uint32_t smCount = 0;
    std::uint32_t computeMajor = 0, computeMinor = 0;
    std::uint32_t maxThreadsPerBlock = 0;
    std::uint32_t maxRegistersPerBlock = 0;
    std::uint32_t maxRegistersPerSm = 0;
    std::uint32_t maxShmemPerBlock = 0;
    std::uint32_t maxShmemPerBlockOptin = 0;
    std::uint32_t maxShmemPerSm = 0;
    std::uint32_t threadsPerWarp = 0;
    std::uint32_t maxWarpsPerSm = 0;
    std::uint32_t maxBlocksPerSm = 0;
    std::uint64_t totalMemory = 0;
    std::uint64_t memoryBandwidth = 0; // bytes per second
    std::uint64_t clockRate = 0;       // Hz
    StringId busLocation = kNoString;
    StringId chipName = kNoString; // "GA100", "GH100": names the architecture
    bool hasLimits() const { return smCount > 0 && maxWarpsPerSm > 0 && maxRegistersPerSm > 0; }
};

// A CUDA stream of one context on one device; GPU lanes belong to streams.
struct StreamInfo {
    std::uint32_t deviceId = 0;
    std::uint32_t contextId = 0;
    std::uint32_t streamId = 0;
    std::uint32_t pid = 0;
    std::optional<std::int32_t> priority;
    std::uint8_t flag = 0; // ENUM_CUPTI_STREAM_TYPE: 0 unknown, 1 default, 2 non-blocking, 3 null
};

// Occupancy figures a profiler computed itself and wrote beside the launch (PyTorch's Kineto:
// "blocks per SM", "warps per SM", "est. achieved occupancy %"). Kept as recorded, shown next to
// Strobe's own calculation, never mixed into it.
struct RecordedOccupancy {
    std::optional<float> blocksPerSm;
    std::optional<float> warpsPerSm;
    std::optional<float> achievedOccupancyPercent;
    bool isEmpty() const { return !blocksPerSm && !warpsPerSm && !achievedOccupancyPercent; }
    friend bool operator==(const RecordedOccupancy&, const RecordedOccupancy&) = default;
};

// How much of a kernel's launch configuration the trace recorded.
enum class LaunchDetail : std::uint8_t {
    Complete, // every field of KernelConfig (nsys exports, Strobe captures)
    Basic,    // grid, block, registers and the total shared memory only, kept in
              // staticSharedBytes with dynamicSharedBytes 0 (PyTorch's Kineto traces)
    None,     // no launch configuration at all (ROCm Kineto traces): shown as unknown
};

// Launch fields a reduced export may lack (KernelConfig::unrecorded): they read 0 and are shown
// as unknown.
enum class KernelField : std::uint8_t { Registers = 1, SharedMemory = 2, LocalMemory = 4 };

// Launch configuration shared by many kernel launches: stored once, referenced by id.
struct KernelConfig {
    StringId shortName = kNoString;
    StringId demangledName = kNoString;
    StringId mangledName = kNoString;
    std::array<std::int32_t, 3> grid{};
    std::array<std::int32_t, 3> block{};
    std::uint32_t registersPerThread = 0;
    std::uint32_t staticSharedBytes = 0;
    std::uint32_t dynamicSharedBytes = 0;
    std::uint32_t localBytesPerThread = 0;
    std::uint64_t localBytesTotal = 0;
    std::uint32_t sharedMemoryExecuted = 0;
    std::uint8_t launchType = 0;  // ENUM_CUDA_KERNEL_LAUNCH_TYPE
    std::uint8_t cacheConfig = 0; // ENUM_CUDA_FUNC_CACHE_CONFIG
    std::uint8_t sharedMemLimitConfig = 0;
    LaunchDetail detail = LaunchDetail::Complete;
    // True when shortName was derived from the full name by Strobe, not recorded by the tool.
    bool shortNameDerived = false;
    std::uint8_t unrecorded = 0; // KernelField bits the trace did not record
    bool recorded(KernelField f) const { return (unrecorded & std::uint8_t(f)) == 0; }
    RecordedOccupancy recordedOccupancy;
    friend bool operator==(const KernelConfig&, const KernelConfig&) = default;
};

struct KernelRecord {
    EventRef self;            // where the kernel is drawn
    std::uint32_t config = 0; // index into Trace::kernelConfigs()
    std::uint32_t stream = 0; // index into Trace::streams()
    std::optional<std::uint32_t> correlationId;
    std::optional<std::uint64_t> graphNodeId;
    EventRef api; // the launching API call; invalid when none was recorded
    // A collective's communicator and message as PyTorch 2.x records them beside an NCCL kernel
    // (Kineto args "Process Group Name"; "In msg nelems" times the size of "dtype"): kNoString
    // and nullopt when not recorded.
    StringId processGroup = kNoString;
    std::optional<std::uint64_t> messageBytes;
};

enum class MemcpyKind : std::uint8_t { // ENUM_CUDA_MEMCPY_OPER
    Unknown = 0,
    HtoD = 1,
    DtoH = 2,
    HtoA = 3,
    AtoH = 4,
    AtoA = 5,
    AtoD = 6,
    DtoA = 7,
    DtoD = 8,
    HtoH = 9,
    PtoP = 10,
    UnifiedHtoD = 11,
    UnifiedDtoH = 12,
    UnifiedDtoD = 13,
};

// ENUM_CUDA_MEM_KIND, nsys's numbers; a reader keeps a number it does not know as it is.
enum class MemoryKind : std::uint8_t {
    Pageable = 0,
    Pinned = 1,
    Device = 2,
    Array = 3,
    Managed = 4,
    DeviceStatic = 5,
    ManagedStatic = 6,
    Unknown = 7, // not recorded, or a kind the source names otherwise
};

struct MemcpyRecord {
    EventRef self;
    std::uint32_t stream = 0; // index into Trace::streams(); for migrations the device's first
    std::uint64_t bytes = 0;
    MemcpyKind copyKind = MemcpyKind::Unknown;
    MemoryKind srcKind = MemoryKind::Unknown, dstKind = MemoryKind::Unknown;
    std::optional<std::uint32_t> srcDeviceId, dstDeviceId;
    std::optional<std::uint8_t> migrationCause; // ENUM_CUDA_UNIF_MEM_MIGRATION
    std::optional<std::uint32_t> correlationId;
    EventRef api;
};

struct MemsetRecord {
    EventRef self;
    std::uint32_t stream = 0;
    std::uint64_t bytes = 0;
    std::uint32_t value = 0;
    MemoryKind memKind = MemoryKind::Unknown;
    std::optional<std::uint32_t> correlationId;
    EventRef api;
};

// Field order packs the record into 24 bytes (from 32): millions of these per trace.
struct ApiCallRecord {
    std::uint32_t correlationId = 0;
    std::uint8_t eventClass = 0; // 0 runtime, 1 driver
    EventRef gpuOp;              // kernel, memcpy or memset it launched; invalid when none
    std::int64_t returnValue = 0;
};

// A framework operator or Python frame on a CPU thread (lanes CpuOps and Python); its nesting
// depth is its row.
struct CpuOpRecord {
    std::optional<std::uint32_t> externalId; // ties an operator to the launches inside it
    // The shapes of its inputs as the profiler recorded them (Kineto's `Input Dims`), in Python's
    // list notation ("[[32, 3, 224, 224], [64, 3, 7, 7], [], []]"); kNoString when not recorded.
    StringId inputShapes = kNoString;
};

struct OsrtRecord {
    std::int64_t returnValue = 0;
    std::uint32_t nestingLevel = 0;
};

enum class NvtxStyle : std::uint8_t { PushPop, StartEnd, Mark };

// Field order packs the record into 32 bytes (from 36).
struct NvtxRecord {
    NvtxStyle style = NvtxStyle::PushPop;
    bool hasEnd = true;      // false: nsys recorded no end; drawn to the end of the trace
    std::uint16_t depth = 0; // nesting depth (push/pop) within its thread and domain
    std::optional<std::uint32_t> color; // ARGB
    std::optional<std::int32_t> category;
    std::uint32_t thread = 0;               // index into Trace::threads() of the starting thread
    std::optional<std::uint32_t> endThread; // for start/end ranges ended on another thread
};

// A CUPTI synchronisation record: the CPU waited for the GPU from start to end.
struct SyncRecord {
    TimeNs start = 0;
    TimeNs end = 0;
    std::uint32_t deviceId = 0;
    std::uint32_t contextId = 0;
    std::optional<std::uint32_t> streamId; // none for device- or context-wide syncs
    std::uint8_t syncType = 0;
    std::optional<std::uint32_t> correlationId;
    std::uint32_t pid = 0;
    EventRef api;
};

// A kernel launch with everything the table and detail pane show, assembled by Trace::kernelAt.
struct KernelLaunch {
    TimeNs start = 0;
    TimeNs end = 0;
    TimeNs duration() const { return saturatingSub(end, start); }
    const KernelConfig* config = nullptr;
    const StreamInfo* stream = nullptr;
    KernelRecord record;
};

} // namespace strobe
