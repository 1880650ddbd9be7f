// SPDX-License-Identifier: MIT
#pragma once

// Kernel launch and execution times per kernel, as Nsight Systems' cuda_kern_exec_sum reports
// them (docs/CLI.md, `launch-summary`): the launching call's time on the CPU ("API time"), the
// wait from the call's end to the kernel's start ("queue time") and the kernel's own time.

#include "model/analysis/statistics.h"
#include "model/trace.h"

#include <QString>
#include <vector>

namespace strobe {

// The launches of one kernel (by demangled name) whose launching CUDA call was recorded.
struct LaunchSummaryRow {
    QString name;
    DurationStats api;    // launching call's end - start
    DurationStats kernel; // kernel's end - start
    // Kernel start - call end, over the launches where it is 0 or more only (queue.count of
    // them; nsys's QCount): a kernel that starts before its call returns has no queue time.
    DurationStats queue;
    // From the call's start to the later of the call's end and the kernel's end (nsys's "total").
    DurationStats total;
    std::vector<std::uint32_t> instances; // indices into Trace::kernels(), in start order
};

// One row per kernel name; kernels without a recorded launching call are left out (a graph's
// kernels count, each with its cudaGraphLaunch's time). Sorted by average total time descending
// (nsys's order), ties by name.
std::vector<LaunchSummaryRow> summarizeLaunches(const Trace& trace);

} // namespace strobe
