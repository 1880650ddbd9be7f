// SPDX-License-Identifier: MIT
#pragma once

#include "model/gpumemory.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace strobe {

// The counter lane's columns: for each of `columns` windows of `nsPerColumn` from `start`
// (window i is [start + floor(i * nsPerColumn), start + floor((i + 1) * nsPerColumn))), the most
// bytes allocated at any moment of the window. The counter holds each sample's value until the
// next sample; before the first sample it is unknown (nullopt), as is every window then.
std::vector<std::optional<std::uint64_t>> counterColumns(const GpuMemoryTrack& track, TimeNs start,
                                                         double nsPerColumn, int columns);

} // namespace strobe
