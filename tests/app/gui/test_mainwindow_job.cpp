// SPDX-License-Identifier: MIT
// Opening a distributed job in the main window: an 8-rank synthetic job with a straggler
// (docs/SYNTH.md's known answers) shows 8 rank groups, the verdict naming the straggler, the
// Ranks panel, and a collective's 8 peers; a job with an unreadable file opens the rest.
#include "app/gui/appsettings.h"
#include "app/gui/mainwindow.h"
#include "formats/kineto/synth/kinetosynth.h"
#include "model/itemmodels/reporttablemodel.h"
#include "model/reports/jobreports.h"
#include "widgets/panels/rankspanel.h"
#include "widgets/timeline/jobview.h"
#include "widgets/timeline/timelineview.h"
#include "widgets/viewstate.h"

#include <QComboBox>
#include <QDockWidget>
#include <QFile>
#include <QHeaderView>
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
