// SPDX-License-Identifier: MIT
#include "capture/cuptisession.h"

#include "capture/cudacheck.h"

#include <optional>

namespace strobe::capture {

namespace {

struct KindInfo {
    CUpti_ActivityKind kind;
    const char* name;
    bool dump; // enable with cuptiActivityEnableAndDump
};

constexpr KindInfo kKinds[] = {
    {CUPTI_ACTIVITY_KIND_DEVICE, "DEVICE", true},
    {CUPTI_ACTIVITY_KIND_CONTEXT, "CONTEXT", true},
    {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, "CONCURRENT_KERNEL", false},
    {CUPTI_ACTIVITY_KIND_MEMCPY, "MEMCPY", false},
    {CUPTI_ACTIVITY_KIND_MEMSET, "MEMSET", false},
    {CUPTI_ACTIVITY_KIND_RUNTIME, "RUNTIME", false},
    {CUPTI_ACTIVITY_KIND_DRIVER, "DRIVER", false},
    {CUPTI_ACTIVITY_KIND_SYNCHRONIZATION, "SYNCHRONIZATION", false},
};

std::string resultName(CUptiResult result) {
    const char* text = nullptr;
    if (cuptiGetResultString(result, &text) == CUPTI_SUCCESS && text)
        return text;
    return "CUPTI error " + std::to_string(int(result));
}

} // namespace

std::string refusalAdvice(CUptiResult first, const std::string& driverNote) {
    const std::string prefix = "CUPTI refused every activity kind (" + resultName(first) + "): ";
    if (first == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED)
        return prefix + "another CUPTI client (Nsight Systems, the PyTorch profiler, ...) is "
                        "attached to the program; run it without that profiler";
    if (first == CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED)
        return prefix + "this virtual GPU does not support activity tracing";
    if (!driverNote.empty())
        return prefix + driverNote;
    return prefix + "check that no other profiler is attached and that the driver is at least "
                    "as new as CUPTI (the versions are in the trace's META_DATA_CAPTURE)";
}

EnableResult enableActivityKinds(const CuptiControl& cupti, const std::string& driverNote) {
    EnableResult result;
    std::optional<CUptiResult> firstError;
    for (const KindInfo& k : kKinds) {
        const CUptiResult status = k.dump ? cupti.enableAndDump(k.kind) : cupti.enable(k.kind);
        const std::string call =
            std::string(k.dump ? "cuptiActivityEnableAndDump" : "cuptiActivityEnable") +
            "(CUPTI_ACTIVITY_KIND_" + k.name + ")";
        if (checkResult(status, call.c_str(), __FILE__, __LINE__)) {
            result.enabled.push_back(k.kind);
            result.enabledNames += (result.enabledNames.empty() ? "" : ",") + std::string(k.name);
            continue;
        }
        if (!firstError)
            firstError = status;
        result.failures +=
            (result.failures.empty() ? "" : ", ") + std::string(k.name) + ": " + resultName(status);
    }
    if (result.enabled.empty() && firstError)
        result.problem = refusalAdvice(*firstError, driverNote);
    return result;
}

void stopAndFlush(const CuptiControl& cupti, const std::vector<CUpti_ActivityKind>& enabled) {
    STROBE_CHECK(cupti.flushAll(0));
    for (const CUpti_ActivityKind kind : enabled)
        STROBE_CHECK(cupti.disable(kind));
    STROBE_CHECK(cupti.flushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED));
}

bool destroysContext(CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void* cbdata) {
    const auto* data = static_cast<const CUpti_CallbackData*>(cbdata);
    if (!data || data->callbackSite != CUPTI_API_ENTER)
        return false;
    if (domain == CUPTI_CB_DOMAIN_RUNTIME_API)
        return cbid == CUPTI_RUNTIME_TRACE_CBID_cudaDeviceReset_v3020;
    if (domain == CUPTI_CB_DOMAIN_DRIVER_API)
        return cbid == CUPTI_DRIVER_TRACE_CBID_cuCtxDestroy ||
               cbid == CUPTI_DRIVER_TRACE_CBID_cuCtxDestroy_v2 ||
               cbid == CUPTI_DRIVER_TRACE_CBID_cuDevicePrimaryCtxReset ||
               cbid == CUPTI_DRIVER_TRACE_CBID_cuDevicePrimaryCtxReset_v2;
    return false;
}

} // namespace strobe::capture
