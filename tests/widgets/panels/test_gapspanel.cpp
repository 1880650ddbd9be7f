// SPDX-License-Identifier: MIT
// The GPU gaps panel on the sample trace: rows, sorting, totals, threshold, double-click.
#include "model/itemmodels/gaptablemodel.h"
#include "model/itemmodels/tableroles.h"
#include "tests/model/analysis/gaptestdata.h"
#include "tests/widgets/panels/paneltesthelpers.h"
#include "widgets/panels/gapspanel.h"
#include "widgets/panels/tableexport.h"

#include "model/timeformat.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QSignalSpy>
#include <QStringBuilder>
#include <QTableView>
#include <gtest/gtest.h>

using namespace strobe;

namespace {

class GapsPanelTest : public ::testing::Test {
protected:
    void SetUp() override {
        trace = test::sampleTrace();
        ASSERT_TRUE(trace);
        state.setTrace(trace);
    }
    std::shared_ptr<const Trace> trace;
    ViewState state;
};

TEST_F(GapsPanelTest, ListsFindGapsSortedByDuration) {
    GapsPanel panel(&state);
    ASSERT_TRUE(test::waitUntilReady(panel));
    QAbstractItemModelTester tester(panel.model(),
                                    QAbstractItemModelTester::FailureReportingMode::Fatal);
    QAbstractItemModelTester sorted(panel.view()->model(), // the sorting proxy the table shows
                                    QAbstractItemModelTester::FailureReportingMode::Fatal);
    const GapAnalysis expected = findGaps(*trace, state.idleThresholdNs());
    ASSERT_EQ(panel.model()->rowCount(), int(expected.gaps.size()));
    ASSERT_EQ(panel.model()->rowCount(), 19); // one per iteration after the first
    for (int r = 1; r < panel.model()->rowCount(); ++r)
        EXPECT_GE(panel.gapAtRow(r - 1)->duration(), panel.gapAtRow(r)->duration());
    const GpuGap* longest = panel.gapAtRow(0);
    EXPECT_EQ(longest->cause, GapCause::CpuWait); // MainThread in pthread_cond_wait
    const QAbstractItemModel* view = panel.view()->model();
    EXPECT_EQ(view->index(0, 3).data().toString(),
              QStringLiteral("CPU waiting in pthread_cond_wait"));
    EXPECT_EQ(view->index(0, 4).data().toString(), QStringLiteral("Data Load"));
    EXPECT_EQ(view->index(0, 0).data().toString(), QStringLiteral("GPU 0"));
    EXPECT_TRUE(panel.totalsText().contains(QStringLiteral("GPU 0:")))
        << panel.totalsText().toStdString();
    EXPECT_TRUE(panel.totalsText().contains(QString::number(expected.devices[0].gapCount) +
                                            QStringLiteral(" gaps")));
    // Sortable by any column: by start, ascending.
    panel.view()->sortByColumn(1, Qt::AscendingOrder);
    for (int r = 1; r < panel.model()->rowCount(); ++r)
        EXPECT_LT(panel.gapAtRow(r - 1)->range.start, panel.gapAtRow(r)->range.start);
}

TEST_F(GapsPanelTest, FollowsTheIdleThreshold) {
    GapsPanel panel(&state);
    ASSERT_TRUE(test::waitUntilReady(panel));
    QSignalSpy reset(panel.model(), &QAbstractItemModel::modelReset);
    state.setIdleThresholdNs(10'000'000);
    ASSERT_TRUE(test::waitUntilReady(panel));
    EXPECT_GE(reset.count(), 1);
    EXPECT_EQ(panel.model()->rowCount(), 19); // only the data-loading gaps are over 10 ms
    EXPECT_EQ(panel.analysis().threshold, 10'000'000);
}

TEST_F(GapsPanelTest, DoubleClickZoomsToTheGapAndSelectsItsCause) {
    GapsPanel panel(&state);
    ASSERT_TRUE(test::waitUntilReady(panel));
    const GpuGap gap = *panel.gapAtRow(0);
    QSignalSpy reveal(&state, &ViewState::revealRequested);
    panel.activateRow(0);
    const TimeRange v = state.visibleRange();
    EXPECT_EQ(v, GapsPanel::zoomRangeFor(*trace, gap));
    EXPECT_LT(v.start, gap.range.start); // margins on both sides
    EXPECT_GT(v.end, gap.range.end);
    EXPECT_LT(v.duration(), 2 * gap.duration());
    EXPECT_EQ(state.selection(), gap.event);
    EXPECT_EQ(state.selectedRange(), std::optional<TimeRange>(gap.range));
    EXPECT_EQ(reveal.count(), 1);
}

TEST_F(GapsPanelTest, CsvExportHasRawValues) {
    GapsPanel panel(&state);
    ASSERT_TRUE(test::waitUntilReady(panel));
    const ReportTable t = modelToReport(*panel.model());
    EXPECT_EQ(t.columns, (QStringList{QStringLiteral("Device"), QStringLiteral("Start"),
                                      QStringLiteral("Duration"), QStringLiteral("Cause"),
                                      QStringLiteral("NVTX range"), QStringLiteral("Detail")}));
    ASSERT_FALSE(t.rows.empty());
    const GpuGap& first = panel.analysis().gaps.front();
    EXPECT_EQ(t.rows[0][1].text, QString::number(first.range.start));
    EXPECT_EQ(t.rows[0][2].text, QString::number(first.duration()));
    EXPECT_EQ(t.rows[0][3].text, gapCauseKey(first.cause));
}

TEST_F(GapsPanelTest, GapsArriveFromTheWorkerAndStaleOnesAreDiscarded) {
    GapsPanel panel(&state);
    ASSERT_TRUE(test::waitUntilReady(panel));
    // The threshold of every analysis that reaches the table.
    std::vector<TimeNs> shown;
    QObject::connect(panel.model(), &QAbstractItemModel::modelReset, &panel, [&] {
        if (panel.model()->rowCount() > 0)
            shown.push_back(panel.analysis().threshold);
    });
    QSignalSpy ready(&panel, &GapsPanel::ready);
    state.setIdleThresholdNs(10'000'000); // starts an analysis...
    state.setIdleThresholdNs(1'000'000);  // ...replaced before it can arrive
    EXPECT_TRUE(panel.isComputing());
    EXPECT_EQ(panel.model()->rowCount(), 0);
    EXPECT_TRUE(panel.totalsText().startsWith(QStringLiteral("Finding gaps")))
        << panel.totalsText().toStdString();
    ASSERT_TRUE(test::waitUntilReady(panel));
    QTest::qWait(100); // a stale result, were it delivered, would arrive by now
    EXPECT_EQ(ready.count(), 1);
    EXPECT_EQ(shown, std::vector<TimeNs>{1'000'000});
    EXPECT_EQ(panel.model()->rowCount(), int(findGaps(*trace, 1'000'000).gaps.size()));
    // A new trace empties the table at once, then fills it.
    state.setTrace(test::cloverleaf());
    EXPECT_EQ(panel.model()->rowCount(), 0);
    ASSERT_TRUE(test::waitUntilReady(panel));
    EXPECT_EQ(panel.model()->rowCount(), int(findGaps(*test::cloverleaf(), 1'000'000).gaps.size()));
}

// Issue #14 items 3 and 8: first clicks sort durations largest first and positions ascending, a
// sort shows the top; a double-click or Enter on a gap hands the focus to the timeline.
TEST_F(GapsPanelTest, SortsLikeEveryTableAndActivatingARowFocusesTheTimeline) {
    GapsPanel panel(&state);
    panel.resize(900, 140);
    panel.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&panel));
    ASSERT_TRUE(test::waitUntilReady(panel));
    QTableView* view = panel.view();
    view->selectRow(panel.model()->rowCount() - 1);
    view->scrollToBottom();
    QApplication::processEvents();
    ASSERT_GT(view->verticalScrollBar()->value(), 0);
    test::clickHeader(view, GapTableModel::Start);
    EXPECT_EQ(view->horizontalHeader()->sortIndicatorOrder(), Qt::AscendingOrder);
    EXPECT_EQ(view->verticalScrollBar()->value(), 0);
    EXPECT_EQ(view->selectionModel()->selectedRows().size(), 1);
    TimeNs earliest = panel.analysis().gaps.front().range.start;
    for (const GpuGap& g : panel.analysis().gaps)
        earliest = std::min(earliest, g.range.start);
    EXPECT_EQ(panel.gapAtRow(0)->range.start, earliest);
    test::clickHeader(view, GapTableModel::Duration);
    EXPECT_EQ(view->horizontalHeader()->sortIndicatorOrder(), Qt::DescendingOrder);
    TimeNs longest = 0;
    for (const GpuGap& g : panel.analysis().gaps)
        longest = std::max(longest, g.duration());
    EXPECT_EQ(panel.gapAtRow(0)->duration(), longest);
    for (int c :
         {int(GapTableModel::Device), int(GapTableModel::Cause), int(GapTableModel::NvtxRange)})
        EXPECT_EQ(test::firstClickOrder(view, c), Qt::AscendingOrder) << c;

    QSignalSpy focus(&state, &ViewState::timelineFocusRequested);
    QApplication::processEvents(); // lays out the sorted rows
    const QRect cell = view->visualRect(view->model()->index(0, GapTableModel::Cause));
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, cell.center());
    QTest::mouseDClick(view->viewport(), Qt::LeftButton, {}, cell.center());
    EXPECT_EQ(focus.count(), 1);
    EXPECT_EQ(state.selectedRange(), std::optional<TimeRange>(panel.gapAtRow(0)->range));
    view->setFocus();
    view->setCurrentIndex(view->model()->index(1, 0));
    QTest::keyClick(view, Qt::Key_Enter);
    EXPECT_EQ(focus.count(), 2);
    EXPECT_EQ(state.selectedRange(), std::optional<TimeRange>(panel.gapAtRow(1)->range));
    EXPECT_TRUE(view->selectionModel()->isRowSelected(1, {}));
}

std::shared_ptr<const Trace> h100() {
    static std::shared_ptr<const Trace> trace = [] {
        LoadResult r =
            loadTrace(QStringLiteral(STROBE_FIXTURES_DIR "/nsys/nsys2026.2-h100-2gpu-nvtx.sqlite"));
        return std::shared_ptr<const Trace>(std::move(r.trace));
    }();
    return trace;
}

// The header line by line, the GPU lines from the model's numbers.
TEST_F(GapsPanelTest, HeaderGivesKernelCopyAndIdleTimeAndTheIdleEndsPerGpu) {
    GapsPanel panel(&state);
    ASSERT_TRUE(test::waitUntilReady(panel));
    const DeviceIdleSummary& d = panel.analysis().devices.at(0);
    const QStringList lines = panel.totalsText().split(u'\n');
    ASSERT_EQ(lines.size(), 4) << panel.totalsText().toStdString();
    EXPECT_EQ(lines[0], QStringLiteral("Gaps of at least 100.0 \u00b5s, busy = kernels, memcpys "
                                       "and memsets."));
    EXPECT_EQ(lines[1], QStringLiteral("GPU 0: kernels ") % formatDuration(d.kernelNs) %
                            QStringLiteral(", copies ") % formatDuration(d.copyNs) %
                            QStringLiteral(", idle ") % formatDuration(d.idleNs) %
                            QStringLiteral(" in 19 gaps of at least 100.0 \u00b5s (") %
                            QString::number(d.tracePercent, 'f', 1) %
                            QStringLiteral(" % of the trace)"));
    EXPECT_EQ(lines[2], QStringLiteral("    idle before first work ") %
                            formatDuration(d.busySpan->start - trace->timeRange().start));
    EXPECT_EQ(lines[3], QStringLiteral("    idle after last work ") %
                            formatDuration(trace->timeRange().end - d.busySpan->end));
    // No row of the table lies before the first work or after the last.
    for (int r = 0; r < panel.model()->rowCount(); ++r) {
        EXPECT_GE(panel.gapAtRow(r)->range.start, d.busySpan->start);
        EXPECT_LE(panel.gapAtRow(r)->range.end, d.busySpan->end);
    }
}

TEST_F(GapsPanelTest, GpusThatRanNothingSaySo) {
    state.setTrace(test::cloverleaf());
    GapsPanel panel(&state);
    ASSERT_TRUE(test::waitUntilReady(panel));
    const QString text = panel.totalsText();
    for (int gpu : {1, 2, 3})
        EXPECT_TRUE(text.contains(QStringLiteral("\nGPU ") % QString::number(gpu) %
                                  QStringLiteral(": no GPU work recorded")))
            << text.toStdString();
    EXPECT_FALSE(text.contains(QStringLiteral("0 gaps"))) << text.toStdString();
    // ~455 ms of ~805 ms before CloverLeaf's first GPU work: a line, not a gap.
    EXPECT_TRUE(text.contains(QStringLiteral("\n    idle before first work 455.0 ms\n")))
        << text.toStdString();
    for (int r = 0; r < panel.model()->rowCount(); ++r)
        EXPECT_LT(panel.gapAtRow(r)->duration(), 100'000'000);
}

TEST_F(GapsPanelTest, KernelsOnlyTurnsTheCopyBoundH100IntoGaps) {
    ASSERT_TRUE(h100());
    state.setTrace(h100());
    GapsPanel panel(&state);
    ASSERT_TRUE(test::waitUntilReady(panel));
    EXPECT_EQ(panel.busyWork(), BusyWork::All);
    EXPECT_EQ(panel.model()->rowCount(), 7);
    EXPECT_TRUE(panel.totalsText().contains(QStringLiteral(
        "GPU 0: kernels 22.39 ms, copies 940.5 ms, idle 1.665 ms in 4 gaps of at least 100.0 "
        "\u00b5s (0.2 % of the trace)")))
        << panel.totalsText().toStdString();
    QSignalSpy ready(&panel, &GapsPanel::ready);
    // The user's control: the combo box.
    QComboBox* combo = panel.busyCombo();
    ASSERT_EQ(combo->count(), 2);
    combo->setCurrentIndex(combo->findData(int(BusyWork::Kernels)));
    EXPECT_EQ(panel.busyWork(), BusyWork::Kernels);
    ASSERT_TRUE(test::waitUntilReady(panel));
    EXPECT_EQ(ready.count(), 1);
    const GapAnalysis want = findGaps(*h100(), state.idleThresholdNs(), BusyWork::Kernels);
    EXPECT_EQ(panel.analysis().busy, BusyWork::Kernels);
    EXPECT_EQ(panel.model()->rowCount(), int(want.gaps.size()));
    EXPECT_GT(want.gaps.size(), 50u);
    EXPECT_TRUE(panel.totalsText().startsWith(
        QStringLiteral("Gaps of at least 100.0 \u00b5s, busy = kernels.\n")));
    EXPECT_TRUE(panel.totalsText().contains(QStringLiteral("GPU 0: kernels 22.39 ms, copies "
                                                           "940.5 ms, idle 935.8 ms in 57 gaps")))
        << panel.totalsText().toStdString();
    // And back, through the API the combo box uses.
    panel.setBusyWork(BusyWork::All);
    EXPECT_EQ(combo->currentData().toInt(), int(BusyWork::All));
    ASSERT_TRUE(test::waitUntilReady(panel));
    EXPECT_EQ(panel.model()->rowCount(), 7);
}

} // namespace

// A preview holds no CPU side: every gap's cause would read "no CPU activity".
TEST(GapsPanelPreview, APreviewListsNoGapsUntilTheWholeTraceIsRead) {
    const std::shared_ptr<const Trace> preview = test::h100GpuSidePreview();
    ASSERT_TRUE(preview);
    ViewState state;
    state.setTrace(preview);
    GapsPanel panel(&state);
    ASSERT_TRUE(test::waitUntilReady(panel));
    EXPECT_EQ(panel.model()->rowCount(), 0);
    EXPECT_TRUE(panel.totalsText().startsWith(QStringLiteral("Reading the trace")))
        << panel.totalsText().toStdString();
    state.setTrace(test::h100());
    ASSERT_TRUE(test::waitUntilReady(panel));
    EXPECT_GT(panel.model()->rowCount(), 0);
    EXPECT_TRUE(panel.totalsText().contains(QStringLiteral("GPU 0")));
}
