// SPDX-License-Identifier: MIT
#include "model/reports/statsreports.h"

#include "model/analysis/nvtxstats.h"

namespace strobe {

namespace {

using C = ReportCell;

QStringList columns(std::initializer_list<const char*> names) {
    QStringList out;
    for (const char* n : names)
        out << QString::fromLatin1(n);
    return out;
}

// avg, median, min, max, stddev of `s`.
void statsCells(std::vector<C>& row, const DurationStats& s) {
    row.push_back(C::number(s.mean, 1));
    row.push_back(C::number(s.median, 1));
    row.push_back(C::number(std::int64_t(s.min)));
    row.push_back(C::number(std::int64_t(s.max)));
    row.push_back(C::number(s.stddev, 1));
}

} // namespace

ReportTable callSummaryReport(const std::vector<CallSummaryRow>& rows) {
    ReportTable table;
    table.columns = columns({"name", "time_percent", "total_ns", "instances", "avg_ns", "median_ns",
                             "min_ns", "max_ns", "stddev_ns"});
    for (const CallSummaryRow& r : rows) {
        std::vector<C> row{C::string(r.name), C::number(r.timePercent, 2),
                           C::number(std::int64_t(r.stats.total)), C::number(r.stats.count)};
        statsCells(row, r.stats);
        table.rows.push_back(std::move(row));
    }
    return table;
}

ReportTable memorySizeSummaryReport(const std::vector<MemorySizeRow>& rows) {
    ReportTable table;
    table.columns = columns({"name", "total_bytes", "instances", "avg_bytes", "median_bytes",
                             "min_bytes", "max_bytes", "stddev_bytes"});
    for (const MemorySizeRow& r : rows) {
        std::vector<C> row{C::string(r.operation), C::number(std::int64_t(r.bytes.total)),
                           C::number(r.bytes.count)};
        statsCells(row, r.bytes);
        table.rows.push_back(std::move(row));
    }
    return table;
}

ReportTable launchSummaryReport(const std::vector<LaunchSummaryRow>& rows) {
    ReportTable table;
    table.columns = columns({"name", "instances", "api_avg_ns", "queue_avg_ns", "queue_median_ns",
                             "queue_max_ns", "kernel_avg_ns"});
    for (const LaunchSummaryRow& r : rows) {
        const bool queued = r.queue.count > 0; // no launch waited: no queue statistics
        table.rows.push_back({C::string(r.name), C::number(r.kernel.count),
                              C::number(r.api.mean, 1),
                              queued ? C::number(r.queue.mean, 1) : C::null(),
                              queued ? C::number(r.queue.median, 1) : C::null(),
                              queued ? C::number(std::int64_t(r.queue.max)) : C::null(),
                              C::number(r.kernel.mean, 1)});
    }
    return table;
}

ReportTable nvtxGpuSummaryReport(const std::vector<NvtxGpuSummaryRow>& rows) {
    ReportTable table;
    table.columns = columns({"range", "style", "total_proj_time_ns", "total_range_time_ns",
                             "range_instances", "proj_avg_ns", "proj_med_ns", "proj_min_ns",
                             "proj_max_ns", "proj_stddev_ns", "total_gpu_ops", "avg_gpu_ops"});
    for (const NvtxGpuSummaryRow& r : rows) {
        std::vector<C> row{C::string(r.range), C::string(nvtxStyleKey(r.style)),
                           C::number(std::int64_t(r.projected.total)),
                           C::number(std::int64_t(r.totalRangeNs)), C::number(r.projected.count)};
        statsCells(row, r.projected);
        row.push_back(C::number(r.gpuOps));
        row.push_back(C::number(r.avgGpuOps(), 1));
        table.rows.push_back(std::move(row));
    }
    return table;
}

} // namespace strobe
