// SPDX-License-Identifier: MIT
// strobe-cli job: the ranks of a distributed job on one clock (docs/JOBS.md for the
// definitions, docs/CLI.md for the tables), and `job summarize`, one rank's summary file.
#include "app/cli/cliargs.h"
#include "app/cli/commands.h"
#include "app/cli/output.h"
#include "formats/open.h"
#include "model/job/jobopen.h"
#include "model/job/summaryjson.h"
#include "model/reports/jobreports.h"
#include "model/trace.h"

#include <QFileInfo>
#include <QStringBuilder>
#include <QThread>

namespace strobe::cli {

namespace {

// The loader of a job's files (read side by side, each on one thread), or with `alone` of the one
// trace `job summarize` reads (on as many threads as the reader uses).
TraceLoader cliLoader(Io io, bool alone = false) {
    const TraceParts parts = io.parts.value_or(kRankSummaryParts);
    const QString cache = cacheFolder();
    return [parts, cache, alone](const QString& path, QString* error) -> std::unique_ptr<Trace> {
        LoadOptions options = rankSummaryLoadOptions();
        options.parts = parts;
        options.cacheFolder = cache;
        if (alone)
            options.threads = LoadOptions{}.threads;
        LoadResult r = loadTrace(path, options);
        if (!r.ok())
            *error = r.error;
        return std::move(r.trace);
    };
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
    std::unique_ptr<Trace> trace = cliLoader(io, true)(a.positional().front(), &error);
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
    const JobAnalysis analysis = analyseJob(job, *alignment);
    for (const QString& n : analysis.notes)
        io.err << "strobe-cli job: warning: " << escapeControls(n) << '\n';
    if (const QString unmatched = unmatchedSentence(job, analysis); !unmatched.isEmpty())
        io.err << "strobe-cli job: warning: " << escapeControls(unmatched) << '\n';

    ReportTable table;
    if (what == QLatin1String("ranks")) {
        table = jobRanksTable(job, analysis, json);
    } else if (what == QLatin1String("steps")) {
        table = jobStepsTable(job, analysis);
    } else if (what == QLatin1String("collectives")) {
        table = jobCollectivesTable(job, analysis);
    } else {
        table = jobStragglersTable(analysis);
        io.err << "strobe-cli job: " << stragglerVerdict(job, analysis) << ".\n";
    }
    if (json)
        writeJson(io.out, table);
    else
        writeCsv(io.out, table);
    return 0;
}

} // namespace strobe::cli
