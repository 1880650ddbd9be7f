// SPDX-License-Identifier: MIT
#pragma once

// The nsys export's event tables: GPU activity (kernels, memcpys, memsets, syncs) and the CPU
// side (CUDA API calls, NVTX, OS runtime calls). Include nsysschema.h, not this file.

#include "formats/nsys/schema/nsysschemacolumn.h"

namespace strobe::nsys::schema {

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
    // What a kernel cannot be placed without; it also needs one of its three name columns (the
    // reader checks that). Everything else defaults to unknown, with a warning naming it.
    static constexpr std::initializer_list<Col> readRequired = {start, end, deviceId, streamId};
    static constexpr std::initializer_list<Col> readOptional = {
        contextId, shortName, correlationId, globalPid, demangledName, mangledName, launchType,
        cacheConfig,
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
    static constexpr std::initializer_list<Col> readRequired = {start, end, deviceId, streamId};
    static constexpr std::initializer_list<Col> readOptional = {
        contextId, bytes, copyKind, correlationId, globalPid, srcKind, dstKind, srcDeviceId,
        dstDeviceId, migrationCause};
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
    static constexpr std::initializer_list<Col> readRequired = {start, end, deviceId, streamId};
    static constexpr std::initializer_list<Col> readOptional = {
        contextId, bytes, correlationId, globalPid, value, memKind};
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

// Allocations and frees of GPU memory (nsys --cuda-memory-usage=true): the memory counter.
struct GpuMemoryUsage {
    static constexpr std::string_view table = "CUDA_GPU_MEMORY_USAGE_EVENTS";
    static constexpr unsigned versions = kAllVersions;
    enum Col {
        start, globalPid, deviceId, contextId, address, pc, bytes, memKind, memoryOperationType,
        name, correlationId, count
    };
    static constexpr Column columns[] = {
        {start, "start", "INTEGER NOT NULL"},
        {globalPid, "globalPid", "INTEGER NOT NULL"},
        {deviceId, "deviceId", "INTEGER NOT NULL"},
        {contextId, "contextId", "INTEGER NOT NULL"},
        {address, "address", "INTEGER NOT NULL"},
        {pc, "pc", "INTEGER NOT NULL"},
        {bytes, "bytes", "INTEGER NOT NULL"},
        {memKind, "memKind", "INTEGER NOT NULL"},
        {memoryOperationType, "memoryOperationType", "INTEGER NOT NULL"},
        {name, "name", "TEXT"},
        {correlationId, "correlationId", "INTEGER"},
    };
    static constexpr std::initializer_list<Col> readRequired = {
        start, deviceId, bytes, memKind, memoryOperationType};
    static constexpr std::initializer_list<Col> readOptional = {};
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
    static constexpr std::initializer_list<Col> readRequired = {start, end, globalTid, nameId};
    static constexpr std::initializer_list<Col> readOptional = {
        correlationId, eventClass, returnValue};
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

// clang-format on

} // namespace strobe::nsys::schema
