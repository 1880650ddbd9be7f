// SPDX-License-Identifier: MIT
#include "model/reports/reports.h"

#include "model/cudaapi.h"

#include <array>
#include <limits>
#include <memory>

namespace strobe {

namespace {

using C = ReportCell;

C n(std::int64_t v) {
    return C::number(v);
}

void statsCells(std::vector<C>& row, const DurationStats& s) {
    row.push_back(C::number(s.mean, 1));
    row.push_back(C::number(s.median, 1));
    row.push_back(n(s.min));
    row.push_back(n(s.max));
    row.push_back(C::number(s.stddev, 1));
}

} // namespace

ReportTable kernelListReport(const Trace& t) {
    ReportTable table;
    table.columns = QStringList{QStringLiteral("name"),
                                QStringLiteral("start_ns"),
                                QStringLiteral("end_ns"),
                                QStringLiteral("duration_ns"),
                                QStringLiteral("device_id"),
                                QStringLiteral("context_id"),
                                QStringLiteral("stream_id"),
                                QStringLiteral("grid_x"),
                                QStringLiteral("grid_y"),
                                QStringLiteral("grid_z"),
                                QStringLiteral("block_x"),
                                QStringLiteral("block_y"),
                                QStringLiteral("block_z"),
                                QStringLiteral("registers_per_thread"),
                                QStringLiteral("static_shared_bytes"),
                                QStringLiteral("dynamic_shared_bytes"),
                                QStringLiteral("correlation_id"),
                                QStringLiteral("api_name"),
                                QStringLiteral("api_tid")};
    // Streamed: one row at a time (5M kernels materialised were 9.8 GB of cells). Names are
    // shared through a small direct-mapped cache of QStrings, so a long name repeated on every
    // row is converted once, not copied per row.
    struct NameCache {
        std::array<std::pair<StringId, QString>, 256> entries;
        NameCache() {
            for (auto& s : entries)
                s.first = std::numeric_limits<StringId>::max();
        }
    };
    auto names = std::make_shared<NameCache>();
    auto name = [&t, names](StringId id) -> const QString& {
        auto& slot = names->entries[id & 0xFF];
        if (slot.first != id)
            slot = {id, t.string(id)};
        return slot.second;
    };
    table.streamedRows = t.kernelCount();
    table.fillRow = [&t, name](std::size_t i, std::vector<C>& row) {
        const KernelLaunch k = t.kernelAt(i);
        const KernelConfig& c = *k.config;
        row.push_back(C::string(name(c.shortName)));
        for (std::int64_t v :
             {std::int64_t(k.start), std::int64_t(k.end), std::int64_t(k.duration()),
              std::int64_t(k.stream->deviceId), std::int64_t(k.stream->contextId),
              std::int64_t(k.stream->streamId), std::int64_t(c.grid[0]), std::int64_t(c.grid[1]),
              std::int64_t(c.grid[2]), std::int64_t(c.block[0]), std::int64_t(c.block[1]),
              std::int64_t(c.block[2])})
            row.push_back(n(v));
        // Fields a reduced export lacks are null, never a made-up 0.
        row.push_back(c.recorded(KernelField::Registers) ? n(std::int64_t(c.registersPerThread))
                                                         : C::null());
        const bool shared = c.recorded(KernelField::SharedMemory);
        row.push_back(shared ? n(std::int64_t(c.staticSharedBytes)) : C::null());
        row.push_back(shared ? n(std::int64_t(c.dynamicSharedBytes)) : C::null());
        row.push_back(k.record.correlationId ? n(*k.record.correlationId) : C::null());
        const EventRef api = k.record.api;
        if (api.isValid()) {
            const Lane& l = t.lane(api.lane);
            row.push_back(C::string(cudaapi::displayName(t.string(l.nameId(api.index)))));
            row.push_back(n(t.threads()[l.owner()].tid));
        } else {
            row.push_back(C::null());
            row.push_back(C::null());
        }
    };
    return table;
}

ReportTable kernelSummaryReport(const std::vector<KernelSummaryRow>& rows) {
    ReportTable table;
    table.columns = QStringList{
        QStringLiteral("name"),      QStringLiteral("time_percent"), QStringLiteral("total_ns"),
        QStringLiteral("instances"), QStringLiteral("avg_ns"),       QStringLiteral("median_ns"),
        QStringLiteral("min_ns"),    QStringLiteral("max_ns"),       QStringLiteral("stddev_ns")};
    for (const KernelSummaryRow& r : rows) {
        std::vector<C> row{C::string(r.name), C::number(r.timePercent, 2), n(r.stats.total),
                           C::number(r.stats.count)};
        statsCells(row, r.stats);
        table.rows.push_back(std::move(row));
    }
    return table;
}

ReportTable nvtxSummaryReport(const NvtxSummary& summary) {
    ReportTable table;
    table.columns = QStringList{
        QStringLiteral("range"),    QStringLiteral("style"),  QStringLiteral("instances"),
        QStringLiteral("total_ns"), QStringLiteral("avg_ns"), QStringLiteral("median_ns"),
        QStringLiteral("min_ns"),   QStringLiteral("max_ns"), QStringLiteral("stddev_ns")};
    for (const NvtxSummaryRow& r : summary.rows) {
        std::vector<C> row{C::string(r.range), C::string(nvtxStyleKey(r.style)),
                           C::number(r.stats.count), n(r.stats.total)};
        statsCells(row, r.stats);
        table.rows.push_back(std::move(row));
    }
    return table;
}

ReportTable memorySummaryReport(const std::vector<MemorySummaryRow>& rows) {
    ReportTable table;
    table.columns =
        QStringList{QStringLiteral("direction"),          QStringLiteral("count"),
                    QStringLiteral("total_bytes"),        QStringLiteral("total_ns"),
                    QStringLiteral("avg_bandwidth_gbps"), QStringLiteral("peak_bandwidth_gbps")};
    for (const MemorySummaryRow& r : rows)
        table.rows.push_back({C::string(memoryDirectionKey(r.direction)), C::number(r.count),
                              C::number(r.totalBytes), n(r.totalNs),
                              C::number(r.avgBandwidthGBps, 3), C::number(r.peakBandwidthGBps, 3)});
    return table;
}

} // namespace strobe
