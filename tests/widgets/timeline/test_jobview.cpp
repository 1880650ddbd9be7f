// SPDX-License-Identifier: MIT
// The job view on made-up rank summaries with known answers (tests/model/job/jobtestdata.h):
// one group per rank, the straggler verdict, a collective clicked on one rank highlighting its
// peers on every rank with each rank's wait, zoom and pan.
#include "model/reports/jobreports.h"
#include "model/timeformat.h"
#include "tests/model/job/jobtestdata.h"
#include "widgets/timeline/jobview.h"

#include <QSignalSpy>
#include <QTest>
#include <gtest/gtest.h>

using namespace strobe;

namespace {

struct Shown {
    std::shared_ptr<const Job> job;
    std::shared_ptr<const JobAnalysis> analysis;
};

Shown eightRanks(test::SynthJob synth) {
    auto job = std::make_shared<const Job>(makeJob(synth.summaries()));
    auto analysis = std::make_shared<const JobAnalysis>(analyseJob(*job, Alignment{}));
    return {job, analysis};
}

test::SynthJob stragglerJob() {
    test::SynthJob s;
    s.ranks = 8;
    s.steps = 4;
    s.perStep = 3;
    s.straggler = 5;
    s.delay = 2'000'000; // 2 ms
    return s;
}

} // namespace

TEST(JobView, ShowsOneGroupPerRankThatFitOneScreenAndTheVerdict) {
    const Shown shown = eightRanks(stragglerJob());
    JobView view;
    view.resize(1400, 800);
    view.setJob(shown.job, shown.analysis);
    view.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
    JobCanvas* canvas = view.canvas();
    for (std::size_t r = 0; r < 8; ++r)
        EXPECT_EQ(canvas->rankTitle(r), QStringLiteral("rank %1 (GPU %1)").arg(r));
    EXPECT_TRUE(canvas->rankTitle(8).isEmpty());
    // Eight collapsed ranks fit a 1080p screen with room for the Ranks panel under them.
    EXPECT_LE(canvas->sizeHint().height(), 540);
    EXPECT_EQ(canvas->groupRect(7).bottom() + 1, canvas->sizeHint().height());
    // 4 steps, rank 5 last in each; 7 ranks wait 2 ms at each of 3 collectives per step: 6 ms.
    EXPECT_EQ(view.verdict(), QStringLiteral("rank 5 starts its collectives last in 4 of 4 steps; "
                                             "the other ranks wait 6.0 ms per step for it."));
    // The whole job: 4 steps of 100 ms from 0 on every rank.
    EXPECT_EQ(canvas->jobRange(), (TimeRange{0, 4 * test::SynthJob::kStep}));
    EXPECT_EQ(canvas->view(), canvas->jobRange());
}

TEST(JobView, NoStragglerSaysSo) {
    test::SynthJob s;
    s.ranks = 2;
    const Shown shown = eightRanks(s);
    JobView view;
    view.setJob(shown.job, shown.analysis);
    EXPECT_EQ(view.verdict(), QStringLiteral("no rank is consistently late."));
}

TEST(JobView, ClickingACollectiveHighlightsItsPeersOnEveryRank) {
    const test::SynthJob synth = stragglerJob();
    const Shown shown = eightRanks(synth);
    JobView view;
    view.resize(1400, 800);
    view.setJob(shown.job, shown.analysis);
    view.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
    JobCanvas* canvas = view.canvas();
    // Zoom onto step 1's collectives so each is several pixels wide: 101 ms to 125 ms.
    canvas->setView({101'000'000, 125'000'000});
    // Step 1's second collective (j = 1) on rank 2: the 5th call of the rank.
    const QRectF call = canvas->callRect(2, 4);
    ASSERT_GT(call.width(), 5.0);
    QSignalSpy selected(canvas, &JobCanvas::collectiveSelected);
    QTest::mouseClick(canvas, Qt::LeftButton, {}, call.center().toPoint());
    ASSERT_EQ(selected.count(), 1);
    ASSERT_TRUE(canvas->selectedCollective());
    const auto peers = canvas->highlightedCalls();
    ASSERT_EQ(peers.size(), 8u);
    for (std::uint32_t r = 0; r < 8; ++r) {
        EXPECT_EQ(peers[r].first, r);
        EXPECT_EQ(peers[r].second, 4u); // the same call on every rank
    }
    // The detail lines: every rank but 5 waits the delay; rank 5 waits 0; transfer 250 µs.
    const QStringList lines = view.collectiveDetails().split(u'\n');
    ASSERT_EQ(lines.size(), 9);
    EXPECT_TRUE(lines[0].startsWith(QStringLiteral("AllReduce #4, step 11: last arriver rank 5")))
        << lines[0].toStdString();
    for (std::uint32_t r = 0; r < 8; ++r) {
        const QStringList cells = lines[int(r) + 1].split(u'\t');
        ASSERT_EQ(cells.size(), 5);
        EXPECT_EQ(cells[0], QString::number(r));
        EXPECT_EQ(cells[1], formatDurationFixed(synth.trueStart(r, 1, 1)));
        EXPECT_EQ(cells[2], formatDurationFixed(synth.trueEnd(1, 1)));
        EXPECT_EQ(cells[3], formatDuration(r == 5 ? 0 : synth.delay));
        EXPECT_EQ(cells[4], formatDuration(synth.transfer));
    }
    // A click on empty lane space clears the selection and the details.
    QTest::mouseClick(canvas, Qt::LeftButton, {},
                      QPoint(JobCanvas::kHeaderWidth + 2, canvas->groupRect(0).top() + 2));
    EXPECT_FALSE(canvas->selectedCollective());
    EXPECT_TRUE(view.collectiveDetails().isEmpty());
}

TEST(JobView, ZoomsAroundThePointerAndPansByDragging) {
    const Shown shown = eightRanks(stragglerJob());
    JobCanvas canvas;
    canvas.resize(JobCanvas::kHeaderWidth + 1000, 600);
    canvas.setJob(shown.job, shown.analysis);
    canvas.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&canvas));
    // 400 ms over 1000 px: x = header + 500 is 200 ms; halving keeps it there.
    canvas.zoomAround(JobCanvas::kHeaderWidth + 500, 0.5);
    EXPECT_EQ(canvas.view(), (TimeRange{100'000'000, 300'000'000}));
    // Dragging 100 px right moves the view 20 ms earlier.
    const QPoint from(JobCanvas::kHeaderWidth + 500, 100);
    QTest::mousePress(&canvas, Qt::LeftButton, {}, from);
    QTest::mouseMove(&canvas, from + QPoint(50, 0));
    QTest::mouseMove(&canvas, from + QPoint(100, 0));
    QTest::mouseRelease(&canvas, Qt::LeftButton, {}, from + QPoint(100, 0));
    EXPECT_EQ(canvas.view(), (TimeRange{80'000'000, 280'000'000}));
    EXPECT_FALSE(canvas.selectedCollective()); // a drag selects nothing
    // Never past the job widened by a tenth.
    canvas.zoomAround(JobCanvas::kHeaderWidth, 100.0);
    EXPECT_EQ(canvas.view(), (TimeRange{-40'000'000, 440'000'000}));
}

TEST(JobView, RoomForARanksFullLanesMovesTheGroupsBelow) {
    const Shown shown = eightRanks(stragglerJob());
    JobCanvas canvas;
    canvas.resize(1200, 900);
    canvas.setJob(shown.job, shown.analysis);
    QSignalSpy moved(&canvas, &JobCanvas::groupsMoved);
    const int top3 = canvas.groupRect(3).top();
    canvas.setExtraHeight(2, 100);
    EXPECT_EQ(moved.count(), 1);
    EXPECT_EQ(canvas.extraRect(2),
              QRect(0, canvas.groupRect(2).bottom() + 1 - JobCanvas::kGroupGap, 1200, 100));
    EXPECT_EQ(canvas.groupRect(3).top(), top3 + 100);
    EXPECT_EQ(canvas.sizeHint().height(),
              JobCanvas::kRulerHeight + 8 * JobCanvas::kGroupHeight + 100);
    EXPECT_EQ(canvas.rankAt(canvas.extraRect(2).bottom()), 2u);
    EXPECT_EQ(canvas.rankAt(canvas.groupRect(3).top()), 3u);
    EXPECT_EQ(canvas.rankAt(canvas.groupRect(7).bottom() + 1), std::nullopt);
    EXPECT_EQ(canvas.rankAt(0), std::nullopt);
    // A double-click on a heading asks for that rank's lanes.
    QSignalSpy activated(&canvas, &JobCanvas::rankActivated);
    QTest::mouseDClick(&canvas, Qt::LeftButton, {}, QPoint(20, canvas.groupRect(3).top() + 5));
    ASSERT_EQ(activated.count(), 1);
    EXPECT_EQ(activated.at(0).at(0).value<std::size_t>(), 3u);
    canvas.setExtraHeight(2, 0);
    EXPECT_EQ(canvas.groupRect(3).top(), top3);
}
