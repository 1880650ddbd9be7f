// SPDX-License-Identifier: MIT
// strobe-cli job: the ranks of a distributed job on one clock (docs/JOBS.md for the
// definitions, docs/CLI.md for the tables), and `job summarize`, one rank's summary file.
#include "app/cli/cliargs.h"
#include "app/cli/commands.h"
#include "app/cli/output.h"
#include "formats/open.h"
#include "model/job/jobopen.h"
#include "model/job/summaryjson.h"
#include "model/reports/reporttable.h"
#include "model/trace.h"

#include <QFileInfo>
#include <QStringBuilder>
#include <QThread>

namespace strobe::cli {

namespace {

// What a summary reads of a trace.
constexpr TraceParts kSummaryParts =
    kGpuWorkParts | TracePart::CudaApi | TracePart::Nvtx | TracePart::CpuOps;

TraceLoader cliLoader(Io io) {
    const TraceParts parts = io.parts.value_or(kSummaryParts);
    const QString cache = cacheFolder();
    return [parts, cache](const QString& path, QString* error) -> std::unique_ptr<Trace> {
        LoadOptions options;
        options.parts = parts;
        options.cacheFolder = cache;
        LoadResult r = loadTrace(path, options);
        if (!r.ok())
            *error = r.error;
        return std::move(r.trace);
    };
}

ReportCell ns(TimeNs v) {
    return ReportCell::number(std::int64_t(v));
}
ReportCell num(std::uint64_t v) {
    return ReportCell::number(v);
}

// The breakdown columns both tables share, in the order.
void appendBreakdown(std::vector<ReportCell>& row, const RankBreakdown& b) {
    row.insert(row.end(), {ns(b.compute), ns(b.communication), ns(b.exposedCommunication),
                           ns(b.memory), ns(b.idle)});
}

struct JobTables {
    const Job& job;
    CollectiveMatch match;
    std::vector<TimeNs> offsets;
    std::vector<CollectiveTiming> timings;
    std::vector<RankWaits> waits;
};

// JSON only: HTA's window beside each rank's own (docs/JOBS.md), null without ProfilerSteps.
void appendHtaWindow(ReportTable& table, const JobTables& t) {
    table.columns << QStringLiteral("hta_compute_ns") << QStringLiteral("hta_communication_ns")
                  << QStringLiteral("hta_idle_ns") << QStringLiteral("hta_span_ns")
                  << QStringLiteral("hta_overlap_percent");
    for (std::size_t r = 0; r < t.job.ranks.size(); ++r) {
        const std::optional<RankBreakdown>& h = t.job.ranks[r].htaWindow;
        if (!h) {
            table.rows[r].insert(table.rows[r].end(), 5, ReportCell::null());
            continue;
        }
        table.rows[r].insert(table.rows[r].end(),
                             {ns(h->compute), ns(h->communication), ns(h->idle), ns(h->span),
                              ReportCell::number(h->overlapPercent(), 2)});
    }
}

ReportTable ranksTable(const JobTables& t) {
    ReportTable table;
    table.columns = QStringList{QStringLiteral("rank"),
                                QStringLiteral("file"),
                                QStringLiteral("gpu"),
                                QStringLiteral("offset_ns"),
                                QStringLiteral("compute_ns"),
                                QStringLiteral("communication_ns"),
                                QStringLiteral("exposed_communication_ns"),
                                QStringLiteral("memory_ns"),
                                QStringLiteral("idle_ns"),
                                QStringLiteral("span_ns"),
                                QStringLiteral("overlap_percent"),
                                QStringLiteral("collective_wait_ns")};
    for (std::size_t r = 0; r < t.job.ranks.size(); ++r) {
        const RankSummary& s = t.job.ranks[r];
        std::vector<ReportCell> row{num(s.rank), ReportCell::string(s.file),
                                    ReportCell::string(s.gpu), ns(t.offsets[r])};
        appendBreakdown(row, s.whole);
        row.insert(row.end(), {ns(s.whole.span), ReportCell::number(s.whole.overlapPercent(), 2),
                               ns(t.waits[r].total)});
        table.rows.push_back(std::move(row));
    }
    return table;
}

ReportTable stepsTable(const JobTables& t) {
    ReportTable table;
    table.columns = QStringList{QStringLiteral("rank"),
                                QStringLiteral("step"),
                                QStringLiteral("start_ns"),
                                QStringLiteral("end_ns"),
                                QStringLiteral("compute_ns"),
                                QStringLiteral("communication_ns"),
                                QStringLiteral("exposed_communication_ns"),
                                QStringLiteral("memory_ns"),
                                QStringLiteral("idle_ns"),
                                QStringLiteral("collective_wait_ns")};
    for (std::size_t r = 0; r < t.job.ranks.size(); ++r) {
        const RankSummary& s = t.job.ranks[r];
        for (const RankStep& step : s.steps) {
            TimeNs wait = 0;
            for (const auto& [n, w] : t.waits[r].perStep) {
                if (n == step.number)
                    wait = w;
            }
            std::vector<ReportCell> row{num(s.rank), num(step.number),
                                        ns(saturatingAdd(step.host.start, t.offsets[r])),
                                        ns(saturatingAdd(step.host.end, t.offsets[r]))};
            appendBreakdown(row, step.breakdown);
            row.push_back(ns(wait));
            table.rows.push_back(std::move(row));
        }
    }
    return table;
}

ReportTable collectivesTable(const JobTables& t) {
    ReportTable table;
    table.columns = QStringList{QStringLiteral("index"),       QStringLiteral("kind"),
                                QStringLiteral("rank"),        QStringLiteral("start_ns"),
                                QStringLiteral("end_ns"),      QStringLiteral("wait_ns"),
                                QStringLiteral("transfer_ns"), QStringLiteral("last_arriver")};
    for (std::size_t m = 0; m < t.match.matched.size(); ++m) {
        const MatchedCollective& c = t.match.matched[m];
        const CollectiveTiming& timing = t.timings[m];
        const std::uint32_t last = t.job.ranks[c.calls[timing.lastArriver].first].rank;
        for (std::size_t k = 0; k < c.calls.size(); ++k) {
            table.rows.push_back({num(m), ReportCell::string(c.kind),
                                  num(t.job.ranks[c.calls[k].first].rank), ns(timing.gpu[k].start),
                                  ns(timing.gpu[k].end), ns(timing.wait[k]), ns(timing.transfer),
                                  num(last)});
        }
    }
    return table;
}

ReportTable stragglersTable(const Stragglers& s) {
    ReportTable table;
    table.columns = QStringList{QStringLiteral("rank"), QStringLiteral("late_steps"),
                                QStringLiteral("steps"), QStringLiteral("wait_caused_ns")};
    for (const StragglerRow& r : s.rows)
        table.rows.push_back({num(r.rank), num(r.lateSteps), num(r.steps), ns(r.waitCaused)});
    return table;
}

void warnUnmatched(const Job& job, const CollectiveMatch& match, QTextStream& err) {
    if (match.unmatched.empty())
        return;
    QStringList listed;
    for (std::size_t i = 0; i < match.unmatched.size() && i < 8; ++i) {
        const auto [r, c] = match.unmatched[i];
        const RankCollective& call = job.ranks[r].collectives[c];
        listed << QStringLiteral("rank %1 %2 #%3 on stream %4")
                      .arg(job.ranks[r].rank)
                      .arg(call.kind)
                      .arg(call.order)
                      .arg(call.streamOrdinal);
    }
    if (match.unmatched.size() > 8)
        listed << QStringLiteral("%1 more").arg(match.unmatched.size() - 8);
    err << "strobe-cli job: warning: " << match.unmatched.size()
        << " collectives have no partner on some rank and are left unmatched: "
        << escapeControls(listed.join(QStringLiteral(", "))) << ".\n";
}

int runSummarize(const QStringList& args, Io io) {
    const QString cmd = QStringLiteral("job summarize");
    QStringList normalized;
    for (const QString& a : args)
        normalized << (a == QLatin1String("-o") ? QStringLiteral("--output") : a);
    CliArgs a(cmd, normalized, {}, {QStringLiteral("output")}, 1);
    if (!a.ok())
        return usageError(io, cmd, a.error());
    const auto output = a.option(QStringLiteral("output"));
    if (!output)
        return usageError(io, cmd, QStringLiteral("missing -o RANK.summary.json"));
    QString error;
    std::unique_ptr<Trace> trace = cliLoader(io)(a.positional().front(), &error);
    if (!trace) {
        io.err << "strobe-cli: " << escapeControls(error) << '\n';
        return 1;
    }
    const std::vector<RankSummary> ranks = summarizeTrace(*trace, KernelClassTable::defaults());
    for (const RankSummary& s : ranks) {
        // One report of several ranks: OUT.summary.json becomes OUT.rank-N.summary.json.
        QString path = *output;
        if (ranks.size() > 1) {
            const QString suffix = QStringLiteral(".summary.json");
            const QString stem = isRankSummaryName(path) ? path.chopped(suffix.size()) : path;
            path = stem % QStringLiteral(".rank-") % QString::number(s.rank) % suffix;
        }
        if (!writeRankSummaryFile(path, s, &error)) {
            io.err << "strobe-cli: " << escapeControls(error) << '\n';
            return 1;
        }
    }
    return 0;
}

} // namespace

int runJob(const QStringList& args, Io io) {
    if (!args.isEmpty() && args.front() == QLatin1String("summarize"))
        return runSummarize(args.mid(1), io);
    const QString cmd = QStringLiteral("job");
    CliArgs a(cmd, args, {},
              {QStringLiteral("what"), QStringLiteral("align"), QStringLiteral("format")},
              CliArgs::kOneOrMore);
    const bool json = a.jsonFormat();
    if (!a.ok())
        return usageError(io, cmd, a.error());
    const QString what = a.option(QStringLiteral("what")).value_or(QStringLiteral("ranks"));
    if (!QStringList{QStringLiteral("ranks"), QStringLiteral("steps"),
                     QStringLiteral("collectives"), QStringLiteral("stragglers")}
             .contains(what))
        return usageError(io, cmd,
                          QStringLiteral("--what must be ranks, steps, collectives or "
                                         "stragglers, not '") %
                              what % u'\'');
    const auto alignment =
        parseAlignment(a.option(QStringLiteral("align")).value_or(QStringLiteral("wall")));
    if (!alignment)
        return usageError(io, cmd, QStringLiteral("--align must be wall, step:N or collective"));

    QStringList files;
    for (const QString& p : a.positional()) {
        if (QFileInfo(p).isDir())
            files << findJobFiles(p);
        else
            files << p;
    }
    if (files.isEmpty()) {
        io.err << "strobe-cli job: " << escapeControls(a.positional().join(u' '))
               << " holds no trace or rank summary.\n";
        return 1;
    }
    const Job job = openJob(files, cliLoader(io), KernelClassTable::defaults(),
                            std::max(1, QThread::idealThreadCount()));
    for (const QString& w : job.warnings)
        io.err << "strobe-cli job: warning: " << escapeControls(w) << '\n';
    if (job.ranks.empty()) {
        io.err << "strobe-cli job: no rank could be read.\n";
        return 1;
    }
    QStringList notes;
    JobTables t{job, matchCollectives(job), {}, {}, {}};
    t.offsets = alignmentOffsets(job, t.match, *alignment, &notes);
    t.timings = timeCollectives(job, t.match, t.offsets);
    t.waits = rankWaits(job, t.match, t.timings);
    for (const QString& n : notes)
        io.err << "strobe-cli job: warning: " << n << '\n';
    warnUnmatched(job, t.match, io.err);

    ReportTable table;
    if (what == QLatin1String("ranks")) {
        table = ranksTable(t);
        if (json)
            appendHtaWindow(table, t);
    } else if (what == QLatin1String("steps")) {
        table = stepsTable(t);
    } else if (what == QLatin1String("collectives")) {
        table = collectivesTable(t);
    } else {
        const Stragglers s = findStragglers(job, t.match, t.timings);
        table = stragglersTable(s);
        if (s.rank) {
            const auto row = std::find_if(s.rows.begin(), s.rows.end(),
                                          [&](const StragglerRow& r) { return r.rank == *s.rank; });
            // The wait each other rank spends on it per step, for the sentence.
            const double perStep = double(row->waitCaused) / double(row->steps) /
                                   double(std::max<std::size_t>(1, job.ranks.size() - 1));
            io.err << "strobe-cli job: rank " << *s.rank << " starts its collectives last in "
                   << row->lateSteps << " of " << row->steps << " steps; the other ranks wait "
                   << QString::number(perStep / 1e6, 'f', 1) << " ms per step for it.\n";
        } else
            io.err << "strobe-cli job: no rank is consistently late.\n";
    }
    if (json)
        writeJson(io.out, table);
    else
        writeCsv(io.out, table);
    return 0;
}

} // namespace strobe::cli
