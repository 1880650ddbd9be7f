// SPDX-License-Identifier: MIT
// strobe-cli gaps: every GPU idle gap at least --min-ns long, with its cause (docs/GAPS.md for
// the definition and the cause rules, docs/CLI.md for the format).
#include "app/cli/cliargs.h"
#include "app/cli/commands.h"
#include "model/analysis/gaps.h"
#include "model/analysis/reporttable.h"
#include "model/trace.h"

namespace strobe::cli {

namespace {

ReportTable gapsReport(const GapAnalysis& analysis) {
    ReportTable t;
    t.columns = {QStringLiteral("device_id"), QStringLiteral("start_ns"),
                 QStringLiteral("end_ns"),    QStringLiteral("duration_ns"),
                 QStringLiteral("cause"),     QStringLiteral("detail")};
    for (const GpuGap& g : analysis.gaps) {
        t.rows.push_back({ReportCell::number(std::uint64_t(g.deviceId)),
                          ReportCell::number(std::int64_t(g.range.start)),
                          ReportCell::number(std::int64_t(g.range.end)),
                          ReportCell::number(std::int64_t(g.duration())),
                          ReportCell::string(gapCauseKey(g.cause)), ReportCell::string(g.detail)});
    }
    return t;
}

} // namespace

int runGaps(const QStringList& args, Io io) {
    const QString cmd = QStringLiteral("gaps");
    CliArgs a(cmd, args, {}, {QStringLiteral("format"), QStringLiteral("min-ns")}, 1);
    const bool json = a.jsonFormat();
    if (!a.ok())
        return usageError(io, cmd, a.error());
    TimeNs minNs = kDefaultIdleThresholdNs;
    if (const auto v = a.option(QStringLiteral("min-ns"))) {
        bool ok = false;
        minNs = v->toLongLong(&ok);
        if (!ok || minNs < 1)
            return usageError(io, cmd,
                              QStringLiteral("--min-ns wants a positive number of nanoseconds, "
                                             "not '") +
                                  *v + QStringLiteral("'"));
    }
    auto trace = loadForCli(a.positional().front(), io);
    if (!trace)
        return 1;
    const ReportTable table = gapsReport(findGaps(*trace, minNs));
    if (json)
        writeJson(io.out, table);
    else
        writeCsv(io.out, table);
    return 0;
}

} // namespace strobe::cli
