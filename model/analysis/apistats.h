// SPDX-License-Identifier: MIT
#pragma once

// Per-name summaries of CPU-side calls, as Nsight Systems' `nsys stats` reports them:
// cuda_api_sum (CUDA runtime and driver calls) and osrt_sum (OS runtime calls). Definitions and
// where Strobe differs: docs/CLI.md, `api-summary` and `osrt-summary`.

#include "model/analysis/statistics.h"
#include "model/trace.h"

#include <QString>
#include <vector>

namespace strobe {

// Which calls a call summary reads.
enum class CallFamily : std::uint8_t {
    CudaApi, // lanes of kind CudaApi, named as Strobe shows them (cudaapi::displayName)
    Osrt,    // lanes of kind Osrt, named as recorded
};

// All calls of one name.
struct CallSummaryRow {
    QString name;
    DurationStats stats;
    double timePercent = 0; // share of the summed duration of every call in the summary, 0..100
};

// One row per name; sorted by total time descending, ties by name. Empty when the trace has no
// such calls (or did not load them).
std::vector<CallSummaryRow> summarizeCalls(const Trace& trace, CallFamily family);

} // namespace strobe
