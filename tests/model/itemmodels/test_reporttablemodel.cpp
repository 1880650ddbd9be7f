// SPDX-License-Identifier: MIT
// ReportTableModel: one item model for the nsys stats report tables, units from the CLI's
// column names.
#include "model/itemmodels/reporttablemodel.h"
#include "model/itemmodels/tableroles.h"
#include "model/reports/statsreports.h"
#include "model/timeformat.h"
#include "model/valueformat.h"

#include <QAbstractItemModelTester>
#include <QSortFilterProxyModel>
#include <gtest/gtest.h>

using namespace strobe;

namespace {

using C = ReportCell;

ReportTable launchTable() {
    ReportTable t;
    t.columns = QStringList{QStringLiteral("name"), QStringLiteral("instances"),
                            QStringLiteral("queue_median_ns"), QStringLiteral("total_bytes"),
                            QStringLiteral("time_percent")};
    t.rows.push_back({C::string(QStringLiteral("gemm")), C::number(std::int64_t(12)),
                      C::number(2500.5, 1), C::number(std::int64_t(65536)), C::number(61.25, 2)});
    t.rows.push_back({C::string(QStringLiteral("copy")), C::number(std::int64_t(3)), C::null(),
                      C::number(std::int64_t(512)), C::number(38.75, 2)});
    return t;
}

} // namespace

TEST(ReportTableModel, UnitsAndHeadersFollowTheCliColumnNames) {
    using U = ReportTableModel::Unit;
    EXPECT_EQ(ReportTableModel::unitOf(QStringLiteral("queue_avg_ns")), U::Duration);
    EXPECT_EQ(ReportTableModel::unitOf(QStringLiteral("stddev_bytes")), U::Bytes);
    EXPECT_EQ(ReportTableModel::unitOf(QStringLiteral("time_percent")), U::Percent);
    EXPECT_EQ(ReportTableModel::unitOf(QStringLiteral("range_instances")), U::Count);
    EXPECT_EQ(ReportTableModel::unitOf(QStringLiteral("total_gpu_ops")), U::Count);
    EXPECT_EQ(ReportTableModel::unitOf(QStringLiteral("avg_gpu_ops")), U::Count);
    EXPECT_EQ(ReportTableModel::unitOf(QStringLiteral("style")), U::Text);
    EXPECT_EQ(ReportTableModel::headerOf(QStringLiteral("total_ns")), QStringLiteral("Total"));
    EXPECT_EQ(ReportTableModel::headerOf(QStringLiteral("queue_median_ns")),
              QStringLiteral("Queue median"));
    EXPECT_EQ(ReportTableModel::headerOf(QStringLiteral("api_avg_ns")),
              QStringLiteral("API average"));
    EXPECT_EQ(ReportTableModel::headerOf(QStringLiteral("proj_stddev_ns")),
              QStringLiteral("Projected std dev"));
    EXPECT_EQ(ReportTableModel::headerOf(QStringLiteral("time_percent")), QStringLiteral("Time %"));
    EXPECT_EQ(ReportTableModel::headerOf(QStringLiteral("avg_gpu_ops")),
              QStringLiteral("Average GPU ops"));
    EXPECT_EQ(ReportTableModel::headerOf(QStringLiteral("cpu_duration_ns")),
              QStringLiteral("CPU duration"));
}

TEST(ReportTableModel, MomentsReadFromTheTracesStartOnceGivenIt) {
    using U = ReportTableModel::Unit;
    EXPECT_EQ(ReportTableModel::unitOf(QStringLiteral("start_ns")), U::Timestamp);
    EXPECT_EQ(ReportTableModel::unitOf(QStringLiteral("longest_call_end_ns")), U::Timestamp);
    EXPECT_EQ(ReportTableModel::unitOf(QStringLiteral("Start (ns)")), U::Timestamp);
    EXPECT_EQ(ReportTableModel::unitOf(QStringLiteral("Duration (ns)")), U::Duration);
    EXPECT_EQ(ReportTableModel::headerOf(QStringLiteral("Start (ns)")), QStringLiteral("Start"));
    EXPECT_EQ(ReportTableModel::headerOf(QStringLiteral("longest_call_start_ns")),
              QStringLiteral("Longest call start"));
    using C = ReportCell;
    ReportTable t;
    t.columns = {QStringLiteral("start_ns"), QStringLiteral("Duration (ns)")};
    t.rows.push_back(
        {C::number(std::int64_t(1'623'142'624'100'000'000)), C::number(std::int64_t(1'500'000))});
    ReportTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setTable(t);
    EXPECT_EQ(model.index(0, 1).data().toString(), formatDuration(1'500'000));
    // Without an origin a moment reads as a duration (the epoch's nanoseconds: useless, but
    // the table has no clock); with the trace's start it reads as on the ruler.
    EXPECT_EQ(model.index(0, 0).data().toString(), formatMeanDuration(1'623'142'624'100'000'000.0));
    const TimeNs origin = 1'623'142'623'000'000'000;
    model.setTimeOrigin(origin);
    EXPECT_EQ(model.index(0, 0).data().toString(),
              formatTimestamp(1'623'142'624'100'000'000, origin));
    EXPECT_EQ(model.index(0, 0).data(ExportRole).toLongLong(), 1'623'142'624'100'000'000);
}

TEST(ReportTableModel, ShowsForPeopleSortsByNumberExportsTheCliValues) {
    ReportTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setTable(launchTable());
    ASSERT_EQ(model.rowCount(), 2);
    ASSERT_EQ(model.columnCount(), 5);
    EXPECT_EQ(model.headerData(2, Qt::Horizontal).toString(), QStringLiteral("Queue median"));
    EXPECT_EQ(model.headerData(2, Qt::Horizontal, Qt::ToolTipRole).toString(),
              QStringLiteral("queue_median_ns"));
    EXPECT_EQ(model.headerData(0, Qt::Horizontal, Qt::InitialSortOrderRole).toInt(),
              int(Qt::AscendingOrder));
    EXPECT_EQ(model.headerData(1, Qt::Horizontal, Qt::InitialSortOrderRole).toInt(),
              int(Qt::DescendingOrder));
    EXPECT_EQ(model.index(0, 2).data().toString(), QStringLiteral("2.501 \u00b5s"));
    EXPECT_EQ(model.index(0, 3).data().toString(), QStringLiteral("64.00 KiB"));
    EXPECT_EQ(model.index(0, 4).data().toString(), QStringLiteral("61.25 %"));
    EXPECT_EQ(model.index(0, 1).data().toString(), QStringLiteral("12"));
    EXPECT_EQ(model.index(1, 2).data().toString(), QString()); // no queue time: empty
    // Export: the CLI's numbers, as numbers (integers exact); null stays empty.
    EXPECT_EQ(model.index(0, 1).data(ExportRole).typeId(), QMetaType::LongLong);
    EXPECT_EQ(model.index(0, 2).data(ExportRole).toDouble(), 2500.5);
    EXPECT_EQ(model.index(1, 2).data(ExportRole).toString(), QString());
    // Sorting by queue median puts the launch without one last (descending).
    QSortFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    proxy.setSortRole(SortRole);
    proxy.sort(2, Qt::DescendingOrder);
    EXPECT_EQ(proxy.index(0, 0).data().toString(), QStringLiteral("gemm"));
    proxy.sort(3, Qt::AscendingOrder);
    EXPECT_EQ(proxy.index(0, 0).data().toString(), QStringLiteral("copy"));
    model.setTable({});
    EXPECT_EQ(model.rowCount(), 0);
    EXPECT_EQ(model.columnCount(), 0);
}

// The tables of statsreports.h all fit: every column has a header and a unit, and rows of the
// real reports read back their cells.
TEST(ReportTableModel, ServesEveryStatsReport) {
    std::vector<ReportTable> tables{callSummaryReport({}), memorySizeSummaryReport({}),
                                    launchSummaryReport({}), nvtxGpuSummaryReport({})};
    for (ReportTable& t : tables) {
        ReportTableModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::Fatal);
        const QStringList columns = t.columns;
        model.setTable(std::move(t));
        EXPECT_EQ(model.rowCount(), 0);
        ASSERT_EQ(model.columnCount(), columns.size());
        for (int c = 0; c < columns.size(); ++c) {
            EXPECT_FALSE(model.headerData(c, Qt::Horizontal).toString().isEmpty());
            // Only names, ranges and styles are text: every other column is a quantity.
            const bool text =
                columns[c] == u"name" || columns[c] == u"range" || columns[c] == u"style";
            EXPECT_EQ(ReportTableModel::unitOf(columns[c]) == ReportTableModel::Unit::Text, text)
                << columns[c].toStdString();
        }
    }
}
