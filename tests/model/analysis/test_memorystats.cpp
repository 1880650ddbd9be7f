// SPDX-License-Identifier: MIT
#include "model/analysis/memorystats.h"
#include "model/reports/reports.h"
#include "model/tracebuilder.h"

#include <gtest/gtest.h>

using namespace strobe;

namespace {

std::unique_ptr<Trace> memoryTrace() {
    TraceBuilder b(QStringLiteral("synthetic"));
    const StringId name = b.intern("[CUDA memcpy]");
    auto copy = [&](MemcpyKind kind, TimeNs start, TimeNs duration, std::uint64_t bytes) {
        MemcpyRecord r;
        r.copyKind = kind;
        r.bytes = bytes;
        b.addMemcpy(1, 0, 1, 7, start, start + duration, name, r);
    };
    copy(MemcpyKind::HtoD, 0, 1000, 10'000);    // 10 GB/s
    copy(MemcpyKind::HtoD, 2000, 1000, 30'000); // 30 GB/s
    copy(MemcpyKind::DtoH, 4000, 500, 1000);    // 2 GB/s
    copy(MemcpyKind::PtoP, 5000, 100, 5000);    // 50 GB/s
    copy(MemcpyKind::UnifiedHtoD, 6000, 10, 4096);
    copy(MemcpyKind::UnifiedDtoH, 7000, 0, 4096); // zero duration: no bandwidth
    MemsetRecord m;
    m.bytes = 800;
    b.addMemset(1, 0, 1, 7, 8000, 8100, b.intern("[CUDA memset]"), m);
    return b.finish();
}

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

TEST(MemoryStats, ReportColumns) {
    const auto trace = memoryTrace();
    const QStringList lines = toCsv(memorySummaryReport(summarizeMemory(*trace))).split(u'\n');
    EXPECT_EQ(lines[0], QStringLiteral("direction,count,total_bytes,total_ns,avg_bandwidth_gbps,"
                                       "peak_bandwidth_gbps\r"));
    EXPECT_EQ(lines[1], QStringLiteral("host-to-device,2,40000,2000,20.000,30.000\r"));
    EXPECT_EQ(lines[5], QStringLiteral("memset,1,800,100,8.000,8.000\r"));
}

} // namespace
