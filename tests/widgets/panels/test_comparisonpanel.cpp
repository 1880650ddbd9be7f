// SPDX-License-Identifier: MIT
// The Comparison panel on the known pair: tables, colours, filter, range choice, double-click.
#include "model/itemmodels/comparisonmodels.h"
#include "model/itemmodels/tableroles.h"
#include "tests/model/analysis/comparisontestdata.h"
#include "tests/support/qtprinters.h"
#include "tests/widgets/panels/paneltesthelpers.h"
#include "widgets/panels/comparisonpanel.h"
#include "widgets/panels/tableexport.h"

#include <QAbstractItemModelTester>
#include <QColor>
#include <QSignalSpy>
#include <QTableView>
#include <gtest/gtest.h>

using namespace strobe;

namespace {

class ComparisonPanelTest : public ::testing::Test {
protected:
    void SetUp() override {
        a.setTrace(test::loadShared(test::pairPath(fixtures::PairSide::A)));
        b.setTrace(test::loadShared(test::pairPath(fixtures::PairSide::B)));
        ASSERT_TRUE(a.trace() && b.trace());
    }
    ViewState a, b;
};

TEST_F(ComparisonPanelTest, ShowsTheThreeTablesPerDetectedIteration) {
    ComparisonPanel panel(&a, &b);
    QAbstractItemModelTester t1(panel.kernelModel(),
                                QAbstractItemModelTester::FailureReportingMode::Fatal);
    QAbstractItemModelTester t2(panel.kernelView()->model(),
                                QAbstractItemModelTester::FailureReportingMode::Fatal);
    ASSERT_TRUE(test::waitUntilReady(panel));
    ASSERT_TRUE(panel.comparison());
    EXPECT_TRUE(panel.comparison()->rangeDetected);
    EXPECT_TRUE(panel.summaryText().contains(QLatin1String("A (baseline): pair-a.sqlite")))
        << panel.summaryText().toStdString();
    EXPECT_TRUE(panel.summaryText().contains(
        QLatin1String("Per instance of 'Iteration' (detected): 2 in A, 3 in B")))
        << panel.summaryText().toStdString();
    QAbstractItemModel* kv = panel.kernelView()->model();
    ASSERT_EQ(kv->rowCount(), 4);
    EXPECT_EQ(kv->columnCount(), 11); // per-instance columns with the range
    EXPECT_EQ(kv->index(0, 0).data().toString(), QStringLiteral("alpha"));
    // Slower in red, faster (gamma removed) in green; other cells keep the default colour.
    const QColor slower =
        kv->index(0, KernelDiffModel::Delta).data(Qt::ForegroundRole).value<QColor>();
    const QColor faster =
        kv->index(1, KernelDiffModel::Delta).data(Qt::ForegroundRole).value<QColor>();
    EXPECT_GT(slower.red(), slower.green());
    EXPECT_GT(faster.green(), faster.red());
    EXPECT_FALSE(kv->index(0, KernelDiffModel::TotalA).data(Qt::ForegroundRole).isValid());
    EXPECT_EQ(panel.rangeView()->model()->rowCount(), 4);
    EXPECT_EQ(panel.gpuView()->model()->rowCount(), 1);
    // Sorting by a column works on raw values: Total B ascending puts delta (300 ns) first.
    panel.kernelView()->sortByColumn(KernelDiffModel::TotalB, Qt::AscendingOrder);
    EXPECT_EQ(kv->index(0, 0).data().toString(), QStringLiteral("gamma")); // 0 in B
    EXPECT_EQ(kv->index(1, 0).data().toString(), QStringLiteral("delta"));
    // CSV export of the view as shown.
    const QString csv = modelToCsv(*kv);
    EXPECT_TRUE(csv.startsWith(QLatin1String("Kernel,Count A,Count B,Total A,Total B,")))
        << csv.toStdString();
}

TEST_F(ComparisonPanelTest, FilterRangeAndGrouping) {
    ComparisonPanel panel(&a, &b);
    ASSERT_TRUE(test::waitUntilReady(panel));
    panel.setFilter(QStringLiteral("AL"));
    EXPECT_EQ(panel.kernelView()->model()->rowCount(), 1); // alpha, case-insensitive
    EXPECT_EQ(panel.rangeView()->model()->rowCount(), 0);
    panel.setFilter(QString());
    panel.setRange(ComparisonPanel::kWholeTraces);
    ASSERT_TRUE(test::waitUntilReady(panel));
    EXPECT_FALSE(panel.comparison()->hasRange());
    EXPECT_EQ(panel.kernelView()->model()->columnCount(), 11); // ... Per second A, B
    // Whole traces: the header says what the colours compare and a range to align on.
    EXPECT_TRUE(panel.summaryText().contains(
        QLatin1String("per-launch medians and rates per second of wall time")))
        << panel.summaryText().toStdString();
    EXPECT_TRUE(panel.summaryText().contains(QLatin1String("per instance of 'Iteration'")));
    panel.setRange(QStringLiteral("Epoch"));
    ASSERT_TRUE(test::waitUntilReady(panel));
    EXPECT_TRUE(
        panel.summaryText().contains(QLatin1String("Per instance of 'Epoch': 0 in A, 0 in B")))
        << panel.summaryText().toStdString();
    EXPECT_EQ(panel.kernelView()->model()->rowCount(), 0);
    panel.setRange(QStringLiteral("Iteration"));
    panel.setGrouping(KernelGrouping::LaunchConfig);
    ASSERT_TRUE(test::waitUntilReady(panel));
    EXPECT_TRUE(panel.kernelModel()->rowAt(0)->name.contains(QLatin1String("[grid")));
    // Without B there is nothing to compare.
    b.setTrace(nullptr);
    EXPECT_FALSE(panel.comparison());
    EXPECT_EQ(panel.kernelView()->model()->rowCount(), 0);
    EXPECT_TRUE(panel.summaryText().contains(QLatin1String("Compare With")));
}

TEST_F(ComparisonPanelTest, DoubleClickAsksForTheLongestInstances) {
    ComparisonPanel panel(&a, &b);
    ASSERT_TRUE(test::waitUntilReady(panel));
    QSignalSpy spy(&panel, &ComparisonPanel::kernelInstancesRequested);
    panel.activateKernelRow(0); // alpha
    ASSERT_EQ(spy.count(), 1);
    const auto ra = spy.at(0).at(0).value<EventRef>();
    const auto rb = spy.at(0).at(1).value<EventRef>();
    ASSERT_TRUE(ra.isValid() && rb.isValid());
    const Lane& la = a.trace()->lane(ra.lane);
    const Lane& lb = b.trace()->lane(rb.lane);
    EXPECT_EQ(la.end(ra.index) - la.start(ra.index), 1000);
    EXPECT_EQ(lb.end(rb.index) - lb.start(rb.index), 2000);
    EXPECT_EQ(a.selection(), ra);
    EXPECT_EQ(b.selection(), rb);
    panel.activateKernelRow(3); // delta: only in B
    ASSERT_EQ(spy.count(), 2);
    EXPECT_FALSE(spy.at(1).at(0).value<EventRef>().isValid());
    EXPECT_TRUE(spy.at(1).at(1).value<EventRef>().isValid());
    panel.activateKernelRow(99); // no such row: nothing
    EXPECT_EQ(spy.count(), 2);
}

// Issue #14 item 3: the comparison's tables sort like every table (quantities largest first).
TEST_F(ComparisonPanelTest, AFirstClickSortsLargestFirst) {
    ComparisonPanel panel(&a, &b);
    panel.resize(1200, 400);
    static_cast<QWidget&>(panel).show(); // (ComparisonPanel::show shows a comparison)
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&panel));
    ASSERT_TRUE(test::waitUntilReady(panel));
    QTableView* view = panel.kernelView();
    test::clickHeader(view, KernelDiffModel::TotalB);
    EXPECT_EQ(view->horizontalHeader()->sortIndicatorOrder(), Qt::DescendingOrder);
    qulonglong most = 0;
    for (int r = 0; r < view->model()->rowCount(); ++r)
        most = std::max(
            most, view->model()->index(r, KernelDiffModel::TotalB).data(SortRole).toULongLong());
    EXPECT_GT(most, 0u);
    EXPECT_EQ(view->model()->index(0, KernelDiffModel::TotalB).data(SortRole).toULongLong(), most);
    test::clickHeader(view, KernelDiffModel::Name);
    EXPECT_EQ(view->horizontalHeader()->sortIndicatorOrder(), Qt::AscendingOrder);
    for (QTableView* v : {panel.kernelView(), panel.rangeView(), panel.gpuView()})
        EXPECT_EQ(test::firstClickOrder(v, 1), Qt::DescendingOrder); // Count A, or a GPU's total
}

} // namespace
