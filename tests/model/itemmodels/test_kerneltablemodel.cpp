// SPDX-License-Identifier: MIT
#include "model/itemmodels/kernelsummarymodel.h"
#include "model/itemmodels/kerneltablemodel.h"
#include "model/itemmodels/memorysummarymodel.h"
#include "model/itemmodels/nvtxsummarymodel.h"
#include "model/itemmodels/tableroles.h"
#include "tests/model/analysis/analysistestdata.h"
#include "tests/model/analysis/launchchaintestdata.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <gtest/gtest.h>

using namespace strobe;
using namespace strobe::test;

namespace {

std::shared_ptr<const Trace> sample() {
    return kernelTrace({
        {"gemm", "void gemm<float>(float*)", 1000, 300, 8},
        {"relu", "relu_kernel", 2000, 5, 100},
        {"gemm", "void gemm<half>(half*)", 3000, 90, 2},
        {"copy", "copy", 4000, 1200, 1, 9},
        {"relu", "relu_kernel", 5000, 20, 100},
    });
}

std::vector<qlonglong> column(const QAbstractItemModel& m, int col, int role = SortRole) {
    std::vector<qlonglong> v;
    for (int r = 0; r < m.rowCount(); ++r)
        v.push_back(m.data(m.index(r, col), role).toLongLong());
    return v;
}

QStringList names(const QAbstractItemModel& m) {
    QStringList v;
    for (int r = 0; r < m.rowCount(); ++r)
        v << m.data(m.index(r, KernelTableModel::Name)).toString();
    return v;
}

TEST(KernelTableModel, RowsColumnsAndRoles) {
    KernelTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setTrace(sample());
    ASSERT_EQ(model.rowCount(), 5);
    ASSERT_EQ(model.columnCount(), 12); // Name, Operator, Duration ... Correlation id
    EXPECT_EQ(model.headerData(1, Qt::Horizontal).toString(), QStringLiteral("Operator"));
    EXPECT_EQ(model.headerData(11, Qt::Horizontal).toString(), QStringLiteral("Correlation id"));
    EXPECT_FALSE(model.hasOperators());
    EXPECT_EQ(model.data(model.index(0, KernelTableModel::Operator)).toString(), QString());
    EXPECT_EQ(names(model),
              (QStringList{QStringLiteral("gemm"), QStringLiteral("relu"), QStringLiteral("gemm"),
                           QStringLiteral("copy"), QStringLiteral("relu")}));
    const QModelIndex name = model.index(0, KernelTableModel::Name);
    EXPECT_EQ(model.data(name, Qt::ToolTipRole).toString(),
              QStringLiteral("void gemm<float>(float*)"));
    EXPECT_EQ(model.data(model.index(0, KernelTableModel::Duration), SortRole).toLongLong(), 300);
    EXPECT_EQ(model.data(model.index(0, KernelTableModel::Duration)).toString(),
              QStringLiteral("300 ns"));
    EXPECT_EQ(model.data(model.index(0, KernelTableModel::Grid)).toString(),
              QStringLiteral("(8, 1, 1)"));
    EXPECT_EQ(model.data(model.index(3, KernelTableModel::Stream)).toString(), QStringLiteral("9"));
    EXPECT_EQ(model.data(model.index(0, KernelTableModel::CorrelationId), SortRole).toLongLong(),
              1);
    model.setShowDemangled(true);
    EXPECT_EQ(model.data(model.index(0, KernelTableModel::Name)).toString(),
              QStringLiteral("void gemm<float>(float*)"));
    EXPECT_EQ(model.data(model.index(0, KernelTableModel::Name), Qt::ToolTipRole).toString(),
              QStringLiteral("gemm"));
}

// The Operator column names each kernel's innermost launching operator and sorts by it (kernels
// without one first), once the forest of the model's trace is handed over.
TEST(KernelTableModel, OperatorColumnNamesAndSortsTheInnermostOperator) {
    const std::shared_ptr<const Trace> trace = launchChainTrace();
    KernelTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setTrace(trace);
    ASSERT_EQ(model.rowCount(), 5);
    auto operators = [&] {
        QStringList v;
        for (int r = 0; r < model.rowCount(); ++r)
            v << model.data(model.index(r, KernelTableModel::Operator)).toString();
        return v;
    };
    EXPECT_EQ(operators(), QStringList(5, QString())); // no forest yet
    model.sort(KernelTableModel::Operator, Qt::AscendingOrder);
    EXPECT_EQ(names(model),
              (QStringList{QStringLiteral("implicit_gemm"), QStringLiteral("bias_add"),
                           QStringLiteral("relu_kernel"), QStringLiteral("implicit_gemm"),
                           QStringLiteral("stray_kernel")}))
        << "without a forest every kernel ties: start order";
    model.setOperators(std::make_shared<const OperatorForest>(buildOperatorForest(*trace)));
    EXPECT_TRUE(model.hasOperators());
    const QString conv = QStringLiteral("aten::cudnn_convolution");
    EXPECT_EQ(operators(),
              (QStringList{QString(), conv, conv, conv, QStringLiteral("aten::relu")}));
    EXPECT_EQ(names(model).first(), QStringLiteral("stray_kernel"));
    EXPECT_EQ(model.data(model.index(1, KernelTableModel::Operator), SortRole).toString(), conv);
    EXPECT_EQ(model.data(model.index(4, KernelTableModel::Operator), Qt::ToolTipRole).toString(),
              QStringLiteral("aten::relu"));
    model.sort(KernelTableModel::Operator, Qt::DescendingOrder);
    EXPECT_EQ(operators(),
              (QStringList{QStringLiteral("aten::relu"), conv, conv, conv, QString()}));
    model.sort(KernelTableModel::Start, Qt::AscendingOrder);
    EXPECT_EQ(operators(),
              (QStringList{conv, conv, QStringLiteral("aten::relu"), conv, QString()}));
    model.setTrace(trace); // the same trace gathered again: its forest stays
    EXPECT_TRUE(model.hasOperators());
    model.setTrace(sample()); // another trace: the forest described the old one's kernels
    EXPECT_FALSE(model.hasOperators());
    EXPECT_EQ(model.data(model.index(0, KernelTableModel::Operator)).toString(), QString());
}

TEST(KernelTableModel, SortsNumbersAsNumbers) {
    KernelTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setTrace(sample());
    model.sort(KernelTableModel::Duration, Qt::DescendingOrder);
    // 1200 > 300 > 90 > 20 > 5: as strings "90" would sort above "300".
    EXPECT_EQ(column(model, KernelTableModel::Duration),
              (std::vector<qlonglong>{1200, 300, 90, 20, 5}));
    model.sort(KernelTableModel::Grid, Qt::AscendingOrder);
    EXPECT_EQ(column(model, KernelTableModel::Grid), (std::vector<qlonglong>{1, 2, 8, 100, 100}));
    model.sort(KernelTableModel::Name, Qt::AscendingOrder);
    EXPECT_EQ(names(model),
              (QStringList{QStringLiteral("copy"), QStringLiteral("gemm"), QStringLiteral("gemm"),
                           QStringLiteral("relu"), QStringLiteral("relu")}));
    // Equal keys keep start order.
    EXPECT_EQ(*model.kernelAtRow(1), 0u);
    EXPECT_EQ(*model.kernelAtRow(2), 2u);
    model.setShowDemangled(true); // demangled order: copy, relu_kernel, void gemm<float>, <half>
    EXPECT_EQ(model.data(model.index(1, KernelTableModel::Name)).toString(),
              QStringLiteral("relu_kernel"));
    EXPECT_EQ(model.data(model.index(3, KernelTableModel::Name)).toString(),
              QStringLiteral("void gemm<float>(float*)"));
}

TEST(KernelTableModel, FiltersByNameRegexRangeAndConfig) {
    KernelTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setTrace(sample());
    EXPECT_TRUE(model.setNameFilter(QStringLiteral("EL"), false)); // case-insensitive substring
    EXPECT_EQ(model.rowCount(), 2);
    EXPECT_TRUE(model.setNameFilter(QStringLiteral("^(gemm|copy)$"), true));
    EXPECT_EQ(model.rowCount(), 3);
    EXPECT_FALSE(model.setNameFilter(QStringLiteral("(unclosed"), true));
    EXPECT_EQ(model.rowCount(), 5); // an invalid expression filters nothing
    model.setShowDemangled(true);
    model.setNameFilter(QStringLiteral("<half>"), false);
    EXPECT_EQ(model.rowCount(), 1);
    model.setNameFilter(QString(), false);

    // [1290, 3001) overlaps the first gemm (ends 1300), relu, and the second gemm.
    model.setTimeRange(TimeRange{1290, 3001});
    EXPECT_EQ(model.rowCount(), 3);
    // Touching endpoints do not overlap: the first gemm ends at 1300.
    model.setTimeRange(TimeRange{1300, 2000});
    EXPECT_EQ(model.rowCount(), 0);
    model.setTimeRange(std::nullopt);

    const std::uint32_t reluConfig = sample()->kernels()[1].config;
    model.setConfigFilter({reluConfig});
    EXPECT_EQ(model.rowCount(), 2);
    EXPECT_EQ(*model.rowOfKernel(4), 1);
    EXPECT_FALSE(model.rowOfKernel(0).has_value());
    model.setConfigFilter({});
    EXPECT_EQ(model.rowCount(), 5);
}

TEST(KernelTableModel, SortsManyRowsByDuration) {
    std::vector<KernelSpec> specs;
    specs.reserve(200'000);
    for (int i = 0; i < 200'000; ++i)
        specs.push_back({"k", "k", TimeNs(i) * 100, (i * 7919) % 97 + 1, (i * 31) % 1000 + 1});
    KernelTableModel model;
    model.setTrace(kernelTrace(specs));
    model.sort(KernelTableModel::Duration, Qt::DescendingOrder);
    const auto d = column(model, KernelTableModel::Duration);
    EXPECT_TRUE(std::is_sorted(d.rbegin(), d.rend()));
    EXPECT_EQ(d.front(), 97);
}

TEST(KernelTableModel, DeferredRowsComeFromTheQueryAndStaleOnesAreRefused) {
    KernelTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setDeferredRows(true);
    QSignalSpy requested(&model, &KernelTableModel::rowsRequested);
    auto data = std::make_shared<const KernelTableData>(gatherKernelTableData(sample()));
    ASSERT_EQ(data->start.size(), 5u);
    EXPECT_EQ(data->end[0] - data->start[0], 300);
    model.setData(data);
    EXPECT_EQ(requested.count(), 1);
    EXPECT_EQ(model.rowCount(), 0); // nothing shown until the rows arrive
    EXPECT_TRUE(model.rowsPending());
    const KernelRowQuery first = model.rowQuery();
    model.sort(KernelTableModel::Duration, Qt::DescendingOrder); // a newer request
    EXPECT_EQ(requested.count(), 2);
    EXPECT_FALSE(model.applyRows(computeKernelRows(first))); // answers an older request
    EXPECT_EQ(model.rowCount(), 0);
    // What a worker would compute, off the model's thread.
    KernelRows rows = computeKernelRows(model.rowQuery());
    ASSERT_TRUE(rows.query.permutation);
    EXPECT_TRUE(model.applyRows(std::move(rows)));
    EXPECT_FALSE(model.rowsPending());
    EXPECT_EQ(column(model, KernelTableModel::Duration),
              (std::vector<qlonglong>{1200, 300, 90, 20, 5}));
    // The permutation is kept: the next query for the same column carries it.
    model.sort(KernelTableModel::Duration, Qt::AscendingOrder);
    EXPECT_TRUE(model.rowQuery().permutation);
    EXPECT_TRUE(model.applyRows(computeKernelRows(model.rowQuery())));
    EXPECT_EQ(column(model, KernelTableModel::Duration),
              (std::vector<qlonglong>{5, 20, 90, 300, 1200}));
    // Rows for another trace's data are refused.
    KernelRowQuery other = model.rowQuery();
    other.data = std::make_shared<const KernelTableData>(gatherKernelTableData(sample()));
    EXPECT_FALSE(model.applyRows(computeKernelRows(other)));
}

TEST(SummaryModels, TakePrecomputedSummaries) {
    const auto trace = sample();
    KernelSummaryModel kernels;
    QAbstractItemModelTester t1(&kernels, QAbstractItemModelTester::FailureReportingMode::Fatal);
    kernels.setPrecomputed(trace, KernelGrouping::LaunchConfig,
                           summarizeKernels(*trace, KernelGrouping::LaunchConfig));
    EXPECT_EQ(kernels.grouping(), KernelGrouping::LaunchConfig);
    EXPECT_EQ(kernels.columnCount(), int(KernelSummaryModel::ColumnCount));
    EXPECT_EQ(kernels.rowCount(), 4);
    EXPECT_EQ(kernels.rows()[0].name, QStringLiteral("copy"));
    kernels.setPrecomputed(nullptr, KernelGrouping::ShortName, {});
    EXPECT_EQ(kernels.rowCount(), 0);
    MemorySummaryModel memory;
    memory.setPrecomputed({MemorySummaryRow{MemoryDirection::HostToDevice, 3, 300, 30, 10, 20}});
    EXPECT_EQ(memory.rowCount(), 1);
    EXPECT_EQ(memory.data(memory.index(0, MemorySummaryModel::Count), SortRole).toULongLong(), 3u);
    NvtxSummaryModel nvtx;
    NvtxSummary s;
    s.rows.resize(2);
    s.openRanges = 7;
    nvtx.setPrecomputed(trace, std::move(s));
    EXPECT_EQ(nvtx.rowCount(), 2);
    EXPECT_EQ(nvtx.summary().openRanges, 7u);
}

TEST(SummaryModels, PassTheModelTesterAndSortWithAProxy) {
    const auto trace = sample();
    KernelSummaryModel kernels;
    QAbstractItemModelTester t1(&kernels, QAbstractItemModelTester::FailureReportingMode::Fatal);
    kernels.setTrace(trace);
    EXPECT_EQ(kernels.rowCount(), 4);
    EXPECT_EQ(kernels.columnCount(), int(KernelSummaryModel::Grid));
    kernels.setGrouping(KernelGrouping::LaunchConfig);
    EXPECT_EQ(kernels.columnCount(), int(KernelSummaryModel::ColumnCount));
    kernels.setGrouping(KernelGrouping::ShortName);
    EXPECT_EQ(kernels.rowCount(), 3);

    QSortFilterProxyModel proxy;
    QAbstractItemModelTester t2(&proxy, QAbstractItemModelTester::FailureReportingMode::Fatal);
    proxy.setSourceModel(&kernels);
    proxy.setSortRole(SortRole);
    proxy.sort(KernelSummaryModel::Instances, Qt::AscendingOrder);
    EXPECT_EQ(proxy.data(proxy.index(0, KernelSummaryModel::Name)).toString(),
              QStringLiteral("copy"));
    proxy.sort(KernelSummaryModel::Total, Qt::DescendingOrder);
    EXPECT_EQ(proxy.data(proxy.index(0, KernelSummaryModel::Name)).toString(),
              QStringLiteral("copy")); // 1200 ns
    EXPECT_EQ(proxy.data(proxy.index(1, KernelSummaryModel::Name)).toString(),
              QStringLiteral("gemm")); // 390 ns

    NvtxSummaryModel nvtx;
    QAbstractItemModelTester t3(&nvtx, QAbstractItemModelTester::FailureReportingMode::Fatal);
    nvtx.setTrace(trace);
    EXPECT_EQ(nvtx.rowCount(), 0);
    MemorySummaryModel memory;
    QAbstractItemModelTester t4(&memory, QAbstractItemModelTester::FailureReportingMode::Fatal);
    memory.setTrace(trace);
    EXPECT_EQ(memory.columnCount(), int(MemorySummaryModel::ColumnCount));
}

} // namespace
