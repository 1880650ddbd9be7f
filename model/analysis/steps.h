// SPDX-License-Identifier: MIT
#pragma once

// The step breakdown of TensorBoard's PyTorch profiler plugin (its Overview's "Step Time
// Breakdown"): each training step moved to the device side and its time split by what ran, in
// priority order. The definitions are in docs/OPERATORS.md.

#include "model/analysis/operators.h"
#include "model/trace.h"

#include <QString>
#include <array>
#include <vector>

namespace strobe {

// What an instant of a step is spent on; each instant goes to the first category active then.
enum class StepCategory : std::uint8_t {
    Kernel,        // a kernel runs (communication kernels excepted)
    Memcpy,        // a memcpy runs
    Memset,        // a memset runs
    Communication, // an NCCL/Gloo collective: its kernels, or its CPU op when no kernel runs
    Runtime,       // a CUDA runtime call (nsys: runtime and driver calls)
    DataLoader,    // enumerate(DataLoader)#...__next__, enumerate(DataPipe)#..., or an NVTX range
                   // named like data loading (docs/OPERATORS.md)
    CpuExec,       // any other CPU operator or annotation
    Other,         // none of these
};
inline constexpr std::size_t kStepCategoryCount = 8;
// "kernel", "memcpy", "memset", "communication", "runtime", "dataloader", "cpu_exec", "other".
QString stepCategoryKey(StepCategory c);

struct StepTimes {
    QString name;    // the trace's own number ("550" for ProfilerStep#550), or the range's name
    EventRef event;  // the step's range on its lane; invalid for the whole-trace step
    TimeRange host;  // the range as recorded
    TimeRange range; // moved to the device side
    std::array<TimeNs, kStepCategoryCount> time{};
    TimeNs total() const { return range.duration(); }
    TimeNs of(StepCategory c) const { return time[std::size_t(c)]; }
};

enum class StepSource : std::uint8_t {
    ProfilerSteps, // ProfilerStep#N ranges
    Iterations,    // the detected iteration range (detectIterationRange)
    WholeTrace,    // no steps: one step over the CPU side's extent
};

struct StepBreakdown {
    StepSource source = StepSource::WholeTrace;
    QString family;                                   // "ProfilerStep", the detected range, or ""
    std::vector<StepTimes> steps;                     // in time order
    std::array<double, kStepCategoryCount> average{}; // per step
    double averageTotal = 0;
    std::uint32_t droppedTailSteps = 0; // steps whose GPU work the profiler likely missed
    std::uint32_t stepsWithoutGpuWork = 0;
    double sharePercent(StepCategory c) const {
        return averageTotal > 0 ? 100.0 * average[std::size_t(c)] / averageTotal : 0.0;
    }
};

// True when the step breakdown counts a CPU-side range of this name as data loading: TensorBoard's
// (isDataLoaderRangeName), and in nsys exports (`kineto` false) NVTX ranges named like data
// loading (docs/OPERATORS.md lists the patterns).
bool isStepDataLoaderName(QStringView name, bool kineto);

// O(n log n) in the ranges, calls and GPU operations; empty steps when cancelled.
StepBreakdown computeStepBreakdown(const Trace& trace, const AnalysisCancel& cancelled = {});

} // namespace strobe
