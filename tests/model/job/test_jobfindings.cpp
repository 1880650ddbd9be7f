// SPDX-License-Identifier: MIT
// The job's straggler finding and the Overview's headline (model/job/jobfindings.h) on jobs of
// the Kineto job writer, whose answers are known: the straggler's rank, its delay as every other
// rank's wait at every collective, so the time at stake is (ranks - 1) x delay x collectives,
// equal to the stragglers table's wait_caused_ns; no finding when none is injected.
#include "formats/kineto/synth/kinetosynth.h"
#include "formats/open.h"
#include "model/job/jobfindings.h"
#include "model/job/jobopen.h"
#include "model/job/summaryjson.h"
#include "model/reports/findingtext.h"
#include "model/reports/joboverviewtext.h"
#include "model/reports/jobreports.h"

#include <QTemporaryDir>
#include <gtest/gtest.h>

using namespace strobe;

namespace {

struct Written {
    QTemporaryDir dir;
    kinetosynth::KinetoJobStats stats;
    Job job;
};

std::unique_ptr<Written> writeAndOpen(const kinetosynth::KinetoJobOptions& o) {
    auto w = std::make_unique<Written>();
    std::string error;
    EXPECT_TRUE(kinetosynth::writeKinetoJob(w->dir.path().toStdString(), o, &error, &w->stats))
        << error;
    const TraceLoader load = [](const QString& path, QString* err) {
        LoadResult r = loadTrace(path, LoadOptions{});
        if (!r.ok())
            *err = r.error;
        return std::move(r.trace);
    };
    w->job = openJob(findJobFiles(w->dir.path()), load, KernelClassTable::defaults(), 2);
    return w;
}

constexpr TimeNs kDelay = 2'345'000;

} // namespace

TEST(JobFindings, TheStragglerFindingIsTheWaitItCausedWithALateCollectivePerRow) {
    kinetosynth::KinetoJobOptions o;
    o.ranks = 4;
    o.events = 3'000;
    o.straggler = 2;
    o.delayNs = kDelay;
    const auto w = writeAndOpen(o);
    ASSERT_EQ(w->job.ranks.size(), 4u);
    const JobAnalysis a = analyseJob(w->job, Alignment{});
    const Findings f = jobFindings(w->job, a);
    EXPECT_TRUE(f.skipped.empty());
    ASSERT_EQ(f.findings.size(), 1u);
    const Finding& s = f.findings.front();
    EXPECT_EQ(s.rule, FindingRule::Straggler);
    EXPECT_EQ(s.subject, QStringLiteral("rank 2"));

    // The time at stake: the stragglers table's wait_caused_ns of rank 2, and the oracle.
    const std::uint64_t collectives = w->stats.ranks.at(2).collectives;
    ASSERT_GT(collectives, 0u);
    const ReportTable table = jobStragglersTable(a);
    const auto rankColumn = std::size_t(table.columns.indexOf(QStringLiteral("rank")));
    const auto waitColumn = std::size_t(table.columns.indexOf(QStringLiteral("wait_caused_ns")));
    ASSERT_FALSE(table.rows.empty());
    EXPECT_EQ(table.rows.front()[rankColumn].text, QStringLiteral("2"));
    EXPECT_EQ(QString::number(s.timeNs), table.rows.front()[waitColumn].text);
    EXPECT_EQ(s.timeNs, 3 * kDelay * TimeNs(collectives));

    // One evidence row per collective it arrived last at: the stretch from the first arrival to
    // its own is the delay, the value the three others' waits.
    ASSERT_EQ(s.evidence.size(), collectives);
    EXPECT_EQ(s.count, collectives);
    double sum = 0;
    for (const FindingEvidence& e : s.evidence) {
        EXPECT_EQ(e.rank, std::optional<std::uint32_t>(2));
        EXPECT_EQ(e.range.duration(), kDelay);
        EXPECT_EQ(e.value, double(3 * kDelay));
        sum += e.value;
    }
    EXPECT_EQ(sum, double(s.timeNs));

    // Share of the other ranks' steps' time, summed.
    TimeNs steps = 0;
    for (const RankSummary& r : w->job.ranks)
        if (r.rank != 2)
            for (const RankStep& st : r.steps)
                steps += st.host.duration();
    EXPECT_EQ(s.base, ShareBase::Step);
    EXPECT_EQ(s.baseNs, steps);
    EXPECT_DOUBLE_EQ(s.sharePercent, 100.0 * double(s.timeNs) / double(steps));
    EXPECT_EQ(s.measured, double(a.stragglers.rows.front().lateSteps));

    // Its words and evidence table, without a trace.
    const FindingWords words = jobFindingWords(s);
    EXPECT_TRUE(words.finding.startsWith(QStringLiteral("The other ranks wait ")))
        << words.finding.toStdString();
    EXPECT_TRUE(words.finding.contains(QStringLiteral(" for rank 2 (")));
    EXPECT_TRUE(
        words.finding.contains(QStringLiteral("arrives last at %1 collectives").arg(collectives)));
    EXPECT_FALSE(words.nextStep.isEmpty());
    const ReportTable evidence = jobEvidenceTable(s);
    EXPECT_EQ(evidence.columns, QStringList({QStringLiteral("rank"), QStringLiteral("start_ns"),
                                             QStringLiteral("end_ns"), QStringLiteral("wait_ns")}));
    ASSERT_EQ(evidence.rows.size(), collectives);
    EXPECT_EQ(evidence.rows[0][0].text, QStringLiteral("2"));
    EXPECT_EQ(evidence.rows[0][3].text, QString::number(3 * kDelay));
}

TEST(JobFindings, NoStragglerNoFinding) {
    kinetosynth::KinetoJobOptions o;
    o.ranks = 3;
    o.events = 3'000;
    const auto w = writeAndOpen(o);
    const JobAnalysis a = analyseJob(w->job, Alignment{});
    ASSERT_FALSE(a.match.matched.empty());
    const Findings f = jobFindings(w->job, a);
    EXPECT_TRUE(f.findings.empty());
    EXPECT_TRUE(f.skipped.empty());
}

TEST(JobFindings, WithoutMatchedCollectivesTheRuleIsSkipped) {
    Job job;
    job.ranks.resize(2);
    job.ranks[1].rank = 1;
    const JobAnalysis a = analyseJob(job, Alignment{});
    const Findings f = jobFindings(job, a);
    EXPECT_TRUE(f.findings.empty());
    ASSERT_EQ(f.skipped.size(), 1u);
    EXPECT_EQ(f.skipped[0].rule, FindingRule::Straggler);
    EXPECT_EQ(f.skipped[0].missing, MissingData::Communication);
    EXPECT_EQ(jobSkippedRuleText(f.skipped[0]),
              QStringLiteral("straggler needs collectives matched across the ranks, which this "
                             "job does not have."));
}

TEST(JobHeadline, SlowestAndFastestMeanStepAndExposedCommunication) {
    // Made-up ranks: the means and sums worked out by hand.
    Job job;
    job.ranks.resize(3);
    const TimeNs durations[3][2] = {{10, 20}, {40, 50}, {5, 5}}; // means 15, 45, 5
    for (std::uint32_t r = 0; r < 3; ++r) {
        RankSummary& s = job.ranks[r];
        s.rank = r;
        s.worldSize = 4;
        s.backend = QStringLiteral("nccl");
        TimeNs t = 0;
        for (std::uint64_t k = 0; k < 2; ++k) {
            s.steps.push_back({k, {t, t + durations[r][k]}, {}});
            t += durations[r][k];
        }
        s.whole.exposedCommunication = TimeNs(r == 1 ? 300 : 100);
        s.whole.span = 1000;
    }
    const JobHeadline h = jobHeadline(job);
    EXPECT_EQ(h.ranks, 3u);
    EXPECT_EQ(h.worldSize, std::optional<std::uint32_t>(4));
    EXPECT_EQ(h.slowestRank, std::optional<std::size_t>(1));
    EXPECT_EQ(h.slowestMeanStep, 45);
    EXPECT_EQ(h.fastestRank, std::optional<std::size_t>(2));
    EXPECT_EQ(h.fastestMeanStep, 5);
    EXPECT_EQ(h.exposedCommunication, 500);
    EXPECT_EQ(h.span, 3000);
    EXPECT_EQ(h.mostExposedRank, std::optional<std::size_t>(1));
    EXPECT_EQ(jobRanksText(job, h), QStringLiteral("3 of 4 ranks, world size 4 (nccl)"));
    EXPECT_EQ(slowestRankText(job, h),
              QStringLiteral("rank 1 has the slowest steps: 45 ns on average (rank 2 the fastest: "
                             "5 ns)."));
    Job alike = job;
    alike.ranks[1].steps = alike.ranks[0].steps;
    alike.ranks[2].steps = alike.ranks[0].steps;
    EXPECT_EQ(slowestRankText(alike, jobHeadline(alike)),
              QStringLiteral("Every rank's steps take 15 ns on average."));
    EXPECT_TRUE(exposedCommunicationText(job, h).contains(
        QStringLiteral("16.7 % of their GPU time; most on rank 1")))
        << exposedCommunicationText(job, h).toStdString();
}

TEST(RankHost, TensorboardTraceHandlersFileNameCarriesTheHost) {
    EXPECT_EQ(
        hostFromFileName(QStringLiteral("/x/node-a_1234.1733350000000000000.pt.trace.json.gz")),
        QStringLiteral("node-a"));
    EXPECT_EQ(hostFromFileName(QStringLiteral("gpu_host_07_99.1733350000000.pt.trace.json")),
              QStringLiteral("gpu_host_07"));
    EXPECT_EQ(hostFromFileName(QStringLiteral("rank-3.json.gz")), QString());
    EXPECT_EQ(hostFromFileName(QStringLiteral("trace_3.json")), QString());
    EXPECT_EQ(hostFromFileName(QStringLiteral("node_1.2.pt.trace.json")), QString()); // no time
}

TEST(RankHost, TheSummaryFileKeepsTheHostAndReadsFilesWithoutOne) {
    RankSummary s;
    s.file = QStringLiteral("node-a_1.1733350000000000000.pt.trace.json");
    s.rank = 3;
    const QByteArray without = rankSummaryToJson(s);
    EXPECT_FALSE(without.contains("\"host\"")); // files without a host keep their bytes
    QString error;
    const auto read = rankSummaryFromJson(without, &error);
    ASSERT_TRUE(read) << error.toStdString();
    EXPECT_TRUE(read->host.isEmpty());
    s.host = QStringLiteral("node-a");
    const QByteArray with = rankSummaryToJson(s);
    EXPECT_TRUE(with.contains("\"host\":\"node-a\""));
    const auto back = rankSummaryFromJson(with, &error);
    ASSERT_TRUE(back) << error.toStdString();
    EXPECT_EQ(*back, s);
    QByteArray wrong = with;
    wrong.replace("\"host\":\"node-a\"", "\"host\":7");
    EXPECT_FALSE(rankSummaryFromJson(wrong, &error));
    EXPECT_TRUE(error.contains(QStringLiteral("host"))) << error.toStdString();
}
