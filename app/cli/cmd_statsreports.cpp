// SPDX-License-Identifier: MIT
// strobe-cli api-summary, osrt-summary, memory-size-summary, launch-summary and
// nvtx-summary --gpu: Nsight Systems' cuda_api_sum, osrt_sum, cuda_gpu_mem_size_sum,
// cuda_kern_exec_sum and nvtx_gpu_proj_sum. Formats and definitions: docs/CLI.md.
#include "app/cli/cliargs.h"
#include "app/cli/commands.h"
#include "model/reports/statsreports.h"
#include "model/trace.h"

#include <functional>

namespace strobe::cli {

namespace {

// FILE [--format csv|json] plus `flags`: parses, loads `parts`, prints the table `report`
// makes. A trace without the data prints the header alone.
int runReport(const QString& cmd, const QStringList& args, Io io, TraceParts parts,
              const QSet<QString>& flags,
              const std::function<ReportTable(const Trace&, const CliArgs&)>& report) {
    CliArgs a(cmd, args, flags, {QStringLiteral("format")}, 1);
    const bool json = a.jsonFormat();
    if (!a.ok())
        return usageError(io, cmd, a.error());
    const std::unique_ptr<Trace> trace = loadForCli(a.positional().front(), io, parts);
    if (!trace)
        return 1;
    const ReportTable table = report(*trace, a);
    if (json)
        writeJson(io.out, table);
    else
        writeCsv(io.out, table);
    return 0;
}

} // namespace

int runApiSummary(const QStringList& args, Io io) {
    return runReport(QStringLiteral("api-summary"), args, io, TracePart::CudaApi, {},
                     [](const Trace& t, const CliArgs&) {
                         return callSummaryReport(summarizeCalls(t, CallFamily::CudaApi));
                     });
}

int runOsrtSummary(const QStringList& args, Io io) {
    return runReport(QStringLiteral("osrt-summary"), args, io, TracePart::Osrt, {},
                     [](const Trace& t, const CliArgs&) {
                         return callSummaryReport(summarizeCalls(t, CallFamily::Osrt));
                     });
}

int runMemorySizeSummary(const QStringList& args, Io io) {
    return runReport(QStringLiteral("memory-size-summary"), args, io,
                     TracePart::Memcpys | TracePart::Memsets, {},
                     [](const Trace& t, const CliArgs&) {
                         return memorySizeSummaryReport(summarizeMemorySizes(t));
                     });
}

int runLaunchSummary(const QStringList& args, Io io) {
    // KernelDetail: a kernel's link to its launching call.
    return runReport(
        QStringLiteral("launch-summary"), args, io,
        TracePart::Kernels | TracePart::KernelDetail | TracePart::CudaApi, {},
        [](const Trace& t, const CliArgs&) { return launchSummaryReport(summarizeLaunches(t)); });
}

int runNvtxGpuSummary(const QStringList& args, Io io) {
    const QString raw = QStringLiteral("raw");
    return runReport(QStringLiteral("nvtx-summary"), args, io,
                     TracePart::Nvtx | TracePart::CudaApi | kGpuWorkParts,
                     {QStringLiteral("gpu"), raw}, [raw](const Trace& t, const CliArgs& a) {
                         return nvtxGpuSummaryReport(summarizeNvtxGpu(
                             t, a.flag(raw) ? RangeNaming::Raw : RangeNaming::Grouped));
                     });
}

} // namespace strobe::cli
