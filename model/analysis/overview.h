// SPDX-License-Identifier: MIT
#pragma once

// The Overview's answers to the three usual misdiagnoses (the GPU is starved by data loading;
// the kernels do not fill the GPU; communication is expensive), plus memory: which answer, with
// the numbers and a pointer to the evidence. Built from the breakdown and the gaps; the words are
// model/reports/overviewtext.h's, the panel only lays them out.

#include "model/analysis/breakdown.h"
#include "model/analysis/gaps.h"
#include "model/analysis/gpuarchitecture.h"
#include "model/analysis/iterations.h"

#include <QString>
#include <optional>
#include <vector>

namespace strobe {

// Where a finding's link leads.
enum class FindingTarget : std::uint8_t {
    None,
    Gaps,          // the GPU gaps panel
    Kernel,        // `event`: a launch of the kernel, for its detail
    Communication, // the kernel table filtered to `configs`
    Moment,        // `time` on the timeline (the memory peak)
};

// The question a finding answers, in the order the Overview asks them.
enum class FindingQuestion : std::uint8_t {
    Starved,       // is the GPU starved?
    Fill,          // do the kernels fill the GPU?
    Communication, // is communication expensive?
    Memory,        // is GPU memory the limit?
};

// Which answer the numbers gave.
enum class FindingAnswer : std::uint8_t {
    KeptBusy,         // Starved: idle under kStarvedPercent of the span
    HostStarves,      // Starved: idle, mostly while `idleShares`' largest runs
    IdleOutsideGaps,  // Starved: idle, but no gap (before the first or after the last work)
    NoSmCount,        // Fill: the trace does not record the GPU's SM count (`limits` says why)
    EveryKernelFills, // Fill: no computing kernel launches fewer blocks than the GPU has SMs
    Underfilled,      // Fill: configs[0] leaves the most SM time idle of those that do
    NoCommunication,  // Communication: no communication kernels
    Communication,    // Communication: its share, exposed and hidden
    NoMemoryRecord,   // Memory: the copies' share; the trace records no memory use
    MemoryPeak,       // Memory: the copies' share and the peak at `time`
};

// Below this share of its span idle, a GPU counts as kept busy.
inline constexpr double kStarvedPercent = 10.0;

// Idle time under one heading: the innermost NVTX range enclosing the gaps (a name from the
// trace), or for gaps outside any range their cause.
struct IdleShare {
    std::optional<QString> nvtxRange; // nullopt: `cause` names the heading
    GapCause cause = GapCause::Unknown;
    TimeNs ns = 0;
};

struct OverviewFinding {
    FindingQuestion question = FindingQuestion::Starved;
    FindingAnswer answer = FindingAnswer::KeptBusy;
    GpuBreakdown gpu; // the GPU's breakdown the numbers come from (span, idle, compute, ...)
    FindingTarget target = FindingTarget::None;
    EventRef event;
    std::vector<std::uint32_t> configs; // indices into Trace::kernelConfigs()
    TimeNs time = 0;                    // Moment only

    // Starved: the gaps at least `gapThreshold` long overlapping the window (findGaps' with all
    // work busy, so the GPU Gaps panel's at the same threshold), their time clipped to it and
    // their headings (by range name, then cause; the text names the largest). `window` (Starved
    // and Memory): the selected range, if any; without one, gap time is a share of the trace, as
    // the panel's is.
    std::uint64_t gapCount = 0;
    TimeNs gapThreshold = 0;
    TimeNs gapTotal = 0;
    std::vector<IdleShare> idleShares;
    std::optional<TimeRange> window;
    // Fill: the GPU's SMs and the limits used, found as strobe-cli info finds them
    // (resolveGpuLimits: the trace's, else the architecture table's); Underfilled: configs[0]'s
    // blocks per launch, launches in the window, their time and the share of the GPU's warp slots
    // (blocks per SM without a warp limit).
    GpuLimits limits;
    std::uint32_t smCount = 0;
    std::int64_t blocks = 0;
    std::uint64_t launches = 0;
    TimeNs kernelNs = 0;
    double warpSlotFraction = 0; // 0..1
    // MemoryPeak: bytes allocated at the peak, and the GPU's memory (nullopt: not recorded).
    std::uint64_t peakAllocated = 0;
    std::optional<std::uint64_t> totalMemory;
    // Memory: unified-memory migrations overlapping the span, and their union clipped to it;
    // the GPU's others, outside the span. Not stream work: not in the breakdown's memory nor
    // its idle (docs/BREAKDOWN.md).
    std::uint64_t migrations = 0;
    TimeNs migrationNs = 0;
    std::uint64_t migrationsOutside = 0;
};

struct IterationBreakdown {
    std::size_t index = 0; // in start order, from 0
    QString label;         // as the trace numbers it ("550" for ProfilerStep#550)
    TimeRange range;       // the instance's own [start, end)
    std::vector<GpuBreakdown> gpus;
};

struct Overview {
    std::optional<TimeRange> window; // the selected range the numbers are for, if any
    std::vector<GpuBreakdown> gpus;
    std::vector<OverviewFinding> findings; // by question, then by GPU
    QString
        iterationName; // the iteration ranges' name from the trace ("ProfilerStep"); empty: none
    std::vector<IterationBreakdown> iterations; // per instance, over the whole trace
};

// Everything the Overview shows; gaps at least `gapThreshold` long count for the idle finding.
Overview buildOverview(const Trace& trace, const KernelClassTable& table,
                       std::optional<TimeRange> window, TimeNs gapThreshold);

} // namespace strobe
