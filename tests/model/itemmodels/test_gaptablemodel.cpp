// SPDX-License-Identifier: MIT
// The gaps table model on the sample trace, under QAbstractItemModelTester.
#include "model/itemmodels/gaptablemodel.h"
#include "model/itemmodels/tableroles.h"
#include "model/reports/gaptext.h"
#include "tests/model/analysis/gaptestdata.h"

#include <QAbstractItemModelTester>
#include <gtest/gtest.h>

using namespace strobe;

namespace {

class GapTableModelTest : public ::testing::Test {
protected:
    void SetUp() override {
        trace = test::sampleTrace();
        ASSERT_TRUE(trace);
        analysis = findGaps(*trace, kDefaultIdleThresholdNs);
    }
    std::shared_ptr<const Trace> trace;
    GapAnalysis analysis;
};

TEST_F(GapTableModelTest, RowsAreTheGapsWithRawValuesForSortAndExport) {
    GapTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    EXPECT_EQ(model.rowCount(), 0);
    model.reset(trace.get(), &analysis);

    std::size_t expected = 0;
    for (const auto& [device, gaps] : test::bruteForceGaps(*trace, kDefaultIdleThresholdNs))
        expected += gaps.size();
    ASSERT_EQ(expected, 19u); // the sample's data loader stalls every iteration after the first
    ASSERT_EQ(model.rowCount(), int(expected));
    EXPECT_EQ(model.columnCount(), int(GapTableModel::ColumnCount));

    for (int r = 0; r < model.rowCount(); ++r) {
        const GpuGap& g = analysis.gaps[std::size_t(r)];
        auto raw = [&](int col, int role) { return model.data(model.index(r, col), role); };
        EXPECT_EQ(raw(GapTableModel::Device, SortRole).toULongLong(), g.deviceId);
        EXPECT_EQ(raw(GapTableModel::Start, SortRole).toLongLong(), g.range.start);
        EXPECT_EQ(raw(GapTableModel::Duration, SortRole).toLongLong(), g.range.end - g.range.start);
        EXPECT_EQ(raw(GapTableModel::Cause, ExportRole).toString(), gapCauseKey(g.cause));
        // The sample's gaps are MainThread waiting for its data loader.
        ASSERT_EQ(g.cause, GapCause::CpuWait);
        EXPECT_EQ(raw(GapTableModel::Cause, Qt::DisplayRole).toString(),
                  QStringLiteral("CPU waiting in pthread_cond_wait"));
        EXPECT_EQ(raw(GapTableModel::Detail, Qt::DisplayRole).toString(), gapDetailText(*trace, g));
        EXPECT_EQ(raw(GapTableModel::Device, Qt::DisplayRole).toString(),
                  QStringLiteral("GPU %1").arg(g.deviceId));
    }
    EXPECT_EQ(model.headerData(GapTableModel::NvtxRange, Qt::Horizontal, Qt::DisplayRole),
              QStringLiteral("NVTX range"));

    model.reset(nullptr, nullptr);
    EXPECT_EQ(model.rowCount(), 0);
}

TEST_F(GapTableModelTest, LessThanAgreesWithTheSortRole) {
    GapTableModel model;
    model.reset(trace.get(), &analysis);
    ASSERT_GE(model.rowCount(), 2);
    for (int col :
         {int(GapTableModel::Device), int(GapTableModel::Start), int(GapTableModel::Duration)}) {
        for (int a = 0; a < model.rowCount(); ++a) {
            for (int b = 0; b < model.rowCount(); ++b) {
                const qlonglong x = model.data(model.index(a, col), SortRole).toLongLong();
                const qlonglong y = model.data(model.index(b, col), SortRole).toLongLong();
                EXPECT_EQ(model.lessThan(col, a, b), x < y) << col << ' ' << a << ' ' << b;
            }
        }
    }
}

} // namespace
