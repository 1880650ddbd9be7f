// SPDX-License-Identifier: MIT
// strobe-cli steps: the step time breakdown of TensorBoard's PyTorch profiler plugin, one row per
// training step (docs/OPERATORS.md for the definitions, docs/CLI.md for the format).
#include "app/cli/cliargs.h"
#include "app/cli/commands.h"
#include "model/analysis/gpumetrics.h"
#include "model/analysis/operators.h"
#include "model/analysis/steps.h"
#include "model/reports/operatorreports.h"
#include "model/trace.h"

namespace strobe::cli {

namespace {

// The steps are operator or NVTX ranges; their time is split by GPU work, CUDA API calls and the
// operators (data loading, other CPU work), which need the forest's parts: kernels with their
// correlation ids (KernelDetail), memcpys, memsets, API calls, NVTX and CPU ops.
constexpr TraceParts kStepParts =
    kGpuWorkParts | TracePart::CudaApi | TracePart::Nvtx | TracePart::CpuOps;

// {"source", "family", "dropped_tail_steps", "steps": [the CSV's rows, average last],
//  "gpus": [the GPU metrics over the steps' time, one per GPU]}.
void writeStepsJson(QTextStream& out, const Trace& trace, const StepBreakdown& b) {
    out << "{\"source\": " << jsonString(stepSourceKey(b.source))
        << ", \"family\": " << jsonString(b.family)
        << ", \"dropped_tail_steps\": " << b.droppedTailSteps << ",\n \"steps\": ";
    writeJson(out, stepReport(b));
    const TimeRange span = b.steps.empty()
                               ? TimeRange{}
                               : TimeRange{b.steps.front().range.start, b.steps.back().range.end};
    out << ",\n \"gpus\": ";
    writeJson(out, gpuMetricsReport(computeGpuStepMetrics(trace, span)));
    out << "}\n";
}

} // namespace

int runSteps(const QStringList& args, Io io) {
    const QString cmd = QStringLiteral("steps");
    CliArgs a(cmd, args, {}, {QStringLiteral("format")}, 1);
    const bool json = a.jsonFormat();
    if (!a.ok())
        return usageError(io, cmd, a.error());
    auto trace = loadForCli(a.positional().front(), io, kStepParts);
    if (!trace)
        return 1;
    const StepBreakdown breakdown = computeStepBreakdown(*trace);
    if (json)
        writeStepsJson(io.out, *trace, breakdown);
    else
        writeCsv(io.out, stepReport(breakdown));
    return 0;
}

} // namespace strobe::cli
