// SPDX-License-Identifier: MIT
// launch_overhead and small_grid (docs/FINDINGS.md, "Launch rules"). launch_overhead against
// HTA's definitions written as SQL over every nsys fixture (CUPTI_ACTIVITY_KIND_KERNEL joined
// with CUPTI_ACTIVITY_KIND_RUNTIME on the process and correlation id); small_grid against the
// embedded sample read back with SQL, and hand-built traces whose answers are worked out below.
#include "formats/nsys/synth/sampletrace.h"
#include "formats/open.h"
#include "model/analysis/findings.h"
#include "model/reports/findingtext.h"
#include "model/tracebuilder.h"
#include "tests/support/kinetoscan.h"
#include "tests/support/sqlitequery.h"

#include <gtest/gtest.h>

#include <QTemporaryDir>
#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace strobe {
namespace {

Findings launchFindings(const Trace& t, FindingOptions o = {}) {
    o.only = {FindingRule::LaunchOverhead, FindingRule::SmallGrid};
    return computeFindings(t, o);
}

// Copies: the findings of `rule`, in rank order.
std::vector<Finding> ofRule(const Findings& fs, FindingRule rule) {
    std::vector<Finding> out;
    for (const Finding& f : fs.findings)
        if (f.rule == rule)
            out.push_back(f);
    return out;
}

// ---------------------------------------------------------------------------------------------
// launch_overhead on real exports, against HTA's definitions in SQL.

// Per device: HTA's launch rows (cpu_duration = the call's end - start, gpu_duration = the
// kernel's, launch_delay = kernel start - call end) over the kernels with a launching call and
// no graph node, and the device's kernel time and short-kernel time.
struct Expected {
    std::int64_t launches = 0, shortKernels = 0, slowCalls = 0, delayed = 0, excess = 0;
    std::int64_t kernelNs = 0, shortKernelNs = 0;
    std::int64_t candidates = 0;             // launches in any of the three categories
    std::int64_t topStart = 0, topDelay = 0; // the first evidence row's kernel start, delay
};

const char* const kLaunchRows =
    "WITH l AS (SELECT k.deviceId AS dev, k.start AS ks, r.end - r.start AS cpu,"
    "  k.end - k.start AS gpu, k.start - r.end AS delay"
    "  FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN CUPTI_ACTIVITY_KIND_RUNTIME r"
    "  ON r.correlationId = k.correlationId AND r.globalTid / 16777216 = k.globalPid / 16777216"
    "  WHERE k.graphNodeId IS NULL) ";

std::map<std::int64_t, Expected> expectedLaunches(const std::string& path) {
    std::map<std::int64_t, Expected> out;
    for (const auto& r : test::query(
             path, std::string(kLaunchRows) +
                       "SELECT dev, count(*), sum(cpu <= 50000 AND gpu < cpu), sum(cpu > 50000),"
                       " sum(delay > 100000),"
                       " coalesce(sum(CASE WHEN cpu <= 50000 AND gpu < cpu THEN cpu - gpu END), 0),"
                       " sum(cpu > 50000 OR gpu < cpu OR delay > 100000)"
                       " FROM l GROUP BY dev")) {
        Expected& e = out[std::stoll(r[0])];
        e.launches = std::stoll(r[1]);
        e.shortKernels = std::stoll(r[2]);
        e.slowCalls = std::stoll(r[3]);
        e.delayed = std::stoll(r[4]);
        e.excess = std::stoll(r[5]);
        e.candidates = std::stoll(r[6]);
        if (e.candidates == 0)
            continue;
        const auto top = test::query(
            path, std::string(kLaunchRows) + "SELECT ks, delay FROM l WHERE dev = " + r[0] +
                      " AND (cpu > 50000 OR gpu < cpu OR delay > 100000)"
                      " ORDER BY max(cpu - gpu, 0) DESC, delay DESC, ks LIMIT 1");
        e.topStart = std::stoll(top.at(0)[0]);
        e.topDelay = std::stoll(top.at(0)[1]);
    }
    for (const auto& r :
         test::query(path, "SELECT deviceId, sum(end - start),"
                           " sum(CASE WHEN end - start < 10000 THEN end - start ELSE 0 END) FROM "
                           "CUPTI_ACTIVITY_KIND_KERNEL GROUP BY deviceId")) {
        Expected& e = out[std::stoll(r[0])];
        e.kernelNs = std::stoll(r[1]);
        e.shortKernelNs = std::stoll(r[2]);
    }
    return out;
}

class LaunchOverheadNsys : public ::testing::TestWithParam<std::string> {};

TEST_P(LaunchOverheadNsys, CountsAndTimeEqualHtasDefinitionsInSql) {
    const std::string path = test::fixturePath(GetParam());
    LoadResult r = loadTrace(QString::fromStdString(path));
    ASSERT_TRUE(r.trace) << GetParam();
    const Findings fs = launchFindings(*r.trace);
    const auto found = ofRule(fs, FindingRule::LaunchOverhead);
    const auto expected = expectedLaunches(path);
    std::size_t firing = 0;
    for (const auto& [deviceId, e] : expected) {
        const auto device = std::uint32_t(deviceId); // a copy: lambdas cannot capture bindings
        SCOPED_TRACE(GetParam() + " device " + std::to_string(device));
        const auto it = std::find_if(found.begin(), found.end(),
                                     [&](const Finding& f) { return f.deviceId == device; });
        if (e.shortKernels == 0) {
            EXPECT_EQ(it, found.end());
            continue;
        }
        ++firing;
        ASSERT_NE(it, found.end());
        const Finding& f = *it;
        EXPECT_EQ(std::int64_t(f.launch.launches), e.launches);
        EXPECT_EQ(std::int64_t(f.launch.shortKernels), e.shortKernels);
        EXPECT_EQ(std::int64_t(f.count), e.shortKernels);
        EXPECT_EQ(std::int64_t(f.launch.slowCalls), e.slowCalls);
        EXPECT_EQ(std::int64_t(f.launch.delayed), e.delayed);
        EXPECT_EQ(f.timeNs, e.excess);
        EXPECT_EQ(f.base, ShareBase::Span);
        // A share of the trace's span (first to last event of any kind).
        EXPECT_EQ(f.baseNs, r.trace->timeRange().duration());
        EXPECT_DOUBLE_EQ(f.sharePercent, 100.0 * double(e.excess) / double(f.baseNs));
        EXPECT_DOUBLE_EQ(f.measured, 100.0 * double(e.shortKernelNs) / double(e.kernelNs));
        EXPECT_EQ(f.evidence.size(), std::size_t(std::min<std::int64_t>(100, e.candidates)));
        ASSERT_FALSE(f.evidence.empty());
        EXPECT_EQ(f.evidence[0].range.start, e.topStart);
        EXPECT_EQ(f.evidence[0].value, double(e.topDelay));
        // The evidence table repeats HTA's columns for that launch.
        const ReportTable table = evidenceTable(*r.trace, f);
        ASSERT_EQ(table.rows.size(), f.evidence.size());
        EXPECT_EQ(table.columns.indexOf(QStringLiteral("launch_delay_ns")), 7);
        EXPECT_EQ(table.rows[0][4].text, QString::number(e.topStart));
        EXPECT_EQ(table.rows[0][7].text, QString::number(e.topDelay));
    }
    EXPECT_EQ(found.size(), firing);
}

INSTANTIATE_TEST_SUITE_P(AllNsys, LaunchOverheadNsys, ::testing::ValuesIn(test::nsysFixtures()));

// The H100 export has short kernels on both GPUs (the test above would pass vacuously on a
// fixture where nothing fires).
TEST(LaunchOverhead, TheH100ExportFiresOnBothGpus) {
    const std::string path = test::fixturePath("nsys2026.2-h100-2gpu-nvtx.sqlite");
    LoadResult r = loadTrace(QString::fromStdString(path));
    ASSERT_TRUE(r.trace);
    const auto found = ofRule(launchFindings(*r.trace), FindingRule::LaunchOverhead);
    ASSERT_EQ(found.size(), 2u);
    EXPECT_GT(found[0].count, 0u);
    EXPECT_GT(found[1].count, 0u);
}

// The same definitions over Kineto traces (HTA's own test traces among them), read with the
// independent scanner: kernels joined with the runtime or driver call of the same correlation
// id (a kernel's pid is its GPU's in Kineto, not its process'). Times are differences, so the
// reader's time origin does not matter; the fixtures write whole microseconds, so nanoseconds are
// exact.
class LaunchOverheadKineto : public ::testing::TestWithParam<std::string> {};

TEST_P(LaunchOverheadKineto, CountsAndTimeEqualHtasDefinitionsOnTheJson) {
    const std::string path = test::kinetoFixturePath(GetParam());
    const test::ScannedTrace scan = test::scanKineto(path);
    const auto isCall = [](const test::ScannedEvent& e) {
        return e.ph == "X" &&
               (e.cat == "cuda_runtime" || e.cat == "cuda_driver" || e.cat == "Runtime") &&
               e.correlation;
    };
    const auto isKernel = [](const test::ScannedEvent& e) {
        return e.ph == "X" && (e.cat == "kernel" || e.cat == "Kernel");
    };
    std::map<std::int64_t, const test::ScannedEvent*> calls;
    for (const test::ScannedEvent& e : scan.events)
        if (isCall(e))
            calls[*e.correlation] = &e;
    std::map<std::int64_t, Expected> expected;
    for (const test::ScannedEvent& k : scan.events) {
        if (!isKernel(k))
            continue;
        if (!k.tsInt || !k.durInt)
            GTEST_SKIP() << GetParam() << ": a kernel's time is not whole microseconds";
        Expected& e = expected[k.device.value_or(0)];
        const std::int64_t gpu = *k.durInt * 1000;
        e.kernelNs += gpu;
        e.shortKernelNs += gpu < 10'000 ? gpu : 0;
        const auto c = k.correlation ? calls.find(*k.correlation) : calls.end();
        if (c == calls.end())
            continue;
        if (!c->second->tsInt || !c->second->durInt)
            GTEST_SKIP() << GetParam() << ": a call's time is not whole microseconds";
        const std::int64_t cpu = *c->second->durInt * 1000;
        const std::int64_t delay = (*k.tsInt - *c->second->tsInt - *c->second->durInt) * 1000;
        ++e.launches;
        e.slowCalls += cpu > 50'000;
        e.delayed += delay > 100'000;
        if (cpu <= 50'000 && gpu < cpu) {
            ++e.shortKernels;
            e.excess += cpu - gpu;
        }
    }
    LoadResult r = loadTrace(QString::fromStdString(path));
    ASSERT_TRUE(r.trace) << GetParam();
    const Findings fs = launchFindings(*r.trace);
    const auto found = ofRule(fs, FindingRule::LaunchOverhead);
    std::size_t firing = 0;
    for (const auto& [deviceId, e] : expected) {
        const auto device = std::uint32_t(deviceId);
        SCOPED_TRACE(GetParam() + " device " + std::to_string(device));
        const auto it = std::find_if(found.begin(), found.end(),
                                     [&](const Finding& f) { return f.deviceId == device; });
        if (e.shortKernels == 0) {
            EXPECT_EQ(it, found.end());
            continue;
        }
        ++firing;
        ASSERT_NE(it, found.end());
        EXPECT_EQ(std::int64_t(it->launch.launches), e.launches);
        EXPECT_EQ(std::int64_t(it->launch.shortKernels), e.shortKernels);
        EXPECT_EQ(std::int64_t(it->launch.slowCalls), e.slowCalls);
        EXPECT_EQ(std::int64_t(it->launch.delayed), e.delayed);
        EXPECT_EQ(it->timeNs, e.excess);
        EXPECT_DOUBLE_EQ(it->measured, 100.0 * double(e.shortKernelNs) / double(e.kernelNs));
    }
    EXPECT_EQ(found.size(), firing);
}

INSTANTIATE_TEST_SUITE_P(AllKineto, LaunchOverheadKineto,
                         ::testing::ValuesIn(test::kinetoFixtures()));

// ---------------------------------------------------------------------------------------------
// launch_overhead on a hand-built trace.

// An H100 as nsys's TARGET_INFO_GPU describes it: 132 SMs, compute capability 9.0.
GpuInfo h100(TraceBuilder& b, std::uint32_t id, std::uint32_t sms = 132) {
    GpuInfo g;
    g.id = id;
    g.name = b.intern("NVIDIA H100 80GB HBM3");
    g.smCount = sms;
    g.computeMajor = 9;
    g.maxThreadsPerBlock = 1024;
    g.maxRegistersPerBlock = 65536;
    g.maxRegistersPerSm = 65536;
    g.maxShmemPerBlock = 49152;
    g.maxShmemPerBlockOptin = 232448;
    g.maxShmemPerSm = 233472;
    g.threadsPerWarp = 32;
    g.maxWarpsPerSm = 64;
    g.maxBlocksPerSm = 32;
    return g;
}

struct Launch {
    const char* name;
    TimeNs callStart, callEnd, kernelStart, kernelEnd;
    std::int32_t grid = 1000;
    std::int32_t block = 128;
    std::uint32_t dynamicShared = 0;
    bool graph = false;  // a node of a launched graph
    bool noCall = false; // no launching call recorded
    std::uint32_t device = 0;
};

std::unique_ptr<Trace> launchTrace(const std::vector<Launch>& launches, std::uint32_t sms = 132) {
    TraceBuilder b(QStringLiteral("launches"));
    std::set<std::uint32_t> devices;
    for (const Launch& l : launches)
        devices.insert(l.device);
    for (std::uint32_t d : devices)
        b.addGpu(h100(b, d, sms));
    std::uint32_t corr = 1;
    for (const Launch& l : launches) {
        KernelConfig c;
        c.shortName = b.intern(l.name);
        c.demangledName = c.shortName;
        c.grid = {l.grid, 1, 1};
        c.block = {l.block, 1, 1};
        c.registersPerThread = 32;
        c.dynamicSharedBytes = l.dynamicShared;
        if (!l.noCall) {
            ApiCallRecord a;
            a.correlationId = corr;
            b.addApiCall(100, 101, l.callStart, l.callEnd,
                         b.intern(l.graph ? "cudaGraphLaunch_v10000" : "cudaLaunchKernel_v7000"),
                         a);
        }
        b.addKernel(100, l.device, 1, 7, l.kernelStart, l.kernelEnd, c, corr,
                    l.graph ? std::optional<std::uint64_t>(corr) : std::nullopt);
        ++corr;
    }
    return b.finish();
}

TEST(LaunchOverhead, HandBuiltLaunchesInEachCategory) {
    const auto t = launchTrace({
        // A 4 µs kernel behind a 10 µs call: short, 6 µs beyond the kernel.
        {"short_a", 0, 10'000, 12'000, 16'000},
        // A 2 µs kernel behind a 5 µs call, starting 150 µs after it: short and delayed.
        {"short_b", 20'000, 25'000, 175'000, 177'000},
        // A 20 µs kernel behind a 60 µs call: slow, not short (HTA's short kernels need a call
        // within the cut-off), so not in the time at stake.
        {"slow_call", 200'000, 260'000, 262'000, 282'000},
        // A kernel longer than its call: nothing.
        {"long", 300'000, 305'000, 306'000, 406'000},
        // A graph's node shorter than the graph launch: left out.
        {"graph_node", 410'000, 430'000, 431'000, 432'000, 1000, 128, 0, true},
        // No launching call recorded: only in the GPU time.
        {"orphan", 440'000, 440'000, 450'000, 451'000, 1000, 128, 0, false, true},
    });
    const auto found = ofRule(launchFindings(*t), FindingRule::LaunchOverhead);
    ASSERT_EQ(found.size(), 1u);
    const Finding& f = found[0];
    EXPECT_EQ(f.deviceId, 0u);
    EXPECT_EQ(f.launch.launches, 4u);
    EXPECT_EQ(f.launch.shortKernels, 2u);
    EXPECT_EQ(f.launch.slowCalls, 1u);
    EXPECT_EQ(f.launch.delayed, 1u);
    EXPECT_EQ(f.timeNs, 6'000 + 3'000);
    EXPECT_EQ(f.baseNs, 451'000); // the trace's span: the first call to the last kernel
    EXPECT_DOUBLE_EQ(f.sharePercent, 100.0 * 9'000 / 451'000);
    // Kernels under 10 µs: 4 + 2 + 1 + 1 µs of 4 + 2 + 20 + 100 + 1 + 1.
    EXPECT_DOUBLE_EQ(f.measured, 100.0 * 8 / 128);
    // Evidence: the slow call (40 µs beyond), short_a (6 µs), short_b (3 µs).
    ASSERT_EQ(f.evidence.size(), 3u);
    EXPECT_EQ(f.evidence[0].range.start, 262'000);
    EXPECT_EQ(f.evidence[1].range.start, 12'000);
    EXPECT_EQ(f.evidence[2].range.start, 175'000);
    EXPECT_EQ(f.evidence[2].value, 150'000.0);

    const FindingWords w = findingWords(*t, f);
    EXPECT_EQ(
        w.finding,
        QStringLiteral("GPU 0: 2 of 4 kernel launches ran shorter than their launch call, "
                       "9.000 \u00b5s of launch time beyond the kernels (2.0 % of the trace's "
                       "span); 1 launch call took over 50 \u00b5s, 1 kernel started over "
                       "100 \u00b5s after its call, and kernels under 10 \u00b5s take "
                       "6.3 % of GPU time."));
    EXPECT_TRUE(w.nextStep.startsWith(QStringLiteral("Try CUDA graphs")));
    const ReportTable table = evidenceTable(*t, f);
    ASSERT_EQ(table.rows.size(), 3u);
    QStringList first;
    for (const ReportCell& c : table.rows[0])
        first << c.text;
    EXPECT_EQ(first.join(u','),
              QStringLiteral("0,slow_call,cudaLaunchKernel_v7000,3,262000,60000,20000,2000"));
}

TEST(LaunchOverhead, KernelsLongerThanTheirCallsSayNothing) {
    const auto t = launchTrace({
        {"a", 0, 5'000, 6'000, 20'000},
        {"b", 10'000, 15'000, 20'000, 40'000},
    });
    const Findings fs = launchFindings(*t);
    EXPECT_TRUE(ofRule(fs, FindingRule::LaunchOverhead).empty());
    EXPECT_TRUE(fs.skipped.empty());
}

TEST(LaunchOverhead, ThresholdsComeFromTheOptions) {
    const auto t = launchTrace({{"k", 0, 30'000, 31'000, 32'000}});
    FindingOptions o;
    o.launchCallNs = 20'000; // the 30 µs call is now slow, so its kernel is not short
    EXPECT_TRUE(ofRule(launchFindings(*t, o), FindingRule::LaunchOverhead).empty());
    o.launchCallNs = 50'000;
    const auto found = ofRule(launchFindings(*t, o), FindingRule::LaunchOverhead);
    ASSERT_EQ(found.size(), 1u);
    EXPECT_EQ(found[0].timeNs, 29'000);
}

TEST(LaunchOverhead, NoCallsRecordedIsSkipped) {
    const auto t = launchTrace({{"k", 0, 0, 1'000, 2'000, 1000, 128, 0, false, true}});
    const Findings fs = launchFindings(*t);
    EXPECT_TRUE(ofRule(fs, FindingRule::LaunchOverhead).empty());
    ASSERT_EQ(fs.skipped.size(), 1u);
    EXPECT_EQ(fs.skipped[0].rule, FindingRule::LaunchOverhead);
    EXPECT_EQ(fs.skipped[0].missing, MissingData::ApiCalls);
}

// ---------------------------------------------------------------------------------------------
// small_grid.

TEST(SmallGrid, TheSampleFiresOnItsSoftmaxAtTheDefaultShare) {
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("sample.sqlite")).toStdString();
    std::string error;
    ASSERT_TRUE(sample::writeSampleTrace(path, &error)) << error;
    LoadResult r = loadTrace(QString::fromStdString(path));
    ASSERT_TRUE(r.trace);
    // The sample's kernels, read back: softmax's grid, the GPU's SMs, its time of all.
    const std::int64_t blocks = test::queryInt(
        path, "SELECT DISTINCT gridX * gridY * gridZ FROM CUPTI_ACTIVITY_KIND_KERNEL k"
              " JOIN StringIds s ON s.id = k.shortName WHERE s.value = 'softmax_warp_forward'");
    const std::int64_t sms = test::queryInt(path, "SELECT smCount FROM TARGET_INFO_GPU");
    const std::int64_t softmaxNs = test::queryInt(
        path, "SELECT sum(end - start) FROM CUPTI_ACTIVITY_KIND_KERNEL k"
              " JOIN StringIds s ON s.id = k.shortName WHERE s.value = 'softmax_warp_forward'");
    const std::int64_t launches = test::queryInt(
        path, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k"
              " JOIN StringIds s ON s.id = k.shortName WHERE s.value = 'softmax_warp_forward'");
    const std::int64_t totalNs =
        test::queryInt(path, "SELECT sum(end - start) FROM CUPTI_ACTIVITY_KIND_KERNEL");
    ASSERT_EQ(blocks, 4);
    ASSERT_EQ(sms, 132);
    const double share = 100.0 * double(softmaxNs) / double(totalNs);
    ASSERT_GE(share, 5.0);

    // Just above the softmax's share, nothing on the sample is both large and underfilled.
    FindingOptions above;
    above.smallGridGpuPercent = std::nextafter(share, 100.0);
    EXPECT_TRUE(ofRule(launchFindings(*r.trace, above), FindingRule::SmallGrid).empty());

    // At the default 5 % the softmax is found.
    const Findings fs = launchFindings(*r.trace);
    const auto found = ofRule(fs, FindingRule::SmallGrid);
    const auto it = std::find_if(found.begin(), found.end(), [](const Finding& f) {
        return f.subject == QStringLiteral("softmax_warp_forward");
    });
    ASSERT_NE(it, found.end());
    const Finding& f = *it;
    EXPECT_EQ(f.blocks, blocks);
    EXPECT_EQ(f.smCount, std::uint32_t(sms));
    EXPECT_DOUBLE_EQ(f.measured, share);
    EXPECT_EQ(f.count, std::uint64_t(launches));
    EXPECT_EQ(f.baseNs, totalNs);
    EXPECT_EQ(f.timeNs, std::llround(double(softmaxNs) * (1.0 - 4.0 / 132.0)));
    EXPECT_EQ(f.evidence.size(), std::size_t(launches));
    for (const FindingEvidence& e : f.evidence)
        EXPECT_EQ(e.value, 4.0);
    // The 1-block nll_loss kernel takes less than the softmax: below the share, not found.
    EXPECT_TRUE(std::none_of(found.begin(), found.end(), [](const Finding& g) {
        return g.subject == QStringLiteral("nll_loss_forward_reduce_cuda_kernel_2d");
    }));
    EXPECT_EQ(findingWords(*r.trace, f).finding,
              QStringLiteral("softmax_warp_forward: 4 blocks on 132 SMs, %1 of GPU time.")
                  .arg(QString::number(share, 'f', 1) + QStringLiteral(" %")));
}

// One GPU (132 SMs): a 4-block kernel with 60 % of the kernel time, a 1000-block kernel held to
// one 4-warp block per SM by 200 KiB of shared memory (6.25 % occupancy) with 30 %, a full one
// with 6 %, a 2-block one with 3 % (under 5 %) and a 2-block NCCL kernel with 1 %.
std::vector<Launch> mixedLaunches() {
    return {
        {"tiny_grid", 0, 1'000, 1'000, 601'000, 4},
        {"low_occupancy", 0, 1'000, 601'000, 901'000, 1000, 128, 200 * 1024},
        {"fills", 0, 1'000, 901'000, 961'000, 1000, 256},
        {"small_share", 0, 1'000, 961'000, 991'000, 2},
        {"ncclDevKernel_AllReduce_Sum_f32_RING_LL", 0, 1'000, 991'000, 1'001'000, 2},
    };
}

TEST(SmallGrid, EachConditionFiresWithItsTimeAtStake) {
    const auto t = launchTrace(mixedLaunches());
    const auto found = ofRule(launchFindings(*t), FindingRule::SmallGrid);
    ASSERT_EQ(found.size(), 2u); // ranked by time at stake
    const Finding& grid = found[0];
    EXPECT_EQ(grid.subject, QStringLiteral("tiny_grid"));
    EXPECT_EQ(grid.blocks, 4);
    EXPECT_EQ(grid.smCount, 132u);
    EXPECT_DOUBLE_EQ(grid.measured, 60.0);
    EXPECT_EQ(grid.baseNs, 1'000'000);
    EXPECT_EQ(grid.timeNs, std::llround(600'000.0 * 128.0 / 132.0)); // the SMs left empty
    EXPECT_EQ(grid.base, ShareBase::GpuTime);
    ASSERT_EQ(grid.evidence.size(), 1u);
    EXPECT_EQ(grid.evidence[0].range, (TimeRange{1'000, 601'000}));
    EXPECT_EQ(findingWords(*t, grid).finding,
              QStringLiteral("tiny_grid: 4 blocks on 132 SMs, 60.0 % of GPU time."));

    const Finding& occ = found[1];
    EXPECT_EQ(occ.subject, QStringLiteral("low_occupancy"));
    ASSERT_TRUE(occ.occupancyPercent);
    EXPECT_DOUBLE_EQ(*occ.occupancyPercent, 6.25);
    EXPECT_DOUBLE_EQ(occ.measured, 30.0);
    // 6.25 % of 25 %: a quarter used, three quarters of its 300 µs at stake.
    EXPECT_EQ(occ.timeNs, 225'000);
    EXPECT_EQ(findingWords(*t, occ).finding,
              QStringLiteral("low_occupancy: 6.3 % theoretical occupancy, 30.0 % of GPU time."));
}

TEST(SmallGrid, WithSeveralGpusTheSentenceNamesItsGpu) {
    const auto t =
        launchTrace({{"fills", 0, 1'000, 1'000, 101'000, 1000, 256},
                     {"tiny_grid", 0, 1'000, 1'000, 31'000, 4, 128, 0, false, false, 1},
                     {"fills", 0, 1'000, 31'000, 121'000, 1000, 256, 0, false, false, 1}});
    const Findings fs = launchFindings(*t);
    const auto found = ofRule(fs, FindingRule::SmallGrid);
    ASSERT_EQ(found.size(), 1u);
    EXPECT_EQ(found[0].deviceId, 1u);
    EXPECT_EQ(findingWords(*t, found[0]).finding,
              QStringLiteral("tiny_grid: 4 blocks on 132 SMs, 25.0 % of GPU 1's kernel time."));
}

TEST(SmallGrid, ThresholdsComeFromTheOptions) {
    const auto t = launchTrace(mixedLaunches());
    FindingOptions o;
    o.smallGridGpuPercent = 2;       // small_share (3 %) now counts
    o.smallGridOccupancyPercent = 5; // low_occupancy (6.25 %) no longer does
    std::vector<QString> subjects;
    for (const Finding& f : ofRule(launchFindings(*t, o), FindingRule::SmallGrid))
        subjects.push_back(f.subject);
    EXPECT_EQ(subjects,
              (std::vector<QString>{QStringLiteral("tiny_grid"), QStringLiteral("small_share")}));
}

TEST(SmallGrid, KernelsThatFillTheGpuSayNothing) {
    const auto t = launchTrace({{"fills", 0, 1'000, 1'000, 601'000, 1000, 256},
                                {"also_fills", 0, 1'000, 601'000, 901'000, 132, 512}});
    const Findings fs = launchFindings(*t);
    EXPECT_TRUE(ofRule(fs, FindingRule::SmallGrid).empty());
    EXPECT_TRUE(fs.skipped.empty());
}

TEST(SmallGrid, AnUnknownSmCountIsSkipped) {
    TraceBuilder b(QStringLiteral("no sms"));
    GpuInfo g;
    g.id = 0;
    b.addGpu(g); // nothing recorded, not even a name
    KernelConfig c;
    c.shortName = b.intern("k");
    c.grid = {1, 1, 1};
    c.block = {32, 1, 1};
    b.addKernel(1, 0, 1, 7, 0, 1000, c, std::nullopt, std::nullopt);
    const auto t = b.finish();
    const Findings fs = launchFindings(*t);
    EXPECT_TRUE(ofRule(fs, FindingRule::SmallGrid).empty());
    const auto it = std::find_if(fs.skipped.begin(), fs.skipped.end(), [](const SkippedRule& s) {
        return s.rule == FindingRule::SmallGrid;
    });
    ASSERT_NE(it, fs.skipped.end());
    EXPECT_EQ(it->missing, MissingData::SmCount);
}

} // namespace
} // namespace strobe
