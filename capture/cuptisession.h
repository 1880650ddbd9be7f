// SPDX-License-Identifier: MIT
#pragma once

// Starting and stopping CUPTI activity collection. The CUPTI calls come through CuptiControl,
// so the order of calls and the error reporting are tested without a GPU.

#include <cupti.h>
#include <string>
#include <vector>

namespace strobe::capture {

struct CuptiControl {
    CUptiResult (*enable)(CUpti_ActivityKind) = cuptiActivityEnable;
    CUptiResult (*enableAndDump)(CUpti_ActivityKind) = cuptiActivityEnableAndDump;
    CUptiResult (*disable)(CUpti_ActivityKind) = cuptiActivityDisable;
    CUptiResult (*flushAll)(uint32_t) = cuptiActivityFlushAll;
};

struct EnableResult {
    std::vector<CUpti_ActivityKind> enabled;
    std::string enabledNames; // "CONCURRENT_KERNEL,MEMCPY,...", for the metadata
    std::string failures;     // "SYNCHRONIZATION: CUPTI_ERROR_..., ..."; empty when none failed
    std::string problem;      // when nothing was enabled: why, and what to do; else empty
};

// Enables the kinds the trace needs. DEVICE and CONTEXT go through cuptiActivityEnableAndDump,
// which also hands back the GPUs and contexts that exist already. `driverNote` (a version
// problem found at start-up, may be empty) explains a total refusal when CUPTI's error does not.
EnableResult enableActivityKinds(const CuptiControl& cupti, const std::string& driverNote);

// Ends collection: a normal flush first (completed records, with their real end times), then
// every kind is disabled, then a forced flush hands back what is left (records still in
// flight come back incomplete and are skipped by the parser).
void stopAndFlush(const CuptiControl& cupti, const std::vector<CUpti_ActivityKind>& enabled);

// True for the API entries that destroy contexts (cudaDeviceReset, cuCtxDestroy,
// cuDevicePrimaryCtxReset): their pending records must be flushed before the call runs.
bool destroysContext(CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void* cbdata);

// What to tell the user when every enable failed with `first`.
std::string refusalAdvice(CUptiResult first, const std::string& driverNote);

} // namespace strobe::capture
