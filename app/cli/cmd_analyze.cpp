// SPDX-License-Identifier: MIT
// strobe-cli analyze: the findings, ranked by the time at stake (docs/FINDINGS.md for the rules,
// docs/CLI.md for the format); with --evidence, one rule's evidence rows.
#include "app/cli/cliargs.h"
#include "app/cli/commands.h"
#include "model/analysis/findings.h"
#include "model/reports/findingtext.h"
#include "model/timeformat.h"
#include "model/trace.h"

#include <QStringBuilder>
#include <cmath>
#include <limits>

namespace strobe::cli {

namespace {

// One threshold `--set RULE.KEY=VALUE` can change, and the FindingOptions field it sets.
struct Threshold {
    const char* key;
    enum class Unit : std::uint8_t { Percent, Ms, Us, Count } unit;
    double FindingOptions::*percent = nullptr;
    TimeNs FindingOptions::*time = nullptr;
    int FindingOptions::*count = nullptr;
};

using Unit = Threshold::Unit;

const std::array kThresholds{
    Threshold{"gpu_gaps.gap", Unit::Ms, nullptr, &FindingOptions::gpuGapMinNs},
    Threshold{"gpu_time_util.threshold", Unit::Percent,
              &FindingOptions::gpuTimeUtilThresholdPercent},
    Threshold{"gpu_time_util.chunks", Unit::Count, nullptr, nullptr,
              &FindingOptions::gpuTimeUtilChunks},
    Threshold{"data_loading.threshold", Unit::Percent, &FindingOptions::dataLoadingPercent},
    Threshold{"communication.threshold", Unit::Percent, &FindingOptions::communicationPercent},
    Threshold{"gpu_utilization.threshold", Unit::Percent, &FindingOptions::gpuUtilizationPercent},
    Threshold{"memory_peak.threshold", Unit::Percent, &FindingOptions::memoryPeakPercent},
    Threshold{"launch_overhead.call", Unit::Us, nullptr, &FindingOptions::launchCallNs},
    Threshold{"launch_overhead.delay", Unit::Us, nullptr, &FindingOptions::launchDelayNs},
    Threshold{"launch_overhead.short", Unit::Us, nullptr, &FindingOptions::shortKernelNs},
    Threshold{"small_grid.share", Unit::Percent, &FindingOptions::smallGridGpuPercent},
    Threshold{"small_grid.occupancy", Unit::Percent, &FindingOptions::smallGridOccupancyPercent},
    Threshold{"exposed_communication.threshold", Unit::Percent,
              &FindingOptions::exposedCommunicationPercent},
};

QString thresholdKeys() {
    QStringList keys;
    for (const Threshold& t : kThresholds)
        keys << QLatin1String(t.key);
    return keys.join(QStringLiteral(", "));
}

// Applies "RULE.KEY=VALUE[,RULE.KEY=VALUE...]" to `options`; an error sentence, or empty.
QString applyThresholds(const QString& spec, FindingOptions& options) {
    for (const QString& item : spec.split(u',', Qt::SkipEmptyParts)) {
        const qsizetype eq = item.indexOf(u'=');
        const QString key = item.left(eq).trimmed();
        const Threshold* found = nullptr;
        for (const Threshold& t : kThresholds)
            if (eq > 0 && key == QLatin1String(t.key))
                found = &t;
        if (!found)
            return QStringLiteral("--set wants RULE.KEY=VALUE with KEY one of ") % thresholdKeys() %
                   QStringLiteral(", not '") % item % u'\'';
        bool ok = false;
        const double v = item.mid(eq + 1).trimmed().toDouble(&ok);
        const bool percent = found->unit == Unit::Percent;
        if (!ok || !std::isfinite(v) || v < 0 || (percent && v > 100) ||
            (found->unit == Unit::Count && (v < 1 || v > 1e6 || v != std::floor(v))) ||
            (!percent && found->unit != Unit::Count && v > 1e9))
            return QStringLiteral("--set %1 wants %2, not '%3'")
                .arg(key,
                     percent                      ? QStringLiteral("a percentage from 0 to 100")
                     : found->unit == Unit::Count ? QStringLiteral("a whole number from 1 to 1e6")
                     : found->unit == Unit::Ms    ? QStringLiteral("milliseconds (0 to 1e9)")
                                                  : QStringLiteral("microseconds (0 to 1e9)"),
                     item.mid(eq + 1));
        switch (found->unit) {
        case Unit::Percent:
            options.*(found->percent) = v;
            break;
        case Unit::Ms:
            options.*(found->time) = TimeNs(std::llround(v * 1e6));
            break;
        case Unit::Us:
            options.*(found->time) = TimeNs(std::llround(v * 1e3));
            break;
        case Unit::Count:
            options.*(found->count) = int(v);
            break;
        }
    }
    return {};
}

void writeText(QTextStream& out, const Trace& trace, const Findings& f) {
    if (f.findings.empty())
        out << "No findings: no rule found anything to report.\n";
    std::size_t position = 0;
    for (const Finding& finding : f.findings) {
        const FindingWords words = findingWords(trace, finding);
        out << ++position << ". " << findingRuleId(finding.rule) << ", "
            << formatDuration(finding.timeNs) << " ("
            << QString::number(finding.sharePercent, 'f', 1) << " %)\n   "
            << escapeControls(words.finding) << "\n   Next step: " << escapeControls(words.nextStep)
            << '\n';
    }
    for (const SkippedRule& s : f.skipped)
        out << "Not run: " << skippedRuleText(s) << '\n';
}

void writeJsonFindings(QTextStream& out, const Trace& trace, const Findings& f) {
    out << "{\"findings\": ";
    writeJson(out, findingsTable(trace, f));
    out << ", \"skipped\": [";
    for (std::size_t i = 0; i < f.skipped.size(); ++i)
        out << (i ? ", " : "") << "{\"rule\": " << jsonString(findingRuleId(f.skipped[i].rule))
            << ", \"reason\": " << jsonString(skippedRuleText(f.skipped[i])) << '}';
    out << "]}\n";
}

// Every evidence row of the findings of `rule`, in rank order.
ReportTable evidenceOf(const Trace& trace, const Findings& f, FindingRule rule) {
    ReportTable table;
    table.columns = evidenceColumns(rule);
    for (const Finding& finding : f.findings)
        if (finding.rule == rule) {
            ReportTable part = evidenceTable(trace, finding);
            for (auto& row : part.rows)
                table.rows.push_back(std::move(row));
        }
    return table;
}

} // namespace

int runAnalyze(const QStringList& args, Io io) {
    const QString cmd = QStringLiteral("analyze");
    CliArgs a(cmd, args, {QStringLiteral("evidence")},
              {QStringLiteral("format"), QStringLiteral("rule"), QStringLiteral("set")}, 1);
    const QString format = a.tableOrTextFormat();
    if (!a.ok())
        return usageError(io, cmd, a.error());
    FindingOptions options;
    if (const auto rules = a.option(QStringLiteral("rule"))) {
        for (const QString& id : rules->split(u',', Qt::SkipEmptyParts)) {
            const auto rule = findingRuleFromId(id.trimmed());
            if (!rule) {
                QStringList ids;
                for (std::size_t i = 0; i < kFindingRuleCount; ++i)
                    ids << findingRuleId(FindingRule(i));
                return usageError(io, cmd,
                                  QStringLiteral("--rule wants rule ids (") %
                                      ids.join(QStringLiteral(", ")) % QStringLiteral("), not '") %
                                      id % u'\'');
            }
            options.only.push_back(*rule);
        }
    }
    const bool evidence = a.flag(QStringLiteral("evidence"));
    if (evidence && options.only.size() != 1)
        return usageError(io, cmd,
                          QStringLiteral("--evidence lists one rule's evidence: give "
                                         "exactly one --rule ID"));
    if (evidence && format == QLatin1String("text"))
        return usageError(io, cmd, QStringLiteral("--evidence prints a table: csv or json"));
    if (const auto spec = a.option(QStringLiteral("set"))) {
        if (const QString error = applyThresholds(*spec, options); !error.isEmpty())
            return usageError(io, cmd, error);
    }

    auto trace = loadForCli(a.positional().front(), io, kAllTraceParts);
    if (!trace)
        return 1;
    const Findings findings = computeFindings(*trace, options);
    if (evidence) {
        const ReportTable table = evidenceOf(*trace, findings, options.only.front());
        if (format == QLatin1String("json"))
            writeJson(io.out, table);
        else
            writeCsv(io.out, table);
    } else if (format == QLatin1String("json")) {
        writeJsonFindings(io.out, *trace, findings);
    } else if (format == QLatin1String("text")) {
        writeText(io.out, *trace, findings);
    } else {
        writeCsv(io.out, findingsTable(*trace, findings));
    }
    // The rules that could not run, where a table's reader does not look for them.
    if (format != QLatin1String("text") && !(format == QLatin1String("json") && !evidence))
        for (const SkippedRule& s : findings.skipped)
            io.err << "strobe-cli analyze: " << skippedRuleText(s) << '\n';
    return 0;
}

} // namespace strobe::cli
