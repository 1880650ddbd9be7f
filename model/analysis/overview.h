// SPDX-License-Identifier: MIT
#pragma once

// The Overview's answers to the three usual misdiagnoses (the GPU is starved by data loading;
// the kernels do not fill the GPU; communication is expensive), plus memory, in plain words
// with the numbers and a pointer to the evidence. Built from the breakdown and the gaps; the
// panel only lays it out.

#include "model/analysis/breakdown.h"
#include "model/analysis/gaps.h"
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

struct OverviewFinding {
    QString question; // "Is the GPU starved?"
    QString text;     // one or two sentences with the numbers
    FindingTarget target = FindingTarget::None;
    EventRef event;
    std::vector<std::uint32_t> configs; // indices into Trace::kernelConfigs()
    TimeNs time = 0;                    // Moment only
};

struct IterationBreakdown {
    std::size_t index = 0; // in start order, from 0
    TimeRange range;       // the instance's own [start, end)
    std::vector<GpuBreakdown> gpus;
};

struct Overview {
    std::optional<TimeRange> window; // the selected range the numbers are for, if any
    std::vector<GpuBreakdown> gpus;
    std::vector<OverviewFinding> findings;
    QString iterationLabel;                     // "Iteration N", empty when none was found
    std::vector<IterationBreakdown> iterations; // per instance, over the whole trace
};

// Everything the Overview shows; gaps at least `gapThreshold` long count for the idle finding.
Overview buildOverview(const Trace& trace, const KernelClassTable& table,
                       std::optional<TimeRange> window, TimeNs gapThreshold);

// "27.6 %": one decimal.
QString percentText(TimeNs part, TimeNs whole);

} // namespace strobe
