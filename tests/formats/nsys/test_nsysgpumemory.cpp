// SPDX-License-Identifier: MIT
// CUDA_GPU_MEMORY_USAGE_EVENTS (nsys --cuda-memory-usage=true) becomes each GPU's memory counter.
// None of the real fixtures recorded any (the 2022.2 file has the table, empty), so a synthetic
// export from the project's writer; the expected totals come from SQL over the same file.
#include "formats/nsys/writer/nsyswriter.h"
#include "formats/open.h"
#include "tests/support/sqlitequery.h"

#include <QFileInfo>
#include <QTemporaryDir>
#include <gtest/gtest.h>

using namespace strobe;

namespace {

class NsysGpuMemory : public ::testing::Test {
protected:
    void SetUp() override {
        path = dir.filePath(QStringLiteral("memory.sqlite")).toStdString();
        std::string error;
        auto w = nsys::Writer::create(path, nsys::SchemaFlavor::V3_25, &error);
        ASSERT_TRUE(w) << error;
        w->addProcess({1, "train"});
        w->addThread({1, 1, "main"});
        nsys::GpuRow g;
        g.id = 0;
        g.name = "NVIDIA H100 80GB HBM3";
        g.totalMemory = 85'899'345'920;
        w->addGpu(g);
        w->addStream({1, 1, 7, 0, 2});
        nsys::KernelRow k;
        k.start = 0;
        k.end = 100;
        k.pid = 1;
        k.contextId = 1;
        k.streamId = 7;
        k.shortName = "k";
        w->addKernel(k);
        // (time, device, bytes, kind, operation): frees at 30 and 40, a pinned host buffer at 15
        // that is not GPU memory, device 1 from 5, and a free of more than was allocated.
        const std::tuple<std::int64_t, std::uint32_t, std::uint64_t, std::uint8_t, std::uint8_t>
            rows[] = {{20, 0, 300, 3, 0}, {10, 0, 100, 3, 0}, {15, 0, 1000, 2, 0},
                      {30, 0, 100, 3, 1}, {40, 0, 500, 6, 1}, {5, 1, 50, 3, 0}};
        for (const auto& [t, dev, bytes, kind, op] : rows) {
            nsys::GpuMemoryUsageRow r;
            r.start = t;
            r.pid = 1;
            r.deviceId = dev;
            r.contextId = 1;
            r.address = 0x7f0000000000 + std::uint64_t(t);
            r.bytes = bytes;
            r.memKind = kind;
            r.operation = op;
            w->addGpuMemoryUsage(r);
        }
        ASSERT_TRUE(w->commit(&error)) << error;
    }
    QTemporaryDir dir;
    std::string path;
};

TEST_F(NsysGpuMemory, RunningTotalsOfDeviceMemoryPerGpu) {
    LoadResult r = loadTrace(QString::fromStdString(path));
    ASSERT_TRUE(r.ok()) << r.error.toStdString();
    ASSERT_EQ(r.trace->gpuMemory().size(), 2u);
    // Independently: a running sum over the device-memory rows in time order, floored at 0.
    for (const GpuMemoryTrack& track : r.trace->gpuMemory()) {
        const auto rows = test::query(
            path, "SELECT start, bytes, memoryOperationType FROM CUDA_GPU_MEMORY_USAGE_EVENTS "
                  "WHERE memKind IN (3, 4, 6) AND deviceId = " +
                      std::to_string(track.deviceId) + " ORDER BY start");
        ASSERT_EQ(track.samples.size(), rows.size());
        std::int64_t total = 0;
        for (std::size_t i = 0; i < rows.size(); ++i) {
            const std::int64_t b = std::stoll(rows[i][1]);
            total = std::max<std::int64_t>(0, total + (rows[i][2] == "0" ? b : -b));
            EXPECT_EQ(track.samples[i].time, std::stoll(rows[i][0]));
            EXPECT_EQ(std::int64_t(track.samples[i].allocated), total);
        }
    }
    const GpuMemorySample* peak = r.trace->gpuMemoryOf(0)->peak();
    ASSERT_TRUE(peak);
    EXPECT_EQ(peak->allocated, 400u); // 100 + 300 at t = 20; the host buffer is not counted
    EXPECT_EQ(peak->time, 20);
    EXPECT_EQ(r.trace->gpuMemoryOf(0)->samples.back().allocated, 0u); // saturated
    EXPECT_EQ(r.trace->gpuMemoryOf(1)->peak()->allocated, 50u);
}

TEST_F(NsysGpuMemory, AFileLackingARequiredColumnIsRejectedNamingIt) {
    test::exec(path, "ALTER TABLE CUDA_GPU_MEMORY_USAGE_EVENTS RENAME COLUMN memKind TO gone");
    const LoadResult r = loadTrace(QString::fromStdString(path));
    EXPECT_FALSE(r.ok());
    EXPECT_EQ(r.error, QStringLiteral("'memory.sqlite': table CUDA_GPU_MEMORY_USAGE_EVENTS lacks "
                                      "the required column 'memKind'."));
}

TEST(NsysGpuMemoryFixtures, AnEmptyTableRecordsNothing) {
    LoadResult r =
        loadTrace(QString::fromStdString(test::fixturePath("nsys2022.2-saxpy-mpi-nvtx.sqlite")));
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(test::queryInt(test::fixturePath("nsys2022.2-saxpy-mpi-nvtx.sqlite"),
                             "SELECT count(*) FROM CUDA_GPU_MEMORY_USAGE_EVENTS"),
              0);
    EXPECT_TRUE(r.trace->gpuMemory().empty());
}

} // namespace
