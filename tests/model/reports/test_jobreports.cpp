// SPDX-License-Identifier: MIT
// The job's streamed tables (issue 42): the collectives table (a row per call of each matched
// collective) and the steps table (a row per rank and step) are made row by row when written;
// their rows equal the answers of a made-up job computed here from its definition
// (jobtestdata.h), and, for uneven collectives and ranks without steps, a table materialised
// straight from the analysis, as jobreports made it before it streamed.
#include "model/reports/jobreports.h"
#include "tests/model/job/jobtestdata.h"

#include <QTextStream>
#include <gtest/gtest.h>

using namespace strobe;
using strobe::test::SynthJob;

namespace {

std::vector<QStringList> textRows(const ReportTable& table) {
    std::vector<QStringList> out;
    table.forEachRow([&](const std::vector<ReportCell>& row) {
        QStringList cells;
        for (const ReportCell& c : row)
            cells << c.text;
        out.push_back(cells);
    });
    return out;
}

QStringList numbers(std::initializer_list<std::int64_t> values) {
    QStringList out;
    for (const std::int64_t v : values)
        out << QString::number(v);
    return out;
}

SynthJob stragglerJob() {
    SynthJob spec;
    spec.ranks = 5;
    spec.steps = 3;
    spec.perStep = 2;
    spec.straggler = 3;
    spec.delay = 2'000'000;
    spec.skew = {0, 700, -1'300, 2'100, 50}; // clocks apart, put right by their origins
    return spec;
}

// The collectives table as jobreports built it before it streamed: every row held.
std::vector<QStringList> materialisedCollectives(const Job& job, const JobAnalysis& a) {
    std::vector<QStringList> out;
    for (std::size_t m = 0; m < a.match.matched.size(); ++m) {
        const MatchedCollective& c = a.match.matched[m];
        const CollectiveTiming& t = a.timings[m];
        for (std::size_t k = 0; k < c.calls.size(); ++k)
            out.push_back(
                QStringList{QString::number(m), c.kind} +
                numbers({job.ranks[c.calls[k].first].rank, t.gpu[k].start, t.gpu[k].end, t.wait[k],
                         t.transfer, job.ranks[c.calls[t.lastArriver].first].rank}));
    }
    return out;
}

} // namespace

TEST(JobReports, CollectivesTableHasEveryCallOfTheJobOnItsClock) {
    const SynthJob spec = stragglerJob();
    const Job job = makeJob(spec.summaries());
    const JobAnalysis a = analyseJob(job, Alignment{});
    const ReportTable table = jobCollectivesTable(job, a);
    EXPECT_EQ(table.columns.join(u','),
              QStringLiteral("index,kind,rank,start_ns,end_ns,wait_ns,transfer_ns,last_arriver"));
    EXPECT_TRUE(table.rows.empty()); // streamed
    ASSERT_EQ(table.rowCount(), std::size_t(spec.steps * spec.perStep * spec.ranks));
    // The wall clock puts every rank on the earliest origin's clock: true time minus its skew.
    const TimeNs shift = -1'300;
    std::vector<QStringList> expected;
    for (std::uint32_t k = 0; k < spec.steps; ++k) {
        for (std::uint32_t j = 0; j < spec.perStep; ++j) {
            for (std::uint32_t r = 0; r < spec.ranks; ++r)
                expected.push_back(
                    QStringList{QString::number(k * spec.perStep + j),
                                QStringLiteral("AllReduce")} +
                    numbers({r, spec.trueStart(r, k, j) - shift, spec.trueEnd(k, j) - shift,
                             r == *spec.straggler ? 0 : spec.delay, spec.transfer,
                             *spec.straggler}));
        }
    }
    EXPECT_EQ(textRows(table), expected);
}

TEST(JobReports, CollectivesOfUnevenSizeAndUnmatchedCallsStreamAsTheyWereHeld) {
    SynthJob spec = stragglerJob();
    spec.processGroup = QStringLiteral("0");
    std::vector<RankSummary> ranks = spec.summaries();
    // Ranks 1 and 4 broadcast in group "9" twice, ranks 0 and 2 all-gather in group "5" once;
    // rank 3 calls one all-reduce more than the others (unmatched).
    for (std::uint32_t r : {1u, 4u, 0u, 2u}) {
        for (int n = 0; n < (r == 1 || r == 4 ? 2 : 1); ++n) {
            RankCollective c;
            c.kind = ranks[r].kindIndex(r == 1 || r == 4 ? QStringLiteral("Broadcast")
                                                         : QStringLiteral("AllGather"));
            c.processGroup = ranks[r].processGroupIndex(r == 1 || r == 4 ? QStringLiteral("9")
                                                                         : QStringLiteral("5"));
            c.gpu = {150'000'000 + n * 1'000'000 + TimeNs(r), 150'500'000 + n * 1'000'000};
            ranks[r].collectives.push_back(c);
        }
    }
    RankCollective extra = ranks[3].collectives.front();
    extra.gpu = {390'000'000, 391'000'000};
    ranks[3].collectives.push_back(extra);
    const Job job = makeJob(std::move(ranks));
    const JobAnalysis a = analyseJob(job, Alignment{});
    ASSERT_EQ(a.match.matched.size(), spec.steps * spec.perStep + 3);
    EXPECT_EQ(a.match.unmatched.size(), 1u);
    const ReportTable table = jobCollectivesTable(job, a);
    const std::vector<QStringList> held = materialisedCollectives(job, a);
    ASSERT_EQ(held.size(), std::size_t(spec.steps * spec.perStep * spec.ranks + 2 * 3));
    EXPECT_EQ(textRows(table), held);
    // Rows made out of order are the same rows.
    std::vector<ReportCell> row;
    for (std::size_t i : {held.size() - 1, std::size_t(0), held.size() / 2}) {
        row.clear();
        table.fillRow(i, row);
        QStringList cells;
        for (const ReportCell& c : row)
            cells << c.text;
        EXPECT_EQ(cells, held[i]) << i;
    }
}

TEST(JobReports, StepsTableHasEveryRankAndStepWithItsWait) {
    const SynthJob spec = stragglerJob();
    std::vector<RankSummary> summaries = spec.summaries();
    summaries[2].steps.clear(); // a rank without steps has no rows, and the rows go on after it
    for (RankStep& s : summaries[4].steps)
        s.breakdown = {11, 7, 3, 2, 5, 100};
    const Job job = makeJob(std::move(summaries));
    const JobAnalysis a = analyseJob(job, Alignment{});
    const ReportTable table = jobStepsTable(job, a);
    EXPECT_TRUE(table.rows.empty()); // streamed
    const TimeNs shift = -1'300;
    std::vector<QStringList> expected;
    for (std::uint32_t r = 0; r < spec.ranks; ++r) {
        if (r == 2)
            continue;
        for (std::uint32_t k = 0; k < spec.steps; ++k) {
            const bool four = r == 4;
            expected.push_back(numbers({r, std::int64_t(SynthJob::kFirstStep + k),
                                        TimeNs(k) * SynthJob::kStep - shift,
                                        TimeNs(k + 1) * SynthJob::kStep - shift, four ? 11 : 0,
                                        four ? 7 : 0, four ? 3 : 0, four ? 2 : 0, four ? 5 : 0,
                                        r == *spec.straggler ? 0 : spec.perStep * spec.delay}));
        }
    }
    EXPECT_EQ(table.rowCount(), expected.size());
    EXPECT_EQ(textRows(table), expected);
}

TEST(JobReports, StreamedTablesWriteAsCsv) {
    const SynthJob spec = stragglerJob();
    const Job job = makeJob(spec.summaries());
    const JobAnalysis a = analyseJob(job, Alignment{});
    QString csv;
    QTextStream out(&csv);
    writeCsv(out, jobCollectivesTable(job, a));
    out.flush();
    const QStringList lines = csv.split(QStringLiteral("\r\n"), Qt::SkipEmptyParts);
    ASSERT_EQ(lines.size(), qsizetype(1 + spec.steps * spec.perStep * spec.ranks));
    EXPECT_EQ(lines[0],
              QStringLiteral("index,kind,rank,start_ns,end_ns,wait_ns,transfer_ns,last_arriver"));
    // Call of rank 3 (the straggler) in collective 0: it waits for no one.
    EXPECT_EQ(lines[4], QStringLiteral("0,AllReduce,3,%1,%2,0,%3,3")
                            .arg(spec.trueStart(3, 0, 0) + 1'300)
                            .arg(spec.trueEnd(0, 0) + 1'300)
                            .arg(spec.transfer));
}
