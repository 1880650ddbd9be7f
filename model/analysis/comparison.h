// SPDX-License-Identifier: MIT
#pragma once

// Two runs side by side: kernels, NVTX ranges and GPUs of a baseline A and a trace B, matched by
// name (GPUs by index, or by position when the GPUs that ran work have different indices), with
// B - A deltas. One model for the GUI's Comparison panel and
// `strobe-cli diff` (docs/CLI.md, docs/USER_GUIDE.md). Works on any two traces the loader
// opens, of any formats.

#include "model/analysis/gaps.h"
#include "model/analysis/iterations.h"
#include "model/analysis/kernelstats.h"
#include "model/trace.h"

#include <QString>
#include <QStringList>
#include <optional>
#include <utility>
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
    // GPU pairs (device id in A, device id in B) that share a row; GPUs in no pair share a row
    // with the GPU of the same id on the other side when that one is in no pair either. Empty:
    // automatic (Comparison::gpuPairing says what it chose).
    std::vector<std::pair<std::uint32_t, std::uint32_t>> gpuPairing;
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
    // The change of the per-launch median in percent; nullopt unless both sides launched it.
    std::optional<double> medianPercent() const;
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
    std::uint32_t deviceId = 0;  // A's device id; B's when only B has this row's GPU
    std::uint32_t deviceIdB = 0; // B's device id (deviceId when only one side has the GPU)
    GpuSide a, b;
};

// What one side was and what the comparison counted of it.
struct ComparisonSide {
    QString file;
    QString format;
    TimeRange span;    // the trace's time range
    TimeNs window = 0; // what shares and utilisation divide by: span, or the range's windows
    std::optional<RangeInstances> range;          // when restricted to a range
    std::uint64_t kernels = 0;                    // kernels counted (all, or launched in the range)
    TimeNs gpuIdle = 0;                           // idle of all GPUs, counted like the GPU rows
    std::optional<std::uint32_t> rank, worldSize; // TraceMetadata's, when recorded
    // The distinct names of the GPUs that ran work (of every GPU listed when none did), by id.
    QStringList gpuModels;
    std::uint64_t instanceCount() const { return range ? range->instances.size() : 0; }
    // Per-instance means (0 without a range or without instances).
    double perInstance(double total) const;
    double meanInstanceNs() const;
    // `count` per second of the side's window (0 without a window).
    double perSecond(double count) const;
};

struct Comparison {
    ComparisonSide a, b;
    QString rangeName; // empty: whole traces
    bool rangeDetected = false;
    TimeNs idleThresholdNs = kDefaultIdleThresholdNs;
    std::vector<KernelDiffRow> kernels; // by |delta| descending, then name
    std::vector<RangeDiffRow> ranges;   // by |delta| descending, then range
    std::vector<GpuDiffRow> gpus;       // A's GPUs by id, then those only B has, by id
    // The pairs (A's id, B's id) matched before the rest match by id: the caller's
    // (ComparisonOptions::gpuPairing) or, automatically, the GPUs that ran work paired by
    // position when the two sides' sets of such ids differ (empty otherwise).
    std::vector<std::pair<std::uint32_t, std::uint32_t>> gpuPairing;
    bool gpusByPosition = false; // the automatic pairing by position was applied
    // Without a range: a range to align on, repeating in both traces (the iteration range
    // detectIterationRange finds in A or B, else the range of the largest share of wall time
    // that runs at least kSuggestedRangeMinCount times on each side), and how many times each
    // side has it. Empty with a range or when none qualifies.
    QString suggestedRange;
    std::pair<std::uint64_t, std::uint64_t> suggestedCounts{0, 0};
    bool hasRange() const { return !rangeName.isEmpty(); }
    // True when any row pairs GPUs of different ids.
    bool pairsAcrossIds() const;
};

// The fewest instances on each side for a range to be suggested without iteration detection.
inline constexpr std::uint64_t kSuggestedRangeMinCount = 3;

// Compares B against the baseline A. With a range, a kernel counts when the API call that
// launched it started inside an instance of the range (its own start when no launch was
// recorded), an NVTX range when it starts inside one, and GPU busy and idle time is clipped to
// the instances. A range found in neither trace leaves both sides with no instances (and empty
// tables): the caller says so.
Comparison compareTraces(const Trace& a, const Trace& b, const ComparisonOptions& options = {});

} // namespace strobe
