// SPDX-License-Identifier: MIT
// The scale benchmark (docs/PERFORMANCE.md): on a synthetic trace of N events (default ten
// million) it measures, in one run,
//   - a raw single-threaded sqlite3_step scan of the rows and columns Strobe reads (the floor),
//   - Strobe's full load (loadTrace, LoadOptions::threads, 3 by default) and the ratio of the two,
//   - resident memory growth per event after the load, and the peak during it (VmHWM),
//   - the time to find the visible window in one row (two RowView binary searches),
//   - the time to sort the kernel table by duration (KernelTableModel),
//   - the paint time of the real TimelineView offscreen at 2560x1440, at full zoom-out and at
//     200 random zoom and pan positions, and the same on a ten-thousand-event trace,
//   - the time from opening the file in the real MainWindow to the end of its first paint of the
//     timeline (the early preview of a big trace), of its first paint of a partial GPU picture
//     (a sample of the GPU rows spread over the whole time range, gpu_first_partial_s with its
//     share), and of its first paint with every GPU row (the GPU picture); the longest stall of the
//     GUI thread meanwhile (a 1 ms QTimer on the GUI thread), also among the stalls during which
//     the hypervisor took no CPU time from this machine (/proc/stat's steal), and there less the
//     GUI thread's wait for a core (its schedstat), each stall's split (the GUI thread on a CPU,
//     waiting for one, the process's other threads' CPU time), and how late that timer fired during
//     the load,
//   - the same first paint when reopening from the reopen cache (filled by one load first, in a
//     temporary folder deleted afterwards), and the time that filling load spent.
// The last line of its output is one JSON object with the headline numbers.
//
//   bench_scale [--events N] [--seed S] [--trace PATH] [--threads T] [--small-events N]
//               [--no-gui] [--gui-only] [--paint-only] [--load-only] [--gpu-pass] [--reopen-only]
// --gui-only runs only the last step (first paint and GUI stalls), for quick iterations on them.
// --reopen-only runs only the reopen: one load fills a cache in a temporary folder, the window
// reopens the file from it (QT_LOGGING_RULES=strobe.cache.debug=true shows each step's time).
// --load-only runs only the load and its memory figures (no raw scan, so no ratio).
// --gpu-pass runs only what the GPU picture is loaded from: the GPU tables without the kernels'
// launch details, the window's quick pass, five times, and prints each time; then five loads
// with previews, each to its complete GPU side, in sampled passes (when the first partial
// picture came) and read in one go.
// --paint-only loads both traces and paints them, and lists the first zoom-out frames and the
// slowest random ones.
// Without --trace the trace is generated once to /tmp/strobe-scale-<N>-<S>.sqlite and reused.
// STROBE_BENCH_SLOW_EVENT_MS=T lists on stderr every event the GUI thread took over T ms to deliver
// (TimedApplication), to tell what a stall was.
#include "bench/scale/memoryreport.h"
#include "bench/scale/procstatus.h"
#include "bench/scale/rawscan.h"
#include "bench/scale/scalecommon.h"
#include "bench/scale/scalegui.h"
#include "bench/scale/scalepaint.h"
#include "formats/open.h"
#include "model/hugepages.h"
#include "model/itemmodels/kerneltablemodel.h"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QPainter>
#include <QTemporaryDir>
#include <QTimer>
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <malloc.h>
#include <random>

using namespace strobe;
using namespace strobe::bench;

namespace {

struct Options {
    std::uint64_t events = 10'000'000;
    std::uint64_t seed = 1;
    std::uint64_t smallEvents = 10'000;
    QString trace;
    int threads = LoadOptions().threads;
    bool gui = true;
    bool guiOnly = false;
    bool paintOnly = false;
    bool loadOnly = false;
    bool gpuPass = false;
    bool reopenOnly = false;
};

Options parseArgs(const QStringList& args) {
    Options o;
    auto count = [](const QString& s) {
        QString v = s.toLower();
        std::uint64_t mul = 1;
        if (v.endsWith(u'k'))
            mul = 1000, v.chop(1);
        else if (v.endsWith(u'm'))
            mul = 1'000'000, v.chop(1);
        return std::uint64_t(v.toDouble() * double(mul));
    };
    for (qsizetype i = 1; i < args.size(); ++i) {
        const QString& a = args[i];
        const QString next = i + 1 < args.size() ? args[i + 1] : QString();
        if (a == QStringLiteral("--events"))
            o.events = count(next), ++i;
        else if (a == QStringLiteral("--seed"))
            o.seed = next.toULongLong(), ++i;
        else if (a == QStringLiteral("--small-events"))
            o.smallEvents = count(next), ++i;
        else if (a == QStringLiteral("--trace"))
            o.trace = next, ++i;
        else if (a == QStringLiteral("--threads"))
            o.threads = next.toInt(), ++i;
        else if (a == QStringLiteral("--no-gui"))
            o.gui = false;
        else if (a == QStringLiteral("--gui-only"))
            o.guiOnly = true;
        else if (a == QStringLiteral("--paint-only"))
            o.paintOnly = true;
        else if (a == QStringLiteral("--load-only"))
            o.loadOnly = true;
        else if (a == QStringLiteral("--gpu-pass"))
            o.gpuPass = true;
        else if (a == QStringLiteral("--reopen-only"))
            o.reopenOnly = true;
        else {
            std::fprintf(stderr,
                         "usage: bench_scale [--events N] [--seed S] [--trace PATH] [--threads T] "
                         "[--small-events N] [--no-gui] [--gui-only] [--paint-only] "
                         "[--load-only] [--gpu-pass] [--reopen-only]\n");
            std::exit(2);
        }
    }
    return o;
}

// The threads that scan a table in a load of `opt.threads` (NsysSqliteLoader::load's workers).
int scanWorkers(const Options& opt) {
    return std::clamp(opt.threads - 1, 1, 2);
}

// The GPU picture's floor (rawGpuPictureScan on the load's scan threads), printed.
RawScanResult measurePictureFloor(const QString& path, const Options& opt) {
    const double cpu0 = processCpuSeconds();
    const RawScanResult floor = rawGpuPictureScan(path.toStdString(), scanWorkers(opt));
    std::printf("GPU picture floor: its columns of %llu rows scanned in %.3f s (%d threads, "
                "%.3f s CPU)\n",
                static_cast<unsigned long long>(floor.rows), floor.seconds, scanWorkers(opt),
                processCpuSeconds() - cpu0);
    return floor;
}

// The reopen: one load fills the cache (a temporary folder, deleted afterwards; the default cap,
// sized from its disk), then the real window opens the file again from it. Printed.
struct Reopen {
    GuiResult gui;
    std::uint64_t events = 0;
};
Reopen measureReopen(const QString& path, const Options& opt) {
    Reopen r;
    QTemporaryDir cache;
    LoadOptions fill;
    fill.threads = opt.threads;
    fill.cacheFolder = cache.path();
    QElapsedTimer timer;
    timer.start();
    LoadResult filled = loadTrace(path, fill);
    const double fillS = seconds(timer);
    if (filled.ok())
        r.events = eventCount(*filled.trace);
    filled.trace.reset();
    malloc_trim(0);
    std::uint64_t entryBytes = 0;
    for (const QFileInfo& e : QDir(cache.path()).entryInfoList(QDir::Files))
        entryBytes += std::uint64_t(e.size());
    r.gui = measureGui(path, cache.path());
    std::printf("reopen: load and cache write %.3f s (entry %.0f MB), from the cache: first paint "
                "at %.3f s, the whole trace painted at %.3f s, loaded in %.3f s, longest GUI "
                "stall %.1f ms\n",
                fillS, double(entryBytes) / 1e6, r.gui.firstPaintS, r.gui.gpuPictureS, r.gui.loadS,
                r.gui.maxGapMs);
    return r;
}

// The previews of a load in sampled passes (LoadOptions::gpuSampleMinRows): when the first
// partial GPU picture and the complete GPU side reached the preview callback, s after the call.
struct GpuPasses {
    double firstPartialS = -1, completeS = -1, completeCpuS = -1;
    std::uint32_t firstStride = 0;
    int partials = 0;
};
GpuPasses measureGpuPasses(const QString& path, const Options& opt, bool sampled) {
    GpuPasses g;
    double cpu0 = 0;
    std::atomic<bool> cancel{false};
    QElapsedTimer timer;
    LoadOptions lo;
    lo.threads = opt.threads;
    if (!sampled)
        lo.gpuSampleMinRows = std::numeric_limits<std::uint64_t>::max();
    lo.cancel = &cancel;
    lo.preview = [&](std::unique_ptr<Trace> t) {
        const TraceMetadata& m = t->metadata();
        if (m.gpuSampleStride > 1 && g.partials++ == 0) {
            g.firstPartialS = seconds(timer);
            g.firstStride = m.gpuSampleStride;
        }
        if (m.stage == TraceStage::GpuSide) {
            g.completeS = seconds(timer);
            g.completeCpuS = processCpuSeconds() - cpu0;
            cancel = true; // the rest is not measured here
        }
    };
    cpu0 = processCpuSeconds();
    timer.start();
    loadTrace(path, lo);
    return g;
}

} // namespace

int main(int argc, char** argv) {
    strobe::useHugePagesForMalloc(argv); // runs again with malloc on huge pages (see there)
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    TimedApplication app(argc, argv);
    const Options opt = parseArgs(app.arguments());
    const QString path = opt.trace.isEmpty() ? ensureTrace(opt.events, opt.seed) : opt.trace;
    warmFileCache(path);
    if (opt.guiOnly) {
        const GuiResult gui = measureGui(path);
        printGui(gui);
        return gui.ok ? 0 : 1;
    }

    if (opt.reopenOnly) {
        const Reopen reopen = measureReopen(path, opt);
        std::printf("{\"events\": %llu, \"reopen_first_paint_s\": %.3f}\n",
                    static_cast<unsigned long long>(reopen.events), reopen.gui.firstPaintS);
        return reopen.gui.ok ? 0 : 1;
    }

    if (opt.gpuPass) {
        measurePictureFloor(path, opt);
        std::printf("gpu pass:");
        for (int run = 0; run < 5; ++run) {
            LoadOptions lo;
            lo.threads = opt.threads;
            lo.parts = TracePart::Kernels | TracePart::Memcpys | TracePart::Memsets;
            QElapsedTimer timer;
            timer.start();
            const LoadResult loaded = loadTrace(path, lo);
            if (!loaded.ok()) {
                std::fprintf(stderr, "load failed: %s\n", qPrintable(loaded.error));
                return 1;
            }
            std::printf(" %.3f s", seconds(timer));
            std::fflush(stdout);
        }
        std::printf("\n");
        // The GPU picture in sampled passes: a whole load with previews, stopped once the quick
        // pass's complete GPU side arrived; each beside the same load read in one go (no sampled
        // passes), alternating.
        for (int run = 0; run < 5; ++run) {
            const GpuPasses p = measureGpuPasses(path, opt, true);
            const GpuPasses oneGo = measureGpuPasses(path, opt, false);
            std::printf(
                "gpu passes: first partial picture (1/%u of the rows) at %.3f s, %d partial "
                "pictures, the complete GPU side at %.3f s, %.3f s CPU (read in one go: %.3f s, "
                "%.3f s CPU)\n",
                p.firstStride, p.firstPartialS, p.partials, p.completeS, p.completeCpuS,
                oneGo.completeS, oneGo.completeCpuS);
        }
        return 0;
    }

    if (opt.paintOnly) {
        LoadOptions lo;
        lo.threads = opt.threads;
        LoadResult loaded = loadTrace(path, lo);
        if (!loaded.ok()) {
            std::fprintf(stderr, "load failed: %s\n", qPrintable(loaded.error));
            return 1;
        }
        return measureBothPaints(std::move(loaded.trace), opt.paintOnly, opt.smallEvents, opt.seed)
                           .scaling < 0
                   ? 1
                   : 0;
    }

    // 1. The floor: a raw scan of the same rows and columns (--load-only: none, no ratio).
    const RawScanResult raw = opt.loadOnly ? RawScanResult{} : rawScan(path.toStdString());
    std::printf("raw scan: %llu rows in %.3f s\n", static_cast<unsigned long long>(raw.rows),
                raw.seconds);
    // The GPU picture's floor, before anything of Strobe's runs in the process.
    const RawScanResult pictureFloor =
        opt.gui && !opt.loadOnly ? measurePictureFloor(path, opt) : RawScanResult{};

    // 2. Strobe's load, with the memory it keeps and the peak on the way.
    malloc_trim(0);
    const std::uint64_t rssBefore = residentBytes();
    const bool peakReset = resetPeakResident();
    QElapsedTimer timer;
    timer.start();
    LoadOptions lo;
    lo.threads = opt.threads;
    LoadResult loaded = loadTrace(path, lo);
    const double loadS = seconds(timer);
    if (!loaded.ok()) {
        std::fprintf(stderr, "load failed: %s\n", qPrintable(loaded.error));
        return 1;
    }
    const std::uint64_t peak = peakResidentBytes();
    const std::uint64_t rssAfter = residentBytes();
    std::shared_ptr<const Trace> trace = std::move(loaded.trace);
    const std::uint64_t events = eventCount(*trace);
    const double bytesPerEvent = double(rssAfter - std::min(rssAfter, rssBefore)) / double(events);
    const double peakPerEvent =
        peakReset ? double(peak - std::min(peak, rssBefore)) / double(events) : -1;
    std::printf("load: %llu events in %zu lanes in %.3f s (%d threads), %.2f x the raw scan\n",
                static_cast<unsigned long long>(events), trace->lanes().size(), loadS, opt.threads,
                raw.seconds > 0 ? loadS / raw.seconds : 0.0);
    std::printf(
        "memory: %.1f B/event resident after load (%.0f MB), peak %.1f B/event (%.0f MB)%s; "
        "model's own count %.1f B/event\n",
        bytesPerEvent, double(rssAfter - rssBefore) / 1e6, peakPerEvent,
        double(peak - rssBefore) / 1e6, peakReset ? "" : " (VmHWM reset refused)",
        double(trace->memoryBytes()) / double(events));
    printMemoryBreakdown(*trace, events);
    if (opt.loadOnly)
        return 0;

    // 3. Window query and kernel sort on the loaded trace.
    const double windowUs = measureWindowQuery(*trace);
    std::printf("window query: %.3f us per row (two binary searches)\n", windowUs);
    double sortS = 0;
    {
        KernelTableModel model;
        timer.restart();
        model.setTrace(trace);
        const double setS = seconds(timer);
        timer.restart();
        model.sort(KernelTableModel::Duration, Qt::DescendingOrder);
        sortS = seconds(timer);
        std::printf("kernel table: %d rows, setTrace %.3f s, sort by duration %.3f s\n",
                    model.rowCount(), setS, sortS);
    }

    // 4. Paint at this size and at the small size.
    const PaintFigures paint =
        measureBothPaints(std::move(trace), opt.paintOnly, opt.smallEvents, opt.seed);
    if (paint.scaling < 0)
        return 1;

    // 5. The real window: first paint and GUI-thread stalls during a load.
    GuiResult gui;
    if (opt.gui) {
        malloc_trim(0);
        gui = measureGui(path);
        printGui(gui);
        std::printf("GPU picture at %.2f x its floor\n", gui.gpuPictureS / pictureFloor.seconds);
    }

    // 6. Reopen: one load fills the cache, then the real window opens the file again.
    GuiResult reopen;
    if (opt.gui)
        reopen = measureReopen(path, opt).gui;

    std::printf("{\"events\": %llu, \"raw_scan_s\": %.3f, \"load_s\": %.3f, \"load_ratio\": %.3f, "
                "\"bytes_per_event\": %.2f, \"peak_bytes_per_event\": %.2f, \"first_paint_s\": "
                "%.3f, \"gpu_picture_s\": %.3f, \"gpu_picture_floor_s\": %.3f, "
                "\"gpu_first_partial_s\": %.3f, \"gpu_first_partial_share\": %.4f, "
                "\"paint_zoomout_p95_ms\": %.2f, "
                "\"paint_random_p99_ms\": %.2f, "
                "\"paint_scaling_ratio\": %.2f, \"window_query_us\": %.3f, \"kernel_sort_s\": "
                "%.3f, \"gui_block_max_ms\": %.1f, \"gui_block_unpaused_max_ms\": %.1f, "
                "\"gui_block_unqueued_max_ms\": %.1f, \"reopen_first_paint_s\": %.3f}\n",
                static_cast<unsigned long long>(events), raw.seconds, loadS, loadS / raw.seconds,
                bytesPerEvent, peakPerEvent, gui.firstPaintS, gui.gpuPictureS, pictureFloor.seconds,
                gui.gpuFirstPartialS,
                gui.gpuFirstPartialStride > 0 ? 1.0 / gui.gpuFirstPartialStride : 0.0,
                paint.zoomOutP95, paint.randomP99, paint.scaling, windowUs, sortS, gui.maxGapMs,
                gui.maxGapUnpausedMs, gui.maxGapUnqueuedMs, reopen.firstPaintS);
    return 0;
}
