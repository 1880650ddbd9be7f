// SPDX-License-Identifier: MIT
// The timeline search at scale (issue 44, item 16; docs/PERFORMANCE.md): on the synthetic trace
// of N events (default ten million, the scale benchmark's), the time searchEvents takes until
// the first match in time order is known (the search, then EventSearchResult::first()), and the
// match count, for a few queries: a kernel family, every kernel launch call, a regular
// expression, nothing, and one letter that matches most events. Each query runs `--runs` times
// (default 3) and prints its median; the last line is one JSON object with the figures.
//
//   bench_search [--events N] [--seed S] [--trace PATH] [--runs R]
//
// Without --trace the trace is generated once to /tmp/strobe-scale-<N>-<S>.sqlite and reused.
#include "bench/scale/scalecommon.h"
#include "formats/open.h"
#include "model/analysis/eventsearch.h"
#include "model/hugepages.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QStringList>
#include <cstdio>

using namespace strobe;
using namespace strobe::bench;

namespace {

struct Query {
    const char* key; // in the JSON line
    const char* label;
    EventSearchQuery query;
};

} // namespace

int main(int argc, char** argv) {
    strobe::useHugePagesForMalloc(argv); // loads as strobe does (see there)
    QCoreApplication app(argc, argv);
    std::uint64_t events = 10'000'000, seed = 1;
    int runs = 3;
    QString path;
    const QStringList args = QCoreApplication::arguments();
    for (qsizetype i = 1; i + 1 < args.size(); i += 2) {
        const QString& a = args[i];
        const QString& v = args[i + 1];
        if (a == QLatin1String("--events"))
            events = v.toULongLong();
        else if (a == QLatin1String("--seed"))
            seed = v.toULongLong();
        else if (a == QLatin1String("--trace"))
            path = v;
        else if (a == QLatin1String("--runs"))
            runs = std::max(1, v.toInt());
        else {
            std::fprintf(stderr, "usage: bench_search [--events N] [--seed S] [--trace PATH] "
                                 "[--runs R]\n");
            return 2;
        }
    }
    if (path.isEmpty())
        path = ensureTrace(events, seed);
    QElapsedTimer load;
    load.start();
    const LoadResult loaded = loadTrace(path);
    if (!loaded.trace) {
        std::fprintf(stderr, "%s\n", qPrintable(loaded.error));
        return 1;
    }
    const Trace& t = *loaded.trace;
    std::printf("%s: %llu events in %zu lanes, %zu strings, %zu kernel configurations, loaded "
                "in %.1f s\n",
                qPrintable(path), static_cast<unsigned long long>(eventCount(t)), t.lanes().size(),
                t.strings().size(), t.kernelConfigs().size(), seconds(load));

    const Query queries[] = {
        {"sgemm", "substring 'sgemm'", {QStringLiteral("sgemm"), false, false}},
        {"launch",
         "substring 'cudaLaunchKernel'",
         {QStringLiteral("cudaLaunchKernel"), false, false}},
        {"regex",
         "regex '^ampere_sgemm_\\d+x\\d+_nn$'",
         {QStringLiteral("^ampere_sgemm_\\d+x\\d+_nn$"), true, false}},
        {"none", "no match 'no such name'", {QStringLiteral("no such name"), false, false}},
        {"a", "substring 'a' (most events)", {QStringLiteral("a"), false, false}},
    };
    QString json = QStringLiteral("{\"events\":%1").arg(eventCount(t));
    for (const Query& q : queries) {
        std::vector<double> ms;
        std::size_t count = 0;
        for (int r = 0; r < runs; ++r) {
            QElapsedTimer timer;
            timer.start();
            const EventSearchResult result = searchEvents(t, q.query);
            const EventRef first = result.first();
            ms.push_back(double(timer.nsecsElapsed()) / 1e6);
            count = result.count();
            if (count > 0 && !first.isValid())
                return 1;
        }
        const double median = percentile(ms, 50);
        std::printf("%-40s %9.1f ms to the first match (median of %d), %zu matches\n", q.label,
                    median, runs, count);
        json += QStringLiteral(",\"%1\":{\"ms\":%2,\"matches\":%3}")
                    .arg(QLatin1String(q.key))
                    .arg(median, 0, 'f', 1)
                    .arg(count);
    }
    std::printf("%s}\n", qPrintable(json));
    return 0;
}
