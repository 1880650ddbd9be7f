// SPDX-License-Identifier: MIT
#pragma once

// The nsys export's tables of names, metadata and the target (processes, threads, GPUs,
// streams, contexts). Include nsysschema.h, not this file.

#include "formats/nsys/schema/nsysschemacolumn.h"

namespace strobe::nsys::schema {

// clang-format off

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
        busLocation, chipName};
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
// One row per variable of the profiled process's environment, "NAME=value" (in CaptureMeta).
inline constexpr std::string_view kEnvironmentVariable = "PROCESS_0:ENVIRONMENT_VARIABLE";
} // namespace metakey

} // namespace strobe::nsys::schema
