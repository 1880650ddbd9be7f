// SPDX-License-Identifier: MIT
#include "model/analysis/kernelstats.h"
#include "tests/model/analysis/analysistestdata.h"

#include <cmath>
#include <gtest/gtest.h>

using namespace strobe;
using namespace strobe::test;

namespace {

std::unique_ptr<Trace> sample() {
    // "gemm" has two template instances (same short name); "relu" one launch; "copy" odd count.
    return kernelTrace({
        {"gemm", "void gemm<float>(float*)", 1000, 10},
        {"gemm", "void gemm<float>(float*)", 2000, 20, 2},
        {"gemm", "void gemm<float>(float*)", 3000, 30},
        {"gemm", "void gemm<float>(float*)", 4000, 40, 2},
        {"gemm", "void gemm<half>(half*)", 5000, 100},
        {"relu", "relu", 6000, 7},
        {"copy", "copy", 7000, 1},
        {"copy", "copy", 8000, 9},
        {"copy", "copy", 9000, 2},
    });
}

const KernelSummaryRow& find(const std::vector<KernelSummaryRow>& rows, const char* name) {
    for (const auto& r : rows) {
        if (r.name == QString::fromUtf8(name))
            return r;
    }
    ADD_FAILURE() << "no row " << name;
    return rows.front();
}

TEST(KernelStats, ByDemangledNameEvenOddAndSingle) {
    const auto trace = sample();
    const auto rows = summarizeKernels(*trace, KernelGrouping::DemangledName);
    ASSERT_EQ(rows.size(), 4u);
    // Sorted by total: gemm<float> 100 == gemm<half> 100 (tie: by name), copy 12, relu 7.
    EXPECT_EQ(rows[0].name, QStringLiteral("void gemm<float>(float*)"));
    EXPECT_EQ(rows[1].name, QStringLiteral("void gemm<half>(half*)"));
    EXPECT_EQ(rows[2].name, QStringLiteral("copy"));
    EXPECT_EQ(rows[3].name, QStringLiteral("relu"));

    const auto& even = rows[0].stats; // 10 20 30 40
    EXPECT_EQ(even.count, 4u);
    EXPECT_EQ(even.total, 100);
    EXPECT_DOUBLE_EQ(even.mean, 25.0);
    EXPECT_DOUBLE_EQ(even.median, 25.0);                    // mean of the two middle values
    EXPECT_NEAR(even.stddev, std::sqrt(500.0 / 3.0), 1e-9); // sample (n - 1)
    EXPECT_EQ(even.min, 10);
    EXPECT_EQ(even.max, 40);

    const auto& odd = find(rows, "copy").stats; // 1 9 2
    EXPECT_DOUBLE_EQ(odd.median, 2.0);
    EXPECT_DOUBLE_EQ(odd.mean, 4.0);
    EXPECT_NEAR(odd.stddev, std::sqrt((9.0 + 25.0 + 4.0) / 2.0), 1e-9);

    const auto& single = find(rows, "relu").stats;
    EXPECT_EQ(single.count, 1u);
    EXPECT_DOUBLE_EQ(single.stddev, 0.0);
    EXPECT_DOUBLE_EQ(single.median, 7.0);

    // Percent of the 219 ns all kernels ran.
    EXPECT_NEAR(rows[0].timePercent, 100.0 * 100 / 219, 1e-9);
    double sum = 0;
    for (const auto& r : rows)
        sum += r.timePercent;
    EXPECT_NEAR(sum, 100.0, 1e-9);
    // Instances are kernel indices in start order.
    EXPECT_EQ(rows[0].instances, (std::vector<std::uint32_t>{0, 1, 2, 3}));
}

TEST(KernelStats, ByShortNameMergesTemplateInstances) {
    const auto trace = sample();
    const auto rows = summarizeKernels(*trace, KernelGrouping::ShortName);
    ASSERT_EQ(rows.size(), 3u);
    EXPECT_EQ(rows[0].name, QStringLiteral("gemm"));
    EXPECT_EQ(rows[0].stats.count, 5u);
    EXPECT_EQ(rows[0].stats.total, 200);
    EXPECT_DOUBLE_EQ(rows[0].stats.median, 30.0);
    EXPECT_EQ(rows[0].configs.size(), 3u); // grid 1 and 2 of gemm<float>, gemm<half>
}

TEST(KernelStats, ByLaunchConfigSplitsGrids) {
    const auto trace = sample();
    const auto rows = summarizeKernels(*trace, KernelGrouping::LaunchConfig);
    ASSERT_EQ(rows.size(), 5u);
    int gemmFloat = 0;
    for (const auto& r : rows) {
        if (r.name == QStringLiteral("void gemm<float>(float*)")) {
            ++gemmFloat;
            EXPECT_EQ(r.stats.count, 2u);
            EXPECT_EQ(r.block, (std::array<std::int32_t, 3>{128, 1, 1}));
            EXPECT_EQ(r.stats.total, r.grid[0] == 2 ? 60 : 40);
        }
    }
    EXPECT_EQ(gemmFloat, 2);
}

TEST(KernelStats, EmptyTrace) {
    const auto trace = kernelTrace({});
    EXPECT_TRUE(summarizeKernels(*trace, KernelGrouping::DemangledName).empty());
}

} // namespace

// Hostile files: two kernels as long as the representable range. Their sum saturates instead of
// wrapping to a negative total (the CLI printed negative kernel totals).
TEST(KernelStats, SumsOfHugeDurationsSaturate) {
    const TimeNs start = kMinTime + 2000;
    const TimeNs len = kMaxTime - start;
    const auto trace = kernelTrace({{"huge", "huge", start, len, 1, 7},
                                    {"huge", "huge", start, len, 1, 8},
                                    {"small", "small", 0, 5, 1, 9}});
    const auto rows = summarizeKernels(*trace, KernelGrouping::DemangledName);
    const KernelSummaryRow& huge = find(rows, "huge");
    EXPECT_EQ(huge.stats.count, 2u);
    EXPECT_EQ(huge.stats.max, len);
    EXPECT_EQ(huge.stats.total, std::numeric_limits<TimeNs>::max());
    EXPECT_GT(huge.stats.mean, 0.0);
    EXPECT_DOUBLE_EQ(huge.timePercent, 100.0);
    EXPECT_EQ(find(rows, "small").stats.total, 5);
}
