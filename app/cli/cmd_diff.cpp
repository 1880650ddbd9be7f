// SPDX-License-Identifier: MIT
// strobe-cli diff A B: trace B against the baseline A (model/analysis/comparison.h); the format
// is documented in docs/CLI.md.
#include "app/cli/cliargs.h"
#include "app/cli/commands.h"
#include "app/cli/output.h"
#include "model/analysis/comparison.h"
#include "model/reports/comparisonreports.h"
#include "model/trace.h"

#include <QStringBuilder>

namespace strobe::cli {

namespace {

enum class What { All, Kernels, Nvtx, Gpus };

void writeSide(QTextStream& out, const Comparison& c, const ComparisonSide& s) {
    JsonWriter j(out);
    j.beginObject();
    j.field(QStringLiteral("file"), s.file);
    j.field(QStringLiteral("format"), s.format);
    j.key(QStringLiteral("span_ns"));
    j.beginArray();
    j.value(std::int64_t(s.span.start));
    j.value(std::int64_t(s.span.end));
    j.endArray();
    j.key(QStringLiteral("range"));
    if (c.hasRange())
        j.value(c.rangeName);
    else
        j.null();
    j.field(QStringLiteral("range_detected"), c.rangeDetected);
    j.key(QStringLiteral("instances"));
    if (c.hasRange())
        j.value(s.instanceCount());
    else
        j.null();
    j.field(QStringLiteral("kernels"), s.kernels);
    j.field(QStringLiteral("gpu_idle_ns"), std::int64_t(s.gpuIdle));
    if (c.hasRange()) {
        j.field(QStringLiteral("mean_instance_ns"), s.meanInstanceNs());
        j.field(QStringLiteral("kernels_per_instance"), s.perInstance(double(s.kernels)));
        j.field(QStringLiteral("gpu_idle_per_instance_ns"), s.perInstance(double(s.gpuIdle)));
    }
    j.endObject();
}

void writeJsonReport(QTextStream& out, const Comparison& c, What what) {
    out << "{\"a\": ";
    writeSide(out, c, c.a);
    out << ",\n \"b\": ";
    writeSide(out, c, c.b);
    out << ",\n \"idle_threshold_ns\": " << c.idleThresholdNs;
    if (what == What::All || what == What::Kernels) {
        out << ",\n \"kernels\": ";
        writeJson(out, kernelDiffReport(c));
    }
    if (what == What::All || what == What::Nvtx) {
        out << ",\n \"nvtx\": ";
        writeJson(out, rangeDiffReport(c));
    }
    if (what == What::All || what == What::Gpus) {
        out << ",\n \"gpus\": ";
        writeJson(out, gpuDiffReport(c));
    }
    out << "}\n";
}

} // namespace

int runDiff(const QStringList& args, Io io) {
    const QString cmd = QStringLiteral("diff");
    CliArgs a(cmd, args, {QStringLiteral("base"), QStringLiteral("config")},
              {QStringLiteral("format"), QStringLiteral("range"), QStringLiteral("what")}, 2);
    const bool json = a.jsonFormat();
    if (!a.ok())
        return usageError(io, cmd,
                          a.positional().size() < 2
                              ? QStringLiteral("needs two trace files, the baseline A and B")
                              : a.error());
    if (a.flag(QStringLiteral("base")) && a.flag(QStringLiteral("config")))
        return usageError(io, cmd, QStringLiteral("--base and --config cannot be combined"));
    What what = json ? What::All : What::Kernels;
    if (const auto w = a.option(QStringLiteral("what"))) {
        if (*w == QLatin1String("kernels"))
            what = What::Kernels;
        else if (*w == QLatin1String("nvtx"))
            what = What::Nvtx;
        else if (*w == QLatin1String("gpus"))
            what = What::Gpus;
        else
            return usageError(io, cmd,
                              QStringLiteral("--what must be kernels, nvtx or gpus, not '") % *w %
                                  u'\'');
    }
    ComparisonOptions options;
    if (a.flag(QStringLiteral("base")))
        options.grouping = KernelGrouping::ShortName;
    else if (a.flag(QStringLiteral("config")))
        options.grouping = KernelGrouping::LaunchConfig;
    if (const auto r = a.option(QStringLiteral("range"))) {
        if (r->isEmpty())
            return usageError(io, cmd, QStringLiteral("--range needs a range name, or auto"));
        if (*r == QLatin1String("auto"))
            options.detectRange = true;
        else
            options.range = *r;
    }

    // Everything: the GPU columns come from the gap analysis and the trace's time range.
    const auto traceA = loadForCli(a.positional().at(0), io, kAllTraceParts);
    if (!traceA)
        return 1;
    const auto traceB = loadForCli(a.positional().at(1), io, kAllTraceParts);
    if (!traceB)
        return 1;
    const Comparison c = compareTraces(*traceA, *traceB, options);

    if (options.detectRange && !c.hasRange())
        return usageError(io, cmd,
                          QStringLiteral("found no iteration range (ProfilerStep#N, Iteration N, "
                                         "step N) in A or B; name one with --range NAME"));
    if (c.hasRange()) {
        if (c.a.instanceCount() == 0 && c.b.instanceCount() == 0)
            return usageError(io, cmd,
                              QStringLiteral("neither trace has a range named '") % c.rangeName %
                                  QStringLiteral("' (or starting so)"));
        io.err << "strobe-cli diff: per instance of '" << c.rangeName << "'"
               << (c.rangeDetected ? " (detected)" : "") << ": " << c.a.instanceCount() << " in A, "
               << c.b.instanceCount() << " in B.\n";
        if (c.a.instanceCount() == 0 || c.b.instanceCount() == 0)
            io.err << "strobe-cli diff: warning: " << (c.a.instanceCount() == 0 ? "A" : "B")
                   << " has no instance of '" << c.rangeName << "'; its side is empty.\n";
    }
    // What differs between the traces, how GPUs were paired and what a verdict rests on.
    for (const QString& note : comparisonNotes(c, QStringLiteral("--range")))
        io.err << "strobe-cli diff: note: " << note << '\n';
    if (json) {
        writeJsonReport(io.out, c, what);
        return 0;
    }
    switch (what) {
    case What::All:
    case What::Kernels:
        writeCsv(io.out, kernelDiffReport(c));
        break;
    case What::Nvtx:
        writeCsv(io.out, rangeDiffReport(c));
        break;
    case What::Gpus:
        writeCsv(io.out, gpuDiffReport(c));
        break;
    }
    return 0;
}

} // namespace strobe::cli
