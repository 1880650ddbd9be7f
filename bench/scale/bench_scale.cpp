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
//     timeline (the early preview of a big trace), and of its first paint with every GPU row (the
//     GPU picture); the longest stall of the GUI thread meanwhile (a 1 ms QTimer on the GUI
//     thread), also among the stalls during which the hypervisor took no CPU time from this
//     machine (/proc/stat's steal), and how late that timer fired during the load,
//   - the same first paint when reopening from the reopen cache (filled by one load first, in a
//     temporary folder deleted afterwards), and the time that filling load spent.
// The last line of its output is one JSON object with the headline numbers.
//
//   bench_scale [--events N] [--seed S] [--trace PATH] [--threads T] [--small-events N]
//               [--no-gui] [--gui-only] [--paint-only] [--load-only] [--gpu-pass]
// --gui-only runs only the last step (first paint and GUI stalls), for quick iterations on them.
// --load-only runs only the load and its memory figures (no raw scan, so no ratio).
// --gpu-pass runs only what the GPU picture is loaded from: the GPU tables without the kernels'
// launch details, the window's quick pass, five times, and prints each time.
// --paint-only loads both traces and paints them, and lists the first zoom-out frames and the
// slowest random ones.
// Without --trace the trace is generated once to /tmp/strobe-scale-<N>-<S>.sqlite and reused.
#include "app/gui/appsettings.h"
#include "app/gui/mainwindow.h"
#include "bench/scale/memoryreport.h"
#include "bench/scale/procstatus.h"
#include "bench/scale/rawscan.h"
#include "formats/nsys/synth/synthtrace.h"
#include "formats/open.h"
#include "model/hugepages.h"
#include "model/itemmodels/kerneltablemodel.h"
#include "widgets/timeline/timelineview.h"
#include "widgets/viewstate.h"

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
#include <cmath>
#include <cstdio>
#include <functional>
#include <malloc.h>
#include <random>

using namespace strobe;
using namespace strobe::bench;

namespace {

const QSize kCanvas(2560, 1440);

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
};

double percentile(std::vector<double> v, double p) {
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    const double pos = p / 100.0 * double(v.size() - 1);
    const auto i = std::size_t(pos);
    const double frac = pos - double(i);
    return i + 1 < v.size() ? v[i] * (1 - frac) + v[i + 1] * frac : v[i];
}

double seconds(const QElapsedTimer& t) {
    return double(t.nsecsElapsed()) / 1e9;
}

// The synthetic trace of `events` rows, generated once and kept in /tmp.
QString ensureTrace(std::uint64_t events, std::uint64_t seed) {
    const QString path = QStringLiteral("/tmp/strobe-scale-%1-%2.sqlite").arg(events).arg(seed);
    if (QFile::exists(path))
        return path;
    std::printf("generating %s ...\n", qPrintable(path));
    std::fflush(stdout);
    QElapsedTimer t;
    t.start();
    synth::SynthOptions o;
    o.events = events;
    o.seed = seed;
    std::string error;
    if (!synth::writeSynthTrace(path.toStdString(), o, &error)) {
        std::fprintf(stderr, "cannot generate the trace: %s\n", error.c_str());
        std::exit(1);
    }
    std::printf("generated in %.1f s\n", seconds(t));
    return path;
}

// Reads the whole file once so that neither the raw scan nor the load pays for a cold cache.
void warmFileCache(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return;
    std::vector<char> buf(8 << 20);
    while (f.read(buf.data(), qint64(buf.size())) > 0) {
    }
}

std::uint64_t eventCount(const Trace& t) {
    std::uint64_t n = 0;
    for (const Lane& l : t.lanes())
        n += l.size();
    return n;
}

struct PaintStats {
    std::vector<double> zoomOut, random;
    std::vector<TimeRange> randomWindows; // the window of each random frame, in order
    double replayedMs = -1; // mean of the slowest random frames painted again (--paint-only)
};

// Indices of the frames, the slowest first.
std::vector<std::size_t> slowestFirst(const std::vector<double>& ms) {
    std::vector<std::size_t> order(ms.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::sort(order.begin(), order.end(),
              [&](std::size_t a, std::size_t b) { return ms[a] > ms[b]; });
    return order;
}

// Paints the real TimelineView into an offscreen image: 50 frames at full zoom-out and 200 at
// random zoom and pan positions, each with a cold geometry cache (the cost after the view moved).
// With `replays`, the ten slowest random frames are then painted that many times more each, so
// that a profiler sees mostly them (--paint-only).
PaintStats measurePaint(std::shared_ptr<const Trace> trace, int replays = 0) {
    PaintStats s;
    ViewState state;
    state.setTrace(trace);
    TimelineView view(&state);
    view.resize(kCanvas + QSize(TimelineView::kHeaderWidth + 20, TimelineView::kRulerHeight));
    QImage image(kCanvas, QImage::Format_ARGB32_Premultiplied);
    auto paintOnce = [&] {
        QElapsedTimer t;
        t.start();
        QPainter p(&image);
        view.paintCanvas(p, kCanvas, 1.0);
        p.end();
        return double(t.nsecsElapsed()) / 1e6;
    };
    const TimeRange all = trace->timeRange();
    paintOnce(); // first frame: lazily built per-trace state, measured as first paint elsewhere
    // Steady state: the per-row summaries build in the background within ~0.3 s of a new
    // trace; frames before that fold every row (measured by first paint, not here).
    view.waitForLevelOfDetail();
    for (int i = 0; i < 50; ++i) {
        state.setVisibleRange({all.start, all.end + 1 + i}, false); // new key: cold cache
        s.zoomOut.push_back(paintOnce());
    }
    std::mt19937_64 rng(7);
    const double minSpan = 10'000.0, maxSpan = std::max(minSpan * 2, double(all.duration()));
    std::uniform_real_distribution<double> logSpan(std::log(minSpan), std::log(maxSpan));
    std::vector<int> scrolls;
    for (int i = 0; i < 200; ++i) {
        const auto span = TimeNs(std::exp(logSpan(rng)));
        std::uniform_int_distribution<TimeNs> start(all.start, std::max(all.start, all.end - span));
        const TimeNs s0 = start(rng);
        state.setVisibleRange({s0, s0 + span}, false);
        const int scrollY = int(rng() % 400);
        view.setScrollY(scrollY);
        s.random.push_back(paintOnce());
        s.randomWindows.push_back({s0, s0 + span});
        scrolls.push_back(scrollY);
    }
    if (replays > 0) {
        std::vector<std::size_t> order = slowestFirst(s.random);
        order.resize(std::min<std::size_t>(order.size(), 10));
        double total = 0;
        for (int r = 0; r < replays; ++r) {
            for (std::size_t i : order) {
                const TimeRange w = s.randomWindows[i];
                state.setVisibleRange({w.start, w.end + 1 + (r % 2)}, false); // cold cache
                view.setScrollY(scrolls[i]);
                total += paintOnce();
            }
        }
        s.replayedMs = total / double(replays * int(order.size()));
    }
    return s;
}

void printPaint(const char* what, const std::vector<double>& ms) {
    std::printf("%-34s frames %3zu  p50 %7.2f ms  p95 %7.2f ms  p99 %7.2f ms\n", what, ms.size(),
                percentile(ms, 50), percentile(ms, 95), percentile(ms, 99));
}

void printSlowestFrames(const PaintStats& s, std::size_t count) {
    const std::vector<std::size_t> order = slowestFirst(s.random);
    std::printf("slowest random frames:");
    for (std::size_t i = 0; i < std::min(count, order.size()); ++i) {
        const TimeRange w = s.randomWindows[order[i]];
        std::printf(" %.2f ms (%.3g s at %.3g s);", s.random[order[i]], double(w.duration()) / 1e9,
                    double(w.start) / 1e9);
    }
    std::printf("\n");
}

struct PaintFigures {
    double zoomOutP95 = 0, randomP99 = 0;
    double scaling = -1; // the large trace's random p95 / the small one's; -1: no small trace
};

// Paints the loaded trace and then the small one.
PaintFigures measureBothPaints(std::shared_ptr<const Trace> trace, const Options& opt) {
    PaintFigures f;
    const PaintStats big = measurePaint(trace, opt.paintOnly ? 20 : 0);
    printPaint("paint full zoom-out (large)", big.zoomOut);
    printPaint("paint random zoom/pan (large)", big.random);
    if (opt.paintOnly) {
        std::printf("first full zoom-out frames:");
        for (std::size_t i = 0; i < std::min<std::size_t>(5, big.zoomOut.size()); ++i)
            std::printf(" %.2f ms;", big.zoomOut[i]);
        std::printf("\n");
        printSlowestFrames(big, 12);
        std::printf("the ten slowest painted 20 times more: %.2f ms a frame\n", big.replayedMs);
    }
    trace.reset();
    malloc_trim(0);
    const QString smallPath = ensureTrace(opt.smallEvents, opt.seed);
    LoadResult small = loadTrace(smallPath);
    if (!small.ok()) {
        std::fprintf(stderr, "small load failed: %s\n", qPrintable(small.error));
        return f;
    }
    const PaintStats little = measurePaint(std::shared_ptr<const Trace>(std::move(small.trace)));
    printPaint("paint full zoom-out (small)", little.zoomOut);
    printPaint("paint random zoom/pan (small)", little.random);
    f.zoomOutP95 = percentile(big.zoomOut, 95);
    f.randomP99 = percentile(big.random, 99);
    f.scaling = percentile(big.random, 95) / std::max(1e-6, percentile(little.random, 95));
    std::printf("paint large / small (p95 random): %.2f\n", f.scaling);
    return f;
}

// Average microseconds to locate the visible window [a, b) in one row: firstEndingAfter(a) and
// firstStartingAtOrAfter(b), over many random windows in rows of at least 1,000 events.
double measureWindowQuery(const Trace& t) {
    struct Query {
        const Lane* lane;
        std::uint16_t row;
        TimeNs a, b;
    };
    std::vector<std::pair<const Lane*, std::uint16_t>> rows;
    for (const Lane& l : t.lanes()) {
        for (std::uint16_t r = 0; r < l.rowCount(); ++r) {
            if (l.rowView(r).size() >= 1000)
                rows.emplace_back(&l, r);
        }
    }
    if (rows.empty())
        return 0;
    std::mt19937_64 rng(11);
    std::vector<Query> queries(400'000);
    for (Query& q : queries) {
        const auto& [lane, row] = rows[rng() % rows.size()];
        const TimeRange range = lane->timeRange();
        const double span = std::exp(std::uniform_real_distribution<double>(
            std::log(1e3), std::log(std::max(2e3, double(range.duration()))))(rng));
        const TimeNs a =
            range.start + TimeNs(rng() % std::uint64_t(std::max<TimeNs>(1, range.duration())));
        q = Query{lane, row, a, a + TimeNs(span)};
    }
    std::uint64_t sink = 0;
    QElapsedTimer timer;
    timer.start();
    for (const Query& q : queries) {
        const RowView row = q.lane->rowView(q.row);
        sink += row.firstEndingAfter(q.a) + row.firstStartingAtOrAfter(q.b);
    }
    const double us = double(timer.nsecsElapsed()) / 1e3 / double(queries.size());
    if (sink == 42)
        std::printf(" ");
    return us;
}

// One GUI-thread stall over kReportedStallMs.
struct Stall {
    double endS = 0; // when it ended, s after openFile
    double ms = 0;   // its length
    // The CPU time the hypervisor took meanwhile, summed over the CPUs (in 10 ms steps).
    double stealMs = 0;
};

struct GuiResult {
    double firstPaintS = -1;
    double gpuPictureS = -1;
    double loadS = -1;
    double maxGapMs = 0;
    // The longest gap during which the hypervisor took no CPU time from this machine (to its
    // 10 ms resolution): the stalls that the application and the guest's scheduler caused.
    double maxGapUnpausedMs = 0;
    // How late the 1 ms timer fired, from openFile to the end of the load: the GUI thread's
    // wake-up latency while the loader keeps both cores busy.
    double lateP50Ms = 0;
    double lateP99Ms = 0;
    // Timer intervals, and those during which the hypervisor took CPU time from this machine.
    std::uint64_t ticks = 0;
    std::uint64_t pausedTicks = 0;
    bool ok = false;
    std::vector<Stall> stalls;
};

constexpr double kReportedStallMs = 20;

// Calls `painted` after each paint of the watched widget (the window's own, in its repaint).
class PaintWatcher : public QObject {
public:
    PaintWatcher(QWidget* widget, std::function<void()> painted)
        : m_painted(std::move(painted)) {
        widget->installEventFilter(this);
    }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (event->type() != QEvent::Paint)
            return false;
        watched->event(event); // the widget paints now, and is not sent the event again
        m_painted();
        return true;
    }

private:
    std::function<void()> m_painted;
};

// Opens the file in the real MainWindow (TraceLoadJob on a worker, then the hand-over:
// ViewState::setTrace and every widget's rebuild on it) and watches the GUI thread with a 1 ms
// timer all along, and the window's own paints of its timeline.
GuiResult measureGui(const QString& path, const QString& cacheFolder = {}) {
    GuiResult g;
    QTemporaryDir dir;
    AppSettings settings(dir.filePath(QStringLiteral("strobe.ini")));
    MainWindow window(&settings);
    window.setTraceCache(cacheFolder, LoadOptions().cacheCapBytes);
    window.resize(kCanvas + QSize(TimelineView::kHeaderWidth + 400, 400));
    window.show();
    QApplication::processEvents();

    QElapsedTimer clock;
    QElapsedTimer sinceTick;
    const StealClock steal;
    double stealAtTick = 0;
    std::vector<double> lateness;
    lateness.reserve(1 << 16);
    QTimer ticker;
    ticker.setTimerType(Qt::PreciseTimer);
    ticker.setInterval(1);
    QObject::connect(&ticker, &QTimer::timeout, [&] {
        const double gapMs = double(sinceTick.nsecsElapsed()) / 1e6;
        const double stealNow = steal.ms();
        const double stolen = stealNow - stealAtTick;
        g.maxGapMs = std::max(g.maxGapMs, gapMs);
        ++g.ticks;
        if (stolen <= 0)
            g.maxGapUnpausedMs = std::max(g.maxGapUnpausedMs, gapMs);
        else
            ++g.pausedTicks;
        if (gapMs > kReportedStallMs)
            g.stalls.push_back({seconds(clock), gapMs, stolen});
        if (g.loadS < 0)
            lateness.push_back(std::max(0.0, gapMs - 1.0));
        stealAtTick = stealNow;
        sinceTick.restart();
    });
    QEventLoop loop;
    // First paint: the end of the window's first paint of its timeline after a trace (the
    // GPU-side preview of a big trace, or the whole trace) reached it. GPU picture: the end of
    // the first such paint of a trace with every GPU row (the GPU-side preview or the whole
    // trace), after the early preview of the GPU side's first rows.
    const PaintWatcher watcher(window.timeline()->canvas(), [&] {
        const Trace* t = window.viewState()->trace();
        if (!t || !clock.isValid())
            return;
        if (g.firstPaintS < 0)
            g.firstPaintS = seconds(clock);
        if (g.gpuPictureS < 0 && t->metadata().stage != TraceStage::GpuSideBegun)
            g.gpuPictureS = seconds(clock);
    });
    QObject::connect(&window, &MainWindow::loadFinished, [&](bool ok, const QString& error) {
        g.loadS = seconds(clock);
        g.ok = ok;
        if (!ok) {
            std::fprintf(stderr, "GUI load failed: %s\n", qPrintable(error));
            loop.quit();
            return;
        }
        QTimer::singleShot(500, &loop, &QEventLoop::quit); // let deferred rebuilds run
    });
    ticker.start();
    stealAtTick = steal.ms();
    sinceTick.start();
    clock.start();
    window.openFile(path);
    loop.exec();
    ticker.stop();
    g.lateP50Ms = percentile(lateness, 50);
    g.lateP99Ms = percentile(lateness, 99);
    return g;
}

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
        else {
            std::fprintf(stderr,
                         "usage: bench_scale [--events N] [--seed S] [--trace PATH] [--threads T] "
                         "[--small-events N] [--no-gui] [--gui-only] [--paint-only] "
                         "[--load-only] [--gpu-pass]\n");
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
    const RawScanResult floor = rawGpuPictureScan(path.toStdString(), scanWorkers(opt));
    std::printf("GPU picture floor: its columns of %llu rows scanned in %.3f s (%d threads)\n",
                static_cast<unsigned long long>(floor.rows), floor.seconds, scanWorkers(opt));
    return floor;
}

void printGui(const GuiResult& g) {
    std::printf("gui: loaded in %.3f s, first paint at %.3f s, GPU picture at %.3f s, longest GUI "
                "stall %.1f ms (%.1f ms where the host paused none of this machine's CPUs), "
                "1 ms timer late by p50 %.2f ms, p99 %.2f ms during the load\n",
                g.loadS, g.firstPaintS, g.gpuPictureS, g.maxGapMs, g.maxGapUnpausedMs, g.lateP50Ms,
                g.lateP99Ms);
    std::printf("the host took CPU time from this machine in %llu of %llu timer intervals\n",
                static_cast<unsigned long long>(g.pausedTicks),
                static_cast<unsigned long long>(g.ticks));
    std::printf("gui stalls over %.0f ms:", kReportedStallMs);
    for (const Stall& s : g.stalls) {
        std::printf(" %.1f ms ending at %.3f s", s.ms, s.endS);
        if (s.stealMs > 0)
            std::printf(" (the host took %.0f ms of CPU time meanwhile)", s.stealMs);
        std::printf(";");
    }
    std::printf("%s\n", g.stalls.empty() ? " none" : "");
}

} // namespace

int main(int argc, char** argv) {
    strobe::useHugePagesForMalloc(argv); // runs again with malloc on huge pages (see there)
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const Options opt = parseArgs(app.arguments());
    const QString path = opt.trace.isEmpty() ? ensureTrace(opt.events, opt.seed) : opt.trace;
    warmFileCache(path);
    if (opt.guiOnly) {
        const GuiResult gui = measureGui(path);
        printGui(gui);
        return gui.ok ? 0 : 1;
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
        return measureBothPaints(std::move(loaded.trace), opt).scaling < 0 ? 1 : 0;
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
    const PaintFigures paint = measureBothPaints(std::move(trace), opt);
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
    if (opt.gui) {
        QTemporaryDir cache;
        LoadOptions fill;
        fill.threads = opt.threads;
        fill.cacheFolder = cache.path();
        timer.restart();
        LoadResult filled = loadTrace(path, fill);
        const double fillS = seconds(timer);
        filled.trace.reset();
        malloc_trim(0);
        std::uint64_t entryBytes = 0;
        for (const QFileInfo& e : QDir(cache.path()).entryInfoList(QDir::Files))
            entryBytes += std::uint64_t(e.size());
        reopen = measureGui(path, cache.path());
        std::printf("reopen: load and cache write %.3f s (entry %.0f MB), from the cache: loaded "
                    "in %.3f s, first paint at %.3f s, longest GUI stall %.1f ms\n",
                    fillS, double(entryBytes) / 1e6, reopen.loadS, reopen.firstPaintS,
                    reopen.maxGapMs);
    }

    std::printf("{\"events\": %llu, \"raw_scan_s\": %.3f, \"load_s\": %.3f, \"load_ratio\": %.3f, "
                "\"bytes_per_event\": %.2f, \"peak_bytes_per_event\": %.2f, \"first_paint_s\": "
                "%.3f, \"gpu_picture_s\": %.3f, \"gpu_picture_floor_s\": %.3f, "
                "\"paint_zoomout_p95_ms\": %.2f, "
                "\"paint_random_p99_ms\": %.2f, "
                "\"paint_scaling_ratio\": %.2f, \"window_query_us\": %.3f, \"kernel_sort_s\": "
                "%.3f, \"gui_block_max_ms\": %.1f, \"gui_block_unpaused_max_ms\": %.1f, "
                "\"reopen_first_paint_s\": %.3f}\n",
                static_cast<unsigned long long>(events), raw.seconds, loadS, loadS / raw.seconds,
                bytesPerEvent, peakPerEvent, gui.firstPaintS, gui.gpuPictureS, pictureFloor.seconds,
                paint.zoomOutP95, paint.randomP99, paint.scaling, windowUs, sortS, gui.maxGapMs,
                gui.maxGapUnpausedMs, reopen.firstPaintS);
    return 0;
}
