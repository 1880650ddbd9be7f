// SPDX-License-Identifier: MIT
#include "model/itemmodels/kernelsummarymodel.h"
#include "model/itemmodels/kerneltablemodel.h"
#include "model/itemmodels/memorysummarymodel.h"
#include "model/itemmodels/namefilterproxy.h"
#include "model/itemmodels/nvtxsummarymodel.h"
#include "model/itemmodels/reporttablemodel.h"
#include "model/itemmodels/tableroles.h"
#include "model/reports/statsreports.h"
#include "tests/model/analysis/analysistestdata.h"
#include "tests/support/csvparse.h"
#include "tests/support/sqlitequery.h"
#include "tests/widgets/panels/paneltesthelpers.h"
#include "widgets/panels/kerneltablewidget.h"
#include "widgets/panels/namefilteredit.h"
#include "widgets/panels/statisticswidget.h"
#include "widgets/panels/tableexport.h"

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTableView>
#include <gtest/gtest.h>

#include <algorithm>

using namespace strobe;
using namespace strobe::test;

namespace {

const std::string kH100 = "nsys2026.2-h100-2gpu-nvtx.sqlite";

// The H100 export's ranges are all "operator, op_id = N" in the default domain: the operator
// is the text before ", op_id = " (SQL, independent of the grouping code).
const char* const kOperator = "CASE WHEN instr(text, ', op_id = ') > 1 THEN substr(text, 1, "
                              "instr(text, ', op_id = ') - 1) ELSE text END";

std::int64_t h100Count(const std::string& sql) {
    return queryInt(fixturePath(kH100), sql);
}

// Names in column 0 of `model` that contain `text` (case-insensitive), counted by hand.
int rowsContaining(const QAbstractItemModel& model, const QString& text) {
    int n = 0;
    for (int r = 0; r < model.rowCount(); ++r)
        n += model.index(r, 0).data().toString().contains(text, Qt::CaseInsensitive);
    return n;
}

TEST(StatisticsWidget, GroupPerCallIdsToggleSwitchesOperatorsAndRecordedNames) {
    ViewState state;
    state.setTrace(h100());
    StatisticsWidget stats(&state);
    stats.resize(1200, 600);
    stats.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&stats));
    ASSERT_TRUE(waitUntilReady(stats));
    QAbstractItemModelTester tester(stats.nvtxModel(),
                                    QAbstractItemModelTester::FailureReportingMode::Fatal);
    const std::int64_t operators =
        h100Count(std::string("SELECT COUNT(DISTINCT ") + kOperator +
                  ") FROM NVTX_EVENTS WHERE eventType = 59 AND [end] IS NOT NULL");
    const std::int64_t names = h100Count(
        "SELECT COUNT(DISTINCT text) FROM NVTX_EVENTS WHERE eventType = 59 AND [end] IS NOT NULL");
    ASSERT_GT(names, 50 * operators);

    stats.tabs()->setCurrentIndex(StatisticsWidget::NvtxTab);
    QCheckBox* box = stats.groupPerCallIdsBox();
    EXPECT_TRUE(box->isVisible());
    EXPECT_EQ(box->text(), QStringLiteral("Group per-call ids"));
    EXPECT_TRUE(box->isChecked()); // grouped by default
    EXPECT_EQ(stats.nvtxModel()->rowCount(), operators);
    const NvtxSummaryRow& top = stats.nvtxModel()->summary().rows[0];
    EXPECT_EQ(std::int64_t(top.stats.count),
              h100Count(std::string("SELECT COUNT(*) FROM NVTX_EVENTS WHERE ") + kOperator +
                        " = '" + top.range.toStdString() + "' AND [end] IS NOT NULL"));
    EXPECT_EQ(top.stats.total,
              h100Count(std::string("SELECT SUM([end] - start) FROM NVTX_EVENTS WHERE ") +
                        kOperator + " = '" + top.range.toStdString() + "'"));

    QTest::mouseClick(box, Qt::LeftButton, {}, QPoint(4, box->height() / 2));
    EXPECT_FALSE(box->isChecked());
    EXPECT_EQ(stats.nvtxNaming(), RangeNaming::Raw);
    ASSERT_TRUE(waitUntilReady(stats));
    EXPECT_EQ(stats.nvtxModel()->rowCount(), names);
    EXPECT_TRUE(stats.nvtxModel()->summary().rows[0].range.contains(u", op_id = "));

    stats.setNvtxNaming(RangeNaming::Grouped); // the API and the box agree
    EXPECT_TRUE(box->isChecked());
    ASSERT_TRUE(waitUntilReady(stats));
    EXPECT_EQ(stats.nvtxModel()->rowCount(), operators);
}

TEST(StatisticsWidget, EveryTabFiltersByNamePlainOrRegex) {
    ViewState state;
    state.setTrace(h100());
    StatisticsWidget stats(&state);
    stats.resize(1200, 600);
    stats.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&stats));
    ASSERT_TRUE(waitUntilReady(stats));

    // NVTX: typed plain text, as a user would.
    stats.tabs()->setCurrentIndex(StatisticsWidget::NvtxTab);
    const StatisticsWidget::Table& nvtx = stats.table(StatisticsWidget::NvtxTab);
    const int all = stats.nvtxModel()->rowCount();
    QTest::keyClicks(nvtx.filter->lineEdit(), QStringLiteral("ATEN::MM"));
    const std::int64_t mmOps =
        h100Count(std::string("SELECT COUNT(DISTINCT ") + kOperator + ") FROM NVTX_EVENTS WHERE " +
                  kOperator + " LIKE '%aten::mm%'");
    ASSERT_GT(mmOps, 0);
    EXPECT_EQ(nvtx.proxy->rowCount(), mmOps);
    EXPECT_EQ(nvtx.count->text(), QStringLiteral("%1 of %2 rows").arg(mmOps).arg(all));
    // Regex: only the two matrix products, anchored.
    QTest::mouseClick(nvtx.filter->regexBox(), Qt::LeftButton, {},
                      QPoint(4, nvtx.filter->regexBox()->height() / 2));
    nvtx.filter->lineEdit()->clear();
    QTest::keyClicks(nvtx.filter->lineEdit(), QStringLiteral("^aten::(mm|bmm)$"));
    const std::int64_t products =
        h100Count(std::string("SELECT COUNT(DISTINCT ") + kOperator + ") FROM NVTX_EVENTS WHERE " +
                  kOperator + " IN ('aten::mm', 'aten::bmm')");
    ASSERT_GT(products, 0);
    EXPECT_EQ(nvtx.proxy->rowCount(), products);
    // An invalid pattern hides nothing and says why.
    nvtx.filter->lineEdit()->clear();
    QTest::keyClicks(nvtx.filter->lineEdit(), QStringLiteral("aten::(mm"));
    EXPECT_EQ(nvtx.proxy->rowCount(), all);
    EXPECT_EQ(nvtx.filter->lineEdit()->toolTip(), QStringLiteral("Invalid regular expression"));
    // The filter survives a regrouping: the raw rows are filtered too.
    stats.setNameFilter(StatisticsWidget::NvtxTab, QStringLiteral("aten::mm, op_id"));
    stats.setNvtxNaming(RangeNaming::Raw);
    ASSERT_TRUE(waitUntilReady(stats));
    EXPECT_EQ(nvtx.proxy->rowCount(),
              h100Count("SELECT COUNT(DISTINCT text) FROM NVTX_EVENTS WHERE text LIKE "
                        "'aten::mm, op%'"));

    // Kernels and memory operations: the same control on their tabs.
    const StatisticsWidget::Table& kernels = stats.table(StatisticsWidget::KernelsTab);
    stats.tabs()->setCurrentIndex(StatisticsWidget::KernelsTab);
    EXPECT_TRUE(kernels.filter->isVisible());
    QTest::keyClicks(kernels.filter->lineEdit(), QStringLiteral("gemm"));
    const int gemms = rowsContaining(*stats.kernelModel(), QStringLiteral("gemm"));
    ASSERT_GT(gemms, 0);
    ASSERT_LT(gemms, stats.kernelModel()->rowCount());
    EXPECT_EQ(kernels.proxy->rowCount(), gemms);
    EXPECT_EQ(stats.kernelView()->model(), kernels.proxy);

    const StatisticsWidget::Table& memory = stats.table(StatisticsWidget::MemoryTab);
    stats.tabs()->setCurrentIndex(StatisticsWidget::MemoryTab);
    EXPECT_TRUE(memory.filter->isVisible());
    ASSERT_GT(stats.memoryModel()->rowCount(), 1);
    QTest::keyClicks(memory.filter->lineEdit(), QStringLiteral("to device"));
    EXPECT_EQ(memory.proxy->rowCount(),
              rowsContaining(*stats.memoryModel(), QStringLiteral("to device")));
    EXPECT_LT(memory.proxy->rowCount(), stats.memoryModel()->rowCount());
    EXPECT_GT(memory.proxy->rowCount(), 0);
}

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

// Issue #14 item 3, as in the kernel table: the first click on a quantity sorts largest first, on
// a name A to Z, and a sort shows the top rows with the selection kept.
TEST(StatisticsWidget, AFirstClickSortsLargestFirstAndShowsTheTop) {
    ViewState state;
    state.setTrace(cloverleaf());
    StatisticsWidget stats(&state);
    stats.resize(1200, 160); // a few rows in view
    stats.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&stats));
    ASSERT_TRUE(waitUntilReady(stats));
    QTableView* view = stats.kernelView();
    const QAbstractItemModel* shown = view->model();
    const int rows = shown->rowCount();
    ASSERT_GT(rows, 6);
    // The kernel with the fewest instances, selected and scrolled to.
    int fewest = 0;
    for (int r = 1; r < rows; ++r)
        if (shown->index(r, KernelSummaryModel::Instances).data(SortRole).toLongLong() <
            shown->index(fewest, KernelSummaryModel::Instances).data(SortRole).toLongLong())
            fewest = r;
    const QString name = shown->index(fewest, KernelSummaryModel::Name).data().toString();
    view->selectRow(rows - 1);
    view->scrollToBottom();
    QApplication::processEvents();
    ASSERT_GT(view->verticalScrollBar()->value(), 0);
    const QString selected = shown->index(rows - 1, KernelSummaryModel::Name).data().toString();

    clickHeader(view, KernelSummaryModel::Instances);
    QApplication::processEvents();
    EXPECT_EQ(view->horizontalHeader()->sortIndicatorOrder(), Qt::DescendingOrder);
    EXPECT_EQ(view->verticalScrollBar()->value(), 0);
    std::int64_t most = 0;
    for (const KernelSummaryRow& r : stats.kernelModel()->rows())
        most = std::max<std::int64_t>(most, std::int64_t(r.stats.count));
    EXPECT_EQ(shown->index(0, KernelSummaryModel::Instances).data(SortRole).toLongLong(), most);
    const QModelIndexList kept = view->selectionModel()->selectedRows(KernelSummaryModel::Name);
    ASSERT_EQ(kept.size(), 1);
    EXPECT_EQ(kept[0].data().toString(), selected);
    clickHeader(view, KernelSummaryModel::Instances); // reverses
    EXPECT_EQ(shown->index(0, KernelSummaryModel::Name).data().toString(), name);

    clickHeader(view, KernelSummaryModel::Name);
    EXPECT_EQ(view->horizontalHeader()->sortIndicatorOrder(), Qt::AscendingOrder);
    for (int c : {int(KernelSummaryModel::Total), int(KernelSummaryModel::Maximum),
                  int(KernelSummaryModel::TimePercent)})
        EXPECT_EQ(firstClickOrder(view, c), Qt::DescendingOrder) << c;
    // The other tabs follow the same rule.
    const QList<QTableView*> views = stats.findChildren<QTableView*>();
    ASSERT_EQ(views.size(), int(StatisticsWidget::TabCount)); // the nsys report tabs too
    for (QTableView* v : views) {
        const QAbstractItemModel* m = v->model();
        EXPECT_EQ(firstClickOrder(v, 0), Qt::AscendingOrder); // the name or direction
        const int last = m->columnCount() - 1;
        EXPECT_EQ(firstClickOrder(v, last), Qt::DescendingOrder)
            << m->headerData(last, Qt::Horizontal).toString().toStdString();
    }
    QTableView* nvtx = stats.table(StatisticsWidget::NvtxTab).view;
    EXPECT_EQ(firstClickOrder(nvtx, NvtxSummaryModel::Style), Qt::AscendingOrder);
    EXPECT_EQ(firstClickOrder(nvtx, NvtxSummaryModel::Total), Qt::DescendingOrder);
    EXPECT_EQ(firstClickOrder(stats.table(StatisticsWidget::MemoryTab).view,
                              MemorySummaryModel::TotalBytes),
              Qt::DescendingOrder);
}

} // namespace

// The early preview of a big load holds the first kernels only: no partial statistics.
TEST(StatisticsEarlyPreview, TheFirstKernelsAloneGiveNoSummary) {
    const auto previews = test::synthPreviews();
    ASSERT_EQ(previews.size(), 3u);
    ViewState state;
    StatisticsWidget stats(&state);
    state.setTrace(previews[0]);
    ASSERT_TRUE(test::waitUntilReady(stats));
    EXPECT_EQ(stats.kernelModel()->rowCount(), 0);
    state.setTrace(previews[1]);
    ASSERT_TRUE(test::waitUntilReady(stats));
    EXPECT_GT(stats.kernelModel()->rowCount(), 0);
}

// The nsys stats report tabs (issue 43) show the tables strobe-cli prints: the same rows in the
// same order, each cell's exported value the CLI's.
TEST(StatisticsWidget, ReportTabsShowWhatTheCliPrints) {
    ViewState state;
    const std::shared_ptr<const Trace> trace = cloverleaf();
    state.setTrace(trace);
    StatisticsWidget stats(&state);
    ASSERT_TRUE(waitUntilReady(stats));
    using W = StatisticsWidget;
    const std::vector<std::tuple<W::Tab, QString, ReportTable>> expected{
        {W::ApiTab, QStringLiteral("CUDA API"),
         callSummaryReport(summarizeCalls(*trace, CallFamily::CudaApi))},
        {W::OsrtTab, QStringLiteral("OS runtime"),
         callSummaryReport(summarizeCalls(*trace, CallFamily::Osrt))},
        {W::MemorySizeTab, QStringLiteral("Memory sizes"),
         memorySizeSummaryReport(summarizeMemorySizes(*trace))},
        {W::LaunchTab, QStringLiteral("Kernel launches"),
         launchSummaryReport(summarizeLaunches(*trace))},
        {W::NvtxGpuTab, QStringLiteral("NVTX on GPU"),
         nvtxGpuSummaryReport(summarizeNvtxGpu(*trace))},
    };
    for (const auto& [tab, title, table] : expected) {
        ReportTableModel* model = stats.reportModel(tab);
        ASSERT_NE(model, nullptr);
        QAbstractItemModelTester tester(model,
                                        QAbstractItemModelTester::FailureReportingMode::Fatal);
        EXPECT_EQ(stats.tabs()->tabText(tab), title);
        ASSERT_EQ(model->columnCount(), table.columns.size()) << title.toStdString();
        ASSERT_EQ(std::size_t(model->rowCount()), table.rows.size()) << title.toStdString();
        // CloverLeaf has CUDA calls, OS runtime calls, copies and launches, but no NVTX.
        EXPECT_EQ(model->rowCount() == 0, tab == W::NvtxGpuTab) << title.toStdString();
        for (int r = 0; r < model->rowCount(); ++r)
            for (int c = 0; c < model->columnCount(); ++c) {
                const ReportCell& cell = table.rows[std::size_t(r)][std::size_t(c)];
                const QVariant v = model->index(r, c).data(ExportRole);
                if (cell.kind == ReportCell::Kind::Number)
                    EXPECT_DOUBLE_EQ(v.toDouble(), cell.text.toDouble());
                else
                    EXPECT_EQ(v.toString(), cell.text);
            }
    }
    EXPECT_EQ(stats.reportModel(W::KernelsTab), nullptr);
    // Each tab filters by name: the CUDA launch calls only.
    stats.setNameFilter(W::ApiTab, QStringLiteral("^cuda(Launch|Memcpy)"), true);
    const W::Table& api = stats.table(W::ApiTab);
    EXPECT_EQ(api.proxy->rowCount(),
              rowsContaining(*stats.reportModel(W::ApiTab), QStringLiteral("cudaLaunch")) +
                  rowsContaining(*stats.reportModel(W::ApiTab), QStringLiteral("cudaMemcpy")));
    EXPECT_GT(api.proxy->rowCount(), 0);
    EXPECT_LT(api.proxy->rowCount(), stats.reportModel(W::ApiTab)->rowCount());
}

// The NVTX-on-GPU tab names its ranges as the NVTX tab does: "Group per-call ids" merges
// PyTorch's operator calls, unchecked every recorded name is a row.
TEST(StatisticsWidget, NvtxGpuTabFollowsTheGroupingToggle) {
    ViewState state;
    const std::shared_ptr<const Trace> trace = h100();
    state.setTrace(trace);
    StatisticsWidget stats(&state);
    ASSERT_TRUE(waitUntilReady(stats));
    ReportTableModel* model = stats.reportModel(StatisticsWidget::NvtxGpuTab);
    const auto grouped = summarizeNvtxGpu(*trace, RangeNaming::Grouped);
    const auto raw = summarizeNvtxGpu(*trace, RangeNaming::Raw);
    ASSERT_LT(grouped.size() * 10, raw.size());
    EXPECT_EQ(std::size_t(model->rowCount()), grouped.size());
    stats.groupPerCallIdsBox()->setChecked(false);
    ASSERT_TRUE(waitUntilReady(stats));
    EXPECT_EQ(std::size_t(model->rowCount()), raw.size());
    EXPECT_EQ(model->index(0, 0).data().toString(), raw.front().range);
}
