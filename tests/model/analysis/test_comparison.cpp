// SPDX-License-Identifier: MIT
#include "model/analysis/comparison.h"

#include "tests/model/analysis/comparisontestdata.h"
#include "tests/support/qtprinters.h"
#include "tests/support/sqlitequery.h"

#include <gtest/gtest.h>
#include <map>
#include <set>

using namespace strobe;
using fixtures::PairSide;

namespace {

const KernelDiffRow* kernelRow(const Comparison& c, const char* name) {
    for (const KernelDiffRow& r : c.kernels)
        if (r.name == QLatin1String(name))
            return &r;
    return nullptr;
}

const RangeDiffRow* rangeRow(const Comparison& c, const char* name) {
    for (const RangeDiffRow& r : c.ranges)
        if (r.range == QLatin1String(name))
            return &r;
    return nullptr;
}

// Per demangled name from SQL: count, total and the sorted durations (for the median).
struct SqlKernel {
    std::uint64_t count = 0;
    TimeNs total = 0;
    std::vector<TimeNs> durations;
    double median() const {
        const std::size_t n = durations.size();
        return n % 2 ? double(durations[n / 2])
                     : (double(durations[n / 2 - 1]) + double(durations[n / 2])) / 2.0;
    }
};

std::map<QString, SqlKernel> sqlKernels(const std::string& path) {
    std::map<QString, SqlKernel> out;
    for (const auto& row : test::query(path, "SELECT s.value, k.end - k.start FROM "
                                             "CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON "
                                             "s.id = k.demangledName ORDER BY 2")) {
        SqlKernel& k = out[QString::fromStdString(row[0])];
        ++k.count;
        k.total += std::stoll(row[1]);
        k.durations.push_back(std::stoll(row[1]));
    }
    return out;
}

TEST(Comparison, KernelDiffEqualsSqlOnTheVectorAddPair) {
    const std::string pa = test::fixturePath("nsys2022.2-vectoradd-a.sqlite");
    const std::string pb = test::fixturePath("nsys2022.2-vectoradd-b.sqlite");
    const auto a = test::loadShared(QString::fromStdString(pa));
    const auto b = test::loadShared(QString::fromStdString(pb));
    ASSERT_TRUE(a && b);
    const Comparison c = compareTraces(*a, *b);
    const auto sa = sqlKernels(pa), sb = sqlKernels(pb);
    std::set<QString> names;
    for (const auto& [n, k] : sa)
        names.insert(n);
    for (const auto& [n, k] : sb)
        names.insert(n);
    ASSERT_EQ(c.kernels.size(), names.size());
    for (const KernelDiffRow& r : c.kernels) {
        const SqlKernel ka = sa.count(r.name) ? sa.at(r.name) : SqlKernel{};
        const SqlKernel kb = sb.count(r.name) ? sb.at(r.name) : SqlKernel{};
        EXPECT_EQ(r.a.count, ka.count) << r.name.toStdString();
        EXPECT_EQ(r.b.count, kb.count) << r.name.toStdString();
        EXPECT_EQ(r.a.total, ka.total) << r.name.toStdString();
        EXPECT_EQ(r.b.total, kb.total) << r.name.toStdString();
        EXPECT_EQ(r.delta(), kb.total - ka.total);
        if (ka.count) {
            EXPECT_DOUBLE_EQ(r.a.median, ka.median());
        }
        if (kb.count) {
            EXPECT_DOUBLE_EQ(r.b.median, kb.median());
        }
    }
    // The one kernel of this pair: 6.30 s in A, 0.18 s in B.
    ASSERT_EQ(c.kernels.size(), 1u);
    EXPECT_EQ(c.kernels[0].delta(), 180666877 - 6300325739);
    // GPU kernel busy time is the union of the kernel intervals: one kernel, its duration.
    ASSERT_EQ(c.gpus.size(), 1u);
    EXPECT_EQ(c.gpus[0].a.kernelBusy, 6300325739);
    EXPECT_EQ(c.gpus[0].b.kernelBusy, 180666877);
}

TEST(Comparison, SelfDiffIsAllZero) {
    for (const char* name : {"nsys2026.2-h100-2gpu-nvtx.sqlite", "nsys2024.5-cloverleaf.sqlite"}) {
        const auto t = test::loadShared(QString::fromStdString(test::fixturePath(name)));
        ASSERT_TRUE(t) << name;
        const Comparison c = compareTraces(*t, *t);
        EXPECT_FALSE(c.kernels.empty()) << name;
        for (const KernelDiffRow& r : c.kernels) {
            EXPECT_EQ(r.delta(), 0) << r.name.toStdString();
            EXPECT_EQ(r.a.count, r.b.count);
            EXPECT_EQ(r.a.median, r.b.median);
            EXPECT_EQ(r.deltaPercent().value_or(-1), 0.0);
        }
        for (const RangeDiffRow& r : c.ranges)
            EXPECT_EQ(r.delta(), 0) << r.range.toStdString();
        for (const GpuDiffRow& g : c.gpus) {
            EXPECT_EQ(g.a.kernelBusy, g.b.kernelBusy);
            EXPECT_EQ(g.a.copyBusy, g.b.copyBusy);
            EXPECT_EQ(g.a.idle, g.b.idle);
            EXPECT_EQ(g.a.gaps, g.b.gaps);
        }
    }
    // PyTorch's op_id suffixes are grouped: the H100 trace's 16782 ranges fold to few names.
    const auto h100 = test::loadShared(
        QString::fromStdString(test::fixturePath("nsys2026.2-h100-2gpu-nvtx.sqlite")));
    const Comparison c = compareTraces(*h100, *h100);
    for (const RangeDiffRow& r : c.ranges)
        EXPECT_FALSE(r.range.contains(QLatin1String("op_id"))) << r.range.toStdString();
    ASSERT_NE(rangeRow(c, "aten::mul"), nullptr);
    EXPECT_EQ(rangeRow(c, "aten::mul")->a.count,
              std::uint64_t(test::queryInt(test::fixturePath("nsys2026.2-h100-2gpu-nvtx.sqlite"),
                                           "SELECT count(*) FROM NVTX_EVENTS WHERE text LIKE "
                                           "'aten::mul, op_id = %' AND end IS NOT NULL")));
}

class KnownPair : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        a = test::loadShared(test::pairPath(PairSide::A));
        b = test::loadShared(test::pairPath(PairSide::B));
    }
    static inline std::shared_ptr<const Trace> a, b;
};

TEST_F(KnownPair, KernelDeltasAreExactlyTheKnownDifferences) {
    ASSERT_TRUE(a && b);
    const Comparison c = compareTraces(*a, *b);
    ASSERT_EQ(c.kernels.size(), 4u);
    // By |delta| descending: alpha +4000 (2x slower, one more iteration), gamma -700 (removed),
    // beta +500 (one more iteration), delta +300 (added).
    EXPECT_EQ(c.kernels[0].name, QStringLiteral("alpha"));
    EXPECT_EQ(c.kernels[1].name, QStringLiteral("gamma"));
    EXPECT_EQ(c.kernels[2].name, QStringLiteral("beta"));
    EXPECT_EQ(c.kernels[3].name, QStringLiteral("delta"));
    const KernelDiffRow& alpha = c.kernels[0];
    EXPECT_EQ(alpha.a.count, 2u);
    EXPECT_EQ(alpha.b.count, 3u);
    EXPECT_EQ(alpha.a.total, 2000);
    EXPECT_EQ(alpha.b.total, 6000);
    EXPECT_EQ(alpha.a.median, 1000.0);
    EXPECT_EQ(alpha.b.median, 2000.0);
    EXPECT_DOUBLE_EQ(*alpha.deltaPercent(), 200.0);
    const KernelDiffRow& gamma = c.kernels[1];
    EXPECT_EQ(gamma.a.count, 1u);
    EXPECT_EQ(gamma.b.count, 0u);
    EXPECT_EQ(gamma.delta(), -700);
    EXPECT_FALSE(gamma.b.longest);
    EXPECT_DOUBLE_EQ(*gamma.deltaPercent(), -100.0);
    EXPECT_EQ(c.kernels[2].delta(), 500);
    const KernelDiffRow& added = c.kernels[3];
    EXPECT_EQ(added.a.count, 0u);
    EXPECT_EQ(added.b.total, 300);
    EXPECT_FALSE(added.deltaPercent()); // new in B
    // The longest instance of alpha in each trace is a kernel of that name.
    ASSERT_TRUE(alpha.a.longest && alpha.b.longest);
    EXPECT_EQ(a->kernelAt(*alpha.a.longest).duration(), 1000);
    EXPECT_EQ(b->kernelAt(*alpha.b.longest).duration(), 2000);
}

TEST_F(KnownPair, RangesGpusAndTheExtraIteration) {
    ComparisonOptions o;
    o.idleThresholdNs = 1;
    const Comparison c = compareTraces(*a, *b, o);
    // Iteration 2 exists only in B; aten::mm's seq/op_id suffixes are grouped.
    ASSERT_EQ(c.ranges.size(), 4u);
    EXPECT_EQ(c.ranges[0].range, QStringLiteral("Iteration 2"));
    EXPECT_EQ(c.ranges[0].delta(), 9000);
    EXPECT_EQ(c.ranges[1].range, QStringLiteral("aten::mm"));
    EXPECT_EQ(c.ranges[1].a.count, 2u);
    EXPECT_EQ(c.ranges[1].b.count, 3u);
    EXPECT_EQ(c.ranges[1].delta(), 60);
    EXPECT_EQ(c.ranges[2].range, QStringLiteral("Iteration 0"));
    EXPECT_EQ(c.ranges[2].delta(), 0);
    // Wall shares: A spans [1000, 20000), B [1000, 30000).
    EXPECT_DOUBLE_EQ(c.ranges[2].a.wallPercent, 100.0 * 9000 / 19000);
    EXPECT_DOUBLE_EQ(c.ranges[2].b.wallPercent, 100.0 * 9000 / 29000);

    ASSERT_EQ(c.gpus.size(), 1u);
    const GpuDiffRow& g = c.gpus[0];
    EXPECT_EQ(g.a.kernelBusy, 3700);
    EXPECT_EQ(g.b.kernelBusy, 7800);
    EXPECT_EQ(g.a.copyBusy, 400);
    EXPECT_EQ(g.b.copyBusy, 600);
    // Every hole between GPU work is a gap at a 1 ns threshold (worked out in the fixture's
    // layout: 6 in A totalling 10000 ns, 9 in B totalling 17800 ns).
    EXPECT_EQ(g.a.gaps, 6u);
    EXPECT_EQ(g.a.idle, 10000);
    EXPECT_EQ(g.b.gaps, 9u);
    EXPECT_EQ(g.b.idle, 17800);
    EXPECT_DOUBLE_EQ(g.a.utilizationPercent, 100.0 * 4100 / 19000);
    EXPECT_DOUBLE_EQ(g.b.utilizationPercent, 100.0 * 8400 / 29000);
    // At the default threshold (100 us) none of these short holes counts.
    const Comparison d = compareTraces(*a, *b);
    EXPECT_EQ(d.gpus[0].a.gaps, 0u);
    EXPECT_EQ(d.gpus[0].b.idle, 0);
}

TEST_F(KnownPair, PerIterationMeansWithDifferentIterationCounts) {
    ComparisonOptions o;
    o.range = QStringLiteral("Iteration");
    o.idleThresholdNs = 1;
    const Comparison c = compareTraces(*a, *b, o);
    ASSERT_TRUE(c.hasRange());
    EXPECT_FALSE(c.rangeDetected);
    EXPECT_EQ(c.a.instanceCount(), 2u);
    EXPECT_EQ(c.b.instanceCount(), 3u);
    EXPECT_EQ(c.a.meanInstanceNs(), 9000.0);
    EXPECT_EQ(c.b.meanInstanceNs(), 9000.0);
    EXPECT_EQ(c.a.perInstance(double(c.a.kernels)), 2.5);
    EXPECT_DOUBLE_EQ(c.b.perInstance(double(c.b.kernels)), 7.0 / 3.0); // 3 alpha, 3 beta, 1 delta
    // Per instance, alpha is exactly 2x slower and beta unchanged.
    const KernelDiffRow* alpha = kernelRow(c, "alpha");
    const KernelDiffRow* beta = kernelRow(c, "beta");
    ASSERT_TRUE(alpha && beta);
    EXPECT_EQ(c.a.perInstance(double(alpha->a.total)), 1000.0);
    EXPECT_EQ(c.b.perInstance(double(alpha->b.total)), 2000.0);
    EXPECT_EQ(c.a.perInstance(double(beta->a.total)), 500.0);
    EXPECT_EQ(c.b.perInstance(double(beta->b.total)), 500.0);
    // Idle clipped to the iterations: A 9000 ns in 6 gaps, B 15800 ns in 9.
    EXPECT_EQ(c.gpus[0].a.idle, 9000);
    EXPECT_EQ(c.gpus[0].b.idle, 15800);
    EXPECT_EQ(c.a.perInstance(double(c.a.gpuIdle)), 4500.0);
    EXPECT_DOUBLE_EQ(c.b.perInstance(double(c.b.gpuIdle)), 15800.0 / 3.0);
    EXPECT_DOUBLE_EQ(c.a.window, 18000);

    // Detection finds the same range and says so.
    ComparisonOptions detect;
    detect.detectRange = true;
    const Comparison d = compareTraces(*a, *b, detect);
    EXPECT_EQ(d.rangeName, QStringLiteral("Iteration"));
    EXPECT_TRUE(d.rangeDetected);
    EXPECT_EQ(d.b.instanceCount(), 3u);

    // A range neither trace has: no instances, nothing counted.
    ComparisonOptions missing;
    missing.range = QStringLiteral("Epoch");
    const Comparison m = compareTraces(*a, *b, missing);
    EXPECT_EQ(m.a.instanceCount(), 0u);
    EXPECT_EQ(m.b.instanceCount(), 0u);
    EXPECT_TRUE(m.kernels.empty());
    EXPECT_EQ(m.a.perInstance(100.0), 0.0);
}

TEST_F(KnownPair, ShortNameAndLaunchConfigKeys) {
    ComparisonOptions o;
    o.grouping = KernelGrouping::LaunchConfig;
    const Comparison c = compareTraces(*a, *b, o);
    ASSERT_EQ(c.kernels.size(), 4u);
    EXPECT_EQ(c.kernels[0].name,
              QStringLiteral("alpha [grid (1, 1, 1), block (1, 1, 1), 0 regs, 0 B shared]"));
    EXPECT_EQ(c.kernels[0].delta(), 4000);
}

TEST(SampleComparison, TheDataLoaderFixRemovesTheIdleAndChangesNoKernel) {
    const auto before = test::loadShared(test::samplePath(sample::SampleVariant::Before));
    const auto after = test::loadShared(test::samplePath(sample::SampleVariant::After));
    ASSERT_TRUE(before && after);
    ComparisonOptions o;
    o.detectRange = true;
    const Comparison c = compareTraces(*before, *after, o);
    EXPECT_EQ(c.rangeName, QStringLiteral("Iteration"));
    EXPECT_EQ(c.a.instanceCount(), 20u);
    EXPECT_EQ(c.b.instanceCount(), 20u);
    // Same random draws: every kernel keeps its duration.
    ASSERT_FALSE(c.kernels.empty());
    for (const KernelDiffRow& r : c.kernels) {
        EXPECT_EQ(r.delta(), 0) << r.name.toStdString();
        EXPECT_EQ(r.a.count, r.b.count);
    }
    // Data loading shrinks from ~15.7 ms to well under 1 ms per iteration, and the >10 ms idle
    // gap of 19 iterations is gone (test_synthtrace checks the "before" numbers).
    const RangeDiffRow* load = rangeRow(c, "Data Load");
    ASSERT_NE(load, nullptr);
    EXPECT_NEAR(c.a.perInstance(double(load->a.total)), 15.7e6, 0.1e6);
    EXPECT_LT(c.b.perInstance(double(load->b.total)), 1e6);
    ASSERT_EQ(c.gpus.size(), 1u);
    EXPECT_EQ(c.gpus[0].a.gaps, 19u);
    EXPECT_EQ(c.gpus[0].b.gaps, 0u);
    EXPECT_GT(c.gpus[0].b.utilizationPercent, c.gpus[0].a.utilizationPercent + 20.0);
    // Pinned copies are faster.
    EXPECT_LT(c.gpus[0].b.copyBusy, c.gpus[0].a.copyBusy / 2);
}

// Issue 44 item 7: an A100 (rank 0 of 2, its work on GPU 0, eight GPUs listed) against a V100
// (rank 1 of 2, its work on GPU 1 of two). The GPUs that ran work pair by position; the rest by
// id where both sides have it; a caller's pairing replaces the automatic one.
TEST(Comparison, GpusOfDifferentIdsPairByPositionAndThePairingIsTheCallers) {
    const auto a =
        test::loadShared(QStringLiteral(STROBE_FIXTURES_DIR "/kineto/hta-a100-nccl-ddp.json.gz"));
    const auto b = test::loadShared(
        QStringLiteral(STROBE_FIXTURES_DIR "/kineto/hta-v100-memory-events.json.gz"));
    ASSERT_TRUE(a && b);
    const Comparison c = compareTraces(*a, *b);
    EXPECT_EQ(c.a.rank, std::optional<std::uint32_t>(0));
    EXPECT_EQ(c.b.rank, std::optional<std::uint32_t>(1));
    EXPECT_EQ(c.a.worldSize, std::optional<std::uint32_t>(2));
    EXPECT_EQ(c.a.gpuModels, QStringList{QStringLiteral("NVIDIA A100-PG509-200")});
    EXPECT_EQ(c.b.gpuModels, QStringList{QStringLiteral("Tesla V100-SXM2-32GB")});
    EXPECT_TRUE(c.gpusByPosition);
    ASSERT_GE(c.gpus.size(), 2u);
    EXPECT_EQ(c.gpus[0].deviceId, 0u);
    EXPECT_EQ(c.gpus[0].deviceIdB, 1u);
    EXPECT_EQ(c.gpus[0].a.kernelBusy, 155215315);
    EXPECT_EQ(c.gpus[0].b.kernelBusy, 977859000);
    // A's GPU 1 has no partner (B's GPU 1 is taken), nor has B's GPU 0 (A's is taken).
    EXPECT_EQ(c.gpus[1].deviceId, 1u);
    EXPECT_TRUE(c.gpus[1].a.present);
    EXPECT_FALSE(c.gpus[1].b.present);
    EXPECT_EQ(c.gpus.back().deviceId, 0u);
    EXPECT_FALSE(c.gpus.back().a.present);
    EXPECT_TRUE(c.gpus.back().b.present);
    EXPECT_EQ(c.gpus.size(), 9u); // A's 8 GPUs and B's GPU 0
    EXPECT_EQ(c.gpuPairing, (std::vector<std::pair<std::uint32_t, std::uint32_t>>{{0, 1}}));

    // The caller pairs by id: GPU 0 with GPU 0, and the rest follow their ids.
    ComparisonOptions o;
    o.gpuPairing = {{0, 0}};
    const Comparison byId = compareTraces(*a, *b, o);
    EXPECT_FALSE(byId.gpusByPosition);
    ASSERT_EQ(byId.gpus.size(), 8u);
    EXPECT_EQ(byId.gpus[0].deviceIdB, 0u);
    EXPECT_EQ(byId.gpus[0].b.kernelBusy, 0);
    EXPECT_EQ(byId.gpus[1].deviceIdB, 1u);
    EXPECT_EQ(byId.gpus[1].b.kernelBusy, 977859000);
}

// Issue 44 item 8: without a range the comparison names one to align on, with its counts.
TEST(Comparison, WithoutARangeARepeatingOneIsSuggested) {
    const auto a = test::loadShared(test::pairPath(PairSide::A));
    const auto b = test::loadShared(test::pairPath(PairSide::B));
    ASSERT_TRUE(a && b);
    const Comparison c = compareTraces(*a, *b);
    EXPECT_EQ(c.suggestedRange, QStringLiteral("Iteration"));
    EXPECT_EQ(c.suggestedCounts, (std::pair<std::uint64_t, std::uint64_t>{2, 3}));
    const KernelDiffRow* alpha = kernelRow(c, "alpha");
    ASSERT_NE(alpha, nullptr);
    EXPECT_EQ(alpha->medianPercent(), std::optional<double>(100.0));
    ComparisonOptions o;
    o.range = QStringLiteral("Iteration");
    EXPECT_TRUE(compareTraces(*a, *b, o).suggestedRange.isEmpty());
}

} // namespace
