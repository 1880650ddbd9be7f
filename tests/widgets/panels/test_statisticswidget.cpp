// SPDX-License-Identifier: MIT
#include "model/analysis/kernelsummarymodel.h"
#include "model/analysis/kerneltablemodel.h"
#include "model/analysis/memorysummarymodel.h"
#include "model/analysis/nvtxsummarymodel.h"
#include "tests/model/analysis/analysistestdata.h"
#include "tests/support/csvparse.h"
#include "tests/widgets/panels/paneltesthelpers.h"
#include "widgets/panels/kerneltablewidget.h"
#include "widgets/panels/statisticswidget.h"
#include "widgets/panels/tableexport.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTableView>
#include <gtest/gtest.h>

#include <algorithm>

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
    // Read the order back from the exported text itself (names hold commas: a real CSV parser).
    const std::vector<QStringList> records = parseCsv(csv);
    ASSERT_EQ(int(records.size()), stats.kernelModel()->rowCount() + 1);
    const QStringList& header = records.front();
    EXPECT_TRUE(header.join(u',').startsWith(QStringLiteral("Name,Time %,Total,Instances,")));
    const qsizetype instances = header.indexOf(QStringLiteral("Instances"));
    ASSERT_GE(instances, 0);
    // Every configuration's instance count, from the model's rows in any order: the CSV holds
    // the same multiset, ascending.
    std::vector<qlonglong> want;
    for (const KernelSummaryRow& r : stats.kernelModel()->rows())
        want.push_back(qlonglong(r.stats.count));
    std::sort(want.begin(), want.end());
    std::vector<qlonglong> got;
    for (std::size_t i = 1; i < records.size(); ++i) {
        ASSERT_EQ(records[i].size(), header.size()) << "record " << i;
        QString n = records[i][instances];
        bool ok = false;
        got.push_back(n.remove(u',').toLongLong(&ok));
        ASSERT_TRUE(ok) << records[i][instances].toStdString();
    }
    EXPECT_EQ(got, want);
    EXPECT_LT(got.front(), got.back()) << "the order is visible: the counts differ";
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
