// SPDX-License-Identifier: MIT
// Opening a distributed job in the main window: an 8-rank synthetic job with a straggler
// (docs/SYNTH.md's known answers) shows 8 rank groups, the verdict naming the straggler, the
// Ranks panel, and a collective's 8 peers; a job with an unreadable file opens the rest.
#include "app/gui/appsettings.h"
#include "app/gui/mainwindow.h"
#include "formats/kineto/synth/kinetosynth.h"
#include "model/itemmodels/findingtablemodel.h"
#include "model/itemmodels/reporttablemodel.h"
#include "model/reports/jobreports.h"
#include "widgets/panels/findingspanel.h"
#include "widgets/panels/overviewpanel.h"
#include "widgets/panels/rankspanel.h"
#include "widgets/timeline/jobview.h"
#include "widgets/timeline/timelineview.h"
#include "widgets/viewstate.h"

#include <QComboBox>
#include <QDockWidget>
#include <QFile>
#include <QHeaderView>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <gtest/gtest.h>

using namespace strobe;

namespace {

constexpr std::int64_t kDelay = 3'000'000; // 3 ms

class JobWindowTest : public ::testing::Test {
protected:
    void SetUp() override {
        kinetosynth::KinetoJobOptions o;
        o.ranks = 8;
        o.events = 20'000; // 17 steps, each with collectives (docs/SYNTH.md)
        o.straggler = 5;
        o.delayNs = kDelay;
        std::string error;
        ASSERT_TRUE(kinetosynth::writeKinetoJob(jobDir.path().toStdString(), o, &error, &stats))
            << error;
        settings = std::make_unique<AppSettings>(dir.filePath(QStringLiteral("strobe.ini")));
        window = std::make_unique<MainWindow>(settings.get());
        window->resize(1400, 1000);
        window->show();
    }
    bool open(const QStringList& paths) {
        QSignalSpy done(window.get(), &MainWindow::jobLoadFinished);
        window->openJob(paths);
        return done.wait(60000) && done.at(0).at(0).toBool();
    }
    QString rankFile(int r) const {
        return jobDir.filePath(QStringLiteral("rank-%1.json.gz").arg(r));
    }

    QTemporaryDir dir;
    QTemporaryDir jobDir;
    kinetosynth::KinetoJobStats stats;
    std::unique_ptr<AppSettings> settings;
    std::unique_ptr<MainWindow> window;
};

} // namespace

TEST_F(JobWindowTest, AFolderOpensAsEightRankGroupsWithTheStragglerNamed) {
    ASSERT_TRUE(open({jobDir.path()}));
    ASSERT_TRUE(window->isShowingJob());
    EXPECT_EQ(window->trace(), nullptr);
    JobCanvas* canvas = window->jobView()->canvas();
    ASSERT_NE(canvas->job(), nullptr);
    ASSERT_EQ(canvas->job()->ranks.size(), 8u);
    for (std::size_t r = 0; r < 8; ++r) // the synthetic rank r runs on GPU r % 8
        EXPECT_EQ(canvas->rankTitle(r), QStringLiteral("rank %1 (GPU %1)").arg(r));
    EXPECT_TRUE(window->jobView()->isVisible());
    EXPECT_TRUE(window->findChild<QDockWidget*>(QStringLiteral("ranksDock"))->isVisible());
    EXPECT_TRUE(window->windowTitle().startsWith(QStringLiteral("Job: ")));

    // Rank 5 arrives last at every collective of every step.
    const std::uint64_t steps = stats.ranks.at(5).steps;
    EXPECT_TRUE(window->jobView()->verdict().startsWith(
        QStringLiteral("rank 5 starts its collectives last in %1 of %1 steps").arg(steps)))
        << window->jobView()->verdict().toStdString();
    EXPECT_EQ(window->ranksPanel()->verdict(), window->jobView()->verdict());

    // The Ranks panel's rows are jobreports' table; each other rank waits D per collective.
    const ReportTable expected = jobRanksTable(*window->job(), *window->jobAnalysis());
    const ReportTable& shown = window->ranksPanel()->ranksModel()->table();
    ASSERT_EQ(shown.rows.size(), 8u);
    const auto waitColumn =
        std::size_t(shown.columns.indexOf(QStringLiteral("collective_wait_ns")));
    for (std::size_t r = 0; r < 8; ++r) {
        for (std::size_t c = 0; c < std::size_t(expected.columns.size()); ++c)
            EXPECT_EQ(shown.rows[r][c].text, expected.rows[r][c].text);
        const std::int64_t collectives = std::int64_t(stats.ranks.at(r).collectives);
        EXPECT_EQ(shown.rows[r][waitColumn].text,
                  QString::number(r == 5 ? 0 : collectives * kDelay));
    }

    // A collective selected on rank 0 highlights its 8 peers, one per rank.
    canvas->selectCollective(0);
    const auto peers = canvas->highlightedCalls();
    ASSERT_EQ(peers.size(), 8u);
    for (std::uint32_t r = 0; r < 8; ++r)
        EXPECT_EQ(peers[r].first, r);
    EXPECT_EQ(window->jobView()->collectiveDetails().split(u'\n').size(), 9);

    // Another alignment is analysed again, off the GUI thread, and shown.
    Alignment collective;
    collective.kind = Alignment::Kind::Collective;
    const auto before = window->jobAnalysis();
    window->ranksPanel()->setAlignment(collective);
    for (int i = 0; i < 200 && window->jobAnalysis() == before; ++i)
        QTest::qWait(25);
    EXPECT_NE(window->jobAnalysis(), before);
    EXPECT_EQ(window->jobView()->canvas()->analysis(), window->jobAnalysis().get());

    // Offsets by hand: rank 5's clock moved 3 ms earlier, it arrives with the others.
    auto* combo = window->ranksPanel()->findChild<QComboBox*>(QStringLiteral("alignment"));
    ASSERT_NE(combo, nullptr);
    const auto aligned = window->jobAnalysis();
    combo->setCurrentIndex(3);
    ASSERT_TRUE(window->ranksPanel()->setManualOffset(
        5, QStringLiteral("%1 ns").arg(window->jobAnalysis()->offsets[5] - kDelay)));
    for (int i = 0; i < 200 && (window->jobAnalysis() == aligned ||
                                window->jobAnalysis()->offsets[5] == aligned->offsets[5]);
         ++i)
        QTest::qWait(25);
    EXPECT_EQ(window->jobAnalysis()->offsets[5], aligned->offsets[5] - kDelay);
    EXPECT_EQ(window->jobView()->verdict(), QStringLiteral("no rank is consistently late."));
    for (std::size_t r = 0; r < 8; ++r)
        EXPECT_EQ(window->jobAnalysis()->waits[r].total, 0) << r;

    // A double-click on rank 2's heading loads its trace into full lanes under its rows, on
    // the job's clock: zooming either moves the other.
    emit canvas->rankActivated(2);
    for (int i = 0; i < 400 && !window->jobView()->rankTimeline(2); ++i)
        QTest::qWait(25);
    TimelineView* lanes = window->jobView()->rankTimeline(2);
    ASSERT_NE(lanes, nullptr);
    ASSERT_NE(lanes->viewState()->trace(), nullptr);
    EXPECT_EQ(canvas->extraHeight(2), JobView::kExpandedHeight);
    EXPECT_EQ(lanes->QWidget::geometry(), canvas->extraRect(2));
    EXPECT_EQ(canvas->groupRect(3).top(),
              canvas->groupRect(2).top() + JobCanvas::kGroupHeight + JobView::kExpandedHeight);
    // The same time at the same x: both axes start at x = 260 and the lanes' is narrower by
    // their scroll bar, so they show proportionally less.
    const TimeNs offset = canvas->rankOffset(2);
    const double scale = double(lanes->canvasSize().width()) / canvas->plotWidth();
    EXPECT_EQ(TimelineView::kHeaderWidth, JobCanvas::kHeaderWidth);
    EXPECT_LT(scale, 1.0);
    const TimeRange inLanes = lanes->viewState()->visibleRange();
    EXPECT_EQ(inLanes.start, canvas->view().start - offset);
    EXPECT_NEAR(double(inLanes.duration()), double(canvas->view().duration()) * scale, 1.0);
    const TimeRange zoomed{inLanes.start + 1'000'000, inLanes.start + 9'000'000};
    lanes->viewState()->setVisibleRange(zoomed);
    EXPECT_EQ(canvas->view().start, zoomed.start + offset);
    EXPECT_NEAR(double(canvas->view().duration()), 8'000'000 / scale, 1.0);
    emit canvas->rankActivated(2); // and again: collapsed
    EXPECT_EQ(window->jobView()->rankTimeline(2), nullptr);
    EXPECT_EQ(canvas->extraHeight(2), 0);

    // File > Close goes back to the empty window.
    window->closeTrace();
    EXPECT_FALSE(window->isShowingJob());
    EXPECT_FALSE(window->findChild<QDockWidget*>(QStringLiteral("ranksDock"))->isVisible());
}

TEST_F(JobWindowTest, AnUnreadableFileIsNamedAndTheOthersOpen) {
    const QString bad = jobDir.filePath(QStringLiteral("rank-3.json.gz"));
    QFile::remove(bad);
    QFile f(bad);
    ASSERT_TRUE(f.open(QIODevice::WriteOnly));
    f.write("\x1f\x8b not really gzip");
    f.close();
    QStringList files;
    for (int r = 0; r < 8; ++r)
        files << rankFile(r);
    ASSERT_TRUE(open(files));
    ASSERT_TRUE(window->isShowingJob());
    EXPECT_EQ(window->job()->ranks.size(), 7u);
    int naming = 0;
    for (const QString& w : window->job()->warnings)
        naming += w.contains(QStringLiteral("rank-3.json.gz")) ? 1 : 0;
    EXPECT_GE(naming, 1);
    EXPECT_TRUE(window->ranksPanel()->warningsText().contains(QStringLiteral("rank-3.json.gz")));
    EXPECT_TRUE(window->statusBar()->currentMessage().contains(QStringLiteral("warning")));
}

TEST_F(JobWindowTest, AFolderWithNoTraceIsAnError) {
    QTemporaryDir empty;
    QSignalSpy done(window.get(), &MainWindow::jobLoadFinished);
    window->openJob({empty.path()});
    ASSERT_EQ(done.count(), 1);
    EXPECT_FALSE(done.at(0).at(0).toBool());
    EXPECT_TRUE(done.at(0).at(1).toString().contains(QStringLiteral("holds no trace")));
    EXPECT_FALSE(window->isShowingJob());
    ASSERT_NE(window->findChild<QMessageBox*>(), nullptr); // said in a dialog, as for a trace
}

TEST_F(JobWindowTest, ASecondJobShowsItsRanksRows) {
    ASSERT_TRUE(open({rankFile(0), rankFile(1)}));
    ASSERT_TRUE(open({jobDir.path()}));
    QCoreApplication::processEvents();
    auto* view = qobject_cast<QTableView*>(window->ranksPanel()->tabs()->currentWidget());
    ASSERT_NE(view, nullptr);
    ASSERT_EQ(view->model()->rowCount(), 8);
    // The header spans the columns (a stretch column of -1 once made its length negative,
    // and the rows went undrawn).
    EXPECT_GT(view->horizontalHeader()->length(), 0);
    EXPECT_EQ(view->indexAt(QPoint(5, 5)).row(), 0);
    const QRect first = view->visualRect(view->model()->index(0, 0));
    EXPECT_TRUE(first.isValid() && view->viewport()->rect().intersects(first))
        << first.x() << "," << first.y() << " " << first.width() << "x" << first.height() << " in "
        << view->viewport()->width() << "x" << view->viewport()->height();
}

namespace {

// The menu action of `window` whose text, without its '&', is `text`.
QAction* menuAction(QWidget* window, const QString& text) {
    for (QAction* a : window->findChildren<QAction*>())
        if (QString(a->text()).remove(u'&') == text)
            return a;
    return nullptr;
}

bool waitFor(const std::function<bool()>& done, int ms = 60000) {
    for (int waited = 0; !done() && waited < ms; waited += 25)
        QTest::qWait(25);
    return done();
}

} // namespace

TEST_F(JobWindowTest, TheOverviewAndTheFindingsTabSpeakOfTheJob) {
    ASSERT_TRUE(open({rankFile(0), rankFile(1)})); // replaced by the next: its findings go
    ASSERT_TRUE(open({jobDir.path()}));
    auto* overview = window->findChild<OverviewPanel*>();
    ASSERT_NE(overview, nullptr);
    const QString text = overview->jobText();
    const std::uint64_t steps = stats.ranks.at(5).steps;
    // Ranks and world size, the verdict (as the job view's, capitalised), the headline.
    EXPECT_TRUE(text.startsWith(QStringLiteral("Job: 8 ranks, world size 8 (nccl)")))
        << text.toStdString();
    QString verdict = window->jobView()->verdict();
    verdict[0] = verdict[0].toUpper();
    EXPECT_TRUE(verdict.startsWith(
        QStringLiteral("Rank 5 starts its collectives last in %1 of %1 steps; the other ranks "
                       "wait ")
            .arg(steps)));
    EXPECT_TRUE(text.contains(u'\n' + verdict)) << text.toStdString();
    // The synthetic ranks meet at every collective, so their steps last alike.
    EXPECT_TRUE(text.contains(QStringLiteral("\nEvery rank's steps take "))) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("xposed communication"))) << text.toStdString();
    EXPECT_FALSE(text.contains(QStringLiteral("No trace loaded")));
    EXPECT_TRUE(text.contains(QStringLiteral("show the finding")));

    // The Findings tab lists the job's straggler finding: the wait rank 5 caused the others,
    // the stragglers table's wait_caused_ns, which is 7 x 3 ms x its collectives.
    FindingsPanel* findings = window->findingsPanel();
    ASSERT_NE(findings->jobFindings(), nullptr);
    ASSERT_EQ(findings->model()->rowCount(), 1);
    const Finding* f = findings->model()->findingAt(0);
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(f->rule, FindingRule::Straggler);
    const ReportTable& stragglers = window->ranksPanel()->stragglersModel()->table();
    const auto rankColumn = std::size_t(stragglers.columns.indexOf(QStringLiteral("rank")));
    const auto waitColumn =
        std::size_t(stragglers.columns.indexOf(QStringLiteral("wait_caused_ns")));
    ASSERT_FALSE(stragglers.rows.empty());
    EXPECT_EQ(stragglers.rows.front()[rankColumn].text, QStringLiteral("5"));
    EXPECT_EQ(QString::number(f->timeNs), stragglers.rows.front()[waitColumn].text);
    EXPECT_EQ(f->timeNs, 7 * kDelay * std::int64_t(stats.ranks.at(5).collectives));
    EXPECT_TRUE(findings->message().isEmpty());
    EXPECT_TRUE(findings->detailsText().contains(QStringLiteral("for rank 5")))
        << findings->detailsText().toStdString();
    ASSERT_EQ(findings->evidenceModel()->rowCount(), int(stats.ranks.at(5).collectives));

    // The Overview's link opens it; an evidence row shows its collective in the job view.
    overview->openLink(QStringLiteral("jobfinding:0"));
    EXPECT_TRUE(window->findChild<QDockWidget*>(QStringLiteral("findingsDock"))->isVisible());
    EXPECT_EQ(findings->selectedFinding(), 0);
    findings->activateEvidenceRow(0);
    const TimeRange shown = window->jobView()->canvas()->view();
    EXPECT_LE(shown.start, f->evidence.front().range.start);
    EXPECT_GE(shown.end, f->evidence.front().range.end);
    EXPECT_LT(shown.duration(), 3 * kDelay);

    // The late rank's link raises the Ranks panel at its row.
    overview->openLink(QStringLiteral("rank:5"));
    EXPECT_TRUE(window->findChild<QDockWidget*>(QStringLiteral("ranksDock"))->isVisible());
    auto* view = qobject_cast<QTableView*>(window->ranksPanel()->tabs()->currentWidget());
    ASSERT_NE(view, nullptr);
    ASSERT_TRUE(view->currentIndex().isValid());
    EXPECT_EQ(view->model()->index(view->currentIndex().row(), 0).data().toString(),
              QStringLiteral("5"));

    // Closed: the Overview and the Findings tab are the empty window's again.
    window->closeTrace();
    EXPECT_TRUE(overview->jobText().isEmpty());
    EXPECT_EQ(findings->jobFindings(), nullptr);
    EXPECT_EQ(findings->message(), QStringLiteral("No trace loaded."));
    EXPECT_TRUE(overview->text().startsWith(QStringLiteral("No trace loaded.")));
}

TEST_F(JobWindowTest, AJobWithoutAStragglerSaysNoRankIsLate) {
    QTemporaryDir even;
    kinetosynth::KinetoJobOptions o;
    o.ranks = 2;
    o.events = 5'000;
    std::string error;
    ASSERT_TRUE(kinetosynth::writeKinetoJob(even.path().toStdString(), o, &error)) << error;
    ASSERT_TRUE(open({even.path()}));
    const QString text = window->findChild<OverviewPanel*>()->jobText();
    EXPECT_TRUE(text.startsWith(QStringLiteral("Job: 2 ranks, world size 2 (nccl)")))
        << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("\nNo rank is consistently late.")))
        << text.toStdString();
    EXPECT_EQ(window->findingsPanel()->model()->rowCount(), 0);
    EXPECT_EQ(window->findingsPanel()->message(),
              QStringLiteral("No findings for the job: no rank is consistently late."));
}

TEST_F(JobWindowTest, ExpandAllLoadsEveryRankAndCollapseAllDropsThem) {
    ASSERT_TRUE(open({jobDir.path()}));
    JobView* jobView = window->jobView();
    QAction* expandAll = menuAction(window.get(), QStringLiteral("Expand All Ranks"));
    QAction* collapseAll = menuAction(window.get(), QStringLiteral("Collapse All Ranks"));
    ASSERT_NE(expandAll, nullptr);
    ASSERT_NE(collapseAll, nullptr);
    EXPECT_TRUE(expandAll->isEnabled());
    expandAll->trigger();
    ASSERT_TRUE(waitFor([&] { return jobView->expandedRanks().size() == 8; }));
    for (std::size_t r = 0; r < 8; ++r) {
        TimelineView* lanes = jobView->rankTimeline(r);
        ASSERT_NE(lanes, nullptr) << r;
        ASSERT_NE(lanes->viewState()->trace(), nullptr) << r;
        // Each rank's own trace: its file, and its kernels as the writer counted them.
        EXPECT_EQ(lanes->viewState()->trace()->filePath(), window->job()->ranks[r].file);
        EXPECT_EQ(lanes->viewState()->trace()->counts().kernels, stats.ranks.at(r).kernels) << r;
        EXPECT_EQ(jobView->canvas()->extraHeight(r), JobView::kExpandedHeight);
    }
    EXPECT_TRUE(window->statusBar()->currentMessage().contains(QStringLiteral("(8 loaded)")))
        << window->statusBar()->currentMessage().toStdString();

    // The headings' context menu: collapse all, then one rank back.
    std::unique_ptr<QMenu> menu = jobView->canvas()->headingMenu(3);
    ASSERT_EQ(menu->actions().size(), 4); // rank 3's, a separator, expand all, collapse all
    EXPECT_EQ(menu->actions()[0]->text(), QStringLiteral("Hide Rank 3's Full Lanes"));
    EXPECT_TRUE(menu->actions()[3]->isEnabled());
    menu->actions()[3]->trigger();
    EXPECT_TRUE(jobView->expandedRanks().empty());
    for (std::size_t r = 0; r < 8; ++r)
        EXPECT_EQ(jobView->canvas()->extraHeight(r), 0);
    menu = jobView->canvas()->headingMenu(3);
    EXPECT_EQ(menu->actions()[0]->text(),
              QStringLiteral("Show Rank 3's Full Lanes (loads its trace)"));
    EXPECT_FALSE(menu->actions()[3]->isEnabled()); // nothing left to collapse
    menu->actions()[0]->trigger();
    ASSERT_TRUE(waitFor([&] { return jobView->rankTimeline(3) != nullptr; }));
    EXPECT_EQ(jobView->expandedRanks(), std::vector<std::size_t>{3});
    collapseAll->trigger();
    EXPECT_TRUE(jobView->expandedRanks().empty());

    // Expand all, then collapse all while the traces load: none is left loading or shown.
    expandAll->trigger();
    collapseAll->trigger();
    QTest::qWait(200);
    EXPECT_TRUE(jobView->expandedRanks().empty());
    window->closeTrace();
    EXPECT_FALSE(expandAll->isEnabled());
}

TEST_F(JobWindowTest, TheHeadingNamesTheHostOfTensorboardTraceHandlersFiles) {
    // The files renamed as torch.profiler's tensorboard_trace_handler names them,
    // HOST_PID.TIMESTAMP.pt.trace.json.gz: ranks 0-3 on node-a, 4-7 on node-b.
    QTemporaryDir named;
    for (int r = 0; r < 8; ++r)
        ASSERT_TRUE(QFile::copy(
            rankFile(r),
            named.filePath(QStringLiteral("%1_%2.1733350000000000000.pt.trace.json.gz")
                               .arg(r < 4 ? QStringLiteral("node-a") : QStringLiteral("node-b"))
                               .arg(4100 + r))));
    ASSERT_TRUE(open({named.path()}));
    JobCanvas* canvas = window->jobView()->canvas();
    ASSERT_EQ(canvas->job()->ranks.size(), 8u);
    for (std::size_t r = 0; r < 8; ++r) {
        EXPECT_EQ(canvas->job()->ranks[r].rank, r); // from distributedInfo, not the pid
        EXPECT_EQ(canvas->rankTitle(r),
                  QStringLiteral("rank %1 (%2, GPU %1)")
                      .arg(r)
                      .arg(r < 4 ? QStringLiteral("node-a") : QStringLiteral("node-b")));
    }
    // The Ranks panel's table has a host column after the GPU's.
    const ReportTable& shown = window->ranksPanel()->ranksModel()->table();
    const qsizetype host = shown.columns.indexOf(QStringLiteral("host"));
    ASSERT_EQ(host, shown.columns.indexOf(QStringLiteral("gpu")) + 1);
    ASSERT_EQ(shown.rows.size(), 8u);
    for (std::size_t r = 0; r < 8; ++r)
        EXPECT_EQ(shown.rows[r][std::size_t(host)].text,
                  r < 4 ? QStringLiteral("node-a") : QStringLiteral("node-b"));
}
