// SPDX-License-Identifier: MIT
// CUDA side of libstrobe-inject.so: the driver calls InitializeInjection (CUDA_INJECTION64_PATH)
// during cuInit. We check the CUPTI and driver versions, enable CUPTI activity records, and hand
// each completed buffer to the ActivityParser, which feeds the Recorder.

#include "capture/activityparser.h"
#include "capture/cudacheck.h"
#include "capture/cuptisession.h"
#include "capture/cuptiversion.h"
#include "capture/processhooks.h"
#include "capture/recorder.h"

#include <cstdlib>
#include <dlfcn.h>
#include <mutex>
#include <vector>

namespace strobe::capture {

namespace {

constexpr std::size_t kBufferSize = 8u << 20;

// Created once in startCupti and leaked, like the recorder: CUPTI's worker thread may deliver
// buffers until the process ends.
ActivityParser* g_parser = nullptr;
std::vector<CUpti_ActivityKind> g_enabledKinds;
CUpti_SubscriberHandle g_subscriber = nullptr;

std::uint64_t CUPTIAPI monotonicTimestamp() {
    return std::uint64_t(monotonicNs());
}

// A symbol of the driver that loaded us; nullptr when no driver is in the process.
void* driverSymbol(const char* name) {
    void* cuda = ::dlopen("libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD);
    if (!cuda)
        return nullptr;
    void* symbol = ::dlsym(cuda, name);
    ::dlclose(cuda); // RTLD_NOLOAD: only drops the reference taken above
    return symbol;
}

int driverVersion() {
    using Fn = CUresult (*)(int*);
    auto fn = reinterpret_cast<Fn>(driverSymbol("cuDriverGetVersion"));
    int version = 0;
    if (fn && STROBE_CHECK(fn(&version)))
        return version;
    return 0;
}

// Limits CUPTI's device record does not carry. Called at finish, when tracing is off.
void queryGpu(nsys::GpuRow& gpu) {
    using GetFn = CUresult (*)(CUdevice*, int);
    using AttrFn = CUresult (*)(int*, CUdevice_attribute, CUdevice);
    using BusFn = CUresult (*)(char*, int, CUdevice);
    auto get = reinterpret_cast<GetFn>(driverSymbol("cuDeviceGet"));
    auto attr = reinterpret_cast<AttrFn>(driverSymbol("cuDeviceGetAttribute"));
    auto bus = reinterpret_cast<BusFn>(driverSymbol("cuDeviceGetPCIBusId"));
    CUdevice device = 0;
    if (!get || !STROBE_CHECK(get(&device, int(gpu.id))))
        return;
    int value = 0;
    if (attr &&
        STROBE_CHECK(attr(&value, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, device)))
        gpu.maxShmemPerBlockOptin = std::uint32_t(value);
    char busId[32] = {};
    if (bus && STROBE_CHECK(bus(busId, int(sizeof busId), device)))
        gpu.busLocation = busId;
}

void CUPTIAPI bufferRequested(uint8_t** buffer, size_t* size, size_t* maxNumRecords) {
    *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, kBufferSize));
    *size = *buffer ? kBufferSize : 0;
    *maxNumRecords = 0;
}

void CUPTIAPI bufferCompleted(CUcontext context, uint32_t streamId, uint8_t* buffer, size_t,
                              size_t validSize) {
    RecorderScope scope;
    if (g_parser)
        g_parser->parseBuffer(context, streamId, buffer, validSize);
    std::free(buffer);
}

// Records of a context that is being destroyed must be flushed while it still exists.
void CUPTIAPI onApiCallback(void*, CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                            const void* cbdata) {
    if (destroysContext(domain, cbid, cbdata))
        STROBE_CHECK(cuptiActivityFlushAll(0));
}

void subscribeToContextDestruction(Recorder& rec) {
    bool ok = STROBE_CHECK(cuptiSubscribe(&g_subscriber, onApiCallback, nullptr));
    if (ok) {
        ok = STROBE_CHECK(cuptiEnableCallback(1, g_subscriber, CUPTI_CB_DOMAIN_RUNTIME_API,
                                              CUPTI_RUNTIME_TRACE_CBID_cudaDeviceReset_v3020));
        for (const CUpti_CallbackId cbid :
             {CUPTI_DRIVER_TRACE_CBID_cuCtxDestroy, CUPTI_DRIVER_TRACE_CBID_cuCtxDestroy_v2,
              CUPTI_DRIVER_TRACE_CBID_cuDevicePrimaryCtxReset,
              CUPTI_DRIVER_TRACE_CBID_cuDevicePrimaryCtxReset_v2})
            ok = STROBE_CHECK(
                     cuptiEnableCallback(1, g_subscriber, CUPTI_CB_DOMAIN_DRIVER_API, cbid)) &&
                 ok;
    }
    rec.setCaptureInfo("STROBE_FLUSH_ON_CONTEXT_DESTROY", ok ? "enabled" : "unavailable");
}

void startCupti(Recorder& rec) {
    std::uint32_t runtime = 0;
    STROBE_CHECK(cuptiGetVersion(&runtime));
    const int driver = driverVersion();
    rec.setCaptureInfo("STROBE_CUPTI_VERSION_BUILT", std::to_string(CUPTI_API_VERSION));
    rec.setCaptureInfo("STROBE_CUPTI_VERSION", runtime ? std::to_string(runtime) : "unknown");
    rec.setCaptureInfo("STROBE_CUDA_DRIVER_VERSION", driver ? std::to_string(driver) : "unknown");
    if (const std::string layout = cuptiLayoutProblem(runtime, CUPTI_API_VERSION);
        !layout.empty()) {
        rec.reportCudaProblem(layout);
        return;
    }
    const std::string driverNote = driverProblem(runtime, driver);
    if (!driverNote.empty())
        rec.setCaptureInfo("STROBE_CUPTI_DRIVER_NOTE", driverNote);

    STROBE_CHECK(cuptiSetThreadIdType(CUPTI_ACTIVITY_THREAD_ID_TYPE_SYSTEM));
    g_parser = new ActivityParser(rec);
    if (!STROBE_CHECK(cuptiActivityRegisterTimestampCallback(monotonicTimestamp))) {
        std::uint64_t cuptiNow = 0;
        if (STROBE_CHECK(cuptiGetTimestamp(&cuptiNow)))
            g_parser->setTimestampOffset(monotonicNs() - std::int64_t(cuptiNow));
    }
    if (const CUptiResult status = cuptiActivityRegisterCallbacks(bufferRequested, bufferCompleted);
        !checkResult(status, "cuptiActivityRegisterCallbacks", __FILE__, __LINE__)) {
        rec.reportCudaProblem(refusalAdvice(status, driverNote));
        return;
    }
    const EnableResult enabled = enableActivityKinds(CuptiControl{}, driverNote);
    if (!enabled.failures.empty())
        rec.setCaptureInfo("STROBE_CUPTI_ENABLE_FAILURES", enabled.failures);
    if (enabled.enabled.empty()) {
        rec.reportCudaProblem(enabled.problem);
        return;
    }
    rec.setCaptureInfo("STROBE_CUDA_TRACE", "enabled");
    rec.setCaptureInfo("STROBE_CUPTI_KINDS", enabled.enabledNames);
    g_enabledKinds = enabled.enabled;
    subscribeToContextDestruction(rec);
    rec.setFlushHook([] { stopAndFlush(CuptiControl{}, g_enabledKinds); });
    rec.setGpuQueryHook(queryGpu);
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
