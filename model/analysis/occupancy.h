// SPDX-License-Identifier: MIT
#pragma once

#include "model/records.h"

#include <QString>
#include <cstdint>

namespace strobe {

// What caps the number of resident blocks per SM.
enum class OccupancyLimit : std::uint8_t {
    None,         // no result: the device's limits are unknown
    Registers,    // the register file
    SharedMemory, // shared memory per SM
    Warps,        // the SM's warp slots
    Blocks,       // the SM's block slots
    BlockSize,    // the launch cannot run: the block exceeds a per-block limit
};

// Its label for people: model/reports' occupancyLimitLabel.

struct OccupancyResult {
    bool valid = false; // false when the GPU's limits are unknown
    std::uint32_t threadsPerBlock = 0;
    std::uint32_t warpsPerBlock = 0;       // threads rounded up to whole warps
    std::uint32_t registersPerBlock = 0;   // as allocated (per-warp granularity)
    std::uint32_t sharedBytesPerBlock = 0; // as allocated (granularity + driver reserve)
    // Resident blocks per SM allowed by each resource alone.
    std::uint32_t blocksByRegisters = 0;
    std::uint32_t blocksBySharedMemory = 0;
    std::uint32_t blocksByWarps = 0;
    std::uint32_t blocksBySmLimit = 0;
    std::uint32_t activeBlocksPerSm = 0; // the minimum of the four
    std::uint32_t activeWarpsPerSm = 0;
    double occupancy = 0; // active warps / max warps per SM, 0..1
    OccupancyLimit limit = OccupancyLimit::None;
};

// Allocation rules of the CUDA occupancy calculator that GpuInfo does not carry, for a GPU
// whose architecture is not in architectureTable() (gpuarchitecture.h has them per row).
inline constexpr std::uint32_t kRegisterAllocationUnit = 256;     // registers, per warp
inline constexpr std::uint32_t kSharedMemoryAllocationUnit = 128; // bytes, per block
// Shared memory the driver reserves per block on compute capability 8.0 and newer.
inline constexpr std::uint32_t kSharedMemoryReservedPerBlockSm80 = 1024;

// Theoretical occupancy of `config` on `gpu` by the standard CUDA method: warps per block
// rounded up; registers allocated per warp in units of 256, each warp's from one of the SM's
// register sub-partitions (4; 2 on 6.0); shared memory (static + dynamic)
// in the architecture's units (128 B from 8.0, 256 B before) plus the per-block reserve; the
// smallest per-resource block count wins. Ties name the first of registers, shared memory,
// warps, blocks. Invalid when `gpu` lacks the per-SM limits: pass resolveGpuLimits(...).gpu
// (gpuarchitecture.h) to fill them from the architecture table.
OccupancyResult computeOccupancy(const GpuInfo& gpu, const KernelConfig& config);

} // namespace strobe
