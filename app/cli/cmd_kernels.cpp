// SPDX-License-Identifier: MIT
// strobe-cli kernels and kernel-summary: the tables are built by model/reports/reports.h so
// that the GUI's exports and these commands agree; formats are documented in docs/CLI.md.
#include "app/cli/cliargs.h"
#include "app/cli/commands.h"
#include "model/analysis/kernelstats.h"
#include "model/reports/reports.h"
#include "model/trace.h"

namespace strobe::cli {

namespace {

void writeReport(const ReportTable& table, bool json, QTextStream& out) {
    if (json)
        writeJson(out, table);
    else
        writeCsv(out, table);
}

} // namespace

int runKernels(const QStringList& args, Io io) {
    const QString cmd = QStringLiteral("kernels");
    CliArgs a(cmd, args, {}, {QStringLiteral("format")}, 1);
    const bool json = a.jsonFormat();
    if (!a.ok())
        return usageError(io, cmd, a.error());
    // Every launch parameter, and the API calls for each kernel's launching call (api_name,
    // api_tid).
    auto trace = loadForCli(a.positional().front(), io,
                            TracePart::Kernels | TracePart::KernelDetail | TracePart::CudaApi);
    if (!trace)
        return 1;
    writeReport(kernelListReport(*trace), json, io.out);
    return 0;
}

int runKernelSummary(const QStringList& args, Io io) {
    const QString cmd = QStringLiteral("kernel-summary");
    CliArgs a(cmd, args, {QStringLiteral("base")}, {QStringLiteral("format")}, 1);
    const bool json = a.jsonFormat();
    if (!a.ok())
        return usageError(io, cmd, a.error());
    // Names and durations: no launch parameters, no API calls.
    auto trace = loadForCli(a.positional().front(), io, TracePart::Kernels);
    if (!trace)
        return 1;
    const KernelGrouping grouping =
        a.flag(QStringLiteral("base")) ? KernelGrouping::ShortName : KernelGrouping::DemangledName;
    writeReport(kernelSummaryReport(summarizeKernels(*trace, grouping)), json, io.out);
    return 0;
}

} // namespace strobe::cli
