// SPDX-License-Identifier: MIT
#pragma once

// The CUPTI activity record layouts libstrobe-inject reads, and a compile-time check of every
// field offset it reads. CUPTI fills the newest record version its own release describes; the
// offsets below are those of CUDA 12.x (Kernel9, Memcpy5, Synchronization) and 13.x (Kernel10,
// Memcpy6, Synchronization2), which agree for every field read here. A header whose layout moved
// fails to compile instead of producing garbage rows; the loaded library's version is checked at
// start-up (cuptiversion.h), since LD_LIBRARY_PATH or a pip-installed CUPTI can swap it.

#include <cstddef>
#include <cupti.h>

namespace strobe::capture {

#if CUPTI_API_VERSION >= 130000
using KernelRecord = CUpti_ActivityKernel10;
using MemcpyRecord = CUpti_ActivityMemcpy6;
using SyncRecord = CUpti_ActivitySynchronization2;
#else
using KernelRecord = CUpti_ActivityKernel9;
using MemcpyRecord = CUpti_ActivityMemcpy5;
using SyncRecord = CUpti_ActivitySynchronization;
#endif
using MemsetRecord = CUpti_ActivityMemset4;
using DeviceRecord = CUpti_ActivityDevice5;
using ContextRecord = CUpti_ActivityContext3;
using ApiRecord = CUpti_ActivityAPI;

#define STROBE_LAYOUT(Record, field, offset)                                                       \
    static_assert(offsetof(Record, field) == (offset), #Record "::" #field " moved")

STROBE_LAYOUT(KernelRecord, cacheConfig, 4);
STROBE_LAYOUT(KernelRecord, registersPerThread, 6);
STROBE_LAYOUT(KernelRecord, start, 16);
STROBE_LAYOUT(KernelRecord, end, 24);
STROBE_LAYOUT(KernelRecord, deviceId, 40);
STROBE_LAYOUT(KernelRecord, contextId, 44);
STROBE_LAYOUT(KernelRecord, streamId, 48);
STROBE_LAYOUT(KernelRecord, gridX, 52);
STROBE_LAYOUT(KernelRecord, blockZ, 72);
STROBE_LAYOUT(KernelRecord, staticSharedMemory, 76);
STROBE_LAYOUT(KernelRecord, dynamicSharedMemory, 80);
STROBE_LAYOUT(KernelRecord, localMemoryPerThread, 84);
STROBE_LAYOUT(KernelRecord, correlationId, 92);
STROBE_LAYOUT(KernelRecord, name, 104);
STROBE_LAYOUT(KernelRecord, launchType, 136);
STROBE_LAYOUT(KernelRecord, sharedMemoryExecuted, 140);
STROBE_LAYOUT(KernelRecord, graphNodeId, 144);
STROBE_LAYOUT(KernelRecord, shmemLimitConfig, 152);
STROBE_LAYOUT(KernelRecord, localMemoryTotal_v2, 192);
STROBE_LAYOUT(MemcpyRecord, copyKind, 4);
STROBE_LAYOUT(MemcpyRecord, srcKind, 5);
STROBE_LAYOUT(MemcpyRecord, dstKind, 6);
STROBE_LAYOUT(MemcpyRecord, bytes, 8);
STROBE_LAYOUT(MemcpyRecord, start, 16);
STROBE_LAYOUT(MemcpyRecord, end, 24);
STROBE_LAYOUT(MemcpyRecord, deviceId, 32);
STROBE_LAYOUT(MemcpyRecord, contextId, 36);
STROBE_LAYOUT(MemcpyRecord, streamId, 40);
STROBE_LAYOUT(MemcpyRecord, correlationId, 44);
STROBE_LAYOUT(MemcpyRecord, runtimeCorrelationId, 48);
STROBE_LAYOUT(MemsetRecord, value, 4);
STROBE_LAYOUT(MemsetRecord, bytes, 8);
STROBE_LAYOUT(MemsetRecord, start, 16);
STROBE_LAYOUT(MemsetRecord, end, 24);
STROBE_LAYOUT(MemsetRecord, deviceId, 32);
STROBE_LAYOUT(MemsetRecord, contextId, 36);
STROBE_LAYOUT(MemsetRecord, streamId, 40);
STROBE_LAYOUT(MemsetRecord, correlationId, 44);
STROBE_LAYOUT(MemsetRecord, memoryKind, 50);
STROBE_LAYOUT(ApiRecord, cbid, 4);
STROBE_LAYOUT(ApiRecord, start, 8);
STROBE_LAYOUT(ApiRecord, end, 16);
STROBE_LAYOUT(ApiRecord, threadId, 28);
STROBE_LAYOUT(ApiRecord, correlationId, 32);
STROBE_LAYOUT(ApiRecord, returnValue, 36);
STROBE_LAYOUT(SyncRecord, type, 4);
STROBE_LAYOUT(SyncRecord, start, 8);
STROBE_LAYOUT(SyncRecord, end, 16);
STROBE_LAYOUT(SyncRecord, correlationId, 24);
STROBE_LAYOUT(SyncRecord, contextId, 28);
STROBE_LAYOUT(SyncRecord, streamId, 32);
STROBE_LAYOUT(SyncRecord, cudaEventId, 36);
STROBE_LAYOUT(DeviceRecord, globalMemoryBandwidth, 8);
STROBE_LAYOUT(DeviceRecord, globalMemorySize, 16);
STROBE_LAYOUT(DeviceRecord, coreClockRate, 36);
STROBE_LAYOUT(DeviceRecord, numMultiprocessors, 44);
STROBE_LAYOUT(DeviceRecord, numThreadsPerWarp, 32);
STROBE_LAYOUT(DeviceRecord, maxWarpsPerMultiprocessor, 52);
STROBE_LAYOUT(DeviceRecord, maxBlocksPerMultiprocessor, 56);
STROBE_LAYOUT(DeviceRecord, maxSharedMemoryPerMultiprocessor, 60);
STROBE_LAYOUT(DeviceRecord, maxRegistersPerMultiprocessor, 64);
STROBE_LAYOUT(DeviceRecord, maxRegistersPerBlock, 68);
STROBE_LAYOUT(DeviceRecord, maxSharedMemoryPerBlock, 72);
STROBE_LAYOUT(DeviceRecord, maxThreadsPerBlock, 76);
STROBE_LAYOUT(DeviceRecord, computeCapabilityMajor, 104);
STROBE_LAYOUT(DeviceRecord, computeCapabilityMinor, 108);
STROBE_LAYOUT(DeviceRecord, id, 112);
STROBE_LAYOUT(DeviceRecord, name, 136);
STROBE_LAYOUT(ContextRecord, contextId, 4);
STROBE_LAYOUT(ContextRecord, deviceId, 8);

#undef STROBE_LAYOUT

} // namespace strobe::capture
