// SPDX-License-Identifier: MIT
#pragma once

// Where the analysis's enums and findings about kernels and copies become words for people:
// the limit that caps occupancy, where the GPU limits came from, a copy's direction. The
// machine keys (memoryDirectionKey, gpuLimitsSourceKey) stay with the analysis.

#include "model/analysis/gpuarchitecture.h"
#include "model/analysis/memorystats.h"
#include "model/analysis/occupancy.h"

#include <QString>

namespace strobe {

// "registers", "shared memory", "warps per SM", "blocks per SM", "block exceeds a per-block
// limit"; "unknown" for None.
QString occupancyLimitLabel(OccupancyLimit limit);
// "Host to device", "Device to host", ..., "Memset", "Other".
QString memoryDirectionLabel(MemoryDirection d);
// One phrase: "from the trace", "from the architecture table (compute capability 9.0, from the
// name 'NVIDIA H100 80GB HBM3')", or for unknown limits what is missing.
QString gpuLimitsNote(const GpuLimits& limits);

} // namespace strobe
