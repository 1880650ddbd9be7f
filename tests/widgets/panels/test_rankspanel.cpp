// SPDX-License-Identifier: MIT
// The Ranks panel on made-up rank summaries with known answers (tests/model/job/jobtestdata.h):
// the ranks table is jobreports' table, the slowest rank per step and the per-kind sums equal
// the synthetic job's answers, and the alignment controls ask for a new analysis once.
#include "model/itemmodels/reporttablemodel.h"
#include "model/reports/jobreports.h"
#include "tests/model/job/jobtestdata.h"
#include "widgets/panels/rankspanel.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QHeaderView>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <gtest/gtest.h>

using namespace strobe;

namespace {

test::SynthJob stragglerJob() {
    test::SynthJob s;
    s.ranks = 8;
    s.steps = 4;
    s.perStep = 3;
    s.straggler = 5;
    s.delay = 2'000'000;
    return s;
}

QString cell(const ReportTable& t, std::size_t row, const QString& column) {
    return t.rows.at(row).at(std::size_t(t.columns.indexOf(column))).text;
}

} // namespace

TEST(RanksPanel, ShowsTheJobsTablesAndVerdict) {
    const test::SynthJob synth = stragglerJob();
    auto job = std::make_shared<const Job>(makeJob(synth.summaries()));
    auto analysis = std::make_shared<const JobAnalysis>(analyseJob(*job, Alignment{}));
    RanksPanel panel;
    QAbstractItemModelTester tester(panel.ranksModel());
    panel.setJob(job, analysis);

    EXPECT_EQ(panel.verdict(), stragglerVerdict(*job, *analysis) % u'.');
    EXPECT_TRUE(panel.verdict().startsWith(QStringLiteral("rank 5 starts")));
    // The ranks rows are jobreports' rows, cell for cell.
    const ReportTable expected = jobRanksTable(*job, *analysis);
    const ReportTable& shown = panel.ranksModel()->table();
    EXPECT_EQ(shown.columns, expected.columns);
    ASSERT_EQ(shown.rows.size(), 8u);
    for (std::size_t r = 0; r < 8; ++r)
        for (std::size_t c = 0; c < std::size_t(expected.columns.size()); ++c)
            EXPECT_EQ(shown.rows[r][c].text, expected.rows[r][c].text);
    EXPECT_EQ(panel.ranksModel()->rowCount(), 8);
    // Independently: every rank but 5 waits the delay at each of the 12 collectives.
    for (std::size_t r = 0; r < 8; ++r)
        EXPECT_EQ(cell(shown, r, QStringLiteral("collective_wait_ns")),
                  QString::number(r == 5 ? 0 : 12 * synth.delay));

    // Per step: rank 5, causing 7 ranks x 3 collectives x 2 ms.
    const ReportTable& steps = panel.stepsModel()->table();
    ASSERT_EQ(steps.rows.size(), 4u);
    for (std::size_t k = 0; k < 4; ++k) {
        EXPECT_EQ(cell(steps, k, QStringLiteral("step")),
                  QString::number(test::SynthJob::kFirstStep + k));
        EXPECT_EQ(cell(steps, k, QStringLiteral("slowest_rank")), QStringLiteral("5"));
        EXPECT_EQ(cell(steps, k, QStringLiteral("wait_caused_ns")),
                  QString::number(7 * 3 * synth.delay));
    }
    // Per kind: 12 all-reduces of 4096 bytes on 8 ranks.
    const ReportTable& kinds = panel.kindsModel()->table();
    ASSERT_EQ(kinds.rows.size(), 1u);
    EXPECT_EQ(cell(kinds, 0, QStringLiteral("kind")), QStringLiteral("AllReduce"));
    EXPECT_EQ(cell(kinds, 0, QStringLiteral("instances")), QStringLiteral("12"));
    EXPECT_EQ(cell(kinds, 0, QStringLiteral("total_bytes")), QString::number(12 * 8 * 4096));
    EXPECT_EQ(cell(kinds, 0, QStringLiteral("wait_ns")), QString::number(12 * 7 * synth.delay));
    EXPECT_EQ(cell(kinds, 0, QStringLiteral("transfer_ns")),
              QString::number(12 * 8 * synth.transfer));
    EXPECT_EQ(panel.stragglersModel()->table().rows.size(), 8u);
}

TEST(RanksPanel, AlignmentControlsAskOnceAndTheOffsetsFollow) {
    test::SynthJob synth = stragglerJob();
    synth.skew = {0, 1'000, 2'000, 3'000, 4'000, 5'000, 6'000, 7'000};
    synth.origins = false; // no recorded origin: the wall clock leaves every offset 0
    auto job = std::make_shared<const Job>(makeJob(synth.summaries()));
    RanksPanel panel;
    panel.setJob(job, std::make_shared<const JobAnalysis>(analyseJob(*job, Alignment{})));
    QSignalSpy asked(&panel, &RanksPanel::alignmentChanged);
    Alignment step;
    step.kind = Alignment::Kind::Step;
    step.step = test::SynthJob::kFirstStep + 1;
    panel.setAlignment(step);
    ASSERT_EQ(asked.count(), 1);
    const auto a = asked.at(0).at(0).value<Alignment>();
    EXPECT_EQ(a.kind, Alignment::Kind::Step);
    EXPECT_EQ(a.step, test::SynthJob::kFirstStep + 1);
    panel.setAlignment(step); // the same again: nothing new to compute
    EXPECT_EQ(asked.count(), 1);
    // Rank r's clock reads r µs early: aligning on a step gives it offset +r µs.
    panel.setJob(job, std::make_shared<const JobAnalysis>(analyseJob(*job, a)));
    const ReportTable& ranks = panel.ranksModel()->table();
    for (std::size_t r = 0; r < 8; ++r)
        EXPECT_EQ(cell(ranks, r, QStringLiteral("offset_ns")), QString::number(r * 1'000));
}

TEST(RanksPanel, ListsTheJobsWarnings) {
    test::SynthJob synth;
    auto job = std::make_shared<const Job>(
        makeJob(synth.summaries(), {QStringLiteral("/x/rank-7.json cannot be read.")}));
    RanksPanel panel;
    panel.setJob(job, std::make_shared<const JobAnalysis>(analyseJob(*job, Alignment{})));
    EXPECT_TRUE(panel.warningsText().contains(QStringLiteral("/x/rank-7.json cannot be read.")));
}

TEST(RanksPanel, AJobAfterNoneFillsTheTablesAgain) {
    const test::SynthJob synth = stragglerJob();
    auto job = std::make_shared<const Job>(makeJob(synth.summaries()));
    auto analysis = std::make_shared<const JobAnalysis>(analyseJob(*job, Alignment{}));
    RanksPanel panel;
    panel.resize(800, 400);
    panel.show();
    panel.setJob(job, analysis);
    panel.setJob(nullptr, nullptr);
    EXPECT_TRUE(panel.verdict().isEmpty());
    panel.hide(); // as the main window's dock between two jobs
    panel.setJob(job, analysis);
    panel.show();
    QCoreApplication::processEvents();
    for (int tab = 0; tab < panel.tabs()->count(); ++tab) {
        auto* view = qobject_cast<QTableView*>(panel.tabs()->widget(tab));
        ASSERT_NE(view, nullptr);
        EXPECT_EQ(view->model()->rowCount(), tab == 1 ? 4 : tab == 2 ? 1 : 8) << tab;
        EXPECT_FALSE(view->isRowHidden(0)) << tab;
        EXPECT_GT(view->horizontalHeader()->length(), 0) << tab;
    }
}

TEST(RanksPanel, OffsetsSetByHandStartFromTheShownOnesAndAskForAnAnalysis) {
    test::SynthJob synth = stragglerJob();
    synth.origins = false; // the wall clock gives every rank 0
    auto job = std::make_shared<const Job>(makeJob(synth.summaries()));
    RanksPanel panel;
    panel.setJob(job, std::make_shared<const JobAnalysis>(analyseJob(*job, Alignment{})));
    EXPECT_EQ(panel.manualOffsets(), std::nullopt);
    QSignalSpy edited(&panel, &RanksPanel::offsetsEdited);
    QSignalSpy aligned(&panel, &RanksPanel::alignmentChanged);
    auto* combo = panel.findChild<QComboBox*>(QStringLiteral("alignment"));
    ASSERT_NE(combo, nullptr);
    combo->setCurrentIndex(3); // offsets set by hand
    EXPECT_EQ(edited.count(), 1);
    EXPECT_EQ(panel.manualOffsets(), std::vector<TimeNs>(8, 0));
    EXPECT_TRUE(panel.setManualOffset(5, QStringLiteral("-1.5 ms")));
    EXPECT_EQ(edited.count(), 2);
    std::vector<TimeNs> expected(8, 0);
    expected[5] = -1'500'000;
    EXPECT_EQ(panel.manualOffsets(), expected);
    EXPECT_FALSE(panel.setManualOffset(5, QStringLiteral("soon")));
    EXPECT_FALSE(panel.setManualOffset(8, QStringLiteral("1 ms")));
    EXPECT_EQ(edited.count(), 2);
    EXPECT_EQ(panel.manualOffsets(), expected);
    // Back to the wall clock: an alignment is asked for again, though it was the last one.
    combo->setCurrentIndex(0);
    EXPECT_EQ(aligned.count(), 1);
    EXPECT_EQ(panel.manualOffsets(), std::nullopt);
}
