// SPDX-License-Identifier: MIT
#pragma once

// Writes the subset of the nsys SQLite export schema that Strobe reads. Plain C++ over sqlite3,
// no Qt, nothing GPU-specific: used by strobe-capture's injection library, by
// `strobe-cli synth`, and by tests that need synthetic traces.
//
// Everything goes into a temporary file in one transaction; commit() renames it to the final
// path, so an interrupted writer never leaves a half-written trace behind.

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace strobe::nsys {

// Which exporter version to imitate. Strobe's own captures use the newest.
enum class SchemaFlavor {
    V2_9,  // nsys 2022.2: EXPORT_META_DATA, TARGET_INFO_CUDA_NULL_STREAM, no greenContextId
    V3_13, // nsys 2024.5: META_DATA_EXPORT, greenContextId, TARGET_INFO_CUDA_CONTEXT_INFO
    V3_25, // nsys 2026.2: plus the newer kernel columns and NVTX binaryData
};

// Serialized global ids as nsys writes them: <hw:8><vm:8><pid:24><tid:24>.
inline std::int64_t globalTid(std::uint32_t pid, std::uint32_t tid) {
    return (std::int64_t(pid & 0xFFFFFF) << 24) | std::int64_t(tid & 0xFFFFFF);
}
inline std::int64_t globalPid(std::uint32_t pid) {
    return std::int64_t(pid & 0xFFFFFF) << 24;
}

struct ProcessRow {
    std::uint32_t pid = 0;
    std::string name;
};
struct ThreadRow {
    std::uint32_t pid = 0, tid = 0;
    std::string name;
};
struct GpuRow {
    std::uint32_t id = 0;
    std::string name;
    std::uint32_t smCount = 0;
    std::uint32_t computeMajor = 0, computeMinor = 0;
    std::uint32_t maxThreadsPerBlock = 1024, maxRegistersPerBlock = 65536,
                  maxRegistersPerSm = 65536;
    std::uint32_t maxShmemPerBlock = 49152, maxShmemPerBlockOptin = 0, maxShmemPerSm = 0;
    std::uint32_t threadsPerWarp = 32, maxWarpsPerSm = 64, maxBlocksPerSm = 32;
    std::uint64_t totalMemory = 0, memoryBandwidth = 0, clockRate = 0;
    std::string busLocation;
};
struct StreamRow {
    std::uint32_t pid = 0, contextId = 0, streamId = 0;
    std::int32_t priority = 0;
    std::uint8_t flag = 2; // ENUM_CUPTI_STREAM_TYPE
};
struct KernelRow {
    std::int64_t start = 0, end = 0;
    std::uint32_t pid = 0, deviceId = 0, contextId = 0, streamId = 0;
    std::optional<std::uint32_t> correlationId;
    std::string shortName, demangledName, mangledName; // empty demangled/mangled: same as short
    std::array<std::int32_t, 3> grid{1, 1, 1}, block{1, 1, 1};
    std::uint32_t registersPerThread = 0, staticShared = 0, dynamicShared = 0, localPerThread = 0;
    std::uint64_t localTotal = 0;
    std::uint8_t launchType = 1, cacheConfig = 0, sharedMemLimitConfig = 0;
    std::uint32_t sharedMemoryExecuted = 0;
    std::optional<std::uint64_t> graphNodeId;
};
// ENUM_CUDA_MEM_KIND's Unknown: a copy or memset whose memory kind was not recorded (the
// model's MemoryKind::Unknown; tests/formats/nsys/test_reducedexports.cpp holds them equal).
inline constexpr std::uint8_t kUnknownMemoryKind = 7;

struct MemcpyRow {
    std::int64_t start = 0, end = 0;
    std::uint32_t pid = 0, deviceId = 0, contextId = 0, streamId = 0;
    std::optional<std::uint32_t> correlationId;
    std::uint64_t bytes = 0;
    std::uint8_t copyKind = 1, srcKind = 0,
                 dstKind = 2; // ENUM_CUDA_MEMCPY_OPER / ENUM_CUDA_MEM_KIND
    std::optional<std::uint32_t> srcDeviceId, dstDeviceId;
    std::optional<std::uint8_t> migrationCause;
    std::optional<std::uint64_t> virtualAddress; // page base of a unified-memory migration
};
struct MemsetRow {
    std::int64_t start = 0, end = 0;
    std::uint32_t pid = 0, deviceId = 0, contextId = 0, streamId = 0;
    std::optional<std::uint32_t> correlationId;
    std::uint64_t bytes = 0;
    std::uint32_t value = 0;
    std::uint8_t memKind = 2;
};
struct ApiCallRow { // CUPTI_ACTIVITY_KIND_RUNTIME
    std::int64_t start = 0, end = 0;
    std::uint32_t pid = 0, tid = 0;
    std::uint32_t correlationId = 0;
    std::string name;            // as nsys writes it, e.g. "cudaLaunchKernel_v7000"
    std::uint8_t eventClass = 0; // 0 runtime, 1 driver
    std::int64_t returnValue = 0;
};
struct SyncRow {
    std::int64_t start = 0, end = 0;
    std::uint32_t pid = 0, deviceId = 0, contextId = 0;
    std::uint32_t streamId = 0xFFFFFFFF; // 0xFFFFFFFF: device- or context-wide
    std::uint32_t eventId = 0xFFFFFFFF;
    std::uint8_t syncType = 0;
    std::optional<std::uint32_t> correlationId;
};
// One row of CUDA_GPU_MEMORY_USAGE_EVENTS: an allocation (operation 0) or free (1).
struct GpuMemoryUsageRow {
    std::int64_t start = 0;
    std::uint32_t pid = 0, deviceId = 0, contextId = 0;
    std::uint64_t address = 0, bytes = 0;
    std::uint8_t memKind = 3; // CUDA_MEMOPR_MEMORY_KIND: 3 device
    std::uint8_t operation = 0;
    std::optional<std::uint32_t> correlationId;
};
struct NvtxRow {
    std::int64_t start = 0;
    std::optional<std::int64_t> end; // none: a mark, or a range nsys saw no end of
    std::uint32_t eventType = 59;    // 59 push/pop, 60 start/end, 34 mark, 75 domain create
    std::uint32_t pid = 0, tid = 0;
    std::optional<std::uint32_t> endTid;
    std::string text; // written to `text`, or to `textId` when registered
    bool registered = false;
    std::optional<std::uint64_t> domainId;
    std::optional<std::uint32_t> color; // ARGB
    std::optional<std::int32_t> category;
    std::optional<std::uint64_t> rangeId;
};
struct OsrtRow {
    std::int64_t start = 0, end = 0;
    std::uint32_t pid = 0, tid = 0;
    std::string name;
    std::int64_t returnValue = 0;
    std::uint32_t nestingLevel = 0;
};
struct Metadata {
    std::string productName = "Strobe";
    std::string productVersion; // EXPORT_PRODUCT_VERSION
    std::optional<std::int64_t> sessionStartUtcNs;
    std::vector<std::string> command; // the profiled program and its arguments
    // Further META_DATA_CAPTURE rows (name, value), written after the command line.
    std::vector<std::pair<std::string, std::string>> captureInfo;
};

class Writer {
public:
    // Opens a temporary file beside `path`. On failure returns nullptr and sets `error` to one
    // sentence naming the path and the problem.
    static std::unique_ptr<Writer> create(const std::string& path, SchemaFlavor flavor,
                                          std::string* error);
    ~Writer(); // without commit(): removes the temporary file, the target is untouched

    void setMetadata(const Metadata& meta);
    void addProcess(const ProcessRow& r);
    void addThread(const ThreadRow& r);
    void addGpu(const GpuRow& r);
    void addStream(const StreamRow& r);
    void addKernel(const KernelRow& r);
    void addMemcpy(const MemcpyRow& r);
    void addMemset(const MemsetRow& r);
    void addApiCall(const ApiCallRow& r);
    void addSync(const SyncRow& r);
    void addGpuMemoryUsage(const GpuMemoryUsageRow& r);
    void addNvtx(const NvtxRow& r);
    void addOsrt(const OsrtRow& r);

    // Writes StringIds and metadata, commits, renames into place. False with `error` on failure.
    bool commit(std::string* error);

private:
    struct Impl;
    explicit Writer(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> d;
};

} // namespace strobe::nsys
