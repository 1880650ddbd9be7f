// SPDX-License-Identifier: MIT
#include "model/analysis/occupancy.h"

#include "model/analysis/gpuarchitecture.h"

#include <algorithm>
#include <limits>

namespace strobe {

namespace {

constexpr std::uint32_t kUnlimited = std::numeric_limits<std::uint32_t>::max();

std::uint64_t roundUp(std::uint64_t v, std::uint64_t unit) {
    return unit ? (v + unit - 1) / unit * unit : v;
}

} // namespace

OccupancyResult computeOccupancy(const GpuInfo& gpu, const KernelConfig& config) {
    OccupancyResult r;
    if (gpu.maxWarpsPerSm == 0 || gpu.maxRegistersPerSm == 0 || gpu.threadsPerWarp == 0)
        return r;
    // The allocation rules of the GPU's architecture where it is known; else those of 8.0+.
    const ArchitectureLimits* arch = architectureLimits({gpu.computeMajor, gpu.computeMinor});
    const std::uint32_t registerUnit =
        arch ? arch->registerAllocationUnit : kRegisterAllocationUnit;
    const std::uint32_t sharedUnit = arch ? arch->sharedAllocationUnit
                                     : gpu.computeMajor >= 8 || gpu.computeMajor == 0
                                         ? kSharedMemoryAllocationUnit
                                         : 256;
    r.valid = true;
    const std::uint64_t threads = std::uint64_t(std::max(config.block[0], 0)) *
                                  std::uint64_t(std::max(config.block[1], 0)) *
                                  std::uint64_t(std::max(config.block[2], 0));
    r.threadsPerBlock = std::uint32_t(std::min<std::uint64_t>(threads, kUnlimited));
    r.warpsPerBlock = std::uint32_t(roundUp(threads, gpu.threadsPerWarp) / gpu.threadsPerWarp);

    const std::uint64_t regsPerWarp =
        roundUp(std::uint64_t(config.registersPerThread) * gpu.threadsPerWarp, registerUnit);
    r.registersPerBlock = std::uint32_t(regsPerWarp * r.warpsPerBlock);
    const std::uint32_t reserve =
        arch ? arch->sharedReservedPerBlock
             : (gpu.computeMajor >= 8 ? kSharedMemoryReservedPerBlockSm80 : std::uint32_t(0));
    const std::uint64_t requestedShared =
        std::uint64_t(config.staticSharedBytes) + config.dynamicSharedBytes;
    r.sharedBytesPerBlock = std::uint32_t(roundUp(requestedShared, sharedUnit) + reserve);

    const std::uint32_t sharedPerBlockMax =
        std::max(gpu.maxShmemPerBlock, gpu.maxShmemPerBlockOptin);
    const bool tooBig =
        threads == 0 || (gpu.maxThreadsPerBlock && threads > gpu.maxThreadsPerBlock) ||
        (gpu.maxRegistersPerBlock &&
         std::uint64_t(config.registersPerThread) * threads > gpu.maxRegistersPerBlock) ||
        (sharedPerBlockMax && requestedShared > sharedPerBlockMax);
    if (tooBig) {
        r.limit = OccupancyLimit::BlockSize;
        return r;
    }

    r.blocksByWarps = gpu.maxWarpsPerSm / r.warpsPerBlock;
    r.blocksBySmLimit = gpu.maxBlocksPerSm ? gpu.maxBlocksPerSm : kUnlimited;
    // The register file is split among the SM's sub-partitions and a warp's registers come from
    // one of them (cuda_occupancy.h, cudaOccMaxBlocksPerSMRegsLimit): 88 registers a thread fit
    // 5 warps in each quarter of 64 Ki, 20 in all, not 23.
    const std::uint32_t partitions = arch ? arch->warpAllocationGranularity : 4;
    r.blocksByRegisters = regsPerWarp
                              ? std::uint32_t((gpu.maxRegistersPerSm / partitions / regsPerWarp) *
                                              partitions / r.warpsPerBlock)
                              : kUnlimited;
    r.blocksBySharedMemory = r.sharedBytesPerBlock && gpu.maxShmemPerSm
                                 ? gpu.maxShmemPerSm / r.sharedBytesPerBlock
                                 : kUnlimited;

    // Ties name the resource a person can change first (registers, then shared memory).
    const std::pair<std::uint32_t, OccupancyLimit> limits[] = {
        {r.blocksByRegisters, OccupancyLimit::Registers},
        {r.blocksBySharedMemory, OccupancyLimit::SharedMemory},
        {r.blocksByWarps, OccupancyLimit::Warps},
        {r.blocksBySmLimit, OccupancyLimit::Blocks},
    };
    const auto* best = std::min_element(std::begin(limits), std::end(limits),
                                        [](auto& a, auto& b) { return a.first < b.first; });
    r.activeBlocksPerSm = best->first;
    r.limit = best->second;
    r.activeWarpsPerSm = r.activeBlocksPerSm * r.warpsPerBlock;
    r.occupancy = double(r.activeWarpsPerSm) / double(gpu.maxWarpsPerSm);
    return r;
}

} // namespace strobe
