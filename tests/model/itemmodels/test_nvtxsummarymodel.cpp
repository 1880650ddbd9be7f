// SPDX-License-Identifier: MIT
// The NVTX summary's item model: grouped rows and the GPU columns of projected ranges.
#include "model/itemmodels/nvtxsummarymodel.h"

#include "model/itemmodels/tableroles.h"
#include "tests/model/analysis/nvtxtestdata.h"

#include <QAbstractItemModelTester>
#include <gtest/gtest.h>

using namespace strobe;
using namespace strobe::test;

namespace {

TEST(NvtxSummaryModel, SummaryModelSaysWhatAGroupedRowMerges) {
    NvtxSummaryModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setTrace(pytorchTrace());
    ASSERT_EQ(model.rowCount(), 3);
    EXPECT_EQ(model.index(0, NvtxSummaryModel::Range).data().toString(),
              QStringLiteral("aten::mm"));
    EXPECT_TRUE(model.index(0, NvtxSummaryModel::Range)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .startsWith(QStringLiteral("aten::mm: 3 recorded names")));
    EXPECT_FALSE(model.index(1, NvtxSummaryModel::Range).data(Qt::ToolTipRole).isValid());
    model.setTrace(pytorchTrace(), RangeNaming::Raw);
    EXPECT_EQ(model.rowCount(), 5);
}

// Issue 44, item 6: the column says its share is of the union of the instances.
TEST(NvtxSummaryModel, WallColumnSaysItIsTheUnion) {
    NvtxSummaryModel model;
    EXPECT_EQ(model.headerData(NvtxSummaryModel::WallPercent, Qt::Horizontal).toString(),
              QStringLiteral("Wall time % (union)"));
    EXPECT_TRUE(model.headerData(NvtxSummaryModel::WallPercent, Qt::Horizontal, Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("count once")));
}

TEST(NvtxSummaryModel, GpuColumns) {
    ProjectionTrace p;
    NvtxSummaryModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setTrace(std::shared_ptr<const Trace>(std::move(p.trace)));
    ASSERT_EQ(model.rowCount(), 2);
    EXPECT_EQ(model.columnCount(), int(NvtxSummaryModel::ColumnCount));
    const NvtxSummaryRow& forward = model.summary().rows[0];
    ASSERT_EQ(forward.range, QStringLiteral("Forward"));
    EXPECT_EQ(forward.gpuOps, 4u);
    EXPECT_EQ(forward.gpuTime, 7500);
    EXPECT_EQ(model.data(model.index(0, NvtxSummaryModel::GpuOps), Qt::DisplayRole).toString(),
              QStringLiteral("4"));
    EXPECT_EQ(model.data(model.index(0, NvtxSummaryModel::AvgGpuSpan), SortRole).toDouble(),
              14'000.0);
    EXPECT_EQ(model.headerData(NvtxSummaryModel::GpuTime, Qt::Horizontal).toString(),
              QStringLiteral("GPU time"));
}

} // namespace
