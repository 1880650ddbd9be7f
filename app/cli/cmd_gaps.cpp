// SPDX-License-Identifier: MIT
// strobe-cli gaps: every GPU idle gap at least --min-ns long, with its cause (docs/GAPS.md for
// the definition and the cause rules, docs/CLI.md for the format).
#include "app/cli/cliargs.h"
#include "app/cli/commands.h"
#include "app/cli/output.h"
#include "model/analysis/gaps.h"
#include "model/reports/gapsummarytext.h"
#include "model/reports/gaptext.h"
#include "model/reports/reporttable.h"
#include "model/timeformat.h"
#include "model/trace.h"

#include <QStringBuilder>

namespace strobe::cli {

namespace {

const QStringList& gapColumns() {
    static const QStringList columns = {QStringLiteral("device_id"), QStringLiteral("start_ns"),
                                        QStringLiteral("end_ns"),    QStringLiteral("duration_ns"),
                                        QStringLiteral("cause"),     QStringLiteral("detail")};
    return columns;
}

ReportTable gapsReport(const Trace& trace, const GapAnalysis& analysis) {
    ReportTable t;
    t.columns = gapColumns();
    for (const GpuGap& g : analysis.gaps) {
        t.rows.push_back({ReportCell::number(std::uint64_t(g.deviceId)),
                          ReportCell::number(std::int64_t(g.range.start)),
                          ReportCell::number(std::int64_t(g.range.end)),
                          ReportCell::number(std::int64_t(g.duration())),
                          ReportCell::string(gapCauseKey(g.cause)),
                          ReportCell::string(gapDetailText(trace, g))});
    }
    return t;
}

// {"busy", "threshold_ns", "devices": [per GPU], "gaps": [the CSV's rows]}: the idle stretches
// at the trace's ends are fields of their GPU, never gaps.
void writeGapsJson(QTextStream& out, const Trace& trace, const GapAnalysis& a) {
    JsonWriter j(out);
    j.beginObject();
    j.field(QStringLiteral("busy"), busyWorkKey(a.busy));
    j.field(QStringLiteral("threshold_ns"), std::int64_t(a.threshold));
    j.key(QStringLiteral("devices"));
    j.beginArray();
    for (const DeviceIdleSummary& d : a.devices) {
        j.beginObject();
        j.field(QStringLiteral("device_id"), d.deviceId);
        j.field(QStringLiteral("work_recorded"), d.hasWork());
        j.field(QStringLiteral("kernel_ns"), std::int64_t(d.kernelNs));
        j.field(QStringLiteral("copy_ns"), std::int64_t(d.copyNs));
        j.field(QStringLiteral("busy_ns"), std::int64_t(d.busyNs));
        j.field(QStringLiteral("idle_ns"), std::int64_t(d.idleNs));
        j.field(QStringLiteral("gaps"), d.gapCount);
        const auto optionalNs = [&](const QString& key, std::optional<TimeNs> v) {
            j.key(key);
            if (v)
                j.value(std::int64_t(*v));
            else
                j.null();
        };
        const bool busy = d.busySpan.has_value();
        optionalNs(QStringLiteral("first_work_ns"),
                   busy ? std::optional(d.busySpan->start) : std::nullopt);
        optionalNs(QStringLiteral("last_work_end_ns"),
                   busy ? std::optional(d.busySpan->end) : std::nullopt);
        optionalNs(QStringLiteral("idle_before_first_work_ns"),
                   busy ? std::optional(d.idleBeforeNs) : std::nullopt);
        optionalNs(QStringLiteral("idle_after_last_work_ns"),
                   busy ? std::optional(d.idleAfterNs) : std::nullopt);
        j.endObject();
    }
    j.endArray();
    j.key(QStringLiteral("gaps"));
    j.beginArray();
    for (const GpuGap& g : a.gaps) {
        j.beginObject();
        j.field(QStringLiteral("device_id"), g.deviceId);
        j.field(QStringLiteral("start_ns"), std::int64_t(g.range.start));
        j.field(QStringLiteral("end_ns"), std::int64_t(g.range.end));
        j.field(QStringLiteral("duration_ns"), std::int64_t(g.duration()));
        j.field(QStringLiteral("cause"), gapCauseKey(g.cause));
        j.field(QStringLiteral("detail"), gapDetailText(trace, g));
        j.endObject();
    }
    j.endArray();
    j.endObject();
    out << '\n';
}

// For people: per GPU the panel's header line, then the idle stretch before its first work, its
// gaps in time order and the idle stretch after its last work.
void writeGapsText(QTextStream& out, const Trace& trace, const GapAnalysis& a) {
    out << gapsHeadline(a) << '\n';
    if (a.devices.empty())
        out << "No GPU in this trace.\n";
    std::size_t next = 0;
    for (const DeviceIdleSummary& d : a.devices) {
        out << gpuWorkLine(d, a.busy, a.threshold) << '\n';
        if (!d.busySpan)
            continue;
        out << "  " << idleBeforeLine(d) << '\n';
        for (; next < a.gaps.size() && a.gaps[next].deviceId == d.deviceId; ++next) {
            const GpuGap& g = a.gaps[next];
            out << "  gap at " << formatTimestamp(g.range.start, trace.timeRange().start) << ", "
                << formatDuration(g.duration()) << ", " << gapCauseKey(g.cause) << ": "
                << escapeControls(gapDetailText(trace, g)) << '\n';
        }
        out << "  " << idleAfterLine(d) << '\n';
    }
}

} // namespace

int runGaps(const QStringList& args, Io io) {
    const QString cmd = QStringLiteral("gaps");
    CliArgs a(cmd, args, {},
              {QStringLiteral("format"), QStringLiteral("min-ns"), QStringLiteral("busy")}, 1);
    const QString format = a.tableOrTextFormat();
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
    BusyWork busy = BusyWork::All;
    if (const auto v = a.option(QStringLiteral("busy"))) {
        const auto parsed = busyWorkFromKey(*v);
        if (!parsed || *parsed == BusyWork::Copies)
            return usageError(io, cmd,
                              QStringLiteral("--busy must be all or kernels, not '") % *v % u'\'');
        busy = *parsed;
    }
    // The causes look at every CPU lane, and the ends at the trace's time range, which every lane
    // makes: all but the GPU memory counters.
    auto trace =
        loadForCli(a.positional().front(), io, kAllTraceParts & ~TraceParts(TracePart::GpuMemory));
    if (!trace)
        return 1;
    const GapAnalysis analysis = findGaps(*trace, minNs, busy);
    if (format == QLatin1String("json"))
        writeGapsJson(io.out, *trace, analysis);
    else if (format == QLatin1String("text"))
        writeGapsText(io.out, *trace, analysis);
    else
        writeCsv(io.out, gapsReport(*trace, analysis));
    return 0;
}

} // namespace strobe::cli
