// SPDX-License-Identifier: MIT
#include "model/itemmodels/comparisonmodels.h"

#include "model/itemmodels/tableroles.h"
#include "tests/model/analysis/comparisontestdata.h"
#include "tests/support/qtprinters.h"

#include <QAbstractItemModelTester>
#include <gtest/gtest.h>

using namespace strobe;
using fixtures::PairSide;

namespace {

std::shared_ptr<const Comparison> knownPair(bool withRange) {
    static auto a = test::loadShared(test::pairPath(PairSide::A));
    static auto b = test::loadShared(test::pairPath(PairSide::B));
    ComparisonOptions o;
    o.idleThresholdNs = 1;
    if (withRange)
        o.range = QStringLiteral("Iteration");
    return std::make_shared<const Comparison>(compareTraces(*a, *b, o));
}

QVariant cell(const QAbstractItemModel& m, int row, int col, int role = Qt::DisplayRole) {
    return m.data(m.index(row, col), role);
}

TEST(ComparisonModels, KernelTableUnderTheModelTester) {
    KernelDiffModel m;
    QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::Fatal);
    EXPECT_EQ(m.rowCount(), 0);
    m.setComparison(knownPair(false));
    ASSERT_EQ(m.rowCount(), 4);
    EXPECT_EQ(m.columnCount(), 11); // ... Per second A, Per second B
    EXPECT_EQ(m.headerData(KernelDiffModel::Delta, Qt::Horizontal, Qt::DisplayRole).toString(),
              QStringLiteral("\u0394 total"));
    EXPECT_EQ(cell(m, 0, KernelDiffModel::Name).toString(), QStringLiteral("alpha"));
    EXPECT_EQ(cell(m, 0, KernelDiffModel::Delta, SortRole).toLongLong(), 4000);
    EXPECT_EQ(cell(m, 0, KernelDiffModel::Delta).toString(), QStringLiteral("+4.000 \u00b5s"));
    EXPECT_EQ(cell(m, 0, KernelDiffModel::DeltaPercent).toString(), QStringLiteral("+200.0%"));
    // Slower is +1, faster -1, unchanged 0. Without a range the median carries the tone (the
    // totals follow each trace's length); a kernel on one side only goes by its total.
    EXPECT_EQ(cell(m, 0, KernelDiffModel::Delta, DeltaToneRole).toInt(), 0);
    EXPECT_EQ(cell(m, 0, KernelDiffModel::MedianB, DeltaToneRole).toInt(), 1);
    EXPECT_EQ(cell(m, 1, KernelDiffModel::MedianB, DeltaToneRole).toInt(), -1); // gamma removed
    EXPECT_EQ(cell(m, 1, KernelDiffModel::TotalA, DeltaToneRole).toInt(), 0);
    EXPECT_EQ(cell(m, 1, KernelDiffModel::Delta).toString(), QStringLiteral("\u2212700 ns"));
    // A kernel new in B has no percent: "new", empty on export, sorted above every change.
    EXPECT_EQ(cell(m, 3, KernelDiffModel::DeltaPercent).toString(), QStringLiteral("new"));
    EXPECT_FALSE(cell(m, 3, KernelDiffModel::DeltaPercent, ExportRole).isValid());
    EXPECT_GT(cell(m, 3, KernelDiffModel::DeltaPercent, SortRole).toDouble(), 1e100);
    EXPECT_EQ(m.rowAt(3)->name, QStringLiteral("delta"));
    EXPECT_EQ(m.rowAt(4), nullptr);
    // With a range: per-instance columns.
    m.setComparison(knownPair(true));
    ASSERT_EQ(m.columnCount(), 11);
    EXPECT_EQ(cell(m, 0, KernelDiffModel::PerInstanceA, SortRole).toDouble(), 1000.0);
    EXPECT_EQ(cell(m, 0, KernelDiffModel::PerInstanceB, SortRole).toDouble(), 2000.0);
    EXPECT_EQ(cell(m, 0, KernelDiffModel::PerInstanceB, DeltaToneRole).toInt(), 1);
    m.setComparison(nullptr);
    EXPECT_EQ(m.rowCount(), 0);
    EXPECT_EQ(m.columnCount(), 0);
}

TEST(ComparisonModels, RangeAndGpuTablesUnderTheModelTester) {
    RangeDiffModel ranges;
    GpuDiffModel gpus;
    QAbstractItemModelTester t1(&ranges, QAbstractItemModelTester::FailureReportingMode::Fatal);
    QAbstractItemModelTester t2(&gpus, QAbstractItemModelTester::FailureReportingMode::Fatal);
    const auto c = knownPair(false);
    ranges.setComparison(c);
    gpus.setComparison(c);
    ASSERT_EQ(ranges.rowCount(), 4);
    EXPECT_EQ(cell(ranges, 1, RangeDiffModel::Name).toString(), QStringLiteral("aten::mm"));
    EXPECT_EQ(cell(ranges, 1, RangeDiffModel::CountB, SortRole).toULongLong(), 3u);
    EXPECT_EQ(cell(ranges, 2, RangeDiffModel::WallA).toString(),
              QString::number(100.0 * 9000 / 19000, 'f', 1) + u'%');
    ASSERT_EQ(gpus.rowCount(), 1);
    EXPECT_EQ(gpus.columnCount(), 11);
    EXPECT_EQ(cell(gpus, 0, GpuDiffModel::Device).toString(), QStringLiteral("GPU 0"));
    EXPECT_EQ(cell(gpus, 0, GpuDiffModel::KernelB, ExportRole).toLongLong(), 7800);
    EXPECT_EQ(cell(gpus, 0, GpuDiffModel::IdleB, SortRole).toLongLong(), 17800);
    // Idle time follows each trace's length: no tone without a range (more idle is worse with one).
    EXPECT_EQ(cell(gpus, 0, GpuDiffModel::IdleB, DeltaToneRole).toInt(), 0);
    // More utilisation is better.
    EXPECT_EQ(cell(gpus, 0, GpuDiffModel::UtilB, DeltaToneRole).toInt(), -1);
    gpus.setComparison(knownPair(true));
    EXPECT_EQ(gpus.columnCount(), 13);
    EXPECT_EQ(cell(gpus, 0, GpuDiffModel::IdlePerInstanceA, SortRole).toDouble(), 4500.0);
}

// Issue 44 item 7: GPUs of different ids in one row read "GPU 0 / GPU 1" (A's, B's), and a GPU
// only one side has shows a dash for the other.
TEST(ComparisonModels, GpusPairedAcrossIdsShowBothIds) {
    const auto a =
        test::loadShared(QStringLiteral(STROBE_FIXTURES_DIR "/kineto/hta-a100-nccl-ddp.json.gz"));
    const auto b = test::loadShared(
        QStringLiteral(STROBE_FIXTURES_DIR "/kineto/hta-v100-memory-events.json.gz"));
    ASSERT_TRUE(a && b);
    GpuDiffModel gpus;
    QAbstractItemModelTester t(&gpus, QAbstractItemModelTester::FailureReportingMode::Fatal);
    gpus.setComparison(std::make_shared<const Comparison>(compareTraces(*a, *b)));
    ASSERT_EQ(gpus.rowCount(), 9);
    EXPECT_EQ(cell(gpus, 0, GpuDiffModel::Device).toString(), QStringLiteral("GPU 0 / GPU 1"));
    EXPECT_EQ(cell(gpus, 0, GpuDiffModel::KernelB, ExportRole).toLongLong(), 977859000);
    EXPECT_EQ(cell(gpus, 1, GpuDiffModel::Device).toString(), QStringLiteral("GPU 1 / \u2014"));
    EXPECT_EQ(cell(gpus, 8, GpuDiffModel::Device).toString(), QStringLiteral("\u2014 / GPU 0"));
}

// Issue 44 item 8: without a range the totals follow each trace's length, so the colours follow
// the per-launch median (kernels), the share of wall time (ranges) and utilisation (GPUs), and
// the last pair is launches per second of wall time.
TEST(ComparisonModels, WithoutARangeTheColoursFollowMediansAndRates) {
    const auto c = knownPair(false);
    KernelDiffModel kernels;
    kernels.setComparison(c);
    ASSERT_EQ(kernels.columnCount(), 11);
    for (int row = 0; row < kernels.rowCount(); ++row) {
        EXPECT_EQ(cell(kernels, row, KernelDiffModel::Delta, DeltaToneRole).toInt(), 0) << row;
        EXPECT_EQ(cell(kernels, row, KernelDiffModel::DeltaPercent, DeltaToneRole).toInt(), 0);
    }
    // alpha: 1000 ns a launch in A, 2000 ns in B: slower, whatever the totals say.
    ASSERT_EQ(cell(kernels, 0, KernelDiffModel::Name).toString(), QStringLiteral("alpha"));
    EXPECT_EQ(cell(kernels, 0, KernelDiffModel::MedianB, DeltaToneRole).toInt(), 1);
    EXPECT_EQ(kernels.headerData(KernelDiffModel::RateA, Qt::Horizontal, Qt::DisplayRole),
              QStringLiteral("Per second A"));
    const KernelDiffRow* alpha = kernels.rowAt(0);
    EXPECT_DOUBLE_EQ(cell(kernels, 0, KernelDiffModel::RateB, SortRole).toDouble(),
                     double(alpha->b.count) * 1e9 / double(c->b.window));
    EXPECT_EQ(cell(kernels, 0, KernelDiffModel::RateB).toString(),
              QString::number(double(alpha->b.count) * 1e9 / double(c->b.window), 'f', 1) +
                  QStringLiteral("/s"));
    // beta: 500 ns on both sides.
    int beta = 0;
    while (beta < kernels.rowCount() &&
           cell(kernels, beta, KernelDiffModel::Name).toString() != QLatin1String("beta"))
        ++beta;
    EXPECT_EQ(cell(kernels, beta, KernelDiffModel::MedianB, DeltaToneRole).toInt(), 0);

    RangeDiffModel ranges;
    ranges.setComparison(c);
    ASSERT_EQ(ranges.columnCount(), 11);
    for (int row = 0; row < ranges.rowCount(); ++row) {
        EXPECT_EQ(cell(ranges, row, RangeDiffModel::Delta, DeltaToneRole).toInt(), 0) << row;
        const double wa = cell(ranges, row, RangeDiffModel::WallA, SortRole).toDouble();
        const double wb = cell(ranges, row, RangeDiffModel::WallB, SortRole).toDouble();
        EXPECT_EQ(cell(ranges, row, RangeDiffModel::WallB, DeltaToneRole).toInt(),
                  wb > wa ? 1 : (wb < wa ? -1 : 0))
            << row;
    }
    GpuDiffModel gpus;
    gpus.setComparison(c);
    EXPECT_EQ(cell(gpus, 0, GpuDiffModel::IdleB, DeltaToneRole).toInt(), 0);
    EXPECT_EQ(cell(gpus, 0, GpuDiffModel::UtilB, DeltaToneRole).toInt(), -1);
}

} // namespace

namespace {

// Each column's header, the type of its raw value and its tones down the rows ("0+-"), one line
// a column: what the shared column list must give each table, letter for letter.
QStringList columnsOf(const QAbstractItemModel& m) {
    QStringList out;
    for (int col = 0; col < m.columnCount(); ++col) {
        QString tones;
        for (int row = 0; row < m.rowCount(); ++row) {
            const int t = cell(m, row, col, DeltaToneRole).toInt();
            tones += t > 0 ? u'+' : (t < 0 ? u'-' : u'0');
        }
        const int align = cell(m, 0, col, Qt::TextAlignmentRole).toInt();
        out << m.headerData(col, Qt::Horizontal, Qt::DisplayRole).toString() % u' ' %
                   QString::fromLatin1(cell(m, 0, col, ExportRole).typeName()) % u' ' %
                   (align & Qt::AlignLeft ? u'L' : u'R') % u' ' % tones;
    }
    return out;
}

} // namespace

TEST(ComparisonModels, EachTableHasItsColumnsTypesAndTones) {
    const auto c = knownPair(true);
    KernelDiffModel kernels;
    RangeDiffModel ranges;
    GpuDiffModel gpus;
    kernels.setComparison(c);
    ranges.setComparison(c);
    gpus.setComparison(c);
    EXPECT_EQ(
        columnsOf(kernels),
        QStringList(
            {QStringLiteral("Kernel QString L 0000"), QStringLiteral("Count A qulonglong R 0000"),
             QStringLiteral("Count B qulonglong R 0000"),
             QStringLiteral("Total A qlonglong R 0000"), QStringLiteral("Total B qlonglong R 0000"),
             QStringLiteral("\u0394 total qlonglong R +-++"),
             QStringLiteral("\u0394 % double R +-++"), QStringLiteral("Median A double R 0000"),
             QStringLiteral("Median B double R 0000"),
             QStringLiteral("Per instance A double R 0000"),
             QStringLiteral("Per instance B double R +-0+")}));
    // Row 0 of the ranges is new in B: its percent has no value.
    EXPECT_EQ(
        columnsOf(ranges),
        QStringList(
            {QStringLiteral("Range QString L 0000"), QStringLiteral("Count A qulonglong R 0000"),
             QStringLiteral("Count B qulonglong R 0000"),
             QStringLiteral("Total A qlonglong R 0000"), QStringLiteral("Total B qlonglong R 0000"),
             QStringLiteral("\u0394 total qlonglong R ++00"), QStringLiteral("\u0394 %  R ++00"),
             QStringLiteral("Wall % A double R 0000"), QStringLiteral("Wall % B double R 0000"),
             QStringLiteral("Per instance A double R 0000"),
             QStringLiteral("Per instance B double R +0--")}));
    EXPECT_EQ(
        columnsOf(gpus),
        QStringList(
            {QStringLiteral("GPU QString L 0"), QStringLiteral("Kernels A qlonglong R 0"),
             QStringLiteral("Kernels B qlonglong R 0"), QStringLiteral("Copies A qlonglong R 0"),
             QStringLiteral("Copies B qlonglong R 0"), QStringLiteral("Idle A qlonglong R 0"),
             QStringLiteral("Idle B qlonglong R +"), QStringLiteral("Gaps A qulonglong R 0"),
             QStringLiteral("Gaps B qulonglong R 0"), QStringLiteral("Utilisation A double R 0"),
             QStringLiteral("Utilisation B double R -"),
             QStringLiteral("Idle per instance A double R 0"),
             QStringLiteral("Idle per instance B double R +")}));
}
