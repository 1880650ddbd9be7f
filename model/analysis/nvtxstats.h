// SPDX-License-Identifier: MIT
#pragma once

#include "model/analysis/rangegrouping.h"
#include "model/analysis/statistics.h"
#include "model/trace.h"

#include <QString>
#include <map>
#include <optional>
#include <tuple>
#include <vector>

namespace strobe {

// One row of the NVTX range summary: all ranges of one name and style.
struct NvtxSummaryRow {
    QString range; // "domain:text" for named domains, "text" in the default domain; grouped
                   // (groupedRangeName of it) unless the summary is RangeNaming::Raw
    NvtxStyle style = NvtxStyle::PushPop;
    std::uint64_t rawNames = 0; // distinct recorded names in the row (1 for RangeNaming::Raw)
    DurationStats stats;
    // The share of the trace's duration covered by at least one instance, 0..100: nested and
    // overlapping instances (other threads, other ranks) count once, unlike stats.total.
    double wallPercent = 0;
    std::vector<EventRef> instances; // in lane order
    // GPU work launched inside the instances (filled by addGpuProjection; see nvtxprojection.h).
    std::uint64_t gpuOps = 0;
    TimeNs gpuTime = 0;                 // sum of the operations' durations
    TimeNs gpuSpanTotal = 0;            // sum over instances of first GPU start to last GPU end
    std::uint64_t instancesWithGpu = 0; // instances that launched GPU work
    double avgGpuSpan() const {
        return instancesWithGpu ? double(gpuSpanTotal) / double(instancesWithGpu) : 0.0;
    }
};

struct NvtxSummary {
    std::vector<NvtxSummaryRow> rows; // by total descending, ties by range then style
    std::uint64_t openRanges = 0;     // ranges without an end: left out of the rows
    RangeNaming naming = RangeNaming::Grouped;

    // The row holding the range at `ref` (an NVTX lane event with an end); nullopt for marks,
    // open ranges, other lanes and refs out of range. O(log names).
    std::optional<std::size_t> rowOf(const Trace& trace, EventRef ref) const;

    // (domain, text, style) -> row: filled by summarizeNvtx, read by rowOf.
    std::map<std::tuple<StringId, StringId, int>, std::size_t> rowOfName;
};

// "pushpop" or "startend": the style key the CLI prints.
QString nvtxStyleKey(NvtxStyle style);

// Qualified range name as NVIDIA builds it: the domain name, a colon, the text.
QString nvtxRangeName(const Trace& trace, StringId domain, StringId text);

// Summarises NVTX ranges (marks excluded) per qualified name and style; by default the name is
// grouped (PyTorch's per-call ", op_id = N"... suffixes cut: rangegrouping.h).
NvtxSummary summarizeNvtx(const Trace& trace, RangeNaming naming = RangeNaming::Grouped);

// Fills the GPU columns of `summary`'s rows: the work each instance launched (the CLI's
// nvtx-summary leaves them out, so it does not pay for this).
void addGpuProjection(const Trace& trace, NvtxSummary& summary);

} // namespace strobe
