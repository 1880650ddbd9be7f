// SPDX-License-Identifier: MIT
#include "model/itemmodels/kerneltablemodel.h"
#include "model/itemmodels/tableroles.h"
#include "tests/model/analysis/analysistestdata.h"
#include "tests/model/analysis/launchchaintestdata.h"
#include "tests/support/sqlitequery.h"
#include "tests/widgets/panels/paneltesthelpers.h"
#include "widgets/panels/detailpane.h"
#include "widgets/panels/kerneltablewidget.h"

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QClipboard>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

#include <gtest/gtest.h>

using namespace strobe;
using namespace strobe::test;

namespace {

class KernelTableWidgetTest : public ::testing::Test {
protected:
    void SetUp() override {
        ASSERT_TRUE(cloverleaf());
        state.setTrace(cloverleaf());
    }
    ViewState state;
};

TEST_F(KernelTableWidgetTest, FollowsTheTraceAndPassesTheModelTester) {
    KernelTableWidget w(&state);
    QAbstractItemModelTester tester(w.model(),
                                    QAbstractItemModelTester::FailureReportingMode::Fatal);
    ASSERT_TRUE(waitUntilReady(w));
    EXPECT_EQ(w.model()->rowCount(), 1312);
    state.setTrace(nullptr);
    EXPECT_EQ(w.model()->rowCount(), 0);
    state.setTrace(cloverleaf());
    ASSERT_TRUE(waitUntilReady(w));
    EXPECT_EQ(w.model()->rowCount(), 1312);
}

TEST_F(KernelTableWidgetTest, RowsArriveFromTheWorkerAfterTheHandOver) {
    KernelTableWidget w(&state);
    ASSERT_TRUE(waitUntilReady(w));
    QSignalSpy ready(&w, &KernelTableWidget::ready);
    state.setTrace(nullptr);
    state.setTrace(cloverleaf());
    // The hand-over itself only empties the table; the rows come later.
    EXPECT_TRUE(w.isComputing());
    EXPECT_EQ(w.model()->rowCount(), 0);
    ASSERT_TRUE(waitUntilReady(w));
    EXPECT_EQ(w.model()->rowCount(), 1312);
    EXPECT_EQ(w.model()->totalKernels(), 1312);
    EXPECT_GE(ready.count(), 1);
}

TEST_F(KernelTableWidgetTest, AResultForAReplacedTraceIsDiscarded) {
    KernelTableWidget w(&state);
    ASSERT_TRUE(waitUntilReady(w));
    std::shared_ptr<const Trace> small = kernelTrace({{"a", "a", 1000, 10}, {"b", "b", 2000, 5}});
    // Every trace whose data reaches the model asks for rows once.
    std::vector<const Trace*> delivered;
    QObject::connect(w.model(), &KernelTableModel::rowsRequested, &w,
                     [&] { delivered.push_back(w.model()->trace()); });
    QSignalSpy ready(&w, &KernelTableWidget::ready);
    state.setTrace(small);        // starts gathering the small trace...
    state.setTrace(cloverleaf()); // ...which is replaced before its result can arrive
    ASSERT_TRUE(waitUntilReady(w));
    QTest::qWait(100); // a stale result, were it delivered, would arrive by now
    EXPECT_EQ(w.model()->trace(), cloverleaf().get());
    EXPECT_EQ(w.model()->rowCount(), 1312);
    EXPECT_EQ(ready.count(), 1);
    EXPECT_EQ(delivered, std::vector<const Trace*>{cloverleaf().get()});
}

TEST_F(KernelTableWidgetTest, SortingRunsOnTheWorker) {
    KernelTableWidget w(&state);
    ASSERT_TRUE(waitUntilReady(w));
    w.view()->sortByColumn(KernelTableModel::Duration, Qt::DescendingOrder);
    EXPECT_TRUE(w.isComputing()); // the old order stays on screen meanwhile
    ASSERT_TRUE(waitUntilReady(w));
    ASSERT_EQ(w.model()->rowCount(), 1312);
    const auto duration = [&](int row) {
        return w.model()
            ->data(w.model()->index(row, KernelTableModel::Duration), SortRole)
            .toLongLong();
    };
    for (int r = 1; r < w.model()->rowCount(); ++r)
        ASSERT_GE(duration(r - 1), duration(r));
    // A newer request wins over one still computing.
    w.view()->sortByColumn(KernelTableModel::Grid, Qt::AscendingOrder);
    w.view()->sortByColumn(KernelTableModel::Start, Qt::AscendingOrder);
    ASSERT_TRUE(waitUntilReady(w));
    EXPECT_EQ(*w.model()->kernelAtRow(0), 0u);
    EXPECT_EQ(*w.model()->kernelAtRow(1311), 1311u);
}

TEST_F(KernelTableWidgetTest, DoubleClickRevealsAndOpensTheDetailPane) {
    KernelTableWidget table(&state);
    DetailPane pane(&state);
    table.resize(1200, 600);
    table.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&table));
    table.view()->sortByColumn(KernelTableModel::Duration, Qt::DescendingOrder);
    ASSERT_TRUE(waitUntilReady(table));
    QSignalSpy reveal(&state, &ViewState::revealRequested);
    QSignalSpy selection(&state, &ViewState::selectionChanged);

    const QModelIndex cell = table.view()->model()->index(0, KernelTableModel::Name);
    QApplication::processEvents(); // let the view lay out its rows
    const QRect rect = table.view()->visualRect(cell);
    ASSERT_TRUE(rect.isValid());
    QTest::mouseClick(table.view()->viewport(), Qt::LeftButton, {}, rect.center());
    QTest::mouseDClick(table.view()->viewport(), Qt::LeftButton, {}, rect.center());

    ASSERT_EQ(reveal.count(), 1);
    EXPECT_EQ(selection.count(), 1);
    ASSERT_TRUE(waitUntilReady(pane));
    const std::uint32_t longest = *table.model()->kernelAtRow(0);
    const EventRef ref = cloverleaf()->kernels()[longest].self;
    EXPECT_EQ(reveal.front().front().value<EventRef>(), ref);
    EXPECT_EQ(state.selection(), ref);
    // The longest kernel: the detail pane shows it.
    EXPECT_EQ(pane.details().title,
              QStringLiteral("Kernel ") + cell.data(Qt::DisplayRole).toString());
    const KernelLaunch k = cloverleaf()->kernelAt(longest);
    const auto grid =
        test::query(test::fixturePath("nsys2024.5-cloverleaf.sqlite"),
                    "SELECT gridX, gridY, gridZ FROM CUPTI_ACTIVITY_KIND_KERNEL "
                    "WHERE start = " +
                        std::to_string(k.start) + " AND end = " + std::to_string(k.end));
    ASSERT_EQ(grid.size(), 1u);
    EXPECT_EQ(
        pane.details().value(QStringLiteral("Launch configuration"), QStringLiteral("Grid")),
        QString::fromStdString("(" + grid[0][0] + ", " + grid[0][1] + ", " + grid[0][2] + ")"));
}

TEST_F(KernelTableWidgetTest, SelectingAKernelElsewhereSelectsItsRow) {
    KernelTableWidget w(&state);
    ASSERT_TRUE(waitUntilReady(w));
    const EventRef ref = cloverleaf()->kernels()[700].self;
    state.setSelection(ref); // what the timeline does on a click
    const QModelIndex current = w.view()->currentIndex();
    ASSERT_TRUE(current.isValid());
    EXPECT_EQ(current.row(), 700); // start order
    EXPECT_EQ(current.data(KernelIndexRole).toLongLong(), 700);
    // After re-sorting the selection follows the kernel.
    w.view()->sortByColumn(KernelTableModel::Duration, Qt::AscendingOrder);
    ASSERT_TRUE(waitUntilReady(w));
    EXPECT_EQ(*w.model()->kernelAtRow(w.view()->currentIndex().row()), 700u);
}

TEST_F(KernelTableWidgetTest, FiltersByNameAndRange) {
    KernelTableWidget w(&state);
    ASSERT_TRUE(waitUntilReady(w));
    w.setNameFilter(QStringLiteral("xxx-no-such-kernel"));
    ASSERT_TRUE(waitUntilReady(w));
    EXPECT_EQ(w.model()->rowCount(), 0);
    w.setNameFilter(QStringLiteral("^(?!.*xxx)"), true);
    ASSERT_TRUE(waitUntilReady(w));
    EXPECT_EQ(w.model()->rowCount(), 1312);
    w.setNameFilter(QString());
    const TimeRange all = cloverleaf()->timeRange();
    // From the trace start to the 600th kernel's start: kernels 0..599 overlap.
    const TimeNs mid = cloverleaf()->kernelAt(600).start;
    state.setVisibleRange(TimeRange{all.start, mid});
    w.setRangeRestriction(KernelTableWidget::RangeRestriction::VisibleRange);
    ASSERT_TRUE(waitUntilReady(w));
    // Kernels overlapping [a, b), zero-length ones counting as 1 ns, counted in SQL.
    const auto overlapping = [](TimeNs a, TimeNs b) {
        return int(test::queryInt(test::fixturePath("nsys2024.5-cloverleaf.sqlite"),
                                  "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE start < " +
                                      std::to_string(b) + " AND max(end, start + 1) > " +
                                      std::to_string(a)));
    };
    EXPECT_EQ(w.model()->rowCount(), overlapping(all.start, mid));
    EXPECT_GE(overlapping(all.start, mid), 600);
    state.setVisibleRange(all);
    ASSERT_TRUE(waitUntilReady(w));
    EXPECT_EQ(w.model()->rowCount(), 1312); // follows the view
    w.setRangeRestriction(KernelTableWidget::RangeRestriction::SelectedRange);
    ASSERT_TRUE(waitUntilReady(w));
    EXPECT_EQ(w.model()->rowCount(), 1312); // no selected range: all
    // The selected range: the first kernel's first nanosecond holds exactly that kernel.
    const TimeNs first = cloverleaf()->kernelAt(0).start;
    state.setSelectedRange(TimeRange{first, first + 1});
    ASSERT_TRUE(waitUntilReady(w));
    EXPECT_EQ(w.model()->rowCount(), overlapping(first, first + 1));
    EXPECT_EQ(overlapping(first, first + 1), 1);
    state.setSelectedRange(TimeRange{all.start, all.start + 1});
    ASSERT_TRUE(waitUntilReady(w));
    EXPECT_EQ(w.model()->rowCount(), overlapping(all.start, all.start + 1));
}

// Issue #14 item 3: a sort by duration shows the longest kernels, not the rows around the
// selection; the first click on a quantity sorts largest first, on a name A to Z.
TEST_F(KernelTableWidgetTest, ASortShowsTheTopRowsAndKeepsTheSelection) {
    KernelTableWidget w(&state);
    w.resize(1200, 400);
    w.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
    ASSERT_TRUE(waitUntilReady(w));
    const std::uint32_t picked = 700;
    state.setSelection(cloverleaf()->kernels()[picked].self); // a click on the timeline
    QApplication::processEvents();
    QScrollBar* bar = w.view()->verticalScrollBar();
    ASSERT_GT(bar->value(), 0) << "the selected row is scrolled into view";

    clickHeader(w.view(), KernelTableModel::Duration);
    ASSERT_TRUE(waitUntilReady(w));
    QApplication::processEvents();
    EXPECT_EQ(w.model()->sortColumn(), KernelTableModel::Duration);
    EXPECT_EQ(w.model()->sortOrder(), Qt::DescendingOrder);
    EXPECT_EQ(bar->value(), 0) << "the top of the list is shown";
    EXPECT_EQ(w.view()->rowAt(0), 0);
    const std::int64_t longest =
        test::queryInt(test::fixturePath("nsys2024.5-cloverleaf.sqlite"),
                       "SELECT max(end - start) FROM CUPTI_ACTIVITY_KIND_KERNEL");
    const KernelLaunch top = cloverleaf()->kernelAt(*w.model()->kernelAtRow(0));
    EXPECT_EQ(top.end - top.start, longest);
    // The selection stays on the picked kernel, wherever it sorted to.
    const QModelIndex current = w.view()->currentIndex();
    ASSERT_TRUE(current.isValid());
    EXPECT_EQ(*w.model()->kernelAtRow(current.row()), picked);
    EXPECT_TRUE(w.view()->selectionModel()->isRowSelected(current.row(), {}));

    // A second click reverses; names sort A to Z first, positions and ids ascending, sizes
    // largest first.
    clickHeader(w.view(), KernelTableModel::Duration);
    ASSERT_TRUE(waitUntilReady(w));
    EXPECT_EQ(w.model()->sortOrder(), Qt::AscendingOrder);
    const std::pair<int, Qt::SortOrder> firstClicks[] = {
        {KernelTableModel::Name, Qt::AscendingOrder},
        {KernelTableModel::Start, Qt::AscendingOrder},
        {KernelTableModel::Registers, Qt::DescendingOrder},
        {KernelTableModel::SharedMemory, Qt::DescendingOrder},
        {KernelTableModel::CorrelationId, Qt::AscendingOrder}};
    for (const auto& [column, order] : firstClicks) {
        state.setSelection(cloverleaf()->kernels()[picked].self);
        clickHeader(w.view(), column);
        ASSERT_TRUE(waitUntilReady(w));
        QApplication::processEvents();
        EXPECT_EQ(w.model()->sortColumn(), column);
        EXPECT_EQ(w.model()->sortOrder(), order) << column;
        EXPECT_EQ(bar->value(), 0) << column;
    }
}

// Issue #14 item 10: columns fit their contents, no header is clipped, Name takes the rest.
TEST_F(KernelTableWidgetTest, ColumnsFitTheirContentsAndNameTakesTheRest) {
    KernelTableWidget w(&state);
    w.resize(1600, 400);
    w.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
    ASSERT_TRUE(waitUntilReady(w));
    QApplication::processEvents();
    QHeaderView* h = w.view()->horizontalHeader();
    const QFontMetrics fm(h->font());
    int others = 0;
    // An nsys export without PyTorch's ranges has no operators: their column is hidden.
    EXPECT_TRUE(w.view()->isColumnHidden(KernelTableModel::Operator));
    for (int c = 0; c < KernelTableModel::ColumnCount; ++c) {
        if (c == KernelTableModel::Name || c == KernelTableModel::Operator)
            continue;
        const QString label = w.model()->headerData(c, Qt::Horizontal).toString();
        // The label plus room for the sort arrow.
        EXPECT_GE(h->sectionSize(c), fm.horizontalAdvance(label) + fm.height())
            << label.toStdString() << " is clipped at " << h->sectionSize(c) << " px";
        for (int r = w.view()->rowAt(0); r >= 0 && r <= w.view()->rowAt(200); ++r) {
            const QString text = w.model()->index(r, c).data().toString();
            EXPECT_GE(h->sectionSize(c), fm.horizontalAdvance(text)) << text.toStdString();
        }
        others += h->sectionSize(c);
    }
    const QString corr =
        w.model()->headerData(KernelTableModel::CorrelationId, Qt::Horizontal).toString();
    EXPECT_LE(h->sectionSize(KernelTableModel::CorrelationId),
              fm.horizontalAdvance(corr) + 3 * fm.height())
        << "Correlation id is a narrow column";
    EXPECT_EQ(h->sectionResizeMode(KernelTableModel::Name), QHeaderView::Stretch);
    EXPECT_EQ(h->sectionSize(KernelTableModel::Name), w.view()->viewport()->width() - others);
    EXPECT_GT(h->sectionSize(KernelTableModel::Name), 600);
}

// The launch configuration columns fit every value of the table, not only the first screen's:
// sorted by duration, the H100 export's first rows have small grids, (200, 1, 1) comes later.
TEST_F(KernelTableWidgetTest, GridAndBlockFitEveryRowsValue) {
    state.setTrace(h100());
    KernelTableWidget w(&state);
    w.resize(1600, 400);
    // Sorted by duration, the first screen holds the long GEMMs with small grids.
    w.view()->sortByColumn(KernelTableModel::Duration, Qt::DescendingOrder);
    ASSERT_TRUE(waitUntilReady(w));
    w.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
    QApplication::processEvents();
    QHeaderView* h = w.view()->horizontalHeader();
    const QFontMetrics fm(w.view()->font());
    ASSERT_GT(w.model()->rowCount(), 3000);
    for (const int c : {int(KernelTableModel::Grid), int(KernelTableModel::Block)}) {
        int widest = 0;
        for (int r = 0; r < w.model()->rowCount(); ++r)
            widest =
                std::max(widest, fm.horizontalAdvance(w.model()->index(r, c).data().toString()));
        EXPECT_GE(h->sectionSize(c), widest) << "column " << c;
    }
}

// Issue #14 item 8: a double-click or Enter on a row jumps to the timeline and asks it for the
// keyboard focus; the row stays selected.
TEST_F(KernelTableWidgetTest, ActivatingARowHandsTheFocusToTheTimeline) {
    KernelTableWidget w(&state);
    w.resize(1200, 400);
    w.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
    ASSERT_TRUE(waitUntilReady(w));
    QApplication::processEvents();
    QSignalSpy focus(&state, &ViewState::timelineFocusRequested);
    QSignalSpy reveal(&state, &ViewState::revealRequested);
    const QRect cell = w.view()->visualRect(w.view()->model()->index(3, KernelTableModel::Name));
    QTest::mouseClick(w.view()->viewport(), Qt::LeftButton, {}, cell.center());
    EXPECT_EQ(focus.count(), 0) << "a click only selects";
    QTest::mouseDClick(w.view()->viewport(), Qt::LeftButton, {}, cell.center());
    EXPECT_EQ(reveal.count(), 1);
    EXPECT_EQ(focus.count(), 1);
    EXPECT_EQ(state.selection(), cloverleaf()->kernels()[*w.model()->kernelAtRow(3)].self);
    EXPECT_TRUE(w.view()->selectionModel()->isRowSelected(3, {}));

    w.view()->setFocus();
    w.view()->setCurrentIndex(w.view()->model()->index(5, 0));
    QTest::keyClick(w.view(), Qt::Key_Return);
    EXPECT_EQ(reveal.count(), 2);
    EXPECT_EQ(focus.count(), 2);
    EXPECT_EQ(state.selection(), cloverleaf()->kernels()[*w.model()->kernelAtRow(5)].self);
}

// A big table reaches the view in steps (one pass of the event loop each); the rows, their
// order and the column widths end as when every row is shown at once.
TEST_F(KernelTableWidgetTest, RowsRevealedInStepsEndAsRowsShownAtOnce) {
    KernelTableWidget atOnce(&state);
    atOnce.model()->setRevealStep(0);
    KernelTableWidget stepped(&state);
    stepped.model()->setRevealStep(100); // before the worker's rows arrive
    QAbstractItemModelTester tester(stepped.model(),
                                    QAbstractItemModelTester::FailureReportingMode::Fatal);
    QSignalSpy inserted(stepped.model(), &QAbstractItemModel::rowsInserted);
    QSignalSpy applied(stepped.model(), &KernelTableModel::rowsApplied);
    QSignalSpy ready(&stepped, &KernelTableWidget::ready);
    std::vector<int> countsSeen; // the row count after each step
    QObject::connect(stepped.model(), &QAbstractItemModel::rowsInserted, &stepped,
                     [&] { countsSeen.push_back(stepped.model()->rowCount()); });
    ASSERT_TRUE(waitUntilReady(atOnce));
    ASSERT_TRUE(waitUntilReady(stepped));
    // 100 rows with the reset, then 12 steps of 100 and one of the last 12.
    std::vector<int> expected;
    for (int n = 200; n <= 1300; n += 100)
        expected.push_back(n);
    expected.push_back(1312);
    EXPECT_EQ(countsSeen, expected);
    EXPECT_EQ(inserted.count(), 13);
    EXPECT_EQ(applied.count(), 1);
    EXPECT_EQ(ready.count(), 1);
    ASSERT_EQ(stepped.model()->rowCount(), 1312);
    ASSERT_EQ(atOnce.model()->rowCount(), 1312);
    for (int r = 0; r < 1312; ++r)
        ASSERT_EQ(stepped.model()->kernelAtRow(r), atOnce.model()->kernelAtRow(r)) << r;
    const std::uint32_t last = *atOnce.model()->kernelAtRow(1311);
    EXPECT_EQ(stepped.model()->rowOfKernel(last), std::optional<int>(1311));
    for (int c = 0; c < KernelTableModel::ColumnCount; ++c)
        EXPECT_EQ(stepped.view()->horizontalHeader()->sectionSize(c),
                  atOnce.view()->horizontalHeader()->sectionSize(c))
            << c;
}

// While rows are still being revealed, a row not shown yet has no row number, and a new trace
// drops the steps still to come.
TEST_F(KernelTableWidgetTest, ANewTraceDropsTheRevealStepsStillToCome) {
    KernelTableWidget w(&state);
    w.model()->setRevealStep(1000);
    ASSERT_TRUE(QTest::qWaitFor([&] { return w.model()->rowCount() > 0; }, 30000));
    EXPECT_EQ(w.model()->rowCount(), 1000); // the first step only, so far
    EXPECT_TRUE(w.model()->rowsPending());
    EXPECT_TRUE(w.isComputing());
    const std::uint32_t hidden = *[&] {
        KernelTableModel all;
        all.setTrace(cloverleaf());
        return all.kernelAtRow(1311);
    }();
    EXPECT_EQ(w.model()->rowOfKernel(hidden), std::nullopt);
    std::shared_ptr<const Trace> small = kernelTrace({{"a", "a", 1000, 10}, {"b", "b", 2000, 5}});
    state.setTrace(small);
    ASSERT_TRUE(waitUntilReady(w));
    QTest::qWait(50); // a stale step, were it still to come, would have run by now
    EXPECT_EQ(w.model()->rowCount(), 2);
    EXPECT_EQ(w.model()->trace(), small.get());
}

TEST_F(KernelTableWidgetTest, AWindowOfTheRowsFollowsTheSelectionAndNamesTheModelsRows) {
    // 1,312 kernels through a window of 200: what a table of millions does with its window.
    KernelTableWidget w(&state);
    w.view()->setWindowRows(200);
    w.resize(1200, 400);
    w.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
    ASSERT_TRUE(waitUntilReady(w));
    EXPECT_EQ(w.view()->model()->rowCount(), 200);
    EXPECT_TRUE(w.view()->rowScrollBar()->isVisible());
    QAbstractItemModelTester tester(w.view()->model(),
                                    QAbstractItemModelTester::FailureReportingMode::Fatal);

    // A kernel picked on the timeline far below the window: the window moves to its row.
    const std::uint32_t picked = 1200; // row 1200 in start order
    state.setSelection(cloverleaf()->kernels()[picked].self);
    QApplication::processEvents();
    const QModelIndex current = w.view()->currentIndex();
    ASSERT_TRUE(current.isValid());
    EXPECT_EQ(w.view()->sourceRow(current), 1200);
    EXPECT_EQ(current.data(KernelIndexRole).toLongLong(), picked);
    EXPECT_TRUE(w.view()->selectionModel()->isRowSelected(current.row(), {}));
    EXPECT_GT(w.view()->windowStart(), 0);

    // Copying names the model's row, not the window's.
    EXPECT_EQ(w.copySelectedRows(), 1);
    const QString copied = QApplication::clipboard()->text();
    const QString id = w.model()->index(1200, KernelTableModel::CorrelationId).data().toString();
    EXPECT_TRUE(copied.contains(id)) << copied.toStdString();
    w.view()->clearSelection();
    EXPECT_EQ(w.copySelectedRows(), 1312) << "no selection: every row of the table";

    // A double-click on a row of the moved window reveals that row's kernel.
    QSignalSpy reveal(&state, &ViewState::revealRequested);
    const QModelIndex other = w.view()->windowIndex(1205);
    QApplication::processEvents();
    const QRect cell = w.view()->visualRect(other);
    ASSERT_TRUE(cell.isValid());
    QTest::mouseClick(w.view()->viewport(), Qt::LeftButton, {}, cell.center());
    QTest::mouseDClick(w.view()->viewport(), Qt::LeftButton, {}, cell.center());
    ASSERT_EQ(reveal.count(), 1);
    EXPECT_EQ(reveal.front().front().value<EventRef>(),
              cloverleaf()->kernels()[*w.model()->kernelAtRow(1205)].self);

    // A sort shows the top of the whole table.
    clickHeader(w.view(), KernelTableModel::Duration);
    ASSERT_TRUE(waitUntilReady(w));
    QApplication::processEvents();
    EXPECT_EQ(w.view()->windowStart(), 0);
    EXPECT_EQ(w.view()->rowScrollBar()->value(), 0);
    EXPECT_EQ(w.view()->sourceRow(w.view()->indexAt(QPoint(1, 1))), 0);
}

} // namespace

// The early preview of a big load holds the first kernels only, and the GPU-side preview none of
// their launch details: the table waits for the whole trace, and says so.
TEST(KernelTableEarlyPreview, ThePreviewsShowNoRowsUntilTheWholeTrace) {
    const auto previews = synthPreviews();
    ASSERT_EQ(previews.size(), 3u);
    ASSERT_EQ(previews[0]->metadata().stage, TraceStage::GpuSideBegun);
    ASSERT_GT(previews[0]->kernelCount(), 0u);
    ASSERT_EQ(previews[1]->metadata().stage, TraceStage::GpuSide);
    ASSERT_EQ(previews[1]->kernelCount(), previews[2]->kernelCount());

    ViewState state;
    KernelTableWidget w(&state);
    const QLabel* count = w.findChild<QLabel*>(QStringLiteral("kernelCount"));
    ASSERT_NE(count, nullptr);
    for (int i : {0, 1}) {
        state.setTrace(previews[std::size_t(i)]);
        ASSERT_TRUE(waitUntilReady(w));
        EXPECT_EQ(w.model()->rowCount(), 0) << i;
        EXPECT_EQ(count->text(), QStringLiteral("The kernels follow with their launch details…"));
    }
    state.setTrace(previews[2]); // the whole trace
    ASSERT_TRUE(waitUntilReady(w));
    EXPECT_EQ(std::uint64_t(w.model()->totalKernels()), previews[2]->kernelCount());
    EXPECT_TRUE(count->text().endsWith(QStringLiteral(" kernels"))) << count->text().toStdString();
}

namespace {

// The Operator column appears with the analysis of the trace shown, sorts on the worker like
// every column, and goes with a trace the analysis does not describe.
TEST(KernelTableWidget, OperatorColumnComesWithTheOperatorAnalysis) {
    const std::shared_ptr<const Trace> trace = launchChainTrace();
    ViewState state;
    state.setTrace(trace);
    KernelTableWidget w(&state);
    ASSERT_TRUE(waitUntilReady(w));
    EXPECT_TRUE(w.view()->isColumnHidden(KernelTableModel::Operator));
    w.setOperatorAnalysis(analyzeOperators(trace));
    EXPECT_FALSE(w.view()->isColumnHidden(KernelTableModel::Operator));
    w.view()->sortByColumn(KernelTableModel::Operator, Qt::DescendingOrder);
    ASSERT_TRUE(waitUntilReady(w));
    QStringList ops;
    for (int r = 0; r < w.model()->rowCount(); ++r)
        ops << w.model()->index(r, KernelTableModel::Operator).data().toString();
    const QString conv = QStringLiteral("aten::cudnn_convolution");
    EXPECT_EQ(ops, (QStringList{QStringLiteral("aten::relu"), conv, conv, conv, QString()}));

    state.setTrace(kernelTrace({{"k", "k", 1000, 100}}));
    ASSERT_TRUE(waitUntilReady(w));
    EXPECT_TRUE(w.view()->isColumnHidden(KernelTableModel::Operator));
    EXPECT_FALSE(w.model()->hasOperators());
}

} // namespace
