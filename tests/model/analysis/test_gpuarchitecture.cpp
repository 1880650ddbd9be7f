// SPDX-License-Identifier: MIT
// Issue 14, item 15: occupancy without TARGET_INFO_GPU limits, from the architecture table by a
// recorded compute capability or the GPU's name; the real fixtures' TARGET_INFO_GPU rows are the
// independent reference for the table's values.
#include "formats/open.h"
#include "model/analysis/gpuarchitecture.h"
#include "model/analysis/occupancy.h"
#include "model/reports/labels.h"
#include "model/trace.h"
#include "tests/model/analysis/gputabledata.h"
#include "tests/support/qtprinters.h"
#include "tests/support/sqlitequery.h"

#include <gtest/gtest.h>

#include <QFile>
#include <QTemporaryDir>

using namespace strobe;
using namespace strobe::test;

namespace {

// Every fixture that has TARGET_INFO_GPU: A100 (8.0), T4 (7.5), RTX 3060 (8.6).
const char* const kWithGpuTable[] = {
    "nsys2022.2-saxpy-mpi-nvtx.sqlite", "nsys2023.3-openmp-offload.sqlite",
    "nsys2024.5-cloverleaf.sqlite", "nsys2025.5-cuda-graphs.sqlite"};

std::int64_t gpuValue(const std::string& path, const std::string& column) {
    return test::queryInt(path, "SELECT " + column + " FROM TARGET_INFO_GPU LIMIT 1");
}

std::vector<OccupancyResult> occupancies(const Trace& t) {
    std::vector<OccupancyResult> out;
    for (std::size_t i = 0; i < t.kernelCount(); ++i) {
        const KernelLaunch k = t.kernelAt(i);
        out.push_back(computeOccupancy(resolveGpuLimits(t, k.stream->deviceId).gpu, *k.config));
    }
    return out;
}

bool sameOccupancy(const OccupancyResult& a, const OccupancyResult& b) {
    return a.valid == b.valid && a.limit == b.limit && a.activeBlocksPerSm == b.activeBlocksPerSm &&
           a.activeWarpsPerSm == b.activeWarpsPerSm && a.occupancy == b.occupancy &&
           a.sharedBytesPerBlock == b.sharedBytesPerBlock &&
           a.blocksByRegisters == b.blocksByRegisters &&
           a.blocksBySharedMemory == b.blocksBySharedMemory;
}

} // namespace

// The table's rows for the fixtures' GPUs hold what their TARGET_INFO_GPU recorded.
TEST(GpuArchitecture, TableMatchesWhatRealExportsRecorded) {
    for (const char* f : kWithGpuTable) {
        const std::string p = test::fixturePath(f);
        const ComputeCapability cc{std::uint32_t(gpuValue(p, "computeMajor")),
                                   std::uint32_t(gpuValue(p, "computeMinor"))};
        const ArchitectureLimits* a = architectureLimits(cc);
        ASSERT_NE(a, nullptr) << f;
        EXPECT_EQ(a->maxWarpsPerSm, gpuValue(p, "maxWarpsPerSm")) << f;
        EXPECT_EQ(a->maxBlocksPerSm, gpuValue(p, "maxBlocksPerSm")) << f;
        EXPECT_EQ(a->registersPerSm, gpuValue(p, "maxRegistersPerSm")) << f;
        EXPECT_EQ(a->maxRegistersPerBlock, gpuValue(p, "maxRegistersPerBlock")) << f;
        EXPECT_EQ(a->sharedPerSm, gpuValue(p, "maxShmemPerSm")) << f;
        EXPECT_EQ(a->sharedPerBlock, gpuValue(p, "maxShmemPerBlock")) << f;
        EXPECT_EQ(a->sharedPerBlockOptin, gpuValue(p, "maxShmemPerBlockOptin")) << f;
        EXPECT_EQ(a->maxThreadsPerBlock, gpuValue(p, "maxThreadsPerBlock")) << f;
        EXPECT_EQ(a->threadsPerWarp, gpuValue(p, "threadsPerWarp")) << f;
        // And the fixture's GPU name maps to its compute capability.
        const auto name = test::query(p, "SELECT name FROM TARGET_INFO_GPU LIMIT 1")[0][0];
        EXPECT_EQ(computeCapabilityOfName(name), cc) << name;
    }
}

TEST(GpuArchitecture, TableCoversFiveToTwelveInOrder) {
    const auto table = architectureTable();
    ASSERT_FALSE(table.empty());
    EXPECT_EQ(table.front().cc, (ComputeCapability{5, 0}));
    EXPECT_EQ(table.back().cc.major, 12u);
    for (std::size_t i = 1; i < table.size(); ++i) {
        const auto& p = table[i - 1].cc;
        const auto& c = table[i].cc;
        EXPECT_TRUE(p.major < c.major || (p.major == c.major && p.minor < c.minor));
    }
    for (const ArchitectureLimits& a : table) {
        EXPECT_GT(a.maxWarpsPerSm, 0u);
        EXPECT_GE(a.sharedPerSm, a.sharedPerBlockOptin) << a.cc.toString().toStdString();
        EXPECT_EQ(a.maxRegistersPerThread, 255u);
        EXPECT_EQ(a.registerAllocationUnit, 256u);
        EXPECT_EQ(a.sharedAllocationUnit, a.cc.major >= 8 ? 128u : 256u);
    }
    EXPECT_EQ(architectureLimits({9, 0})->sharedPerSm, 228u * 1024);
    EXPECT_EQ(architectureLimits({8, 9})->maxBlocksPerSm, 24u);
    EXPECT_EQ(architectureLimits({3, 5}), nullptr);
    EXPECT_EQ(architectureLimits({13, 0}), nullptr);
}

TEST(GpuArchitecture, NamesMapToComputeCapabilities) {
    const std::pair<const char*, ComputeCapability> cases[] = {
        {"NVIDIA H100 80GB HBM3", {9, 0}},
        {"NVIDIA H100 PCIe", {9, 0}},
        {"NVIDIA H200", {9, 0}},
        {"NVIDIA GH200 480GB", {9, 0}},
        {"NVIDIA A100-SXM4-40GB", {8, 0}},
        {"NVIDIA A100 80GB PCIe", {8, 0}},
        {"NVIDIA A10G", {8, 6}},
        {"NVIDIA A10", {8, 6}},
        {"Tesla V100-SXM2-16GB", {7, 0}},
        {"NVIDIA GeForce RTX 4090", {8, 9}},
        {"NVIDIA L4", {8, 9}},
        {"NVIDIA L40S", {8, 9}},
        {"NVIDIA RTX 6000 Ada Generation", {8, 9}},
        {"NVIDIA GeForce RTX 3060", {8, 6}},
        {"Tesla T4", {7, 5}},
        {"NVIDIA GeForce RTX 2080 Ti", {7, 5}},
        {"Tesla P100-PCIE-16GB", {6, 0}},
        {"NVIDIA GeForce GTX 1080", {6, 1}},
        {"Tesla M60", {5, 2}},
        {"NVIDIA B200", {10, 0}},
        {"NVIDIA GeForce RTX 5090", {12, 0}},
        {"GH100", {9, 0}},
        {"ga100", {8, 0}},
        {"AD102", {8, 9}},
    };
    for (const auto& [name, cc] : cases)
        EXPECT_EQ(computeCapabilityOfName(name), cc) << name;
    for (const char* unknown : {"", "AMD Instinct MI250X", "Test GPU", "NVIDIA A1000X"})
        EXPECT_FALSE(computeCapabilityOfName(unknown).has_value()) << unknown;
}

// The test: with TARGET_INFO_GPU reduced to the GPU's name, or to its compute
// capability, every kernel's occupancy is the same as with the full table.
TEST(GpuArchitecture, ReducedGpuTableGivesTheSameOccupancy) {
    QTemporaryDir dir;
    for (const char* f : kWithGpuTable) {
        const LoadResult full = loadTrace(QString::fromStdString(test::fixturePath(f)));
        ASSERT_TRUE(full.ok()) << full.error.toStdString();
        const auto reference = occupancies(*full.trace);
        ASSERT_FALSE(reference.empty()) << f;
        EXPECT_EQ(resolveGpuLimits(*full.trace, full.trace->gpus()[0]).source,
                  GpuLimitsSource::Trace);
        std::size_t valid = 0;
        for (const OccupancyResult& o : reference)
            valid += o.valid && o.limit != OccupancyLimit::BlockSize;
        EXPECT_EQ(valid, reference.size()) << f;
        for (const std::string keep : {"id, name", "id, computeMajor, computeMinor"}) {
            const LoadResult reduced = loadTrace(withGpuTable(dir, f, keep));
            ASSERT_TRUE(reduced.ok()) << reduced.error.toStdString();
            const GpuLimits l = resolveGpuLimits(*reduced.trace, reduced.trace->gpus()[0]);
            EXPECT_EQ(l.source, GpuLimitsSource::ArchitectureTable) << f << ' ' << keep;
            EXPECT_TRUE(gpuLimitsNote(l).startsWith(QStringLiteral("from the architecture table")));
            const auto got = occupancies(*reduced.trace);
            ASSERT_EQ(got.size(), reference.size());
            for (std::size_t i = 0; i < got.size(); ++i)
                ASSERT_TRUE(sameOccupancy(got[i], reference[i])) << f << ' ' << keep << ' ' << i;
        }
    }
}

TEST(GpuArchitecture, UnknownNamesAndCapabilitiesSayWhatIsMissing) {
    QTemporaryDir dir;
    const std::string f = "nsys2025.5-cuda-graphs.sqlite";
    const LoadResult odd = loadTrace(withGpuTable(dir, f, "id, 'Mystery Accelerator' AS name"));
    ASSERT_TRUE(odd.ok());
    GpuLimits l = resolveGpuLimits(*odd.trace, odd.trace->gpus()[0]);
    EXPECT_EQ(l.source, GpuLimitsSource::Unknown);
    EXPECT_EQ(gpuLimitsNote(l),
              QStringLiteral("the trace records no limits or compute capability for this "
                             "GPU, and its name 'Mystery Accelerator' is not in Strobe's "
                             "table of GPU names"));
    const LoadResult old =
        loadTrace(withGpuTable(dir, f, "id, 3 AS computeMajor, 5 AS computeMinor"));
    ASSERT_TRUE(old.ok());
    l = resolveGpuLimits(*old.trace, old.trace->gpus()[0]);
    EXPECT_EQ(l.source, GpuLimitsSource::Unknown);
    EXPECT_EQ(gpuLimitsNote(l),
              QStringLiteral("the trace records compute capability 3.5 but no limits, and "
                             "Strobe's architecture table covers only 5.0 to 12.1"));
    EXPECT_EQ(gpuLimitsSourceKey(l.source), QStringLiteral("unknown"));
    EXPECT_FALSE(computeOccupancy(l.gpu, old.trace->kernelConfigs()[0]).valid);
}
