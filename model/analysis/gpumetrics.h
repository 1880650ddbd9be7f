// SPDX-License-Identifier: MIT
#pragma once

// The per-GPU metrics TensorBoard's PyTorch profiler plugin shows beside its step breakdown (the
// Overview's "GPU Summary"): GPU utilisation, estimated SM efficiency, estimated achieved
// occupancy and the share of kernel time in Tensor Core kernels, over the steps' time, with the
// plugin's definitions (gpu_metrics_parser.py, tensor_cores_parser.py). Kineto's per-kernel
// "blocks per SM" and "est. achieved occupancy %" are estimated, by Kineto's own formula, for
// traces that did not record them. The definitions are in docs/OPERATORS.md.

#include "model/analysis/operators.h"
#include "model/trace.h"

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace strobe {

// Where the per-kernel values behind an average came from.
enum class KernelMetricBasis : std::uint8_t {
    Recorded,  // the profiler wrote each kernel's value (Kineto)
    Estimated, // Strobe estimated each by Kineto's formula (estimatedBlocksPerSm, ...)
    Mixed,     // some kernels of each
};

// An average over kernels of a per-kernel value, and what it rests on.
struct KernelMetricAverage {
    double value = 0;
    KernelMetricBasis basis = KernelMetricBasis::Recorded;
    // Kernels with time inside the span that had no value (neither recorded nor estimable):
    // the average leaves them out, as the plugin does.
    std::uint64_t kernelsWithout = 0;
};

struct GpuStepMetrics {
    std::uint32_t deviceId = 0;
    TimeRange span;         // the steps' time the metrics cover (the same for every GPU)
    TimeNs busyTime = 0;    // time in `span` with at least one kernel running on this GPU
    double utilization = 0; // busyTime / span, 0..1
    // Estimated SM efficiency, 0..1: the integral over `span` of min(1, the blocks per SM of the
    // kernels running then, summed), over the span's length. Absent when no kernel with a
    // blocks-per-SM value runs inside the span.
    std::optional<KernelMetricAverage> smEfficiency;
    // Estimated achieved occupancy in percent, 0..100: the kernels' values weighted by their time
    // inside `span` (overlapping kernels each count). Absent when no kernel with a value runs
    // inside the span.
    std::optional<KernelMetricAverage> achievedOccupancy;
    TimeNs kernelTime = 0; // the kernels' durations clipped to `span`, summed
    // The same over the kernels whose demangled name (Kineto: the event's name) usesTensorCores.
    TimeNs tensorCoreKernelTime = 0;
    // "Kernel Time using Tensor Cores", 0..1; 0 without kernel time in the span (as the plugin).
    double tensorCoreShare() const {
        return kernelTime > 0 ? double(tensorCoreKernelTime) / double(kernelTime) : 0.0;
    }
};

// The metrics of every GPU that ran a kernel anywhere in `trace`, by device id ascending, over
// `stepsSpan` (the first step's start to the last step's end of computeStepBreakdown, moved to
// the device side). Empty when `stepsSpan` is empty or `cancelled` returned true. O(n log n) in
// the kernels.
std::vector<GpuStepMetrics> computeGpuStepMetrics(const Trace& trace, TimeRange stepsSpan,
                                                  const AnalysisCancel& cancelled = {});

// True when `kernelName` contains one of the plugin's Tensor Core kernel name patterns
// (TC_Allowlist: "h884", "s1688", "hmma", "xmma_gemm", ...). Case-sensitive, as the plugin.
bool usesTensorCores(std::string_view kernelName);

// Kineto's "blocks per SM" of one launch: the grid's blocks over the GPU's SMs. Absent when the
// GPU's SM count is unknown or the launch has no positive grid.
std::optional<double> estimatedBlocksPerSm(const GpuInfo& gpu, const KernelConfig& config);

// Kineto's "est. achieved occupancy %" of one launch: min(the theoretical resident blocks per SM
// (computeOccupancy), blocksPerSm) x threads per block / the SM's thread slots, as the whole
// percent Kineto writes. `gpu` carries the limits (occupancyLimitsOf). Absent when the limits,
// the SM count, the registers or the shared memory are unknown, or the block cannot launch.
std::optional<double> estimatedAchievedOccupancyPercent(const GpuInfo& gpu,
                                                        const KernelConfig& config);

// The GPU `deviceId` of `trace` with the limits an occupancy estimate needs: resolveGpuLimits's,
// and the architecture table's blocks per SM where the trace has no such limit (Kineto's device
// properties never do). Absent when neither the trace nor the architecture table gives them.
std::optional<GpuInfo> occupancyLimitsOf(const Trace& trace, std::uint32_t deviceId);

} // namespace strobe
