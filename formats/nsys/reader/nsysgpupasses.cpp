// SPDX-License-Identifier: MIT
// The quick pass's GPU tables read in sampled passes (gpupassplan.h): a picture of the whole
// time range from a small spread share of the rows, refined pass by pass until every row is read
// once.
#include "formats/nsys/reader/nsysloaderimpl.h"

namespace strobe {

using namespace nsysload;

std::unique_ptr<SqliteRowStream> NsysSqliteLoader::Impl::gpuTableStream(const QString& sql,
                                                                        const QString& table) {
    if (!passTables)
        return std::make_unique<SqliteRowStream>(scanners(), options.cancel, sql, table);
    const auto it = passTables->constFind(table);
    if (it == passTables->constEnd()) // no usable rowid: whole, in the first pass
        return pass == 0 ? std::make_unique<SqliteRowStream>(scanners(), options.cancel, sql, table)
                         : nullptr;
    if (it->ranges.empty())
        return nullptr;
    return std::make_unique<SqliteRowStream>(scanners(), options.cancel, sql, it->rowid,
                                             it->ranges);
}

bool NsysSqliteLoader::Impl::readGpuSideInPasses(
    const std::vector<std::pair<TracePart, void (Impl::*)()>>& reads) {
    struct Planned {
        QString table, rowid;
        std::int64_t first = 0, last = 0;
        std::uint64_t blockRows = 0;
    };
    std::vector<Planned> planned;
    std::uint64_t rows = 0;
    for (const QString& table : {kKernelTable, kMemcpyTable, kMemsetTable}) {
        if (!db.hasTable(table))
            continue;
        const QString rowid = rowidName(db, table);
        if (rowid.isEmpty())
            continue;
        // min() and max() of the rowid are one seek each in queries of their own.
        SqliteStatement low(db, QStringLiteral("SELECT min(") % rowid % QStringLiteral(") FROM ") %
                                    table);
        SqliteStatement high(db, QStringLiteral("SELECT max(") % rowid % QStringLiteral(") FROM ") %
                                     table);
        if (!low.step() || !high.step() || low.isNull(0) || high.isNull(0))
            continue; // no rows, or no rowid to select (WITHOUT ROWID): read whole
        Planned p{table, rowid, low.int64(0), high.int64(0), 0};
        const std::uint64_t span = std::uint64_t(p.last) - std::uint64_t(p.first);
        rows += std::min(span, std::uint64_t(1) << 60) + 1; // a guess: rowids may be sparse
        planned.push_back(std::move(p));
    }
    if (planned.empty() || rows < options.gpuSampleMinRows)
        return false;
    earlyPreviewSent = true; // the passes' previews take its place
    const std::uint32_t stride = firstPassStride(rows);
    for (Planned& p : planned)
        p.blockRows = passBlockRows(p.first, p.last, stride);
    passCount = nsysload::passCount(stride);
    // The passes' ranges, and the last pass that reads anything: the picture after it is the
    // whole GPU side, sent as such.
    std::vector<std::vector<std::vector<RowidRange>>> byPass(static_cast<std::size_t>(passCount));
    int lastReading = 0;
    for (int p = 0; p < passCount; ++p) {
        for (const Planned& t : planned) {
            byPass[std::size_t(p)].push_back(passRanges(t.first, t.last, t.blockRows, stride, p));
            if (!byPass[std::size_t(p)].back().empty())
                lastReading = p;
        }
    }
    passTables.emplace();
    QElapsedTimer sincePicture;
    for (pass = 0; pass < passCount; ++pass) {
        for (std::size_t t = 0; t < planned.size(); ++t)
            passTables->insert(planned[t].table,
                               {planned[t].rowid, std::move(byPass[std::size_t(pass)][t])});
        const TraceCounts& n = builder.counts();
        const std::uint64_t before = n.kernels + n.memcpys + n.memsets;
        for (const auto& [part, read] : reads) {
            if (wants(part))
                (this->*read)();
        }
        checkCancel();
        // A picture after the first pass, then after those that end gpuSampleInterval or more
        // after the last picture (each costs the viewer a frozen copy and its redraw: at 10M
        // events the passes end a few tens of milliseconds apart), up to a quarter of the rows:
        // the half would cost a tenth of the complete picture's time (its copy frozen) for a
        // picture that the complete one follows soon after.
        const bool due = pass == 0 || (sincePicture.isValid() &&
                                       sincePicture.elapsed() >= options.gpuSampleInterval.count());
        if (due && pass < lastReading && (stride >> pass) >= kLastPreviewStride &&
            n.kernels + n.memcpys + n.memsets > before) {
            sincePicture.start();
            builder.metadata().gpuSampleStride = stride >> pass;
            sendPreview(TraceStage::GpuSideBegun, options.threads);
        }
    }
    builder.metadata().gpuSampleStride = 1;
    passTables.reset();
    passCount = 1;
    pass = 0;
    return true;
}

} // namespace strobe
