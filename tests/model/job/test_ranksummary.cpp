// SPDX-License-Identifier: MIT
// One rank's summary against independent readings of the real fixtures: HTA's temporal breakdown
// and communication-computation overlap followed on a scan of the Kineto JSON, the steps and NCCL
// kernels as the JSON has them, and the two-GPU nsys report as a job of two ranks (SQL).
#include "formats/open.h"
#include "model/job/ranksummary.h"
#include "tests/support/kinetoscan.h"
#include "tests/support/sqlitequery.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

using namespace strobe;

namespace {

std::vector<RankSummary> summarize(const std::string& path) {
    const LoadResult r = loadTrace(QString::fromStdString(path), LoadOptions{});
    EXPECT_TRUE(r.ok()) << r.error.toStdString();
    return r.ok() ? summarizeTrace(*r.trace, KernelClassTable::defaults())
                  : std::vector<RankSummary>{};
}

using Intervals = std::vector<std::pair<std::int64_t, std::int64_t>>;

Intervals merged(Intervals v) {
    std::sort(v.begin(), v.end());
    Intervals out;
    for (const auto& [s, e] : v) {
        if (!out.empty() && s <= out.back().second)
            out.back().second = std::max(out.back().second, e);
        else
            out.emplace_back(s, e);
    }
    return out;
}

std::int64_t length(const Intervals& v) {
    std::int64_t n = 0;
    for (const auto& [s, e] : v)
        n += e - s;
    return n;
}

std::int64_t overlap(const Intervals& a, const Intervals& b) {
    std::int64_t n = 0;
    for (const auto& x : a) {
        for (const auto& y : b)
            n += std::max<std::int64_t>(0,
                                        std::min(x.second, y.second) - std::max(x.first, y.first));
    }
    return n;
}

// HTA's get_temporal_breakdown and get_comm_comp_overlap for one rank, written from their
// definitions (hta/analyzers/breakdown_analysis.py, communication_analysis.py): the GPU events
// (kernels, memcpys, memsets) whose correlation matches a CPU runtime call that starts before the
// last ProfilerStep does (Trace._filter_irrelevant_gpu_kernels); kernels named nccl* are
// communication, names with Memcpy/Memset memory, the rest computation; each kind merged.
struct HtaRank {
    std::int64_t compute = 0, communication = 0, idle = 0, kernelTime = 0, overlap = 0;
};

HtaRank htaOf(const test::ScannedTrace& t) {
    std::int64_t lastStep = std::numeric_limits<std::int64_t>::min();
    for (const auto& e : t.events) {
        if (e.ph == "X" && e.name.rfind("ProfilerStep#", 0) == 0)
            lastStep = std::max(lastStep, *e.tsInt);
    }
    std::set<std::int64_t> launched;
    for (const auto& e : t.events) {
        if (e.ph == "X" && (e.cat == "cuda_runtime" || e.cat == "cuda_driver") && e.correlation &&
            *e.tsInt < lastStep)
            launched.insert(*e.correlation);
    }
    Intervals comp, comm, all;
    for (const auto& e : t.events) {
        if (e.ph != "X" || (e.cat != "kernel" && e.cat != "gpu_memcpy" && e.cat != "gpu_memset"))
            continue;
        if (!e.correlation || !launched.count(*e.correlation))
            continue;
        const std::pair<std::int64_t, std::int64_t> iv{*e.tsInt * 1000,
                                                       (*e.tsInt + *e.durInt) * 1000};
        all.push_back(iv);
        if (e.name.rfind("nccl", 0) == 0)
            comm.push_back(iv);
        else if (e.name.find("Memcpy") == std::string::npos &&
                 e.name.find("Memset") == std::string::npos)
            comp.push_back(iv);
    }
    HtaRank h;
    const Intervals m = merged(all), c = merged(comp), n = merged(comm);
    h.compute = length(c);
    h.communication = length(n);
    h.kernelTime = m.back().second - m.front().first;
    h.idle = h.kernelTime - length(m);
    h.overlap = overlap(n, c);
    return h;
}

class SampledPair : public ::testing::TestWithParam<int> {
protected:
    std::string path() const {
        return test::kinetoFixturePath("hta-sampled-rank" + std::to_string(GetParam()) +
                                       ".json.gz");
    }
};

} // namespace

TEST_P(SampledPair, HtaWindowEqualsHtasTemporalBreakdownAndOverlap) {
    const test::ScannedTrace scan = test::scanKineto(path());
    const HtaRank hta = htaOf(scan);
    const auto ranks = summarize(path());
    ASSERT_EQ(ranks.size(), 1u);
    ASSERT_TRUE(ranks[0].htaWindow.has_value());
    const RankBreakdown& b = *ranks[0].htaWindow;
    EXPECT_EQ(b.compute, hta.compute);
    EXPECT_EQ(b.communication, hta.communication);
    EXPECT_EQ(b.span, hta.kernelTime);
    EXPECT_EQ(b.idle, hta.idle);
    // HTA's non_compute_time(ns): kernel time less compute and idle.
    EXPECT_EQ(b.span - b.compute - b.idle, hta.kernelTime - hta.compute - hta.idle);
    EXPECT_EQ(b.communication - b.exposedCommunication, hta.overlap);
    EXPECT_DOUBLE_EQ(b.overlapPercent(), 100.0 * double(hta.overlap) / double(hta.communication));
    // The two ranks' own numbers, so that both sides failing alike cannot pass.
    EXPECT_EQ(hta.compute, GetParam() == 0 ? 106'252'000 : 135'548'000);
}

TEST_P(SampledPair, IdentityStepsAndCollectivesAreTheJsons) {
    const test::ScannedTrace scan = test::scanKineto(path());
    const auto ranks = summarize(path());
    ASSERT_EQ(ranks.size(), 1u);
    const RankSummary& s = ranks[0];
    EXPECT_EQ(s.rank, std::uint32_t(*scan.rank));
    EXPECT_EQ(s.rankSource, RankSource::Recorded);
    EXPECT_EQ(s.worldSize, std::uint32_t(*scan.worldSize));
    EXPECT_EQ(s.backend, QStringLiteral("nccl"));
    EXPECT_EQ(s.deviceId, std::uint32_t(GetParam()));

    std::vector<std::pair<std::uint64_t, TimeRange>> steps;
    std::vector<const test::ScannedEvent*> nccl;
    for (const auto& e : scan.events) {
        if (e.ph == "X" && e.name.rfind("ProfilerStep#", 0) == 0)
            steps.push_back(
                {std::stoull(e.name.substr(13)), {*e.tsInt * 1000, (*e.tsInt + *e.durInt) * 1000}});
        if (e.ph == "X" && e.cat == "kernel" && e.name.rfind("nccl", 0) == 0)
            nccl.push_back(&e);
    }
    ASSERT_EQ(s.steps.size(), steps.size());
    for (std::size_t i = 0; i < steps.size(); ++i) {
        EXPECT_EQ(s.steps[i].number, steps[i].first);
        EXPECT_EQ(s.steps[i].host, steps[i].second);
    }
    std::stable_sort(nccl.begin(), nccl.end(),
                     [](auto* a, auto* b) { return *a->tsInt < *b->tsInt; });
    ASSERT_EQ(s.collectives.size(), nccl.size());
    std::map<std::int64_t, std::uint32_t> ordinal, count;
    for (std::size_t i = 0; i < nccl.size(); ++i) {
        const auto& e = *nccl[i];
        const std::uint32_t o =
            ordinal.try_emplace(*e.stream, std::uint32_t(ordinal.size())).first->second;
        EXPECT_EQ(s.collectives[i].kind, QStringLiteral("SendRecv"));
        EXPECT_EQ(s.collectives[i].streamOrdinal, o);
        EXPECT_EQ(s.collectives[i].order, count[*e.stream]++);
        EXPECT_EQ(s.collectives[i].gpu,
                  (TimeRange{*e.tsInt * 1000, (*e.tsInt + *e.durInt) * 1000}));
    }
}

TEST_P(SampledPair, TheBusyStripAddsUpToTheBusyTime) {
    const auto ranks = summarize(path());
    ASSERT_EQ(ranks.size(), 1u);
    const RankSummary& s = ranks[0];
    ASSERT_EQ(s.busy.size(), std::size_t(kUtilisationBuckets));
    TimeNs busy = 0;
    for (TimeNs b : s.busy)
        busy += b;
    EXPECT_EQ(busy, s.whole.span - s.whole.idle);
    EXPECT_EQ(s.gpuSpan.duration(), s.whole.span);
    EXPECT_GT(*std::max_element(s.busy.begin(), s.busy.end()), 0);
}

INSTANTIATE_TEST_SUITE_P(Ranks, SampledPair, ::testing::Values(0, 1));

TEST(RankSummary, OneReportOfTwoProcessesIsTwoRanksByTheirGpus) {
    const std::string path = test::fixturePath("nsys2026.2-h100-2gpu-nvtx.sqlite");
    const auto ranks = summarize(path);
    ASSERT_EQ(ranks.size(), 2u);
    for (std::uint32_t r = 0; r < 2; ++r) {
        const RankSummary& s = ranks[r];
        EXPECT_EQ(s.rank, r);
        EXPECT_EQ(s.rankSource, RankSource::Order);
        EXPECT_EQ(s.deviceId, r);
        const std::string device = std::to_string(r);
        // The process whose kernels run on this GPU, and the union of its kernels (no NCCL here).
        EXPECT_EQ(s.pid, std::uint32_t(test::queryInt(
                             path, "SELECT DISTINCT (globalPid >> 24) & 16777215 FROM "
                                   "CUPTI_ACTIVITY_KIND_KERNEL WHERE deviceId = " +
                                       device)));
        Intervals kernels;
        for (const auto& row : test::query(
                 path,
                 "SELECT start, end FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE deviceId = " + device))
            kernels.emplace_back(std::stoll(row[0]),
                                 std::max(std::stoll(row[1]), std::stoll(row[0]) + 1));
        EXPECT_EQ(s.whole.compute, length(merged(kernels)));
        EXPECT_EQ(s.whole.communication, 0);
        EXPECT_TRUE(s.collectives.empty());
        ASSERT_FALSE(s.warnings.isEmpty());
        EXPECT_TRUE(s.warnings.last().contains(QStringLiteral("by the order of their GPUs")));
    }
}

TEST(RankSummary, CollectiveKindsFromKernelNames) {
    const std::pair<const char*, const char*> cases[] = {
        {"ncclDevKernel_AllReduce_Sum_f32_RING_LL", "AllReduce"},
        {"ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)",
         "AllReduce"},
        {"ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t", "SendRecv"},
        {"ncclDevKernel_ReduceScatter_Sum_bf16_RING_LL", "ReduceScatter"},
        {"rcclKernel_Broadcast_RING", "Broadcast"},
        {"ncclDevKernel_Generic_4", "Generic"},
    };
    for (const auto& [name, kind] : cases)
        EXPECT_EQ(collectiveKindOf(QString::fromLatin1(name)), QString::fromLatin1(kind)) << name;
    for (const char* other : {"ampere_sgemm_128x64_nn", "nccl", "ncclKernel_", "my_ncclKernel_X"})
        EXPECT_FALSE(collectiveKindOf(QString::fromLatin1(other)).has_value()) << other;
}

TEST(RankSummary, RankNumbersFromFileNames) {
    EXPECT_EQ(rankFromFileName(QStringLiteral("/d/rank-3.json.gz")), 3u);
    EXPECT_EQ(rankFromFileName(QStringLiteral("sampled_rank_12.json")), 12u);
    EXPECT_EQ(rankFromFileName(QStringLiteral("report_7.sqlite")), 7u);
    EXPECT_EQ(rankFromFileName(QStringLiteral("RANK5.pt.trace.json")), 5u);
    EXPECT_FALSE(rankFromFileName(QStringLiteral("host_1234.1623143089861.pt.trace.json")));
    EXPECT_FALSE(rankFromFileName(QStringLiteral("/rank-9/trace.json")).has_value());
}
