// SPDX-License-Identifier: MIT
#pragma once

// How much of a GPU a kernel's launches fill: the kernels' time per launch configuration and
// whether a configuration leaves SMs without a block. Shared by the Overview's fill question
// (overview.h) and the small_grid finding (findings.h), so both count the same launches.

#include "model/trace.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace strobe {

// Blocks per launch of `c`: the product of its grid (0 or less when the grid is not recorded).
std::int64_t gridBlocks(const KernelConfig& c);

// True when a launch of `c` has at least one block and fewer than `smCount`: some SMs get no
// block at all. False when `smCount` is 0 (unknown).
bool leavesSmsEmpty(const KernelConfig& c, std::uint32_t smCount);

// The kernels of one GPU and one launch configuration.
struct KernelConfigUse {
    std::uint32_t deviceId = 0;
    std::uint32_t config = 0; // index into Trace::kernelConfigs()
    TimeNs time = 0;          // the launches' durations, summed (saturating)
    std::uint64_t launches = 0;
    EventRef longest; // the first of the longest launches, in start order
    TimeNs longestNs = -1;
};

// One entry per (device, configuration) with kernels overlapping `window` (every kernel when
// nullopt), of device `deviceId` only when given; ordered by device id, then configuration.
// O(kernels).
std::vector<KernelConfigUse> kernelUseByConfig(const Trace& trace,
                                               std::optional<std::uint32_t> deviceId,
                                               std::optional<TimeRange> window = std::nullopt);

} // namespace strobe
