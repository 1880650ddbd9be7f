// SPDX-License-Identifier: MIT
#include "capture/activityparser.h"

#include "capture/cudacheck.h"
#include "capture/cuptilayout.h"

#include <cstdio>

namespace strobe::capture {

std::uint8_t nsysLaunchType(std::uint8_t cuptiLaunchType) {
    switch (cuptiLaunchType) {
    case CUPTI_ACTIVITY_LAUNCH_TYPE_REGULAR:
        return 1;
    case CUPTI_ACTIVITY_LAUNCH_TYPE_COOPERATIVE_SINGLE_DEVICE:
        return 2;
    case CUPTI_ACTIVITY_LAUNCH_TYPE_COOPERATIVE_MULTI_DEVICE:
        return 3;
    default:
        return 0; // CBL command lists and anything newer have no nsys number
    }
}

std::uint8_t nsysMemoryKind(std::uint32_t cuptiKind) {
    return cuptiKind == CUPTI_ACTIVITY_MEMORY_KIND_UNKNOWN || cuptiKind > nsys::kUnknownMemoryKind
               ? nsys::kUnknownMemoryKind
               : std::uint8_t(cuptiKind - 1);
}

ActivityParser::ActivityParser(ActivitySink& sink, CuptiFunctions cupti)
    : m_sink(sink)
    , m_cupti(cupti) {}

std::size_t ActivityParser::parseBuffer(CUcontext context, std::uint32_t streamId,
                                        std::uint8_t* buffer, std::size_t validSize) {
    std::size_t count = 0;
    if (buffer && validSize > 0) {
        CUpti_Activity* record = nullptr;
        for (;;) {
            const CUptiResult status = m_cupti.nextRecord(buffer, validSize, &record);
            if (status == CUPTI_ERROR_MAX_LIMIT_REACHED || status == CUPTI_ERROR_INVALID_KIND)
                break;
            if (!checkResult(status, "cuptiActivityGetNextRecord", __FILE__, __LINE__))
                break;
            handleRecord(record);
            ++count;
        }
    }
    size_t dropped = 0;
    if (STROBE_CHECK(m_cupti.droppedRecords(context, streamId, &dropped)) && dropped > 0)
        m_sink.noteDropped(dropped);
    return count;
}

bool ActivityParser::timed(std::uint64_t start, std::uint64_t end) {
    if (start == 0) {
        m_sink.noteSkipped(SkippedRecord::ZeroStart);
        return false;
    }
    if (end < start) {
        m_sink.noteSkipped(SkippedRecord::InvertedTime);
        return false;
    }
    return true;
}

std::string ActivityParser::apiName(CUpti_CallbackDomain domain, CUpti_CallbackId cbid) {
    const std::uint64_t key = (std::uint64_t(domain) << 32) | cbid;
    std::lock_guard lock(m_namesMutex);
    auto it = m_apiNames.find(key);
    if (it != m_apiNames.end())
        return it->second;
    const char* name = nullptr;
    std::string value;
    if (STROBE_CHECK(m_cupti.callbackName(domain, cbid, &name)) && name)
        value = name;
    else
        value = "cbid " + std::to_string(cbid);
    return m_apiNames.emplace(key, std::move(value)).first->second;
}

void ActivityParser::handleRecord(const CUpti_Activity* record) {
    switch (record->kind) {
    case CUPTI_ACTIVITY_KIND_KERNEL:
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
        kernel(record);
        break;
    case CUPTI_ACTIVITY_KIND_MEMCPY:
        memcpy(record);
        break;
    case CUPTI_ACTIVITY_KIND_MEMSET:
        memset(record);
        break;
    case CUPTI_ACTIVITY_KIND_RUNTIME:
    case CUPTI_ACTIVITY_KIND_DRIVER:
        api(record);
        break;
    case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION:
        sync(record);
        break;
    case CUPTI_ACTIVITY_KIND_DEVICE:
        device(record);
        break;
    case CUPTI_ACTIVITY_KIND_CONTEXT: {
        const auto* c = reinterpret_cast<const ContextRecord*>(record);
        m_sink.noteContext(c->contextId, c->deviceId);
        break;
    }
    default:
        break;
    }
}

void ActivityParser::kernel(const CUpti_Activity* record) {
    const auto* k = reinterpret_cast<const KernelRecord*>(record);
    if (!timed(k->start, k->end))
        return;
    nsys::KernelRow row;
    row.start = ts(k->start);
    row.end = ts(k->end);
    row.deviceId = k->deviceId;
    row.contextId = k->contextId;
    row.streamId = k->streamId;
    row.correlationId = k->correlationId;
    {
        std::lock_guard lock(m_namesMutex);
        const std::string key = k->name ? k->name : "<unknown kernel>";
        auto it = m_kernelNames.find(key);
        if (it == m_kernelNames.end())
            it = m_kernelNames.emplace(key, kernelNames(key)).first;
        row.shortName = it->second.shortName;
        row.demangledName = it->second.demangledName;
        row.mangledName = it->second.mangledName;
    }
    row.grid = {k->gridX, k->gridY, k->gridZ};
    row.block = {k->blockX, k->blockY, k->blockZ};
    row.registersPerThread = k->registersPerThread;
    row.staticShared = std::uint32_t(k->staticSharedMemory);
    row.dynamicShared = std::uint32_t(k->dynamicSharedMemory);
    row.localPerThread = k->localMemoryPerThread;
    row.localTotal = k->localMemoryTotal_v2; // the 32-bit localMemoryTotal overflows
    row.launchType = nsysLaunchType(k->launchType);
    row.cacheConfig = k->cacheConfig.config.executed;
    row.sharedMemLimitConfig = std::uint8_t(k->shmemLimitConfig);
    row.sharedMemoryExecuted = k->sharedMemoryExecuted;
    if (k->graphNodeId != 0)
        row.graphNodeId = k->graphNodeId;
    m_sink.noteContext(row.contextId, row.deviceId);
    m_sink.addKernel(std::move(row));
}

void ActivityParser::memcpy(const CUpti_Activity* record) {
    const auto* m = reinterpret_cast<const MemcpyRecord*>(record);
    if (!timed(m->start, m->end))
        return;
    nsys::MemcpyRow row;
    row.start = ts(m->start);
    row.end = ts(m->end);
    row.deviceId = m->deviceId;
    row.contextId = m->contextId;
    row.streamId = m->streamId;
    // correlationId names the driver call; runtimeCorrelationId the runtime call that made it,
    // which is the one the trace keeps (nested driver calls are filtered out).
    row.correlationId = m->runtimeCorrelationId != 0 ? m->runtimeCorrelationId : m->correlationId;
    row.bytes = m->bytes;
    row.copyKind = m->copyKind; // CUPTI and ENUM_CUDA_MEMCPY_OPER share their numbering
    row.srcKind = nsysMemoryKind(m->srcKind);
    row.dstKind = nsysMemoryKind(m->dstKind);
    m_sink.noteContext(row.contextId, row.deviceId);
    m_sink.addMemcpy(std::move(row));
}

void ActivityParser::memset(const CUpti_Activity* record) {
    const auto* m = reinterpret_cast<const MemsetRecord*>(record);
    if (!timed(m->start, m->end))
        return;
    nsys::MemsetRow row;
    row.start = ts(m->start);
    row.end = ts(m->end);
    row.deviceId = m->deviceId;
    row.contextId = m->contextId;
    row.streamId = m->streamId;
    // CUpti_ActivityMemset4 has no runtimeCorrelationId: its correlationId is the launching API
    // call's, runtime or driver.
    row.correlationId = m->correlationId;
    row.bytes = m->bytes;
    row.value = m->value;
    row.memKind = nsysMemoryKind(m->memoryKind);
    m_sink.noteContext(row.contextId, row.deviceId);
    m_sink.addMemset(std::move(row));
}

void ActivityParser::api(const CUpti_Activity* record) {
    const auto* a = reinterpret_cast<const ApiRecord*>(record);
    if (!timed(a->start, a->end))
        return;
    const bool runtime = record->kind == CUPTI_ACTIVITY_KIND_RUNTIME;
    nsys::ApiCallRow row;
    row.start = ts(a->start);
    row.end = ts(a->end);
    row.tid = a->threadId;
    row.correlationId = a->correlationId;
    row.name = apiName(runtime ? CUPTI_CB_DOMAIN_RUNTIME_API : CUPTI_CB_DOMAIN_DRIVER_API, a->cbid);
    row.eventClass = runtime ? 0 : 1;
    row.returnValue = a->returnValue;
    m_sink.addApiCall(std::move(row));
}

void ActivityParser::sync(const CUpti_Activity* record) {
    const auto* s = reinterpret_cast<const SyncRecord*>(record);
    if (!timed(s->start, s->end))
        return;
    nsys::SyncRow row;
    row.start = ts(s->start);
    row.end = ts(s->end);
    row.contextId = s->contextId;
    row.streamId = s->streamId;
    row.eventId = s->cudaEventId;
    row.syncType = std::uint8_t(s->type); // same numbering as ENUM_CUPTI_SYNC_TYPE
    row.correlationId = s->correlationId;
    m_sink.addSync(std::move(row));
}

void ActivityParser::device(const CUpti_Activity* record) {
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
    // Opt-in shared memory and the PCI bus id come from the driver at finish, once tracing is
    // off: asking here, inside CUPTI's buffer callback, would record the queries themselves.
    m_sink.addGpu(gpu);
}

} // namespace strobe::capture
