// SPDX-License-Identifier: MIT
#include "model/analysis/kernelsummarymodel.h"
#include "model/analysis/kerneltablemodel.h"
#include "model/analysis/memorysummarymodel.h"
#include "model/analysis/nvtxsummarymodel.h"
#include "tests/model/analysis/analysistestdata.h"
#include "tests/widgets/panels/paneltesthelpers.h"
#include "widgets/panels/kerneltablewidget.h"
#include "widgets/panels/statisticswidget.h"
#include "widgets/panels/tableexport.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTableView>
#include <gtest/gtest.h>

using namespace strobe;
using namespace strobe::test;

namespace {

TEST(StatisticsWidget, ActivatingARowFiltersTheTableAndStepsThroughInstances) {
    ViewState state;
    state.setTrace(cloverleaf());
    StatisticsWidget stats(&state);
    KernelTableWidget table(&state);
    QObject::connect(&stats, &StatisticsWidget::kernelFilterRequested, &table,
                     &KernelTableWidget::showOnlyConfigs);
    QAbstractItemModelTester t1(stats.kernelModel(),
                                QAbstractItemModelTester::FailureReportingMode::Fatal);
    QAbstractItemModelTester t2(stats.nvtxModel(),
                                QAbstractItemModelTester::FailureReportingMode::Fatal);
    QAbstractItemModelTester t3(stats.memoryModel(),
                                QAbstractItemModelTester::FailureReportingMode::Fatal);
    ASSERT_TRUE(waitUntilReady(stats));
    ASSERT_TRUE(waitUntilReady(table));
    ASSERT_GT(stats.kernelModel()->rowCount(), 1);
    EXPECT_EQ(stats.memoryModel()->rowCount(), 2); // HtoD and DtoH

    const KernelSummaryRow& top = stats.kernelModel()->rows()[0];
    QSignalSpy filter(&stats, &StatisticsWidget::kernelFilterRequested);
    QSignalSpy reveal(&state, &ViewState::revealRequested);
    stats.activateKernelRow(0); // view order is model order until the user sorts
    ASSERT_EQ(filter.count(), 1);
    ASSERT_TRUE(waitUntilReady(table));
    EXPECT_EQ(table.model()->rowCount(), int(top.stats.count));
    ASSERT_EQ(reveal.count(), 1);
    EXPECT_EQ(state.selection(), cloverleaf()->kernels()[top.instances[0]].self);

    stats.stepInstance(+1);
    EXPECT_EQ(state.selection(), cloverleaf()->kernels()[top.instances[1]].self);
    stats.stepInstance(-1);
    stats.stepInstance(-1); // wraps to the last instance
    EXPECT_EQ(state.selection(), cloverleaf()->kernels()[top.instances.back()].self);
    EXPECT_EQ(stats.currentInstance(), int(top.instances.size()) - 1);
}

TEST(StatisticsWidget, GroupingAndSortedExport) {
    ViewState state;
    state.setTrace(cloverleaf());
    StatisticsWidget stats(&state);
    ASSERT_TRUE(waitUntilReady(stats));
    stats.setGrouping(KernelGrouping::LaunchConfig);
    EXPECT_TRUE(stats.isComputing());
    ASSERT_TRUE(waitUntilReady(stats));
    EXPECT_EQ(stats.kernelModel()->grouping(), KernelGrouping::LaunchConfig);
    EXPECT_EQ(stats.kernelModel()->columnCount(), int(KernelSummaryModel::ColumnCount));
    // Sort by instances ascending in the view; the CSV follows the view's order.
    stats.kernelView()->sortByColumn(KernelSummaryModel::Instances, Qt::AscendingOrder);
    const QString csv = modelToCsv(*stats.kernelView()->model());
    const QStringList lines = csv.split(QStringLiteral("\r\n"), Qt::SkipEmptyParts);
    ASSERT_EQ(lines.size(), stats.kernelModel()->rowCount() + 1);
    EXPECT_TRUE(lines[0].startsWith(QStringLiteral("Name,Time %,Total,Instances,")));
    qlonglong previous = 0;
    for (int i = 1; i < lines.size(); ++i) {
        // Names hold commas and are quoted; Instances is the 4th field from the last column
        // group, so read it from the model instead of parsing here.
        const QModelIndex idx =
            stats.kernelView()->model()->index(i - 1, KernelSummaryModel::Instances);
        const qlonglong n = idx.data(Qt::UserRole + 1).toLongLong();
        EXPECT_GE(n, previous);
        previous = n;
    }
}

TEST(StatisticsWidget, SummariesArriveFromWorkersAndStaleOnesAreDiscarded) {
    ViewState state;
    StatisticsWidget stats(&state);
    ASSERT_TRUE(waitUntilReady(stats));
    EXPECT_EQ(stats.kernelModel()->rowCount(), 0);
    // Kernel names each summary shows when it reaches the model.
    std::vector<QString> shown;
    QObject::connect(stats.kernelModel(), &QAbstractItemModel::modelReset, &stats, [&] {
        for (const KernelSummaryRow& r : stats.kernelModel()->rows())
            shown.push_back(r.name);
    });
    QSignalSpy ready(&stats, &StatisticsWidget::ready);
    std::shared_ptr<const Trace> small = kernelTrace({{"stale_kernel", "stale_kernel", 1000, 10}});
    state.setTrace(small);        // starts the summaries of the small trace...
    state.setTrace(cloverleaf()); // ...replaced before they can arrive
    EXPECT_TRUE(stats.isComputing());
    EXPECT_EQ(stats.kernelModel()->rowCount(), 0); // the hand-over only empties the tables
    ASSERT_TRUE(waitUntilReady(stats));
    QTest::qWait(100); // a stale result, were it delivered, would arrive by now
    EXPECT_EQ(ready.count(), 1);
    EXPECT_GT(stats.kernelModel()->rowCount(), 1);
    EXPECT_EQ(stats.memoryModel()->rowCount(), 2);
    EXPECT_EQ(std::count(shown.begin(), shown.end(), QStringLiteral("stale_kernel")), 0);
    EXPECT_EQ(int(shown.size()), stats.kernelModel()->rowCount());
}

} // namespace
