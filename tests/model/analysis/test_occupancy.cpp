// SPDX-License-Identifier: MIT
// Occupancy against cases computed by hand with the CUDA occupancy-calculator method.
#include "model/analysis/occupancy.h"

#include <gtest/gtest.h>

using namespace strobe;

namespace {

// An A100 (compute 8.0) as TARGET_INFO_GPU records it in the cloverleaf fixture.
GpuInfo a100() {
    GpuInfo g;
    g.smCount = 108;
    g.computeMajor = 8;
    g.maxThreadsPerBlock = 1024;
    g.maxRegistersPerBlock = 65536;
    g.maxRegistersPerSm = 65536;
    g.maxShmemPerBlock = 49152;
    g.maxShmemPerBlockOptin = 166912;
    g.maxShmemPerSm = 167936;
    g.threadsPerWarp = 32;
    g.maxWarpsPerSm = 64;
    g.maxBlocksPerSm = 32;
    return g;
}

KernelConfig config(std::int32_t threads, std::uint32_t regs, std::uint32_t staticShared = 0,
                    std::uint32_t dynamicShared = 0) {
    KernelConfig c;
    c.grid = {1000, 1, 1};
    c.block = {threads, 1, 1};
    c.registersPerThread = regs;
    c.staticSharedBytes = staticShared;
    c.dynamicSharedBytes = dynamicShared;
    return c;
}

TEST(Occupancy, RegisterLimited) {
    // 256 threads = 8 warps; 128 regs x 32 = 4096 regs per warp; 65536 / 4096 = 16 warps
    // -> 2 blocks (warps alone allow 8, shared memory 164, the SM 32).
    const OccupancyResult r = computeOccupancy(a100(), config(256, 128));
    ASSERT_TRUE(r.valid);
    EXPECT_EQ(r.warpsPerBlock, 8u);
    EXPECT_EQ(r.blocksByRegisters, 2u);
    EXPECT_EQ(r.blocksByWarps, 8u);
    EXPECT_EQ(r.blocksBySharedMemory, 164u); // 167936 / (0 + 1024 reserved)
    EXPECT_EQ(r.activeBlocksPerSm, 2u);
    EXPECT_EQ(r.activeWarpsPerSm, 16u);
    EXPECT_DOUBLE_EQ(r.occupancy, 0.25);
    EXPECT_EQ(r.limit, OccupancyLimit::Registers);
}

TEST(Occupancy, RegisterAllocationGranularity) {
    // 33 regs x 32 = 1056, allocated as 1280 per warp: 65536 / 1280 = 51 warps -> 6 blocks of
    // 8 warps (without the 256-register granularity it would be 7).
    const OccupancyResult r = computeOccupancy(a100(), config(256, 33));
    EXPECT_EQ(r.blocksByRegisters, 6u);
    EXPECT_EQ(r.activeWarpsPerSm, 48u);
    EXPECT_DOUBLE_EQ(r.occupancy, 0.75);
    EXPECT_EQ(r.limit, OccupancyLimit::Registers);
}

TEST(Occupancy, RegistersPerSubPartition) {
    // 64 threads, 88 regs: 2816 per warp; each of the 4 sub-partitions' 16384 registers holds 5
    // warps, 20 in all -> 10 blocks (65536 / 2816 = 23 warps would make it 11). Kineto's own
    // estimate on a V100 (cudaOccMaxActiveBlocksPerMultiprocessor) agrees: 31 % for 40 blocks/SM.
    const OccupancyResult r = computeOccupancy(a100(), config(64, 88));
    EXPECT_EQ(r.blocksByRegisters, 10u);
    EXPECT_EQ(r.activeWarpsPerSm, 20u);
    EXPECT_EQ(r.limit, OccupancyLimit::Registers);
}

TEST(Occupancy, SharedMemoryLimited) {
    // 64 threads, 32 regs: registers allow 32 blocks, warps 32, the SM 32. Shared memory
    // 32000 + 563 = 32563 B, rounded to 128 B = 32640, + 1024 reserved = 33664 per block:
    // 167936 / 33664 = 4 blocks (5 without the granularity).
    const OccupancyResult r = computeOccupancy(a100(), config(64, 32, 32000, 563));
    EXPECT_EQ(r.sharedBytesPerBlock, 33664u);
    EXPECT_EQ(r.blocksBySharedMemory, 4u);
    EXPECT_EQ(r.activeBlocksPerSm, 4u);
    EXPECT_EQ(r.activeWarpsPerSm, 8u);
    EXPECT_DOUBLE_EQ(r.occupancy, 0.125);
    EXPECT_EQ(r.limit, OccupancyLimit::SharedMemory);
}

TEST(Occupancy, BlockLimited) {
    // One warp per block, 16 regs: registers allow 128 blocks, warps 64, shared memory 164,
    // the SM only 32 -> 32 warps of 64.
    const OccupancyResult r = computeOccupancy(a100(), config(32, 16));
    EXPECT_EQ(r.blocksBySmLimit, 32u);
    EXPECT_EQ(r.activeBlocksPerSm, 32u);
    EXPECT_DOUBLE_EQ(r.occupancy, 0.5);
    EXPECT_EQ(r.limit, OccupancyLimit::Blocks);
}

TEST(Occupancy, WarpLimited) {
    // 1024 threads = 32 warps, 16 regs: registers allow 4 blocks, warps 2 -> full occupancy.
    const OccupancyResult r = computeOccupancy(a100(), config(1024, 16));
    EXPECT_EQ(r.blocksByRegisters, 4u);
    EXPECT_EQ(r.blocksByWarps, 2u);
    EXPECT_EQ(r.activeWarpsPerSm, 64u);
    EXPECT_DOUBLE_EQ(r.occupancy, 1.0);
    EXPECT_EQ(r.limit, OccupancyLimit::Warps);
}

TEST(Occupancy, PartialWarpsRoundUp) {
    // 48 threads occupy 2 warps: 64 / 2 = 32 blocks by warps, tie with the SM's 32 blocks.
    const OccupancyResult r = computeOccupancy(a100(), config(48, 16));
    EXPECT_EQ(r.warpsPerBlock, 2u);
    EXPECT_EQ(r.activeWarpsPerSm, 64u);
    EXPECT_EQ(r.limit, OccupancyLimit::Warps); // ties: warps before blocks
}

TEST(Occupancy, TiesNameRegistersFirst) {
    // 1024 threads, 32 regs: registers allow 2 blocks, warps allow 2.
    EXPECT_EQ(computeOccupancy(a100(), config(1024, 32)).limit, OccupancyLimit::Registers);
}

TEST(Occupancy, PreAmpereHasNoSharedReserve) {
    GpuInfo g = a100();
    g.computeMajor = 7;
    const OccupancyResult r = computeOccupancy(g, config(64, 32, 1000));
    EXPECT_EQ(r.sharedBytesPerBlock, 1024u); // 1000 rounded up to 128 B units
}

TEST(Occupancy, LaunchesThatCannotRun) {
    EXPECT_EQ(computeOccupancy(a100(), config(2048, 16)).limit, OccupancyLimit::BlockSize);
    EXPECT_EQ(computeOccupancy(a100(), config(1024, 128)).limit, OccupancyLimit::BlockSize);
    const OccupancyResult r = computeOccupancy(a100(), config(128, 16, 0, 200'000));
    EXPECT_EQ(r.limit, OccupancyLimit::BlockSize);
    EXPECT_EQ(r.occupancy, 0.0);
}

TEST(Occupancy, UnknownLimitsGiveNoResult) {
    const OccupancyResult r = computeOccupancy(GpuInfo{}, config(256, 32));
    EXPECT_FALSE(r.valid);
    EXPECT_EQ(r.limit, OccupancyLimit::None);
}

} // namespace
