// SPDX-License-Identifier: MIT
#pragma once

#include "model/analysis/statistics.h"
#include "model/trace.h"

#include <QString>
#include <vector>

namespace strobe {

enum class KernelGrouping : std::uint8_t {
    DemangledName, // one row per full (demangled) name: template instances stay apart
    ShortName,     // one row per base name
    LaunchConfig,  // one row per (demangled name, grid, block, registers, shared memory)
};

// One row of the kernel summary.
struct KernelSummaryRow {
    QString name; // demangled or short name, by grouping
    // Launch configuration of the group; meaningful only for KernelGrouping::LaunchConfig.
    std::array<std::int32_t, 3> grid{};
    std::array<std::int32_t, 3> block{};
    std::uint32_t registersPerThread = 0;
    std::uint32_t sharedBytes = 0; // static + dynamic
    DurationStats stats;
    double timePercent = 0;               // share of the summed duration of all kernels, 0..100
    std::vector<std::uint32_t> configs;   // indices into Trace::kernelConfigs(), ascending
    std::vector<std::uint32_t> instances; // indices into Trace::kernels(), in start order
};

// Groups every kernel of `trace`; rows sorted by total time descending, ties by name.
std::vector<KernelSummaryRow> summarizeKernels(const Trace& trace, KernelGrouping grouping);

} // namespace strobe
