// SPDX-License-Identifier: MIT
// How long the Comparison panel takes to fill once the second trace has loaded: two synthetic
// traces of N events (different seeds), loaded, then compareTraces (whole traces, and per
// detected iteration range) and the three table models' reset, as the panel does them. Not a
// test: `bench_compare [EVENTS]` (default 1M), figures in docs/PERFORMANCE.md.
#include "formats/nsys/synth/synthtrace.h"
#include "formats/open.h"
#include "model/analysis/comparison.h"
#include "model/itemmodels/comparisonmodels.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTemporaryDir>
#include <cstdio>
#include <memory>

using namespace strobe;

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    const std::uint64_t events = argc > 1 ? std::stoull(argv[1]) : 1'000'000;
    QTemporaryDir dir;
    std::shared_ptr<const Trace> traces[2];
    for (int i = 0; i < 2; ++i) {
        const QString path = dir.filePath(QStringLiteral("t%1.sqlite").arg(i));
        synth::SynthOptions o;
        o.events = events;
        o.seed = std::uint64_t(i + 1);
        std::string error;
        if (!synth::writeSynthTrace(path.toStdString(), o, &error)) {
            std::fprintf(stderr, "%s\n", error.c_str());
            return 1;
        }
        LoadResult r = loadTrace(path);
        if (!r.ok()) {
            std::fprintf(stderr, "%s\n", qPrintable(r.error));
            return 1;
        }
        traces[i] = std::shared_ptr<const Trace>(std::move(r.trace));
    }
    std::printf("events per trace: %llu (kernels %zu and %zu)\n", (unsigned long long)events,
                traces[0]->kernelCount(), traces[1]->kernelCount());
    for (const bool detect : {false, true}) {
        for (int run = 0; run < 3; ++run) {
            QElapsedTimer timer;
            timer.start();
            ComparisonOptions o;
            o.detectRange = detect;
            auto c = std::make_shared<const Comparison>(compareTraces(*traces[0], *traces[1], o));
            const qint64 compareMs = timer.elapsed();
            KernelDiffModel k;
            RangeDiffModel r;
            GpuDiffModel g;
            k.setComparison(c);
            r.setComparison(c);
            g.setComparison(c);
            std::printf("%s run %d: compareTraces %lld ms, panel models %lld ms, total %lld ms "
                        "(%zu kernel rows, %zu range rows, range '%s')\n",
                        detect ? "per iteration" : "whole traces", run + 1, (long long)compareMs,
                        (long long)(timer.elapsed() - compareMs), (long long)timer.elapsed(),
                        c->kernels.size(), c->ranges.size(), qPrintable(c->rangeName));
        }
    }
    return 0;
}
