// SPDX-License-Identifier: MIT
// Paints the timeline of a synthetic trace into a 2560x1440 QImage offscreen: 50 frames at full
// zoom-out and 100 at random zoom and pan positions, each with a cold geometry cache (the cost of
// a frame after the view moved), and prints p50, p95 and p99 in milliseconds. First it paints
// full zoom-out frames while the level-of-detail data is still being built on its worker (rows
// fold with foldRuns meanwhile), then waits for it and reports how long the build took.
//
//   bench_timeline_paint [events=1000000] [--png out.png] [--trace FILE]
#include "formats/open.h"
#include "model/tracebuilder.h"
#include "widgets/timeline/timelineview.h"
#include "widgets/viewstate.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QImage>
#include <QPainter>
#include <algorithm>
#include <cstdio>
#include <random>

using namespace strobe;

namespace {
// GPU work of a training-like loop: per step a data-loading pause, then bursts of short kernels
// (a few long GEMMs among many elementwise ones) on four streams of two GPUs, each launched by an
// API call on one of two threads per process, plus memcpys and NVTX ranges.
std::unique_ptr<Trace> buildTrace(std::uint64_t events, std::uint32_t seed) {
    TraceBuilder b(QStringLiteral("synthetic"));
    std::mt19937_64 rng(seed);
    const char* names[] = {"ampere_sgemm_128x64_nn", "vectorized_elementwise_kernel",
                           "softmax_warp_forward",   "cudnn_convolve_fprop",
                           "reduce_kernel",          "unrolled_elementwise_kernel",
                           "layer_norm_kernel",      "gemv2T_kernel"};
    KernelConfig cfg[8];
    for (int i = 0; i < 8; ++i) {
        cfg[i].shortName = b.intern(names[i]);
        cfg[i].grid = {128, 1, 1};
        cfg[i].block = {256, 1, 1};
    }
    for (std::uint32_t d = 0; d < 2; ++d) {
        GpuInfo g;
        g.id = d;
        g.name = b.intern("NVIDIA H100 80GB HBM3");
        b.addGpu(g);
        b.setProcessName(1000 + d, b.intern("python"));
    }
    const StringId launch = b.intern("cudaLaunchKernel_v7000");
    const StringId copy = b.intern("[CUDA memcpy Host-to-Device]");
    const StringId copyApi = b.intern("cudaMemcpyAsync_v3020");
    const StringId step = b.intern("train_step");
    std::uint64_t n = 0;
    std::uint32_t corr = 1;
    TimeNs cpu[2] = {0, 0};
    std::uniform_int_distribution<int> pick(0, 7);
    std::exponential_distribution<double> kdur(1.0 / 8000.0);
    while (n < events) {
        for (std::uint32_t d = 0; d < 2 && n < events; ++d) {
            const std::uint32_t pid = 1000 + d;
            cpu[d] += 2'000'000; // data loading: the GPU waits
            const TimeNs stepStart = cpu[d];
            TimeNs gpu[4] = {cpu[d], cpu[d], cpu[d], cpu[d]};
            for (int k = 0; k < 200 && n + 2 < events; ++k) {
                const int which = pick(rng);
                const std::uint32_t stream = 7 + std::uint32_t(k % 4);
                const std::uint32_t tid = pid + std::uint32_t(k % 2);
                ApiCallRecord api;
                api.correlationId = corr;
                b.addApiCall(pid, tid, cpu[d], cpu[d] + 3'000, k % 25 == 0 ? copyApi : launch, api);
                const TimeNs start = std::max(gpu[stream - 7], cpu[d] + 5'000);
                const TimeNs dur = 1'000 + TimeNs(kdur(rng)) * (which == 0 ? 8 : 1);
                if (k % 25 == 0) {
                    MemcpyRecord mc;
                    mc.copyKind = MemcpyKind::HtoD;
                    mc.bytes = 1 << 22;
                    mc.correlationId = corr;
                    b.addMemcpy(pid, d, 1, stream, start, start + dur, copy, mc);
                } else {
                    b.addKernel(pid, d, 1, stream, start, start + dur, cfg[which], corr,
                                std::nullopt);
                }
                gpu[stream - 7] = start + dur + 500;
                cpu[d] += 4'000;
                ++corr;
                n += 2;
            }
            cpu[d] = std::max({cpu[d], gpu[0], gpu[1], gpu[2], gpu[3]});
            NvtxRecord r;
            b.addNvtx(pid, pid, 0, stepStart, cpu[d], step, r, std::nullopt);
            ++n;
        }
    }
    return b.finish();
}

double percentile(std::vector<double> v, double p) {
    std::sort(v.begin(), v.end());
    const auto i =
        std::size_t(std::clamp(p / 100.0 * double(v.size() - 1), 0.0, double(v.size() - 1)));
    return v[i];
}

void report(const char* what, const std::vector<double>& ms) {
    std::printf("%-28s frames %3zu  p50 %7.2f ms  p95 %7.2f ms  p99 %7.2f ms\n", what, ms.size(),
                percentile(ms, 50), percentile(ms, 95), percentile(ms, 99));
}
} // namespace

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    std::uint64_t events = 1'000'000;
    QString png, file;
    for (int i = 1; i < argc; ++i) {
        const QString a = QString::fromLocal8Bit(argv[i]);
        if (a == QStringLiteral("--png") && i + 1 < argc)
            png = QString::fromLocal8Bit(argv[++i]);
        else if (a == QStringLiteral("--trace") && i + 1 < argc)
            file = QString::fromLocal8Bit(argv[++i]);
        else
            events = a.toULongLong();
    }
    QElapsedTimer timer;
    timer.start();
    std::shared_ptr<const Trace> trace;
    if (file.isEmpty()) {
        trace = buildTrace(events, 42);
    } else {
        LoadResult r = loadTrace(file);
        if (!r.ok()) {
            std::fprintf(stderr, "%s\n", qPrintable(r.error));
            return 1;
        }
        trace = std::move(r.trace);
    }
    std::size_t total = 0;
    for (const Lane& l : trace->lanes())
        total += l.size();
    std::printf("trace: %zu events in %zu lanes, built in %.0f ms\n", total, trace->lanes().size(),
                double(timer.elapsed()));

    ViewState state;
    state.setTrace(trace);
    TimelineView view(&state);
    const QSize size(2560, 1440);
    view.resize(size + QSize(TimelineView::kHeaderWidth + 20, TimelineView::kRulerHeight));
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    auto paintOnce = [&] {
        QElapsedTimer t;
        t.start();
        QPainter p(&image);
        view.paintCanvas(p, size, 1.0);
        p.end();
        return double(t.nsecsElapsed()) / 1e6;
    };

    const TimeRange all = trace->timeRange();
    timer.restart();
    std::vector<double> pending;
    for (int i = 0; i < 5 && !view.isLevelOfDetailReady(); ++i) {
        state.setVisibleRange({all.start, all.end + 1000 + i}, false);
        pending.push_back(paintOnce());
    }
    if (!pending.empty())
        report("zoom-out, LOD pending", pending);
    view.waitForLevelOfDetail();
    std::printf("level of detail (row summaries, utilisation) ready %.0f ms after the view, "
                "summaries %.1f MB (%.2f B/event)\n",
                double(timer.elapsed()), double(view.levelOfDetailBytes()) / 1e6,
                double(view.levelOfDetailBytes()) / double(std::max<std::size_t>(1, total)));
    std::vector<double> zoomOut;
    for (int i = 0; i < 50; ++i) {
        state.setVisibleRange({all.start, all.end + i}, false); // new key: cold geometry cache
        zoomOut.push_back(paintOnce());
    }
    report("full zoom-out", zoomOut);
    if (!png.isEmpty())
        image.save(png);

    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> logSpan(std::log(10'000.0),
                                                   std::log(double(all.duration())));
    std::vector<double> random;
    for (int i = 0; i < 100; ++i) {
        const auto span = TimeNs(std::exp(logSpan(rng)));
        std::uniform_int_distribution<TimeNs> start(all.start, std::max(all.start, all.end - span));
        const TimeNs s = start(rng);
        state.setVisibleRange({s, s + span}, false);
        view.setScrollY(int(rng() % 200));
        random.push_back(paintOnce());
    }
    report("random zoom and pan", random);
    std::vector<double> warm;
    for (int i = 0; i < 50; ++i)
        warm.push_back(paintOnce()); // same view: cached geometry, live overlays only
    report("repaint, same view (cached)", warm);
    return 0;
}
