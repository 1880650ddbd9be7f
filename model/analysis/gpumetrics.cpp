// SPDX-License-Identifier: MIT
#include "model/analysis/gpumetrics.h"

#include "model/analysis/gpuarchitecture.h"
#include "model/analysis/intervalset.h"
#include "model/analysis/occupancy.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <unordered_map>

namespace strobe {

namespace {

// tensor_core.py's TC_Allowlist (from NVIDIA PyProf's tc.py): a kernel whose name contains one of
// these uses Tensor Cores.
constexpr std::array<std::string_view, 18> kTensorCorePatterns = {
    "h884",
    "s884",
    "h1688",
    "s1688",
    "hmma",
    "i8816",
    "16816",
    "dgrad_1x1_stride_2x2",
    "first_layer_wgrad_kernel",
    "conv1x1",
    "conv2d_c1_k1",
    "direct_group",
    "xmma_implicit_gemm",
    "xmma_sparse_conv",
    "xmma_warp_specialized_implicit_gemm",
    "xmma_gemm",
    "xmma_sparse_gemm",
    "c1688",
};

// One end of a kernel with a blocks-per-SM value (merge_ranges_with_value's EndPoint).
struct Endpoint {
    TimeNs t = 0;
    bool isEnd = false;
    double value = 0;
};

struct KernelEstimates {
    std::optional<double> blocksPerSm;
    std::optional<double> occupancyPercent;
};

// Counts which source each contributing kernel's value came from.
struct BasisCount {
    std::uint64_t recorded = 0, estimated = 0, without = 0;
    void add(bool has, bool fromTrace) {
        if (!has)
            ++without;
        else if (fromTrace)
            ++recorded;
        else
            ++estimated;
    }
    KernelMetricAverage average(double value) const {
        KernelMetricAverage a;
        a.value = value;
        a.basis = estimated == 0  ? KernelMetricBasis::Recorded
                  : recorded == 0 ? KernelMetricBasis::Estimated
                                  : KernelMetricBasis::Mixed;
        a.kernelsWithout = without;
        return a;
    }
};

struct DeviceAccumulator {
    std::vector<TimeRange> kernels; // non-empty ones, for the busy time
    std::vector<Endpoint> blocks;   // kernels with a valid blocks-per-SM value
    BasisCount blocksBasis, occupancyBasis;
    double occupancyWeighted = 0;
    double occupancyTime = 0;
    TimeNs kernelTime = 0, tensorCoreTime = 0;
    bool limitsLooked = false;
    std::optional<GpuInfo> limits;
    std::unordered_map<std::uint32_t, KernelEstimates> estimates; // by config index
};

std::string_view kernelName(const Trace& trace, const KernelConfig& c) {
    for (const StringId id : {c.demangledName, c.shortName, c.mangledName}) {
        if (id != kNoString)
            return trace.strings().view(id);
    }
    return {};
}

// The integral over `span` of min(1, the summed blocks per SM of the kernels running), and
// whether any kernel with a value ran there (merge_ranges_with_value, then
// intersection_ranges_lists_with_value and calculate_avg's numerator).
std::pair<double, bool> cappedBlocksIntegral(std::vector<Endpoint>& points, TimeRange span) {
    std::sort(points.begin(), points.end(), [](const Endpoint& a, const Endpoint& b) {
        return a.t < b.t || (a.t == b.t && !a.isEnd && b.isEnd); // starts before ends
    });
    double integral = 0;
    bool any = false;
    double running = 0;
    std::int64_t active = 0;
    TimeNs last = points.empty() ? 0 : points.front().t;
    for (const Endpoint& p : points) {
        if (p.t > last && active > 0) {
            const TimeNs lo = std::max(last, span.start), hi = std::min(p.t, span.end);
            if (lo < hi) {
                integral += std::min(running, 1.0) * double(hi - lo);
                any = true;
            }
        }
        last = p.t;
        if (p.isEnd) {
            running -= p.value;
            // Exactly zero once nothing runs: the plugin's float sum may leave a remainder.
            if (--active == 0)
                running = 0;
        } else {
            running += p.value;
            ++active;
        }
    }
    return {integral, any};
}

bool validBlocks(double v) {
    return std::isfinite(v) && v > 0.0; // the plugin skips values that are not positive
}

bool validOccupancy(double v) {
    return std::isfinite(v) && v >= 0.0; // the plugin skips negative values (Kineto's -1 x 100)
}

} // namespace

bool usesTensorCores(std::string_view kernelName) {
    return std::any_of(kTensorCorePatterns.begin(), kTensorCorePatterns.end(),
                       [&](std::string_view p) { return kernelName.find(p) != kernelName.npos; });
}

std::optional<double> estimatedBlocksPerSm(const GpuInfo& gpu, const KernelConfig& config) {
    if (gpu.smCount == 0 || config.detail == LaunchDetail::None)
        return std::nullopt;
    if (config.grid[0] <= 0 || config.grid[1] <= 0 || config.grid[2] <= 0)
        return std::nullopt;
    const double blocks = double(config.grid[0]) * double(config.grid[1]) * double(config.grid[2]);
    return blocks / double(gpu.smCount);
}

std::optional<double> estimatedAchievedOccupancyPercent(const GpuInfo& gpu,
                                                        const KernelConfig& config) {
    if (gpu.maxWarpsPerSm == 0 || gpu.maxRegistersPerSm == 0 || gpu.threadsPerWarp == 0 ||
        gpu.maxShmemPerSm == 0 || config.detail == LaunchDetail::None ||
        !config.recorded(KernelField::Registers) || !config.recorded(KernelField::SharedMemory))
        return std::nullopt;
    const std::optional<double> blocksPerSm = estimatedBlocksPerSm(gpu, config);
    if (!blocksPerSm)
        return std::nullopt;
    const OccupancyResult r = computeOccupancy(gpu, config);
    if (!r.valid || r.limit == OccupancyLimit::BlockSize || r.limit == OccupancyLimit::None)
        return std::nullopt; // cudaOccMaxActiveBlocksPerMultiprocessor fails: Kineto writes -99
    // Kineto's arithmetic, in float as it does (CudaDeviceProperties.cpp, kernelOccupancy), then
    // its rounding to a whole percent (CuptiActivity.cpp: (int)(0.5 + occupancy * 100.0)).
    const double blocks = double(config.grid[0]) * double(config.grid[1]) * double(config.grid[2]);
    const float launched = float(blocks) / float(gpu.smCount);
    const float resident = std::min(float(r.activeBlocksPerSm), launched);
    const float threadSlots = float(gpu.maxWarpsPerSm) * float(gpu.threadsPerWarp);
    const float occupancy = resident * float(r.threadsPerBlock) / threadSlots;
    return std::floor(0.5 + double(occupancy) * 100.0); // the same for occupancy >= 0
}

std::optional<GpuInfo> occupancyLimitsOf(const Trace& trace, std::uint32_t deviceId) {
    const GpuLimits limits = resolveGpuLimits(trace, deviceId);
    if (limits.source == GpuLimitsSource::Unknown)
        return std::nullopt;
    GpuInfo g = limits.gpu;
    if (g.maxBlocksPerSm == 0) {
        if (const ArchitectureLimits* a = architectureLimits({g.computeMajor, g.computeMinor}))
            g.maxBlocksPerSm = a->maxBlocksPerSm;
    }
    return g;
}

std::vector<GpuStepMetrics> computeGpuStepMetrics(const Trace& trace, TimeRange stepsSpan,
                                                  const AnalysisCancel& cancelled) {
    if (stepsSpan.isEmpty())
        return {};
    const std::vector<KernelConfig>& configs = trace.kernelConfigs();
    std::vector<std::uint8_t> tensorCore(configs.size(), 2); // 2: not looked at yet
    std::map<std::uint32_t, DeviceAccumulator> devices;
    for (std::size_t i = 0; i < trace.kernelCount(); ++i) {
        if (i % 65536 == 0 && cancelled && cancelled())
            return {};
        const EventRef ref = trace.kernelRef(i);
        const Lane& lane = trace.lane(ref.lane);
        const TimeNs start = lane.start(ref.index), end = lane.end(ref.index);
        const std::uint32_t device = trace.streams()[trace.kernelStreamIndex(i)].deviceId;
        DeviceAccumulator& acc = devices[device];
        const std::uint32_t ci = trace.kernelConfigIndex(i);
        const KernelConfig& config = configs[ci];
        if (end > start)
            acc.kernels.push_back({start, end});
        const TimeNs lo = std::max(start, stepsSpan.start), hi = std::min(end, stepsSpan.end);
        const TimeNs inSpan = hi > lo ? hi - lo : 0;
        if (tensorCore[ci] == 2)
            tensorCore[ci] = usesTensorCores(kernelName(trace, config)) ? 1 : 0;
        acc.kernelTime = saturatingAdd(acc.kernelTime, inSpan);
        if (tensorCore[ci] == 1)
            acc.tensorCoreTime = saturatingAdd(acc.tensorCoreTime, inSpan);

        // The recorded values when the trace has them (even unusable ones, which the plugin
        // skips); else Kineto's estimate, computed once per launch configuration.
        const RecordedOccupancy& rec = config.recordedOccupancy;
        std::optional<double> blocks, occupancy;
        if (!rec.blocksPerSm || !rec.achievedOccupancyPercent) {
            auto [it, isNew] = acc.estimates.try_emplace(ci);
            if (isNew) {
                if (!acc.limitsLooked) {
                    acc.limits = occupancyLimitsOf(trace, device);
                    acc.limitsLooked = true;
                }
                if (const GpuInfo* gpu = trace.gpuById(device))
                    it->second.blocksPerSm = estimatedBlocksPerSm(*gpu, config);
                if (acc.limits)
                    it->second.occupancyPercent =
                        estimatedAchievedOccupancyPercent(*acc.limits, config);
            }
            blocks = it->second.blocksPerSm;
            occupancy = it->second.occupancyPercent;
        }
        if (rec.blocksPerSm)
            blocks = double(*rec.blocksPerSm);
        if (rec.achievedOccupancyPercent)
            occupancy = double(*rec.achievedOccupancyPercent);

        const bool hasBlocks = blocks && validBlocks(*blocks);
        if (hasBlocks && end > start) {
            acc.blocks.push_back({start, false, *blocks});
            acc.blocks.push_back({end, true, *blocks});
        }
        const bool hasOccupancy = occupancy && validOccupancy(*occupancy);
        if (hasOccupancy && inSpan > 0) {
            acc.occupancyWeighted += *occupancy * double(inSpan);
            acc.occupancyTime += double(inSpan);
        }
        if (inSpan > 0) {
            acc.blocksBasis.add(hasBlocks, rec.blocksPerSm.has_value());
            acc.occupancyBasis.add(hasOccupancy, rec.achievedOccupancyPercent.has_value());
        }
    }

    std::vector<GpuStepMetrics> out;
    out.reserve(devices.size());
    const double spanLength = double(stepsSpan.duration());
    for (auto& [device, acc] : devices) {
        if (cancelled && cancelled())
            return {};
        GpuStepMetrics m;
        m.deviceId = device;
        m.span = stepsSpan;
        m.busyTime = length(clipped(merged(std::move(acc.kernels)), stepsSpan));
        m.utilization = double(m.busyTime) / spanLength;
        if (const auto [integral, any] = cappedBlocksIntegral(acc.blocks, stepsSpan); any)
            m.smEfficiency = acc.blocksBasis.average(integral / spanLength);
        if (acc.occupancyTime > 0)
            m.achievedOccupancy =
                acc.occupancyBasis.average(acc.occupancyWeighted / acc.occupancyTime);
        m.kernelTime = acc.kernelTime;
        m.tensorCoreKernelTime = acc.tensorCoreTime;
        out.push_back(m);
    }
    return out;
}

} // namespace strobe
