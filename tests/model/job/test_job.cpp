// SPDX-License-Identifier: MIT
// Jobs of made-up ranks with known answers (jobtestdata.h): the straggler and each rank's wait
// to the nanosecond, the offsets each alignment gives, and the warnings of bad jobs.
#include "model/job/job.h"
#include "model/job/jobopen.h"
#include "model/job/summaryjson.h"
#include "tests/model/job/jobtestdata.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <gtest/gtest.h>
#include <map>

using namespace strobe;
using strobe::test::SynthJob;

namespace {

struct Analysed {
    Job job;
    CollectiveMatch match;
    std::vector<TimeNs> offsets;
    std::vector<CollectiveTiming> timings;
};

Analysed analyse(const SynthJob& spec, Alignment alignment = {}) {
    Analysed a{makeJob(spec.summaries()), {}, {}, {}};
    a.match = matchCollectives(a.job);
    QStringList notes;
    a.offsets = alignmentOffsets(a.job, a.match, alignment, &notes);
    EXPECT_TRUE(notes.isEmpty()) << notes.join(u' ').toStdString();
    a.timings = timeCollectives(a.job, a.match, a.offsets);
    return a;
}

class Straggler : public ::testing::TestWithParam<std::uint32_t> {};

} // namespace

TEST_P(Straggler, IsNamedAndEveryOtherRankWaitsExactlyTheDelay) {
    SynthJob spec;
    spec.ranks = GetParam();
    spec.straggler = spec.ranks / 2 + 1 < spec.ranks ? spec.ranks / 2 + 1 : 1;
    spec.delay = 3'456'789;
    for (std::uint32_t r = 0; r < spec.ranks; ++r) // clocks apart, put right by the origins
        spec.skew.push_back(TimeNs(r) * 1'234'567 - 5'000'000);
    const Analysed a = analyse(spec);
    EXPECT_TRUE(a.job.warnings.isEmpty()) << a.job.warnings.join(u' ').toStdString();
    ASSERT_EQ(a.match.matched.size(), spec.steps * spec.perStep);
    EXPECT_TRUE(a.match.unmatched.empty());
    for (std::size_t m = 0; m < a.match.matched.size(); ++m) {
        const CollectiveTiming& t = a.timings[m];
        ASSERT_EQ(a.match.matched[m].calls.size(), spec.ranks);
        EXPECT_EQ(a.match.matched[m].calls[t.lastArriver].first, *spec.straggler);
        EXPECT_EQ(t.transfer, spec.transfer);
        EXPECT_EQ(t.step, SynthJob::kFirstStep + m / spec.perStep);
        for (std::size_t k = 0; k < t.wait.size(); ++k)
            EXPECT_EQ(t.wait[k], k == *spec.straggler ? 0 : spec.delay) << "rank " << k;
    }
    const std::vector<RankWaits> waits = rankWaits(a.job, a.match, a.timings);
    for (std::uint32_t r = 0; r < spec.ranks; ++r) {
        const TimeNs perStep = r == *spec.straggler ? 0 : spec.delay * spec.perStep;
        EXPECT_EQ(waits[r].total, perStep * spec.steps);
        ASSERT_EQ(waits[r].perStep.size(), spec.steps);
        EXPECT_EQ(waits[r].perStep[1], std::make_pair(SynthJob::kFirstStep + 1, perStep));
    }
    const Stragglers s = findStragglers(a.job, a.match, a.timings);
    EXPECT_EQ(s.rank, spec.straggler);
    ASSERT_EQ(s.rows.size(), spec.ranks);
    EXPECT_EQ(s.rows.front().rank, *spec.straggler);
    EXPECT_EQ(s.rows.front().lateSteps, spec.steps);
    EXPECT_EQ(s.rows.front().steps, spec.steps);
    EXPECT_EQ(s.rows.front().waitCaused,
              TimeNs(spec.ranks - 1) * spec.delay * spec.steps * spec.perStep);
    for (std::size_t i = 1; i < s.rows.size(); ++i) {
        EXPECT_EQ(s.rows[i].lateSteps, 0u);
        EXPECT_EQ(s.rows[i].waitCaused, 0);
    }
}

TEST_P(Straggler, NoneInjectedNoneNamed) {
    SynthJob spec;
    spec.ranks = GetParam();
    const Analysed a = analyse(spec);
    const Stragglers s = findStragglers(a.job, a.match, a.timings);
    EXPECT_FALSE(s.rank.has_value());
    for (const StragglerRow& row : s.rows) {
        EXPECT_EQ(row.lateSteps, 0u);
        EXPECT_EQ(row.waitCaused, 0);
    }
    for (const CollectiveTiming& t : a.timings) {
        for (TimeNs w : t.wait)
            EXPECT_EQ(w, 0);
    }
}

INSTANTIATE_TEST_SUITE_P(Ranks, Straggler, ::testing::Values(2u, 8u, 64u));

TEST(JobAlignment, EachAlignmentGivesTheOffsetsPutIn) {
    SynthJob spec;
    spec.ranks = 8;
    spec.straggler = 3;
    spec.delay = 2'000'000;
    for (std::uint32_t r = 0; r < spec.ranks; ++r)
        spec.skew.push_back(TimeNs(r) * 7'777'777 - TimeNs(r % 3) * 20'000'000);
    std::vector<TimeNs> fromRank0;
    TimeNs lowest = spec.skew[0];
    for (TimeNs s : spec.skew)
        lowest = std::min(lowest, s);
    std::vector<TimeNs> fromLowest;
    for (TimeNs s : spec.skew) {
        fromRank0.push_back(s - spec.skew[0]);
        fromLowest.push_back(s - lowest);
    }
    // Wall: the recorded origins.
    EXPECT_EQ(analyse(spec).offsets, fromLowest);
    // Without origins, the wall clock leaves the ranks as recorded; a step or the first
    // collective puts them right, relative to rank 0.
    spec.origins = false;
    EXPECT_EQ(analyse(spec).offsets, std::vector<TimeNs>(spec.ranks, 0));
    EXPECT_EQ(analyse(spec, *parseAlignment(u"step:12")).offsets, fromRank0);
    const Analysed c = analyse(spec, *parseAlignment(u"collective"));
    EXPECT_EQ(c.offsets, fromRank0);
    for (std::size_t k = 0; k < spec.ranks; ++k) // aligned, the waits are the delay again
        EXPECT_EQ(c.timings[5].wait[k], k == 3 ? 0 : spec.delay);
}

TEST(JobAlignment, ParsesItsThreeForms) {
    EXPECT_EQ(parseAlignment(u"wall")->kind, Alignment::Kind::Wall);
    EXPECT_EQ(parseAlignment(u"collective")->kind, Alignment::Kind::Collective);
    EXPECT_EQ(parseAlignment(u"step:552")->step, 552u);
    for (const char16_t* bad : {u"step:", u"step:-1", u"step:+3", u"step:x", u"Wall", u""})
        EXPECT_FALSE(parseAlignment(bad).has_value());
}

TEST(JobAlignment, ARankWithoutTheStepKeepsItsWallOffsetAndIsNamed) {
    SynthJob spec;
    spec.ranks = 3;
    std::vector<RankSummary> ranks = spec.summaries();
    ranks[2].steps.erase(ranks[2].steps.begin());
    ranks[2].clockOriginNs = *ranks[2].clockOriginNs + 500;
    const Job job = makeJob(std::move(ranks));
    QStringList notes;
    const auto offsets =
        alignmentOffsets(job, matchCollectives(job), {Alignment::Kind::Step, 10}, &notes);
    EXPECT_EQ(offsets, (std::vector<TimeNs>{0, 0, 500}));
    EXPECT_EQ(notes, QStringList{QStringLiteral(
                         "Rank 2 has no ProfilerStep#10: aligned on the wall clock instead.")});
}

TEST(JobMatching, ProcessGroupsMatchByKindAndOrder) {
    SynthJob spec;
    spec.ranks = 4;
    spec.processGroup = QStringLiteral("0");
    std::vector<RankSummary> ranks = spec.summaries();
    // A second group of ranks 1 and 2 with a broadcast: matched among them, not the others.
    for (std::uint32_t r : {1u, 2u}) {
        RankCollective c;
        c.kind = ranks[r].kindIndex(QStringLiteral("Broadcast"));
        c.processGroup = ranks[r].processGroupIndex(QStringLiteral("7"));
        c.gpu = {50'000'000, 50'100'000 + TimeNs(r)};
        ranks[r].collectives.push_back(c);
    }
    const Job job = makeJob(std::move(ranks));
    const CollectiveMatch m = matchCollectives(job);
    EXPECT_TRUE(m.unmatched.empty());
    ASSERT_EQ(m.matched.size(), spec.steps * spec.perStep + 1);
    const auto broadcast =
        std::find_if(m.matched.begin(), m.matched.end(), [](const MatchedCollective& c) {
            return c.kind == QLatin1String("Broadcast");
        });
    ASSERT_NE(broadcast, m.matched.end());
    EXPECT_EQ(broadcast->processGroup, QStringLiteral("7"));
    ASSERT_EQ(broadcast->calls.size(), 2u);
    EXPECT_EQ(broadcast->calls[0].first, 1u);
    EXPECT_EQ(broadcast->calls[1].first, 2u);
}

TEST(JobMatching, CallsWithoutAPartnerAreCountedNeverGuessed) {
    SynthJob spec;
    spec.ranks = 3;
    std::vector<RankSummary> ranks = spec.summaries();
    RankCollective extra = ranks[1].collectives.back();
    extra.gpu = {extra.gpu.end + 10, extra.gpu.end + 20};
    ranks[1].collectives.push_back(extra); // one AllReduce more on rank 1
    RankCollective lone;
    lone.gpu = {5, 10};
    for (const std::size_t r : {0u, 1u}) { // a kind rank 2 never calls: no group recorded
        lone.kind = ranks[r].kindIndex(QStringLiteral("AllGather"));
        ranks[r].collectives.push_back(lone);
    }
    const Job job = makeJob(std::move(ranks));
    const CollectiveMatch m = matchCollectives(job);
    EXPECT_EQ(m.matched.size(), spec.steps * spec.perStep);
    const std::uint32_t n = spec.steps * spec.perStep;
    EXPECT_EQ(m.unmatched,
              (std::vector<std::pair<std::uint32_t, std::uint32_t>>{{0, n}, {1, n}, {1, n + 1}}));
}

TEST(JobWarnings, DuplicateRanksKeepTheFirstAndNameBoth) {
    SynthJob spec;
    spec.ranks = 3;
    std::vector<RankSummary> ranks = spec.summaries();
    ranks[2].rank = 1;
    ranks[2].file = QStringLiteral("/x/copy-of-rank-1.json.gz");
    const Job job = makeJob(std::move(ranks));
    ASSERT_EQ(job.ranks.size(), 2u);
    EXPECT_EQ(job.ranks[1].file, QStringLiteral("rank-1.pt.trace.json.gz"));
    EXPECT_EQ(job.warnings,
              (QStringList{QStringLiteral("rank-1.pt.trace.json.gz and copy-of-rank-1.json.gz "
                                          "both claim rank 1; copy-of-rank-1.json.gz is left out."),
                           QStringLiteral("1 of 3 ranks are missing: 2.")}));
}

TEST(JobWarnings, WorldSizesThatDisagreeMissingRanksAndMixedFormats) {
    SynthJob spec;
    spec.ranks = 3;
    std::vector<RankSummary> ranks = spec.summaries();
    ranks[1].worldSize = 6;
    ranks[2].format = QStringLiteral("nsys-sqlite");
    const Job job = makeJob(std::move(ranks));
    EXPECT_EQ(job.warnings,
              (QStringList{QStringLiteral("The ranks disagree on the world size: 3 (rank 0, 2), 6 "
                                          "(rank 1)."),
                           QStringLiteral("3 of 6 ranks are missing: 3, 4, 5."),
                           QStringLiteral("The job mixes trace formats (kineto-json, "
                                          "nsys-sqlite): its ranks may come from different "
                                          "runs.")}));
}

TEST(JobWarnings, AHugeWorldSizeIsCountedNotWalked) {
    SynthJob spec;
    spec.ranks = 2;
    std::vector<RankSummary> ranks = spec.summaries();
    for (RankSummary& r : ranks)
        r.worldSize = 0xFFFFFFFF;
    const Job job = makeJob(std::move(ranks));
    EXPECT_EQ(job.warnings,
              QStringList{QStringLiteral("4294967293 of 4294967295 ranks are missing: 2, 3, 4, 5, "
                                         "6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17 and "
                                         "4294967277 more.")});
}

TEST(JobWarnings, ExtremeTimesSaturateInsteadOfOverflowing) {
    SynthJob spec;
    spec.ranks = 2;
    spec.steps = 1;
    spec.perStep = 1;
    std::vector<RankSummary> ranks = spec.summaries();
    ranks[0].collectives[0].gpu = {kMinTime, kMinTime + 1};
    ranks[1].collectives[0].gpu = {kMaxTime - 1, kMaxTime};
    ranks[0].clockOriginNs = std::numeric_limits<std::int64_t>::min();
    ranks[1].clockOriginNs = std::numeric_limits<std::int64_t>::max();
    const Job job = makeJob(std::move(ranks));
    const CollectiveMatch m = matchCollectives(job);
    const auto offsets = alignmentOffsets(job, m, {}, nullptr);
    EXPECT_EQ(offsets[1], kMaxTime); // the origins' difference, clamped to the time range
    const auto timings = timeCollectives(job, m, offsets);
    ASSERT_EQ(timings.size(), 1u);
    EXPECT_EQ(timings[0].wait[0], std::numeric_limits<TimeNs>::max());
    const Stragglers s = findStragglers(job, m, timings);
    EXPECT_EQ(s.rows.front().waitCaused, std::numeric_limits<TimeNs>::max());
}

TEST(JobWarnings, ARankFromAnotherRunIsNamed) {
    SynthJob spec;
    spec.ranks = 3;
    std::vector<RankSummary> ranks = spec.summaries();
    ranks[2].clockOriginNs = *ranks[2].clockOriginNs + 3'600'000'000'000; // an hour later
    const Job job = makeJob(std::move(ranks));
    EXPECT_EQ(job.warnings, QStringList{QStringLiteral(
                                "Rank 2 (rank-2.pt.trace.json.gz) overlaps no other rank in "
                                "time: it may belong to another job.")});
}

TEST(JobOpen, ATraceThatFailsIsNamedAndTheOthersOpen) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    SynthJob spec;
    spec.ranks = 3;
    QStringList paths;
    QString error;
    for (const RankSummary& s : spec.summaries()) {
        if (s.rank == 1) {
            paths << dir.filePath(QStringLiteral("rank-1.pt.trace.json.gz"));
            continue;
        }
        paths << dir.filePath(QStringLiteral("rank-%1.summary.json").arg(s.rank));
        ASSERT_TRUE(writeRankSummaryFile(paths.back(), s, &error)) << error.toStdString();
    }
    const TraceLoader failing = [](const QString& path, QString* why) {
        *why = QFileInfo(path).fileName() + QStringLiteral(" is truncated.");
        return std::unique_ptr<Trace>();
    };
    const Job job = openJob(paths, failing, KernelClassTable::defaults(), 4);
    ASSERT_EQ(job.ranks.size(), 2u);
    EXPECT_EQ(job.ranks[0].rank, 0u);
    EXPECT_EQ(job.ranks[1].rank, 2u);
    EXPECT_EQ(job.ranks[1], spec.summaries()[2]);
    EXPECT_EQ(job.warnings, (QStringList{QStringLiteral("rank-1.pt.trace.json.gz is truncated."),
                                         QStringLiteral("1 of 3 ranks are missing: 1.")}));
}

TEST(JobOpen, AFolderIsReadByContentAndASummaryStandsInForItsTrace) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const auto write = [&](const char* name, const QByteArray& bytes) {
        QFile f(dir.filePath(QString::fromLatin1(name)));
        ASSERT_TRUE(f.open(QIODevice::WriteOnly));
        f.write(bytes);
    };
    write("worker0.1623143089861.pt.trace.json.gz", QByteArray("\x1f\x8b\x08\x00", 4));
    write("report_1", QByteArray("SQLite format 3\0", 16));
    write("plain.json", "  \n{\"traceEvents\": []}");
    write("notes.txt", "rank 0 ran on node 3");
    write("x.sqlite", QByteArray("SQLite format 3\0", 16));
    write("x.sqlite.summary.json", "{}");
    write(".hidden.json", "{}");
    EXPECT_EQ(findJobFiles(dir.path()),
              (QStringList{dir.filePath(QStringLiteral("plain.json")),
                           dir.filePath(QStringLiteral("report_1")),
                           dir.filePath(QStringLiteral("worker0.1623143089861.pt.trace.json.gz")),
                           dir.filePath(QStringLiteral("x.sqlite.summary.json"))}));
}

namespace {

// matchCollectives as it was first written (a map from the names' key to each rank's calls):
// the oracle of the bucketed matching.
CollectiveMatch matchByNames(const Job& job) {
    using Key = std::tuple<QString, std::uint32_t, QString>;
    std::map<Key, std::map<std::uint32_t, std::vector<std::uint32_t>>> calls;
    for (std::uint32_t r = 0; r < job.ranks.size(); ++r) {
        const RankSummary& s = job.ranks[r];
        for (std::uint32_t i = 0; i < s.collectives.size(); ++i) {
            const RankCollective& c = s.collectives[i];
            const std::optional<QString> group = s.processGroupOf(c);
            calls[group ? Key{*group, 0, s.kindOf(c)}
                        : Key{QString(), c.streamOrdinal, s.kindOf(c)}][r]
                .push_back(i);
        }
    }
    CollectiveMatch out;
    for (const auto& [key, perRank] : calls) {
        const bool everyRank = std::get<0>(key).isEmpty();
        std::size_t common = std::numeric_limits<std::size_t>::max();
        for (const auto& [r, list] : perRank)
            common = std::min(common, list.size());
        if (perRank.size() < 2 || (everyRank && perRank.size() < job.ranks.size()))
            common = 0;
        for (std::size_t k = 0; k < common; ++k) {
            MatchedCollective m;
            m.kind = std::get<2>(key);
            if (!everyRank)
                m.processGroup = std::get<0>(key);
            for (const auto& [r, list] : perRank)
                m.calls.emplace_back(r, list[k]);
            out.matched.push_back(std::move(m));
        }
        for (const auto& [r, list] : perRank) {
            for (std::size_t k = common; k < list.size(); ++k)
                out.unmatched.emplace_back(r, list[k]);
        }
    }
    std::vector<TimeNs> wall;
    std::optional<std::int64_t> earliest;
    for (const RankSummary& r : job.ranks)
        earliest = std::min(earliest.value_or(*r.clockOriginNs), *r.clockOriginNs);
    for (const RankSummary& r : job.ranks)
        wall.push_back(*r.clockOriginNs - *earliest);
    std::stable_sort(out.matched.begin(), out.matched.end(), [&](const auto& a, const auto& b) {
        const auto start = [&](const MatchedCollective& m) {
            const auto [r, i] = m.calls.front();
            return job.ranks[r].collectives[i].gpu.start + wall[r];
        };
        return start(a) < start(b);
    });
    std::sort(out.unmatched.begin(), out.unmatched.end());
    return out;
}

} // namespace

// Ranks that name their kinds and groups in different orders, on several streams, some calls
// with a group and some without, collectives that start together, ranks missing calls: the
// bucketed matching gives exactly what matching by the names gives.
TEST(JobMatching, BucketedMatchingEqualsMatchingByNames) {
    const QStringList kinds{QStringLiteral("AllReduce"), QStringLiteral("Broadcast"),
                            QStringLiteral("AllGather")};
    const QStringList groups{QStringLiteral("0"), QStringLiteral("1"), QStringLiteral("tp")};
    std::uint32_t seed = 12345;
    const auto next = [&](std::uint32_t n) {
        seed = seed * 1'103'515'245u + 12'345u;
        return (seed >> 16) % n;
    };
    for (int round = 0; round < 20; ++round) {
        SynthJob spec;
        spec.ranks = 2 + next(6);
        std::vector<RankSummary> ranks = spec.summaries();
        for (RankSummary& s : ranks) {
            s.collectives.clear();
            s.collectiveKinds.clear();
            // This rank's own order of the names.
            for (std::uint32_t k = 0; k < 3; ++k)
                s.kindIndex(kinds[qsizetype((k + s.rank) % 3)]);
            const std::uint32_t calls = 20 + next(10);
            for (std::uint32_t i = 0; i < calls; ++i) {
                RankCollective c;
                c.kind = s.kindIndex(kinds[qsizetype(next(3))]);
                if (next(3) == 0)
                    c.processGroup = s.processGroupIndex(groups[qsizetype(next(3))]);
                c.streamOrdinal = next(2);
                c.order = i;
                const TimeNs start = TimeNs(next(8)) * 1'000; // many equal starts
                c.gpu = {start, start + 500};
                s.collectives.push_back(c);
            }
        }
        const Job job = makeJob(std::move(ranks));
        const CollectiveMatch got = matchCollectives(job), want = matchByNames(job);
        ASSERT_EQ(got.matched.size(), want.matched.size()) << round;
        for (std::size_t m = 0; m < got.matched.size(); ++m) {
            EXPECT_EQ(got.matched[m].kind, want.matched[m].kind) << round << ' ' << m;
            EXPECT_EQ(got.matched[m].processGroup, want.matched[m].processGroup) << round;
            EXPECT_EQ(got.matched[m].calls, want.matched[m].calls) << round << ' ' << m;
        }
        EXPECT_EQ(got.unmatched, want.unmatched) << round;
        EXPECT_FALSE(want.matched.empty()) << round;
    }
}
