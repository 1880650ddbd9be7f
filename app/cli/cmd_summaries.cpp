// SPDX-License-Identifier: MIT
// strobe-cli nvtx-summary and memory-summary; formats are documented in docs/CLI.md.
#include "app/cli/cliargs.h"
#include "app/cli/commands.h"
#include "model/analysis/memorystats.h"
#include "model/analysis/nvtxstats.h"
#include "model/reports/reports.h"
#include "model/trace.h"

namespace strobe::cli {

namespace {

// Parses FILE [--format csv|json] (and [--raw] where `raw` is given) and loads the trace;
// returns the exit status on failure.
std::optional<int> prepare(const QString& cmd, const QStringList& args, Io io, TraceParts parts,
                           bool& json, std::unique_ptr<Trace>& trace, bool* raw = nullptr) {
    const QString rawFlag = QStringLiteral("raw");
    CliArgs a(cmd, args, raw ? QSet<QString>{rawFlag} : QSet<QString>{}, {QStringLiteral("format")},
              1);
    json = a.jsonFormat();
    if (!a.ok())
        return usageError(io, cmd, a.error());
    if (raw)
        *raw = a.flag(rawFlag);
    trace = loadForCli(a.positional().front(), io, parts);
    if (!trace)
        return 1;
    return std::nullopt;
}

} // namespace

int runNvtxSummary(const QStringList& args, Io io) {
    if (args.contains(QStringLiteral("--gpu")))
        return runNvtxGpuSummary(args, io); // cmd_statsreports.cpp
    bool json = false;
    std::unique_ptr<Trace> trace;
    bool raw = false;
    // The NVTX ranges alone: this summary does not project them onto GPU work.
    if (auto status =
            prepare(QStringLiteral("nvtx-summary"), args, io, TracePart::Nvtx, json, trace, &raw))
        return *status;
    // Grouped by default: PyTorch's per-call ids would give one row per call.
    const NvtxSummary summary =
        summarizeNvtx(*trace, raw ? RangeNaming::Raw : RangeNaming::Grouped);
    if (summary.openRanges > 0)
        io.err << "strobe-cli nvtx-summary: warning: " << summary.openRanges
               << " NVTX ranges have no end and are left out.\n";
    const ReportTable table = nvtxSummaryReport(summary);
    if (json)
        writeJson(io.out, table);
    else
        writeCsv(io.out, table);
    return 0;
}

int runMemorySummary(const QStringList& args, Io io) {
    bool json = false;
    std::unique_ptr<Trace> trace;
    if (auto status = prepare(QStringLiteral("memory-summary"), args, io,
                              TracePart::Memcpys | TracePart::Memsets, json, trace))
        return *status;
    const ReportTable table = memorySummaryReport(summarizeMemory(*trace));
    if (json)
        writeJson(io.out, table);
    else
        writeCsv(io.out, table);
    return 0;
}

} // namespace strobe::cli
