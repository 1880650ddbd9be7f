// SPDX-License-Identifier: MIT
#pragma once

// NVTX ranges projected onto the GPU and summarised per name and style, as Nsight Systems'
// nvtx_gpu_proj_sum reports them (docs/CLI.md, `nvtx-summary --gpu`): a GPU operation belongs to
// every range on its launching thread that contains its launching CUDA call whole; a range's
// projection runs from its first operation's start to its last operation's end.

#include "model/analysis/rangegrouping.h"
#include "model/analysis/statistics.h"
#include "model/trace.h"

#include <QString>
#include <vector>

namespace strobe {

// The instances of one range name and style that launched GPU work.
struct NvtxGpuSummaryRow {
    QString range; // as nvtx-summary names it (nvtxRangeName, grouped unless RangeNaming::Raw)
    NvtxStyle style = NvtxStyle::PushPop;
    DurationStats projected;  // per instance: last operation end - first operation start
    TimeNs totalRangeNs = 0;  // the instances' own (CPU-side) durations, summed
    std::uint64_t gpuOps = 0; // kernels, memcpys and memsets, summed over the instances
    double avgGpuOps() const {
        return projected.count ? double(gpuOps) / double(projected.count) : 0.0;
    }
    std::vector<EventRef> instances; // the NVTX ranges, in lane order
};

// Push/pop and start/end ranges with an end, started and ended on one thread, that contain at
// least one launching call; marks and other ranges are left out. Rows sorted by total projected
// time descending, ties by range then style.
std::vector<NvtxGpuSummaryRow> summarizeNvtxGpu(const Trace& trace,
                                                RangeNaming naming = RangeNaming::Grouped);

} // namespace strobe
