// SPDX-License-Identifier: MIT
#include "model/job/jobopen.h"

#include "model/job/summaryjson.h"
#include "model/runonthreads.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSet>
#include <QStringBuilder>
#include <atomic>

namespace strobe {

bool isRankSummaryName(const QString& path) {
    return path.endsWith(QLatin1String(".summary.json"), Qt::CaseInsensitive);
}

namespace {

// SQLite's header, gzip's magic, or JSON's first character after blanks.
bool looksLikeTrace(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return false;
    const QByteArray head = f.read(64);
    if (head.startsWith(QByteArrayLiteral("SQLite format 3")) ||
        head.startsWith(QByteArrayLiteral("\x1f\x8b")))
        return true;
    for (char c : head) {
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n')
            continue;
        return c == '{' || c == '[';
    }
    return false;
}

} // namespace

QStringList findJobFiles(const QString& folder) {
    const QDir dir(folder);
    const QFileInfoList entries = dir.entryInfoList(QDir::Files, QDir::Name);
    QSet<QString> summaries;
    for (const QFileInfo& e : entries) {
        if (isRankSummaryName(e.fileName()))
            summaries.insert(e.fileName());
    }
    QStringList out;
    for (const QFileInfo& e : entries) {
        const QString name = e.fileName();
        const bool summarised = summaries.contains(name % QStringLiteral(".summary.json"));
        if (isRankSummaryName(name) || (!summarised && looksLikeTrace(e.filePath())))
            out << e.filePath();
    }
    return out;
}

Job openJob(const QStringList& paths, const TraceLoader& load, const KernelClassTable& table,
            int threads) {
    struct Result {
        std::vector<RankSummary> summaries;
        QString error;
    };
    std::vector<Result> results(std::size_t(paths.size()));
    std::atomic<std::size_t> next{0};
    runOnThreads(std::min<int>(threads, int(paths.size())), [&] {
        for (std::size_t i = next++; i < results.size(); i = next++) {
            const QString& path = paths[qsizetype(i)];
            Result& r = results[i];
            if (isRankSummaryName(path)) {
                if (auto s = readRankSummaryFile(path, &r.error))
                    r.summaries.push_back(std::move(*s));
                continue;
            }
            std::unique_ptr<Trace> trace = load(path, &r.error);
            if (trace)
                r.summaries = summarizeTrace(*trace, table);
        }
    });
    std::vector<RankSummary> all;
    QStringList warnings;
    for (std::size_t i = 0; i < results.size(); ++i) {
        if (!results[i].error.isEmpty())
            warnings << results[i].error;
        for (RankSummary& s : results[i].summaries) {
            // A trace of one rank that records no number, in a job of several files.
            if (s.rankSource == RankSource::Order && !s.pid && paths.size() > 1) {
                s.rank = std::uint32_t(i);
                warnings << QStringLiteral("%1 records no rank and its name carries none: it is "
                                           "rank %2, its position among the files.")
                                .arg(QFileInfo(paths[qsizetype(i)]).fileName())
                                .arg(i);
            }
            all.push_back(std::move(s));
        }
    }
    return makeJob(std::move(all), warnings);
}

} // namespace strobe
