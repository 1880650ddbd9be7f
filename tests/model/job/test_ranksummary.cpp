// SPDX-License-Identifier: MIT
// One rank's summary against independent readings of the real fixtures: HTA's temporal breakdown
// and communication-computation overlap followed on a scan of the Kineto JSON, the steps and NCCL
// kernels as the JSON has them, and the two-GPU nsys report as a job of two ranks (SQL).
#include "formats/open.h"
#include "model/job/job.h"
#include "model/job/ranksummary.h"
#include "tests/support/kinetoscan.h"
#include "tests/support/sqlitequery.h"

#include <gtest/gtest.h>

#include <QFile>
#include <QTemporaryDir>

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
        EXPECT_EQ(s.kindOf(s.collectives[i]), QStringLiteral("SendRecv"));
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

// PyTorch 2.x records each NCCL kernel's process group and message (args "Process Group Name",
// "In msg nelems", "dtype"): the summary keeps the group and the bytes, as the JSON has them.
TEST(RankSummary, ProcessGroupsAndBytesAreTheJsons) {
    const std::string path = test::kinetoFixturePath("hta-a100-nccl-ddp.json.gz");
    const test::ScannedTrace scan = test::scanKineto(path);
    const auto ranks = summarize(path);
    ASSERT_EQ(ranks.size(), 1u);
    const std::map<std::string, std::uint64_t> size = {{"Float", 4}, {"Long", 8}, {"Byte", 1}};
    std::vector<const test::ScannedEvent*> nccl;
    for (const auto& e : scan.events) {
        if (e.ph == "X" && e.cat == "kernel" && e.name.rfind("nccl", 0) == 0)
            nccl.push_back(&e);
    }
    std::stable_sort(nccl.begin(), nccl.end(), [](auto* a, auto* b) { return *a->ts < *b->ts; });
    const std::vector<RankCollective>& c = ranks[0].collectives;
    ASSERT_EQ(c.size(), nccl.size());
    ASSERT_EQ(c.size(), 21u); // 15 all-reduces and 6 broadcasts
    for (std::size_t i = 0; i < nccl.size(); ++i) {
        const auto& e = *nccl[i];
        ASSERT_TRUE(e.processGroupName && e.inMsgNelems && e.dtype);
        EXPECT_EQ(ranks[0].processGroupOf(c[i]), QString::fromStdString(*e.processGroupName)) << i;
        EXPECT_EQ(c[i].bytes, std::uint64_t(*e.inMsgNelems) * size.at(*e.dtype)) << i;
    }
    // The sampled HTA traces record neither: none is made up.
    for (const RankSummary& s : summarize(test::kinetoFixturePath("hta-sampled-rank0.json.gz"))) {
        for (const RankCollective& x : s.collectives) {
            EXPECT_FALSE(x.processGroup.has_value());
            EXPECT_FALSE(x.bytes.has_value());
        }
    }
}

// Four ranks: every rank all-reduces in group "0" on one stream, and ranks 0 and 1 in group "1",
// ranks 2 and 3 in group "2", on another. The groups, read from the traces, keep the pairs
// apart; by stream alone the four ranks' second-stream calls would be taken for one collective.
TEST(JobMatching, TwoProcessGroupsReadFromTracesMatchWithinTheirGroups) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const auto kernel = [](std::int64_t ts, int stream, const char* group, int nelems) {
        return QStringLiteral(
                   R"({"ph": "X", "cat": "kernel", "name": "ncclDevKernel_AllReduce_Sum_f32_RING_LL", )"
                   R"("pid": 0, "tid": %1, "ts": %2, "dur": 50, "args": {"device": 0, )"
                   R"("stream": %1, "correlation": %3, "Process Group Name": "%4", )"
                   R"("In msg nelems": %5, "dtype": "Float"}})")
            .arg(stream)
            .arg(ts)
            .arg(ts)
            .arg(QLatin1String(group))
            .arg(nelems);
    };
    std::vector<RankSummary> summaries;
    for (int r = 0; r < 4; ++r) {
        const char* pair = r < 2 ? "1" : "2";
        QStringList events;
        for (int k = 0; k < 2; ++k) {
            events << kernel(1000 + 1000 * k, 20, "0", 1024);
            // The pairs' calls at different times: matching must not go by time either.
            events << kernel(1500 + 1000 * k + (r < 2 ? 0 : 300), 21, pair, 256 * (r < 2 ? 1 : 2));
        }
        const QString json =
            QStringLiteral(R"({"distributedInfo": {"backend": "nccl", "rank": %1, )"
                           R"("world_size": 4}, "traceEvents": [%2]})")
                .arg(r)
                .arg(events.join(QStringLiteral(", ")));
        const QString path = dir.filePath(QStringLiteral("rank-%1.json").arg(r));
        QFile f(path);
        ASSERT_TRUE(f.open(QIODevice::WriteOnly));
        f.write(json.toUtf8());
        f.close();
        for (RankSummary& s : summarize(path.toStdString()))
            summaries.push_back(std::move(s));
    }
    ASSERT_EQ(summaries.size(), 4u);
    EXPECT_EQ(summaries[0].processGroupOf(summaries[0].collectives[1]), QStringLiteral("1"));
    EXPECT_EQ(summaries[0].collectives[1].bytes, 1024u);
    EXPECT_EQ(summaries[3].processGroupOf(summaries[3].collectives[1]), QStringLiteral("2"));
    EXPECT_EQ(summaries[3].collectives[1].bytes, 2048u);
    const Job job = makeJob(std::move(summaries));
    const CollectiveMatch m = matchCollectives(job);
    EXPECT_TRUE(m.unmatched.empty());
    ASSERT_EQ(m.matched.size(), 6u);
    std::map<QString, std::vector<std::vector<std::uint32_t>>> ranksByGroup;
    for (const MatchedCollective& c : m.matched) {
        std::vector<std::uint32_t> rs;
        for (const auto& [r, i] : c.calls)
            rs.push_back(job.ranks[r].rank);
        ranksByGroup[c.processGroup.value_or(QStringLiteral("?"))].push_back(rs);
    }
    using V = std::vector<std::vector<std::uint32_t>>;
    EXPECT_EQ(ranksByGroup[QStringLiteral("0")], (V{{0, 1, 2, 3}, {0, 1, 2, 3}}));
    EXPECT_EQ(ranksByGroup[QStringLiteral("1")], (V{{0, 1}, {0, 1}}));
    EXPECT_EQ(ranksByGroup[QStringLiteral("2")], (V{{2, 3}, {2, 3}}));
    EXPECT_EQ(ranksByGroup.count(QStringLiteral("?")), 0u);
}
