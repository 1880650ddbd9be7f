// SPDX-License-Identifier: MIT
#include "model/analysis/memorystats.h"
#include "model/tracebuilder.h"
#include "tests/model/analysis/analysistestdata.h"

#include <gtest/gtest.h>

using namespace strobe;
using strobe::test::memoryTrace;

namespace {

TEST(MemoryStats, PerDirectionCountsBytesTimeAndBandwidth) {
    const auto trace = memoryTrace();
    const auto rows = summarizeMemory(*trace);
    ASSERT_EQ(rows.size(), 5u);
    EXPECT_EQ(rows[0].direction, MemoryDirection::HostToDevice);
    EXPECT_EQ(rows[0].count, 2u);
    EXPECT_EQ(rows[0].totalBytes, 40'000u);
    EXPECT_EQ(rows[0].totalNs, 2000);
    EXPECT_DOUBLE_EQ(rows[0].avgBandwidthGBps, 20.0);
    EXPECT_DOUBLE_EQ(rows[0].peakBandwidthGBps, 30.0);
    EXPECT_EQ(rows[1].direction, MemoryDirection::DeviceToHost);
    EXPECT_EQ(rows[2].direction, MemoryDirection::PeerToPeer);
    EXPECT_EQ(rows[3].direction, MemoryDirection::UnifiedMemory);
    EXPECT_EQ(rows[3].count, 2u);
    EXPECT_DOUBLE_EQ(rows[3].peakBandwidthGBps, 409.6);
    EXPECT_EQ(rows[4].direction, MemoryDirection::Memset);
    EXPECT_DOUBLE_EQ(rows[4].avgBandwidthGBps, 8.0);
}

TEST(MemoryStats, ArrayCopiesCountWithTheSideTheyTouch) {
    EXPECT_EQ(memoryDirection(MemcpyKind::HtoA), MemoryDirection::HostToDevice);
    EXPECT_EQ(memoryDirection(MemcpyKind::AtoH), MemoryDirection::DeviceToHost);
    EXPECT_EQ(memoryDirection(MemcpyKind::AtoD), MemoryDirection::DeviceToDevice);
    EXPECT_EQ(memoryDirection(MemcpyKind::Unknown), MemoryDirection::Other);
}

} // namespace
