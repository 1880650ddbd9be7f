// SPDX-License-Identifier: MIT
#pragma once

// The nsys SQLite export schema, spelled once: every table and column name that Strobe's nsys
// reader reads and its writer writes. Plain C++ (no Qt), header only, so that the Qt reader,
// the Qt-free writer and strobe-capture's injection library share it.
//
// Per table: `table` (its name; `tableV2_9` where 2.x exports spelled it differently), `Col`
// (column ids, named exactly as the SQL columns), `columns` (name, declared SQL type and the
// export versions that carry it, in the order of real exports: the writer's CREATE TABLE),
// `col(c)` (a column's name), and the reader's contract: `readRequired` (a file lacking one is
// rejected) and `readOptional` (read when present). shared/NSYS_SCHEMA.md explains the columns.

#include <cstddef>
#include <initializer_list>
#include <iterator>
#include <string_view>

namespace strobe::nsys::schema {

// Which export versions carry a column or a table: the exporters only ever add columns, so one
// bit per imitated version (nsys 2022.2 = 2.9.1, 2024.5 = 3.13.2, 2026.2 = 3.25.0).
inline constexpr unsigned kV2_9 = 1, kV3_13 = 2, kV3_25 = 4;
inline constexpr unsigned kV3x = kV3_13 | kV3_25, kAllVersions = kV2_9 | kV3x;

struct Column {
    int id;                // the table's Col value; columns[id].id == id
    std::string_view name; // as the exporter spells it
    std::string_view type; // declared type and constraints, e.g. "INTEGER NOT NULL"
    unsigned versions = kAllVersions;
};

// clang-format off

// --- GPU activity ----------------------------------------------------------------------------

struct Kernel {
    static constexpr std::string_view table = "CUPTI_ACTIVITY_KIND_KERNEL";
    static constexpr unsigned versions = kAllVersions;
    enum Col {
        start, end, deviceId, contextId, greenContextId, streamId, correlationId, globalPid,
        demangledName, shortName, mangledName, launchType, cacheConfig, registersPerThread, gridX,
        gridY, gridZ, blockX, blockY, blockZ, staticSharedMemory, dynamicSharedMemory,
        localMemoryPerThread, localMemoryTotal, gridId, sharedMemoryExecuted, graphNodeId,
        sharedMemoryLimitConfig, qmdBulkReleaseDone, qmdPreexitDone, qmdLastCtaDone, graphId,
        clusterX, clusterY, clusterZ, clusterSchedulingPolicy, maxPotentialClusterSize,
        maxActiveClusters, sharedMemoryRequestedPercentage, tensorSizeMinusOneElements, count
    };
    static constexpr Column columns[] = {
        {start, "start", "INTEGER NOT NULL"},
        {end, "end", "INTEGER NOT NULL"},
        {deviceId, "deviceId", "INTEGER NOT NULL"},
        {contextId, "contextId", "INTEGER NOT NULL"},
        {greenContextId, "greenContextId", "INTEGER", kV3x},
        {streamId, "streamId", "INTEGER NOT NULL"},
        {correlationId, "correlationId", "INTEGER"},
        {globalPid, "globalPid", "INTEGER"},
        {demangledName, "demangledName", "INTEGER NOT NULL"},
        {shortName, "shortName", "INTEGER NOT NULL"},
        {mangledName, "mangledName", "INTEGER"},
        {launchType, "launchType", "INTEGER"},
        {cacheConfig, "cacheConfig", "INTEGER"},
        {registersPerThread, "registersPerThread", "INTEGER NOT NULL"},
        {gridX, "gridX", "INTEGER NOT NULL"},
        {gridY, "gridY", "INTEGER NOT NULL"},
        {gridZ, "gridZ", "INTEGER NOT NULL"},
        {blockX, "blockX", "INTEGER NOT NULL"},
        {blockY, "blockY", "INTEGER NOT NULL"},
        {blockZ, "blockZ", "INTEGER NOT NULL"},
        {staticSharedMemory, "staticSharedMemory", "INTEGER NOT NULL"},
        {dynamicSharedMemory, "dynamicSharedMemory", "INTEGER NOT NULL"},
        {localMemoryPerThread, "localMemoryPerThread", "INTEGER NOT NULL"},
        {localMemoryTotal, "localMemoryTotal", "INTEGER NOT NULL"},
        {gridId, "gridId", "INTEGER NOT NULL"},
        {sharedMemoryExecuted, "sharedMemoryExecuted", "INTEGER"},
        {graphNodeId, "graphNodeId", "INTEGER"},
        {sharedMemoryLimitConfig, "sharedMemoryLimitConfig", "INTEGER"},
        {qmdBulkReleaseDone, "qmdBulkReleaseDone", "INTEGER", kV3_25},
        {qmdPreexitDone, "qmdPreexitDone", "INTEGER", kV3_25},
        {qmdLastCtaDone, "qmdLastCtaDone", "INTEGER", kV3_25},
        {graphId, "graphId", "INTEGER", kV3_25},
        {clusterX, "clusterX", "INTEGER", kV3_25},
        {clusterY, "clusterY", "INTEGER", kV3_25},
        {clusterZ, "clusterZ", "INTEGER", kV3_25},
        {clusterSchedulingPolicy, "clusterSchedulingPolicy", "INTEGER", kV3_25},
        {maxPotentialClusterSize, "maxPotentialClusterSize", "INTEGER", kV3_25},
        {maxActiveClusters, "maxActiveClusters", "INTEGER", kV3_25},
        {sharedMemoryRequestedPercentage, "sharedMemoryRequestedPercentage", "INTEGER", kV3_25},
        {tensorSizeMinusOneElements, "tensorSizeMinusOneElements", "TEXT NOT NULL", kV3_25},
    };
    static constexpr std::initializer_list<Col> readRequired = {
        start, end, deviceId, contextId, streamId, shortName};
    static constexpr std::initializer_list<Col> readOptional = {
        correlationId, globalPid, demangledName, mangledName, launchType, cacheConfig,
        registersPerThread, gridX, gridY, gridZ, blockX, blockY, blockZ, staticSharedMemory,
        dynamicSharedMemory, localMemoryPerThread, localMemoryTotal, sharedMemoryExecuted,
        graphNodeId, sharedMemoryLimitConfig};
    static constexpr std::string_view col(Col c) { return columns[c].name; }
};

struct Memcpy {
    static constexpr std::string_view table = "CUPTI_ACTIVITY_KIND_MEMCPY";
    static constexpr unsigned versions = kAllVersions;
    enum Col {
        start, end, deviceId, contextId, greenContextId, streamId, correlationId, globalPid,
        bytes, copyKind, deprecatedSrcId, srcKind, dstKind, srcDeviceId, srcContextId,
        dstDeviceId, dstContextId, migrationCause, graphNodeId, virtualAddress, copyCount, count
    };
    static constexpr Column columns[] = {
        {start, "start", "INTEGER NOT NULL"},
        {end, "end", "INTEGER NOT NULL"},
        {deviceId, "deviceId", "INTEGER NOT NULL"},
        {contextId, "contextId", "INTEGER NOT NULL"},
        {greenContextId, "greenContextId", "INTEGER", kV3x},
        {streamId, "streamId", "INTEGER NOT NULL"},
        {correlationId, "correlationId", "INTEGER"},
        {globalPid, "globalPid", "INTEGER"},
        {bytes, "bytes", "INTEGER NOT NULL"},
        {copyKind, "copyKind", "INTEGER NOT NULL"},
        {deprecatedSrcId, "deprecatedSrcId", "INTEGER"},
        {srcKind, "srcKind", "INTEGER"},
        {dstKind, "dstKind", "INTEGER"},
        {srcDeviceId, "srcDeviceId", "INTEGER"},
        {srcContextId, "srcContextId", "INTEGER"},
        {dstDeviceId, "dstDeviceId", "INTEGER"},
        {dstContextId, "dstContextId", "INTEGER"},
        {migrationCause, "migrationCause", "INTEGER"},
        {graphNodeId, "graphNodeId", "INTEGER"},
        {virtualAddress, "virtualAddress", "INTEGER"},
        {copyCount, "copyCount", "INTEGER", kV3_25},
    };
    static constexpr std::initializer_list<Col> readRequired = {
        start, end, deviceId, contextId, streamId, bytes, copyKind};
    static constexpr std::initializer_list<Col> readOptional = {
        correlationId, globalPid, srcKind, dstKind, srcDeviceId, dstDeviceId, migrationCause};
    static constexpr std::string_view col(Col c) { return columns[c].name; }
};

struct Memset {
    static constexpr std::string_view table = "CUPTI_ACTIVITY_KIND_MEMSET";
    static constexpr unsigned versions = kAllVersions;
    enum Col {
        start, end, deviceId, contextId, greenContextId, streamId, correlationId, globalPid,
        value, bytes, graphNodeId, memKind, count
    };
    static constexpr Column columns[] = {
        {start, "start", "INTEGER NOT NULL"},
        {end, "end", "INTEGER NOT NULL"},
        {deviceId, "deviceId", "INTEGER NOT NULL"},
        {contextId, "contextId", "INTEGER NOT NULL"},
        {greenContextId, "greenContextId", "INTEGER", kV3x},
        {streamId, "streamId", "INTEGER NOT NULL"},
        {correlationId, "correlationId", "INTEGER"},
        {globalPid, "globalPid", "INTEGER"},
        {value, "value", "INTEGER NOT NULL"},
        {bytes, "bytes", "INTEGER NOT NULL"},
        {graphNodeId, "graphNodeId", "INTEGER"},
        {memKind, "memKind", "INTEGER"},
    };
    static constexpr std::initializer_list<Col> readRequired = {
        start, end, deviceId, contextId, streamId, bytes};
    static constexpr std::initializer_list<Col> readOptional = {
        correlationId, globalPid, value, memKind};
    static constexpr std::string_view col(Col c) { return columns[c].name; }
};

struct Sync {
    static constexpr std::string_view table = "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION";
    static constexpr unsigned versions = kAllVersions;
    enum Col {
        start, end, deviceId, contextId, greenContextId, streamId, correlationId, globalPid,
        deprecatedSyncType, syncType, eventId, eventSyncId, count
    };
    static constexpr Column columns[] = {
        {start, "start", "INTEGER NOT NULL"},
        {end, "end", "INTEGER NOT NULL"},
        {deviceId, "deviceId", "INTEGER NOT NULL"},
        {contextId, "contextId", "INTEGER NOT NULL"},
        {greenContextId, "greenContextId", "INTEGER", kV3x},
        {streamId, "streamId", "INTEGER NOT NULL"},
        {correlationId, "correlationId", "INTEGER"},
        {globalPid, "globalPid", "INTEGER"},
        {deprecatedSyncType, "deprecatedSyncType", "INTEGER", kV3_25},
        {syncType, "syncType", "INTEGER NOT NULL"},
        {eventId, "eventId", "INTEGER NOT NULL"},
        {eventSyncId, "eventSyncId", "INTEGER", kV3_25},
    };
    static constexpr std::initializer_list<Col> readRequired = {start, end};
    static constexpr std::initializer_list<Col> readOptional = {
        deviceId, contextId, streamId, correlationId, globalPid, syncType};
    static constexpr std::string_view col(Col c) { return columns[c].name; }
};

// --- CPU side --------------------------------------------------------------------------------

struct Runtime { // CUDA runtime and driver API calls
    static constexpr std::string_view table = "CUPTI_ACTIVITY_KIND_RUNTIME";
    static constexpr unsigned versions = kAllVersions;
    enum Col {
        start, end, eventClass, globalTid, correlationId, nameId, returnValue, callchainId, count
    };
    static constexpr Column columns[] = {
        {start, "start", "INTEGER NOT NULL"},
        {end, "end", "INTEGER NOT NULL"},
        {eventClass, "eventClass", "INTEGER NOT NULL"},
        {globalTid, "globalTid", "INTEGER"},
        {correlationId, "correlationId", "INTEGER"},
        {nameId, "nameId", "INTEGER NOT NULL"},
        {returnValue, "returnValue", "INTEGER NOT NULL"},
        {callchainId, "callchainId", "INTEGER"},
    };
    static constexpr std::initializer_list<Col> readRequired = {
        start, end, globalTid, correlationId, nameId};
    static constexpr std::initializer_list<Col> readOptional = {eventClass, returnValue};
    static constexpr std::string_view col(Col c) { return columns[c].name; }
};

struct Nvtx {
    static constexpr std::string_view table = "NVTX_EVENTS";
    static constexpr unsigned versions = kAllVersions;
    enum Col {
        start, end, eventType, rangeId, category, color, text, globalTid, endGlobalTid, textId,
        domainId, uint64Value, int64Value, doubleValue, uint32Value, int32Value, floatValue,
        jsonTextId, jsonText, binaryData, count
    };
    static constexpr Column columns[] = {
        {start, "start", "INTEGER NOT NULL"},
        {end, "end", "INTEGER"},
        {eventType, "eventType", "INTEGER NOT NULL"},
        {rangeId, "rangeId", "INTEGER"},
        {category, "category", "INTEGER"},
        {color, "color", "INTEGER"},
        {text, "text", "TEXT"},
        {globalTid, "globalTid", "INTEGER"},
        {endGlobalTid, "endGlobalTid", "INTEGER"},
        {textId, "textId", "INTEGER"},
        {domainId, "domainId", "INTEGER"},
        {uint64Value, "uint64Value", "INTEGER"},
        {int64Value, "int64Value", "INTEGER"},
        {doubleValue, "doubleValue", "REAL"},
        {uint32Value, "uint32Value", "INTEGER"},
        {int32Value, "int32Value", "INTEGER"},
        {floatValue, "floatValue", "REAL"},
        {jsonTextId, "jsonTextId", "INTEGER"},
        {jsonText, "jsonText", "TEXT"},
        {binaryData, "binaryData", "TEXT", kV3_25},
    };
    static constexpr std::initializer_list<Col> readRequired = {start, eventType};
    static constexpr std::initializer_list<Col> readOptional = {
        end, globalTid, endGlobalTid, text, textId, domainId, color, category};
    static constexpr std::string_view col(Col c) { return columns[c].name; }
};

struct Osrt { // OS runtime calls
    static constexpr std::string_view table = "OSRT_API";
    static constexpr unsigned versions = kAllVersions;
    enum Col {
        start, end, eventClass, globalTid, nameId, returnValue, nestingLevel, callchainId,
        argumentsId, count
    };
    static constexpr Column columns[] = {
        {start, "start", "INTEGER NOT NULL"},
        {end, "end", "INTEGER NOT NULL"},
        {eventClass, "eventClass", "INTEGER NOT NULL"},
        {globalTid, "globalTid", "INTEGER"},
        {nameId, "nameId", "INTEGER NOT NULL"},
        {returnValue, "returnValue", "INTEGER NOT NULL"},
        {nestingLevel, "nestingLevel", "INTEGER"},
        {callchainId, "callchainId", "INTEGER NOT NULL"},
        {argumentsId, "argumentsId", "INTEGER NOT NULL", kV3_25},
    };
    static constexpr std::initializer_list<Col> readRequired = {start, end, globalTid, nameId};
    static constexpr std::initializer_list<Col> readOptional = {
        eventClass, returnValue, nestingLevel};
    static constexpr std::string_view col(Col c) { return columns[c].name; }
};

// --- names and the target --------------------------------------------------------------------

struct StringIds {
    static constexpr std::string_view table = "StringIds";
    static constexpr unsigned versions = kAllVersions;
    enum Col { id, value, count };
    static constexpr Column columns[] = {
        {id, "id", "INTEGER NOT NULL PRIMARY KEY"},
        {value, "value", "TEXT NOT NULL"},
    };
    static constexpr std::initializer_list<Col> readRequired = {id, value};
    static constexpr std::initializer_list<Col> readOptional = {};
    static constexpr std::string_view col(Col c) { return columns[c].name; }
};

struct ThreadNames {
    static constexpr std::string_view table = "ThreadNames";
    static constexpr unsigned versions = kAllVersions;
    enum Col { nameId, priority, globalTid, count };
    static constexpr Column columns[] = {
        {nameId, "nameId", "INTEGER NOT NULL"},
        {priority, "priority", "INTEGER"},
        {globalTid, "globalTid", "INTEGER"},
    };
    static constexpr std::initializer_list<Col> readRequired = {nameId, globalTid};
    static constexpr std::initializer_list<Col> readOptional = {};
    static constexpr std::string_view col(Col c) { return columns[c].name; }
};

struct Processes {
    static constexpr std::string_view table = "PROCESSES";
    static constexpr unsigned versions = kAllVersions;
    enum Col { globalPid, pid, name, count };
    static constexpr Column columns[] = {
        {globalPid, "globalPid", "INTEGER"},
        {pid, "pid", "INTEGER"},
        {name, "name", "TEXT"},
    };
    static constexpr std::initializer_list<Col> readRequired = {};
    static constexpr std::initializer_list<Col> readOptional = {globalPid, pid, name};
    static constexpr std::string_view col(Col c) { return columns[c].name; }
};

// Export metadata as (name, value) rows; the keys are in `metakey` below.
struct ExportMeta {
    static constexpr std::string_view table = "META_DATA_EXPORT";
    static constexpr std::string_view tableV2_9 = "EXPORT_META_DATA";
    static constexpr unsigned versions = kAllVersions;
    enum Col { name, value, count };
    static constexpr Column columns[] = {
        {name, "name", "TEXT NOT NULL"},
        {value, "value", "TEXT"},
    };
    static constexpr std::initializer_list<Col> readRequired = {name, value};
    static constexpr std::initializer_list<Col> readOptional = {};
    static constexpr std::string_view col(Col c) { return columns[c].name; }
};

// The profiled command line, as (name, value) rows; 2.x exports have no such table.
struct CaptureMeta {
    static constexpr std::string_view table = "META_DATA_CAPTURE";
    static constexpr unsigned versions = kV3x;
    enum Col { name, value, count };
    static constexpr Column columns[] = {
        {name, "name", "TEXT NOT NULL"},
        {value, "value", "TEXT"},
    };
    static constexpr std::initializer_list<Col> readRequired = {name, value};
    static constexpr std::initializer_list<Col> readOptional = {};
    static constexpr std::string_view col(Col c) { return columns[c].name; }
};

struct SessionStart {
    static constexpr std::string_view table = "TARGET_INFO_SESSION_START_TIME";
    static constexpr unsigned versions = kAllVersions;
    enum Col { utcEpochNs, utcTime, localTime, systemClockNs, count };
    static constexpr Column columns[] = {
        {utcEpochNs, "utcEpochNs", "INTEGER"},
        {utcTime, "utcTime", "TEXT"},
        {localTime, "localTime", "TEXT"},
        {systemClockNs, "systemClockNs", "INTEGER", kV3_25},
    };
    static constexpr std::initializer_list<Col> readRequired = {};
    static constexpr std::initializer_list<Col> readOptional = {utcEpochNs};
    static constexpr std::string_view col(Col c) { return columns[c].name; }
};

struct Stream {
    static constexpr std::string_view table = "TARGET_INFO_CUDA_STREAM";
    static constexpr unsigned versions = kAllVersions;
    enum Col { streamId, hwId, vmId, processId, contextId, priority, flag, count };
    static constexpr Column columns[] = {
        {streamId, "streamId", "INTEGER NOT NULL"},
        {hwId, "hwId", "INTEGER NOT NULL"},
        {vmId, "vmId", "INTEGER NOT NULL"},
        {processId, "processId", "INTEGER NOT NULL"},
        {contextId, "contextId", "INTEGER NOT NULL"},
        {priority, "priority", "INTEGER NOT NULL"},
        {flag, "flag", "INTEGER NOT NULL"},
    };
    static constexpr std::initializer_list<Col> readRequired = {streamId, processId, contextId};
    static constexpr std::initializer_list<Col> readOptional = {priority, flag};
    static constexpr std::string_view col(Col c) { return columns[c].name; }
};

// One row per context (2.x): its null stream and device. The reader does not need it.
struct NullStream {
    static constexpr std::string_view table = "TARGET_INFO_CUDA_NULL_STREAM";
    static constexpr unsigned versions = kV2_9;
    enum Col { streamId, hwId, vmId, processId, deviceId, contextId, count };
    static constexpr Column columns[] = {
        {streamId, "streamId", "INTEGER NOT NULL"},
        {hwId, "hwId", "INTEGER NOT NULL"},
        {vmId, "vmId", "INTEGER NOT NULL"},
        {processId, "processId", "INTEGER NOT NULL"},
        {deviceId, "deviceId", "INTEGER NOT NULL"},
        {contextId, "contextId", "INTEGER NOT NULL"},
    };
    static constexpr std::initializer_list<Col> readRequired = {};
    static constexpr std::initializer_list<Col> readOptional = {};
    static constexpr std::string_view col(Col c) { return columns[c].name; }
};

// NullStream's successor in 3.x: the same leading columns under other names, plus green
// contexts. The reader does not need it.
struct ContextInfo {
    static constexpr std::string_view table = "TARGET_INFO_CUDA_CONTEXT_INFO";
    static constexpr unsigned versions = kV3x;
    enum Col {
        nullStreamId, hwId, vmId, processId, deviceId, contextId, parentContextId, isGreenContext,
        count
    };
    static constexpr Column columns[] = {
        {nullStreamId, "nullStreamId", "INTEGER NOT NULL"},
        {hwId, "hwId", "INTEGER NOT NULL"},
        {vmId, "vmId", "INTEGER NOT NULL"},
        {processId, "processId", "INTEGER NOT NULL"},
        {deviceId, "deviceId", "INTEGER NOT NULL"},
        {contextId, "contextId", "INTEGER NOT NULL"},
        {parentContextId, "parentContextId", "INTEGER"},
        {isGreenContext, "isGreenContext", "INTEGER"},
    };
    static constexpr std::initializer_list<Col> readRequired = {};
    static constexpr std::initializer_list<Col> readOptional = {};
    static constexpr std::string_view col(Col c) { return columns[c].name; }
};

struct Gpu {
    static constexpr std::string_view table = "TARGET_INFO_GPU";
    // nsys before 2021.3 (no writer imitates it): the same data, the device id named deviceId.
    static constexpr std::string_view tableBefore2021_3 = "TARGET_INFO_CUDA_GPU";
    static constexpr std::string_view idBefore2021_3 = "deviceId";
    static constexpr unsigned versions = kAllVersions;
    enum Col {
        vmId, id, name, busLocation, isDiscrete, l2CacheSize, totalMemory, memoryBandwidth,
        clockRate, smCount, pwGpuId, uuid, luid, chipName, cuDevice, ctxswDevPath, ctrlDevPath,
        revision, nodeMask, constantMemory, maxIPC, maxRegistersPerBlock, maxShmemPerBlock,
        maxShmemPerBlockOptin, maxShmemPerSm, maxRegistersPerSm, threadsPerWarp, asyncEngines,
        maxWarpsPerSm, maxBlocksPerSm, maxThreadsPerBlock, maxBlockDimX, maxBlockDimY,
        maxBlockDimZ, maxGridDimX, maxGridDimY, maxGridDimZ, computeMajor, computeMinor, smMajor,
        smMinor, count
    };
    static constexpr Column columns[] = {
        {vmId, "vmId", "INTEGER NOT NULL"},
        {id, "id", "INTEGER NOT NULL"},
        {name, "name", "TEXT"},
        {busLocation, "busLocation", "TEXT"},
        {isDiscrete, "isDiscrete", "INTEGER"},
        {l2CacheSize, "l2CacheSize", "INTEGER"},
        {totalMemory, "totalMemory", "INTEGER"},
        {memoryBandwidth, "memoryBandwidth", "INTEGER"},
        {clockRate, "clockRate", "INTEGER"},
        {smCount, "smCount", "INTEGER"},
        {pwGpuId, "pwGpuId", "INTEGER"},
        {uuid, "uuid", "TEXT"},
        {luid, "luid", "INTEGER"},
        {chipName, "chipName", "TEXT"},
        {cuDevice, "cuDevice", "INTEGER"},
        {ctxswDevPath, "ctxswDevPath", "TEXT"},
        {ctrlDevPath, "ctrlDevPath", "TEXT"},
        {revision, "revision", "INTEGER"},
        {nodeMask, "nodeMask", "INTEGER"},
        {constantMemory, "constantMemory", "INTEGER"},
        {maxIPC, "maxIPC", "INTEGER"},
        {maxRegistersPerBlock, "maxRegistersPerBlock", "INTEGER"},
        {maxShmemPerBlock, "maxShmemPerBlock", "INTEGER"},
        {maxShmemPerBlockOptin, "maxShmemPerBlockOptin", "INTEGER"},
        {maxShmemPerSm, "maxShmemPerSm", "INTEGER"},
        {maxRegistersPerSm, "maxRegistersPerSm", "INTEGER"},
        {threadsPerWarp, "threadsPerWarp", "INTEGER"},
        {asyncEngines, "asyncEngines", "INTEGER"},
        {maxWarpsPerSm, "maxWarpsPerSm", "INTEGER"},
        {maxBlocksPerSm, "maxBlocksPerSm", "INTEGER"},
        {maxThreadsPerBlock, "maxThreadsPerBlock", "INTEGER"},
        {maxBlockDimX, "maxBlockDimX", "INTEGER"},
        {maxBlockDimY, "maxBlockDimY", "INTEGER"},
        {maxBlockDimZ, "maxBlockDimZ", "INTEGER"},
        {maxGridDimX, "maxGridDimX", "INTEGER"},
        {maxGridDimY, "maxGridDimY", "INTEGER"},
        {maxGridDimZ, "maxGridDimZ", "INTEGER"},
        {computeMajor, "computeMajor", "INTEGER"},
        {computeMinor, "computeMinor", "INTEGER"},
        {smMajor, "smMajor", "INTEGER"},
        {smMinor, "smMinor", "INTEGER"},
    };
    // The id is `id`, or idBefore2021_3 in tableBefore2021_3.
    static constexpr std::initializer_list<Col> readRequired = {id};
    static constexpr std::initializer_list<Col> readOptional = {
        name, smCount, computeMajor, computeMinor, maxThreadsPerBlock, maxRegistersPerBlock,
        maxRegistersPerSm, maxShmemPerBlock, maxShmemPerBlockOptin, maxShmemPerSm,
        threadsPerWarp, maxWarpsPerSm, maxBlocksPerSm, totalMemory, memoryBandwidth, clockRate,
        busLocation};
    static constexpr std::string_view col(Col c) { return columns[c].name; }
};

// clang-format on

// Keys of the metadata tables' name column.
namespace metakey {
inline constexpr std::string_view kProductName = "EXPORT_PRODUCT_NAME";
inline constexpr std::string_view kProductVersion = "EXPORT_PRODUCT_VERSION";
inline constexpr std::string_view kSchemaVersion = "EXPORT_SCHEMA_VERSION";
inline constexpr std::string_view kSchemaVersionMajor = "EXPORT_SCHEMA_VERSION_MAJOR";
inline constexpr std::string_view kSchemaVersionMinor = "EXPORT_SCHEMA_VERSION_MINOR";
inline constexpr std::string_view kSchemaVersionMicro = "EXPORT_SCHEMA_VERSION_MICRO";
inline constexpr std::string_view kLazy = "EXPORT_PARAM_LAZY";
inline constexpr std::string_view kLazyV2_9 = "EXPORT_LAZY";
inline constexpr std::string_view kCommand = "PROCESS_0:COMMAND";          // in CaptureMeta
inline constexpr std::string_view kArgumentPrefix = "PROCESS_0:ARGUMENT_"; // + 0, 1, ...
} // namespace metakey

// Calls f(T{}) for every table above (the schema's own checks, the tests).
template <typename F> constexpr void forEachTable(F&& f) {
    f(Kernel{});
    f(Memcpy{});
    f(Memset{});
    f(Sync{});
    f(Runtime{});
    f(Nvtx{});
    f(Osrt{});
    f(StringIds{});
    f(ThreadNames{});
    f(Processes{});
    f(ExportMeta{});
    f(CaptureMeta{});
    f(SessionStart{});
    f(Stream{});
    f(NullStream{});
    f(ContextInfo{});
    f(Gpu{});
}

// A table's description is consistent: one entry per Col in Col order, names unique and
// non-empty, every column in some version the table exists in, and every column the reader
// requires present in every version the table exists in (else the reader would reject what the
// writer writes).
template <typename T> constexpr bool wellFormed() {
    constexpr std::size_t n = std::size(T::columns);
    if (n != std::size_t(T::count))
        return false;
    for (std::size_t i = 0; i < n; ++i) {
        const Column& c = T::columns[i];
        if (c.id != int(i) || c.name.empty() || c.type.empty() || (c.versions & T::versions) == 0)
            return false;
        for (std::size_t j = 0; j < i; ++j)
            if (T::columns[j].name == c.name)
                return false;
    }
    for (const auto c : T::readRequired)
        if ((T::columns[c].versions & T::versions) != T::versions)
            return false;
    return true;
}

constexpr bool allWellFormed() {
    bool ok = true;
    forEachTable([&](auto t) { ok = ok && wellFormed<decltype(t)>(); });
    return ok;
}
static_assert(allWellFormed());

// The CUPTI activity tables (kernel, memcpy, memset, sync) begin with the same eight columns
// (start .. globalPid), so that one writer routine fills them by Kernel's ids.
template <typename T> constexpr bool hasActivityHead() {
    for (int i = 0; i <= int(Kernel::globalPid); ++i)
        if (T::columns[i].name != Kernel::columns[i].name ||
            T::columns[i].versions != Kernel::columns[i].versions)
            return false;
    return true;
}
static_assert(hasActivityHead<Memcpy>() && hasActivityHead<Memset>() && hasActivityHead<Sync>());

} // namespace strobe::nsys::schema
