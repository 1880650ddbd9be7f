// SPDX-License-Identifier: MIT
// The labels for people of the analysis's enums, and the GPU limits note for each way
// resolveGpuLimits can find (or miss) the limits.
#include "model/reports/labels.h"

#include <gtest/gtest.h>

using namespace strobe;

namespace {

TEST(Labels, OccupancyLimits) {
    EXPECT_EQ(occupancyLimitLabel(OccupancyLimit::None), QStringLiteral("unknown"));
    EXPECT_EQ(occupancyLimitLabel(OccupancyLimit::Registers), QStringLiteral("registers"));
    EXPECT_EQ(occupancyLimitLabel(OccupancyLimit::SharedMemory), QStringLiteral("shared memory"));
    EXPECT_EQ(occupancyLimitLabel(OccupancyLimit::Warps), QStringLiteral("warps per SM"));
    EXPECT_EQ(occupancyLimitLabel(OccupancyLimit::Blocks), QStringLiteral("blocks per SM"));
    EXPECT_EQ(occupancyLimitLabel(OccupancyLimit::BlockSize),
              QStringLiteral("block exceeds a per-block limit"));
}

TEST(Labels, MemoryDirections) {
    EXPECT_EQ(memoryDirectionLabel(MemoryDirection::HostToDevice),
              QStringLiteral("Host to device"));
    EXPECT_EQ(memoryDirectionLabel(MemoryDirection::PeerToPeer), QStringLiteral("Peer to peer"));
    EXPECT_EQ(memoryDirectionLabel(MemoryDirection::UnifiedMemory),
              QStringLiteral("Unified memory"));
    EXPECT_EQ(memoryDirectionLabel(MemoryDirection::Memset), QStringLiteral("Memset"));
    EXPECT_EQ(memoryDirectionLabel(MemoryDirection::Other), QStringLiteral("Other"));
}

TEST(Labels, GpuLimitsNoteForEachBasis) {
    GpuLimits l;
    l.basis = GpuLimitsBasis::Trace;
    EXPECT_EQ(gpuLimitsNote(l), QStringLiteral("from the trace"));
    l.basis = GpuLimitsBasis::RecordedCapability;
    l.capability = {9, 0};
    EXPECT_EQ(gpuLimitsNote(l),
              QStringLiteral("from the architecture table (compute capability 9.0)"));
    l.basis = GpuLimitsBasis::CapabilityOfName;
    l.name = QStringLiteral("NVIDIA H100 80GB HBM3");
    EXPECT_EQ(gpuLimitsNote(l), QStringLiteral("from the architecture table (compute capability "
                                               "9.0, from the name 'NVIDIA H100 80GB HBM3')"));
    l.basis = GpuLimitsBasis::CapabilityNotInTable;
    l.capability = {3, 5};
    EXPECT_EQ(gpuLimitsNote(l), QStringLiteral("the trace records compute capability 3.5 but no "
                                               "limits, and Strobe's architecture table covers "
                                               "only 5.0 to 12.1"));
    l.basis = GpuLimitsBasis::NameNotInTable;
    l.name = QStringLiteral("Mystery");
    EXPECT_EQ(gpuLimitsNote(l), QStringLiteral("the trace records no limits or compute capability "
                                               "for this GPU, and its name 'Mystery' is not in "
                                               "Strobe's table of GPU names"));
    l.basis = GpuLimitsBasis::NothingRecorded;
    EXPECT_EQ(gpuLimitsNote(l), QStringLiteral("the trace records no limits, compute capability or "
                                               "name for this GPU"));
}

} // namespace
