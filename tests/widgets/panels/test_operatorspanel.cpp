// SPDX-License-Identifier: MIT
// The Operators panel: the operator table of the trace's analysis, the selected operator's
// kernels and Python stack, the zoom to its longest call, regrouping, and a trace without
// operators; on a hand-built trace and on a real PyTorch profiler trace.
#include "formats/open.h"
#include "model/itemmodels/operatorkernelsmodel.h"
#include "model/itemmodels/operatortablemodel.h"
#include "model/itemmodels/tableroles.h"
#include "tests/model/analysis/analysistestdata.h"
#include "tests/model/analysis/launchchaintestdata.h"
#include "tests/widgets/panels/paneltesthelpers.h"
#include "widgets/panels/operatorspanel.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QTableView>
#include <QTreeWidget>
#include <gtest/gtest.h>

using namespace strobe;
using namespace strobe::test;

namespace {

QString cell(const QAbstractItemModel* m, int row, int column) {
    return m->data(m->index(row, column)).toString();
}

// The operator table's section of `column` (Input shapes is shown only when grouped by shapes).
int section(const OperatorsPanel& panel, OperatorTableModel::Column column) {
    return panel.model()->sectionOf(column);
}

TEST(OperatorsPanel, ShowsTheAnalysisAndTheSelectedOperatorsKernelsAndStack) {
    const std::shared_ptr<const Trace> trace = launchChainTrace();
    ViewState state;
    state.setTrace(trace);
    OperatorsPanel panel(&state);
    QAbstractItemModelTester tester(panel.model(),
                                    QAbstractItemModelTester::FailureReportingMode::Fatal);
    EXPECT_TRUE(panel.isComputing()) << "a complete trace without its analysis yet";
    EXPECT_EQ(panel.message(), QStringLiteral("Finding the operators…"));

    panel.setAnalysis(analyzeOperators(trace));
    ASSERT_TRUE(waitUntilReady(panel));
    EXPECT_EQ(panel.message(), QString());
    const QAbstractItemModel* view = panel.view()->model();
    ASSERT_EQ(view->rowCount(), 5); // 4 operators and the GPU work of none
    ASSERT_EQ(view->columnCount(), 7);
    EXPECT_EQ(cell(view, 0, 0), QStringLiteral("aten::cudnn_convolution"));
    EXPECT_EQ(cell(view, 0, section(panel, OperatorTableModel::Calls)), QStringLiteral("2"));
    // Device self: 1000 + 200 + 1500 ns of the 2900 ns of GPU work.
    EXPECT_EQ(view->data(view->index(0, section(panel, OperatorTableModel::DeviceSelf)), SortRole)
                  .toLongLong(),
              2700);
    EXPECT_EQ(cell(view, 0, 6), QStringLiteral("93.10 %"));

    // The top row is selected: its kernels, by name, and the stack of its longest call.
    EXPECT_EQ(panel.kernelsTitle(),
              QStringLiteral("Kernels launched by aten::cudnn_convolution (2 calls)"));
    const QAbstractItemModel* kernels = panel.kernelsView()->model();
    ASSERT_EQ(kernels->rowCount(), 2);
    EXPECT_EQ(cell(kernels, 0, OperatorKernelsModel::Kernel),
              QStringLiteral("void implicit_gemm()"));
    EXPECT_EQ(cell(kernels, 0, OperatorKernelsModel::Count), QStringLiteral("2"));
    EXPECT_EQ(
        kernels->data(kernels->index(0, OperatorKernelsModel::Longest), SortRole).toLongLong(),
        1500);
    EXPECT_EQ(panel.kernelsModel()->longestLaunchAt(0), std::optional<std::uint32_t>(3));
    ASSERT_EQ(panel.pythonStack()->topLevelItemCount(), 2);
    EXPECT_FALSE(panel.pythonStack()->isHidden());
    EXPECT_EQ(panel.pythonStack()->topLevelItem(0)->text(0),
              QStringLiteral("model.py(20): forward"));

    // Double-click: the timeline shows the longest call (3.6 us) with a fifth on each side.
    panel.activateOperatorRow(0);
    EXPECT_EQ(state.visibleRange(), (TimeRange{1200 - 720, 4800 + 720}));
    const EventRef call = state.selection();
    ASSERT_TRUE(call.isValid());
    EXPECT_EQ(trace->lane(call.lane).start(call.index), 1200);
    EXPECT_EQ(trace->lane(call.lane).kind(), LaneKind::CpuOps);
    panel.activateKernelRow(0); // implicit_gemm's longest launch: kernel 3
    EXPECT_EQ(state.selection(), trace->kernelRef(3));

    // Another row: aten::relu launched one kernel.
    int relu = -1;
    for (int r = 0; r < view->rowCount(); ++r)
        if (cell(view, r, 0) == QStringLiteral("aten::relu"))
            relu = r;
    ASSERT_GE(relu, 0);
    panel.selectOperatorRow(relu);
    ASSERT_TRUE(waitUntilReady(panel));
    ASSERT_EQ(kernels->rowCount(), 1);
    EXPECT_EQ(cell(kernels, 0, 0), QStringLiteral("void relu_kernel()"));
    EXPECT_EQ(panel.kernelsModel()->longestLaunchAt(0), std::optional<std::uint32_t>(2));

    // The name filter, and regrouping by shapes (computed on a worker) adds a column.
    panel.setNameFilter(QStringLiteral("conv"));
    EXPECT_EQ(view->rowCount(), 3);
    panel.setNameFilter(QString());
    panel.groupingCombo()->setCurrentIndex(1);
    ASSERT_TRUE(waitUntilReady(panel));
    EXPECT_EQ(panel.grouping(), OperatorGrouping::NameAndShapes);
    EXPECT_EQ(view->columnCount(), 8);
    EXPECT_EQ(view->headerData(1, Qt::Horizontal).toString(), QStringLiteral("Input shapes"));
    EXPECT_EQ(cell(view, 0, 0), QStringLiteral("aten::cudnn_convolution"));

    // A new trace: the old analysis no longer describes it.
    state.setTrace(kernelTrace({{"k", "k", 1000, 100}}));
    EXPECT_EQ(view->rowCount(), 0);
    EXPECT_EQ(panel.message(), QStringLiteral("Finding the operators…"));
}

TEST(OperatorsPanel, ATraceWithoutOperatorsSaysSoInOneLine) {
    ViewState state;
    OperatorsPanel panel(&state);
    EXPECT_EQ(panel.message(), QStringLiteral("No trace loaded."));
    EXPECT_FALSE(panel.isComputing());
    const std::shared_ptr<const Trace> plain = kernelTrace({{"k", "k", 1000, 100}});
    state.setTrace(plain);
    panel.setAnalysis(analyzeOperators(plain));
    ASSERT_TRUE(waitUntilReady(panel));
    EXPECT_TRUE(panel.message().startsWith(QStringLiteral("No framework operators in this trace")))
        << panel.message().toStdString();
    EXPECT_FALSE(panel.message().contains(u'\n'));
    EXPECT_FALSE(panel.view()->isVisibleTo(&panel));
}

TEST(OperatorsPanel, ResNetConvolutionsLeadByDeviceSelfTime) {
    LoadResult r = loadTrace(
        QStringLiteral(STROBE_FIXTURES_DIR "/kineto/resnet50-kineto-2021.pt.trace.json.gz"));
    ASSERT_TRUE(r.trace) << r.error.toStdString();
    const std::shared_ptr<const Trace> trace(std::move(r.trace));
    ViewState state;
    state.setTrace(trace);
    OperatorsPanel panel(&state);
    panel.setAnalysis(analyzeOperators(trace));
    ASSERT_TRUE(waitUntilReady(panel));
    const QAbstractItemModel* view = panel.view()->model();
    ASSERT_GT(view->rowCount(), 10);
    QStringList top;
    for (int r = 0; r < 3; ++r)
        top << cell(view, r, 0);
    EXPECT_TRUE(top.contains(QStringLiteral("aten::cudnn_convolution")))
        << top.join(u',').toStdString();
    // Rows come by device self time, descending.
    for (int r = 1; r < view->rowCount(); ++r)
        ASSERT_LE(
            view->data(view->index(r, section(panel, OperatorTableModel::DeviceSelf)), SortRole)
                .toLongLong(),
            view->data(view->index(r - 1, section(panel, OperatorTableModel::DeviceSelf)), SortRole)
                .toLongLong());
    const int conv = int(top.indexOf(QStringLiteral("aten::cudnn_convolution")));
    panel.selectOperatorRow(conv);
    ASSERT_TRUE(waitUntilReady(panel));
    const QAbstractItemModel* kernels = panel.kernelsView()->model();
    ASSERT_GT(kernels->rowCount(), 0);
    ASSERT_TRUE(panel.kernelsModel()->longestLaunchAt(0));
    panel.activateKernelRow(0);
    const auto k = trace->kernelIndexOf(state.selection());
    ASSERT_TRUE(k);
    EXPECT_EQ(
        trace->kernelAt(*k).duration(),
        kernels->data(kernels->index(0, OperatorKernelsModel::Longest), SortRole).toLongLong());
}

} // namespace
