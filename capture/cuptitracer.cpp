// SPDX-License-Identifier: MIT
// CUDA side of libstrobe-inject.so: the driver calls InitializeInjection (CUDA_INJECTION64_PATH)
// during cuInit; we enable CUPTI activity records and turn each completed buffer into trace rows.

#include "capture/cudacheck.h"
#include "capture/kernelnames.h"
#include "capture/recorder.h"

#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>
#include <vector>

// Record layouts: CUPTI fills the newest version its headers describe.
#if CUPTI_API_VERSION >= 130000
using KernelRecord = CUpti_ActivityKernel10;
using MemcpyRecord = CUpti_ActivityMemcpy6;
using SyncRecord = CUpti_ActivitySynchronization2;
#define STROBE_KERNEL_LOCAL_TOTAL(k) (k)->localMemoryTotal_v2
#else
using KernelRecord = CUpti_ActivityKernel9;
using MemcpyRecord = CUpti_ActivityMemcpy5;
using SyncRecord = CUpti_ActivitySynchronization;
#define STROBE_KERNEL_LOCAL_TOTAL(k) (k)->localMemoryTotal
#endif
using MemsetRecord = CUpti_ActivityMemset4;
using DeviceRecord = CUpti_ActivityDevice5;
using ApiRecord = CUpti_ActivityAPI;

namespace strobe::capture {

bool checkResult(CUptiResult result, const char* call, const char* file, int line) {
    if (result == CUPTI_SUCCESS)
        return true;
    const char* text = nullptr;
    if (cuptiGetResultString(result, &text) != CUPTI_SUCCESS || !text)
        text = "unknown error";
    std::fprintf(stderr, "strobe-inject: %s failed with %d (%s) at %s:%d\n", call, int(result),
                 text, file, line);
    return false;
}

bool checkResult(CUresult result, const char* call, const char* file, int line) {
    if (result == CUDA_SUCCESS)
        return true;
    std::fprintf(stderr, "strobe-inject: %s failed with CUresult %d at %s:%d\n", call, int(result),
                 file, line);
    return false;
}

namespace {

constexpr std::size_t kBufferSize = 8u << 20;
constexpr CUpti_ActivityKind kKinds[] = {
    CUPTI_ACTIVITY_KIND_DEVICE,          CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL,
    CUPTI_ACTIVITY_KIND_MEMCPY,          CUPTI_ACTIVITY_KIND_MEMSET,
    CUPTI_ACTIVITY_KIND_RUNTIME,         CUPTI_ACTIVITY_KIND_DRIVER,
    CUPTI_ACTIVITY_KIND_SYNCHRONIZATION,
};

// Added to CUPTI timestamps to put them on CLOCK_MONOTONIC; 0 when CUPTI takes our clock.
std::int64_t g_timestampOffset = 0;

std::mutex g_namesMutex;
std::unordered_map<std::string, KernelNames> g_kernelNames;
std::unordered_map<std::uint64_t, std::string> g_apiNames;

std::uint64_t CUPTIAPI monotonicTimestamp() {
    return std::uint64_t(monotonicNs());
}

std::int64_t ts(std::uint64_t cuptiNs) {
    return std::int64_t(cuptiNs) + g_timestampOffset;
}

// ENUM_CUDA_MEM_KIND numbers kinds from 0 = Pageable and puts Unknown last; CUPTI starts at 0 =
// Unknown.
std::uint8_t memoryKind(std::uint32_t cuptiKind) {
    return cuptiKind == CUPTI_ACTIVITY_MEMORY_KIND_UNKNOWN || cuptiKind > 7
               ? 7
               : std::uint8_t(cuptiKind - 1);
}

const std::string& apiName(CUpti_CallbackDomain domain, CUpti_CallbackId cbid) {
    const std::uint64_t key = (std::uint64_t(domain) << 32) | cbid;
    auto it = g_apiNames.find(key);
    if (it != g_apiNames.end())
        return it->second;
    const char* name = nullptr;
    std::string value;
    if (STROBE_CHECK(cuptiGetCallbackName(domain, cbid, &name)) && name)
        value = name;
    else
        value = "cbid " + std::to_string(cbid);
    return g_apiNames.emplace(key, std::move(value)).first->second;
}

const KernelNames& namesOf(const char* symbol) {
    const std::string key = symbol ? symbol : "<unknown kernel>";
    auto it = g_kernelNames.find(key);
    if (it == g_kernelNames.end())
        it = g_kernelNames.emplace(key, kernelNames(key)).first;
    return it->second;
}

// Limits CUPTI's device record does not carry, asked from the driver that loaded us.
void fillFromDriver(nsys::GpuRow& gpu) {
    void* cuda = ::dlopen("libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD);
    if (!cuda)
        return;
    using GetFn = CUresult (*)(CUdevice*, int);
    using AttrFn = CUresult (*)(int*, CUdevice_attribute, CUdevice);
    using BusFn = CUresult (*)(char*, int, CUdevice);
    auto get = reinterpret_cast<GetFn>(::dlsym(cuda, "cuDeviceGet"));
    auto attr = reinterpret_cast<AttrFn>(::dlsym(cuda, "cuDeviceGetAttribute"));
    auto bus = reinterpret_cast<BusFn>(::dlsym(cuda, "cuDeviceGetPCIBusId"));
    CUdevice device = 0;
    if (get && STROBE_CHECK(get(&device, int(gpu.id)))) {
        int value = 0;
        if (attr && STROBE_CHECK(attr(&value, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
                                      device)))
            gpu.maxShmemPerBlockOptin = std::uint32_t(value);
        char busId[32] = {};
        if (bus && STROBE_CHECK(bus(busId, int(sizeof busId), device)))
            gpu.busLocation = busId;
    }
    ::dlclose(cuda);
}

void handleRecord(Recorder& rec, const CUpti_Activity* record) {
    switch (record->kind) {
    case CUPTI_ACTIVITY_KIND_KERNEL:
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: {
        const auto* k = reinterpret_cast<const KernelRecord*>(record);
        nsys::KernelRow row;
        row.start = ts(k->start);
        row.end = ts(k->end);
        row.deviceId = k->deviceId;
        row.contextId = k->contextId;
        row.streamId = k->streamId;
        row.correlationId = k->correlationId;
        {
            std::lock_guard lock(g_namesMutex);
            const KernelNames& names = namesOf(k->name);
            row.shortName = names.shortName;
            row.demangledName = names.demangledName;
            row.mangledName = names.mangledName;
        }
        row.grid = {k->gridX, k->gridY, k->gridZ};
        row.block = {k->blockX, k->blockY, k->blockZ};
        row.registersPerThread = k->registersPerThread;
        row.staticShared = std::uint32_t(k->staticSharedMemory);
        row.dynamicShared = std::uint32_t(k->dynamicSharedMemory);
        row.localPerThread = k->localMemoryPerThread;
        row.localTotal = STROBE_KERNEL_LOCAL_TOTAL(k);
        row.launchType = k->launchType;
        row.cacheConfig = k->cacheConfig.config.executed;
        row.sharedMemLimitConfig = std::uint8_t(k->shmemLimitConfig);
        row.sharedMemoryExecuted = k->sharedMemoryExecuted;
        if (k->graphNodeId != 0)
            row.graphNodeId = k->graphNodeId;
        rec.addKernel(std::move(row));
        break;
    }
    case CUPTI_ACTIVITY_KIND_MEMCPY: {
        const auto* m = reinterpret_cast<const MemcpyRecord*>(record);
        nsys::MemcpyRow row;
        row.start = ts(m->start);
        row.end = ts(m->end);
        row.deviceId = m->deviceId;
        row.contextId = m->contextId;
        row.streamId = m->streamId;
        row.correlationId = m->correlationId;
        row.bytes = m->bytes;
        row.copyKind = m->copyKind; // CUPTI and ENUM_CUDA_MEMCPY_OPER share their numbering
        row.srcKind = memoryKind(m->srcKind);
        row.dstKind = memoryKind(m->dstKind);
        rec.addMemcpy(std::move(row));
        break;
    }
    case CUPTI_ACTIVITY_KIND_MEMSET: {
        const auto* m = reinterpret_cast<const MemsetRecord*>(record);
        nsys::MemsetRow row;
        row.start = ts(m->start);
        row.end = ts(m->end);
        row.deviceId = m->deviceId;
        row.contextId = m->contextId;
        row.streamId = m->streamId;
        row.correlationId = m->correlationId;
        row.bytes = m->bytes;
        row.value = m->value;
        row.memKind = memoryKind(m->memoryKind);
        rec.addMemset(std::move(row));
        break;
    }
    case CUPTI_ACTIVITY_KIND_RUNTIME:
    case CUPTI_ACTIVITY_KIND_DRIVER: {
        const auto* a = reinterpret_cast<const ApiRecord*>(record);
        const bool runtime = record->kind == CUPTI_ACTIVITY_KIND_RUNTIME;
        nsys::ApiCallRow row;
        row.start = ts(a->start);
        row.end = ts(a->end);
        row.tid = a->threadId;
        row.correlationId = a->correlationId;
        {
            std::lock_guard lock(g_namesMutex);
            row.name = apiName(runtime ? CUPTI_CB_DOMAIN_RUNTIME_API : CUPTI_CB_DOMAIN_DRIVER_API,
                               a->cbid);
        }
        row.eventClass = runtime ? 0 : 1;
        row.returnValue = a->returnValue;
        rec.addApiCall(std::move(row));
        break;
    }
    case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION: {
        const auto* s = reinterpret_cast<const SyncRecord*>(record);
        nsys::SyncRow row;
        row.start = ts(s->start);
        row.end = ts(s->end);
        row.contextId = s->contextId;
        row.streamId = s->streamId;
        row.eventId = s->cudaEventId;
        row.syncType = std::uint8_t(s->type); // same numbering as ENUM_CUPTI_SYNC_TYPE
        row.correlationId = s->correlationId;
        rec.addSync(std::move(row));
        break;
    }
    case CUPTI_ACTIVITY_KIND_DEVICE: {
        const auto* d = reinterpret_cast<const DeviceRecord*>(record);
        nsys::GpuRow gpu;
        gpu.id = d->id;
        gpu.name = d->name ? d->name : "";
        gpu.smCount = d->numMultiprocessors;
        gpu.computeMajor = d->computeCapabilityMajor;
        gpu.computeMinor = d->computeCapabilityMinor;
        gpu.maxThreadsPerBlock = d->maxThreadsPerBlock;
        gpu.maxRegistersPerBlock = d->maxRegistersPerBlock;
        gpu.maxRegistersPerSm = d->maxRegistersPerMultiprocessor;
        gpu.maxShmemPerBlock = d->maxSharedMemoryPerBlock;
        gpu.maxShmemPerSm = d->maxSharedMemoryPerMultiprocessor;
        gpu.threadsPerWarp = d->numThreadsPerWarp;
        gpu.maxWarpsPerSm = d->maxWarpsPerMultiprocessor;
        gpu.maxBlocksPerSm = d->maxBlocksPerMultiprocessor;
        gpu.totalMemory = d->globalMemorySize;
        gpu.memoryBandwidth = d->globalMemoryBandwidth * 1000;  // CUPTI: kB/s, nsys: B/s
        gpu.clockRate = std::uint64_t(d->coreClockRate) * 1000; // CUPTI: kHz, nsys: Hz
        fillFromDriver(gpu);
        rec.addGpu(gpu);
        break;
    }
    default:
        break;
    }
}

void CUPTIAPI bufferRequested(uint8_t** buffer, size_t* size, size_t* maxNumRecords) {
    *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, kBufferSize));
    *size = *buffer ? kBufferSize : 0;
    *maxNumRecords = 0;
}

void CUPTIAPI bufferCompleted(CUcontext context, uint32_t streamId, uint8_t* buffer, size_t,
                              size_t validSize) {
    Recorder* rec = Recorder::get();
    if (rec && validSize > 0) {
        CUpti_Activity* record = nullptr;
        for (;;) {
            const CUptiResult status = cuptiActivityGetNextRecord(buffer, validSize, &record);
            if (status == CUPTI_ERROR_MAX_LIMIT_REACHED)
                break;
            if (!STROBE_CHECK(status))
                break;
            handleRecord(*rec, record);
        }
        size_t dropped = 0;
        if (STROBE_CHECK(cuptiActivityGetNumDroppedRecords(context, streamId, &dropped)) &&
            dropped > 0)
            std::fprintf(stderr, "strobe-inject: CUPTI dropped %zu activity records\n", dropped);
    }
    std::free(buffer);
}

// The kinds cuptiActivityEnable accepted; set once in startCupti, before the flush hook exists.
std::vector<CUpti_ActivityKind> g_enabledKinds;

void stopAndFlush() {
    for (const CUpti_ActivityKind kind : g_enabledKinds)
        STROBE_CHECK(cuptiActivityDisable(kind));
    STROBE_CHECK(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED));
}

void startCupti(Recorder& rec) {
    STROBE_CHECK(cuptiSetThreadIdType(CUPTI_ACTIVITY_THREAD_ID_TYPE_SYSTEM));
    if (!STROBE_CHECK(cuptiActivityRegisterTimestampCallback(monotonicTimestamp))) {
        std::uint64_t cuptiNow = 0;
        if (STROBE_CHECK(cuptiGetTimestamp(&cuptiNow)))
            g_timestampOffset = monotonicNs() - std::int64_t(cuptiNow);
    }
    if (!STROBE_CHECK(cuptiActivityRegisterCallbacks(bufferRequested, bufferCompleted)))
        return;
    for (const CUpti_ActivityKind kind : kKinds)
        if (STROBE_CHECK(cuptiActivityEnable(kind)))
            g_enabledKinds.push_back(kind);
    if (g_enabledKinds.empty()) {
        std::fprintf(stderr, "strobe-inject: CUPTI refused every activity kind, CUDA activity is "
                             "not recorded\n");
        return;
    }
    rec.setFlushHook(stopAndFlush);
}

} // namespace

} // namespace strobe::capture

extern "C" __attribute__((visibility("default"))) int InitializeInjection(void) {
    using namespace strobe::capture;
    static std::once_flag once;
    std::call_once(once, [] {
        Recorder* rec = Recorder::get();
        if (rec && rec->config().traceCuda)
            startCupti(*rec);
    });
    return 1;
}
