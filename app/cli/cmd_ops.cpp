// SPDX-License-Identifier: MIT
// strobe-cli ops: the operator statistics of TensorBoard's PyTorch profiler plugin, over the
// whole trace or the instances of one range (docs/OPERATORS.md for the definitions, docs/CLI.md
// for the format).
#include "app/cli/cliargs.h"
#include "app/cli/commands.h"
#include "model/analysis/iterations.h"
#include "model/analysis/operators.h"
#include "model/reports/operatorreports.h"
#include "model/trace.h"

#include <QStringBuilder>

namespace strobe::cli {

namespace {

// The operators (CPU ops and NVTX or user-annotation ranges), the API calls that launched GPU
// work and the work itself with its correlation ids (KernelDetail): what the forest and its
// attribution are built from.
constexpr TraceParts kOperatorParts =
    kGpuWorkParts | TracePart::CudaApi | TracePart::Nvtx | TracePart::CpuOps;

} // namespace

int runOps(const QStringList& args, Io io) {
    const QString cmd = QStringLiteral("ops");
    CliArgs a(cmd, args, {},
              {QStringLiteral("format"), QStringLiteral("group-by"), QStringLiteral("range")}, 1);
    const bool json = a.jsonFormat();
    if (!a.ok())
        return usageError(io, cmd, a.error());
    OperatorGrouping grouping = OperatorGrouping::Name;
    if (const auto g = a.option(QStringLiteral("group-by"))) {
        if (*g == QLatin1String("shapes"))
            grouping = OperatorGrouping::NameAndShapes;
        else if (*g != QLatin1String("name"))
            return usageError(io, cmd,
                              QStringLiteral("--group-by must be name or shapes, not '") %
                                  escapeControls(*g) % u'\'');
    }
    const auto rangeName = a.option(QStringLiteral("range"));
    // An empty name would select every range by prefix.
    if (rangeName && rangeName->isEmpty())
        return usageError(io, cmd, QStringLiteral("--range needs a range name"));
    const QString& path = a.positional().front();
    auto trace = loadForCli(path, io, kOperatorParts);
    if (!trace)
        return 1;
    const OperatorForest forest = buildOperatorForest(*trace);
    OperatorTable table;
    if (rangeName) {
        const RangeInstances ranges = findRangeInstances(*trace, *rangeName);
        if (ranges.windows.empty()) {
            io.err << "strobe-cli ops: " << escapeControls(path) << " has no range named '"
                   << escapeControls(*rangeName) << "'.\n";
            return 1;
        }
        // operatorTable counts one window: the table of the instances' union is the sum of the
        // tables of its disjoint windows (nested or overlapping instances counted once).
        std::vector<OperatorTable> perWindow;
        perWindow.reserve(ranges.windows.size());
        for (const TimeRange& w : ranges.windows)
            perWindow.push_back(operatorTable(*trace, forest, grouping, w));
        table = addOperatorTables(forest, perWindow);
    } else {
        table = operatorTable(*trace, forest, grouping);
    }
    const ReportTable report = operatorReport(table);
    if (json)
        writeJson(io.out, report);
    else
        writeCsv(io.out, report);
    return 0;
}

} // namespace strobe::cli
