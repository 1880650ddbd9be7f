// SPDX-License-Identifier: MIT
#pragma once

// Two runs side by side: kernels, NVTX ranges and GPUs of a baseline A and a trace B, matched by
// name (or GPU index), with B - A deltas. One model for the GUI's Comparison panel and
// `strobe-cli diff` (docs/CLI.md, docs/USER_GUIDE.md). Works on any two traces the loader
// opens, of any formats.

#include "model/analysis/gaps.h"
#include "model/analysis/iterations.h"
#include "model/analysis/kernelstats.h"
#include "model/trace.h"

#include <QString>
#include <optional>
#include <vector>

namespace strobe {

struct ComparisonOptions {
    // The kernel-summary key kernels are matched by.
    KernelGrouping grouping = KernelGrouping::DemangledName;
    // Restrict both sides to the instances of this range (findRangeInstances) and report means
    // per instance. Empty: whole traces.
    QString range;
    // Take the range from detectIterationRange on A (B uses the same name); ignores `range`.
    bool detectRange = false;
    TimeNs idleThresholdNs = kDefaultIdleThresholdNs;
};

// One side of a kernel row.
struct KernelSide {
    std::uint64_t count = 0;
    TimeNs total = 0;
    double median = 0;
    // The longest instance (index into Trace::kernels()), for "show me" in the timeline.
    std::optional<std::uint32_t> longest;
};

struct KernelDiffRow {
    QString name; // the grouping key as text: demangled or short name, plus the configuration
    KernelSide a, b;
    TimeNs delta() const { return b.total - a.total; }
    // (b - a) / a in percent; nullopt when A has no time (a kernel new in B).
    std::optional<double> deltaPercent() const;
};

struct RangeSide {
    std::uint64_t count = 0;
    TimeNs total = 0;
    double wallPercent = 0; // total / the side's window (wall time, or the range's windows)
};

struct RangeDiffRow {
    QString range; // groupedRangeName of the range, "domain:text" for named domains
    RangeSide a, b;
    TimeNs delta() const { return b.total - a.total; }
    std::optional<double> deltaPercent() const;
};

struct GpuSide {
    bool present = false;          // the trace has this GPU (work or a GpuInfo)
    TimeNs kernelBusy = 0;         // union of the device's kernel intervals
    TimeNs copyBusy = 0;           // union of its memcpy and memset intervals
    TimeNs busy = 0;               // union of both
    TimeNs idle = 0;               // sum of its idle gaps at the threshold (findGaps)
    std::uint64_t gaps = 0;        // how many
    double utilizationPercent = 0; // busy / the side's window
};

struct GpuDiffRow {
    std::uint32_t deviceId = 0;
    GpuSide a, b;
};

// What one side was and what the comparison counted of it.
struct ComparisonSide {
    QString file;
    QString format;
    TimeRange span;    // the trace's time range
    TimeNs window = 0; // what shares and utilisation divide by: span, or the range's windows
    std::optional<RangeInstances> range; // when restricted to a range
    std::uint64_t kernels = 0;           // kernels counted (all, or launched in the range)
    TimeNs gpuIdle = 0;                  // idle of all GPUs, counted like the GPU rows
    std::uint64_t instanceCount() const { return range ? range->instances.size() : 0; }
    // Per-instance means (0 without a range or without instances).
    double perInstance(double total) const;
    double meanInstanceNs() const;
};

struct Comparison {
    ComparisonSide a, b;
    QString rangeName; // empty: whole traces
    bool rangeDetected = false;
    TimeNs idleThresholdNs = kDefaultIdleThresholdNs;
    std::vector<KernelDiffRow> kernels; // by |delta| descending, then name
    std::vector<RangeDiffRow> ranges;   // by |delta| descending, then range
    std::vector<GpuDiffRow> gpus;       // by device id
    bool hasRange() const { return !rangeName.isEmpty(); }
};

// Compares B against the baseline A. With a range, a kernel counts when the API call that
// launched it started inside an instance of the range (its own start when no launch was
// recorded), an NVTX range when it starts inside one, and GPU busy and idle time is clipped to
// the instances. A range found in neither trace leaves both sides with no instances (and empty
// tables): the caller says so.
Comparison compareTraces(const Trace& a, const Trace& b, const ComparisonOptions& options = {});

} // namespace strobe
