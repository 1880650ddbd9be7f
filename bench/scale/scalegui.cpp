// SPDX-License-Identifier: MIT
#include "bench/scale/scalegui.h"

#include "app/gui/appsettings.h"
#include "app/gui/mainwindow.h"
#include "bench/scale/procstatus.h"
#include "bench/scale/scalecommon.h"
#include "widgets/timeline/timelineview.h"
#include "widgets/viewstate.h"

#include <QApplication>
#include <QEventLoop>
#include <QStringBuilder>
#include <QTemporaryDir>
#include <QTimer>
#include <algorithm>
#include <cstdio>
#include <functional>

namespace strobe::bench {
namespace {

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

} // namespace

TimedApplication::TimedApplication(int& argc, char** argv)
    : QApplication(argc, argv) {
    bool ok = false;
    const double ms = qEnvironmentVariable("STROBE_BENCH_SLOW_EVENT_MS").toDouble(&ok);
    if (ok && ms >= 0)
        m_thresholdMs = ms;
    m_clock.start();
}

bool TimedApplication::notify(QObject* receiver, QEvent* event) {
    if (m_thresholdMs < 0)
        return QApplication::notify(receiver, event);
    const QEvent::Type type = event->type(); // (the event may be gone after delivery)
    const QByteArray name = receiver->metaObject()->className() % QByteArrayLiteral(" '") %
                            receiver->objectName().toUtf8() % '\'';
    QElapsedTimer timer;
    timer.start();
    const ThreadTimes::Sample before = m_times.now();
    ++m_depth;
    const bool result = QApplication::notify(receiver, event);
    --m_depth;
    const double ms = double(timer.nsecsElapsed()) / 1e6;
    if (ms > m_thresholdMs) {
        const ThreadTimes::Sample after = m_times.now();
        std::fprintf(stderr,
                     "slow event: %.1f ms (on a CPU %.1f ms, waiting for one %.1f ms), type %d to "
                     "%s, depth %d, ended at %.3f s\n",
                     ms, after.cpuMs - before.cpuMs, after.queuedMs - before.queuedMs, int(type),
                     name.constData(), m_depth, seconds(m_clock));
    }
    return result;
}

GuiResult measureGui(const QString& path, const QString& cacheFolder) {
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
    const ThreadTimes threadTimes; // opened here: the GUI thread's
    ThreadTimes::Sample timesAtTick;
    QObject::connect(&ticker, &QTimer::timeout, [&] {
        const double gapMs = double(sinceTick.nsecsElapsed()) / 1e6;
        const double stealNow = steal.ms();
        const double stolen = stealNow - stealAtTick;
        const ThreadTimes::Sample times = threadTimes.now();
        g.maxGapMs = std::max(g.maxGapMs, gapMs);
        ++g.ticks;
        if (stolen <= 0)
            g.maxGapUnpausedMs = std::max(g.maxGapUnpausedMs, gapMs);
        else
            ++g.pausedTicks;
        const bool known = times.queuedMs >= 0 && timesAtTick.queuedMs >= 0;
        const double queued = known ? times.queuedMs - timesAtTick.queuedMs : -1;
        if (known && stolen <= 0)
            g.maxGapUnqueuedMs = std::max(g.maxGapUnqueuedMs, std::max(0.0, gapMs - queued));
        if (gapMs > kReportedStallMs) {
            Stall st{seconds(clock), gapMs, stolen};
            if (known) {
                const double guiCpu = times.cpuMs - timesAtTick.cpuMs;
                st.guiCpuMs = guiCpu;
                st.guiQueuedMs = queued;
                st.othersCpuMs = times.processMs - timesAtTick.processMs - guiCpu;
            }
            g.stalls.push_back(st);
        }
        timesAtTick = times;
        if (g.loadS < 0)
            lateness.push_back(std::max(0.0, gapMs - 1.0));
        stealAtTick = stealNow;
        sinceTick.restart();
    });
    QEventLoop loop;
    double cpuAtOpen = 0;
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
        if (g.gpuPictureS < 0 && t->metadata().stage != TraceStage::GpuSideBegun) {
            g.gpuPictureS = seconds(clock);
            g.gpuPictureCpuS = processCpuSeconds() - cpuAtOpen;
        }
        if (g.gpuFirstPartialS < 0 && t->metadata().gpuSampleStride > 1) {
            g.gpuFirstPartialS = seconds(clock);
            g.gpuFirstPartialStride = t->metadata().gpuSampleStride;
        }
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
    timesAtTick = threadTimes.now();
    sinceTick.start();
    clock.start();
    cpuAtOpen = processCpuSeconds();
    if (auto* app = dynamic_cast<TimedApplication*>(QCoreApplication::instance()))
        app->restartClock();
    window.openFile(path);
    loop.exec();
    ticker.stop();
    g.lateP50Ms = percentile(lateness, 50);
    g.lateP99Ms = percentile(lateness, 99);
    return g;
}

void printGui(const GuiResult& g) {
    std::printf(
        "gui: loaded in %.3f s, first paint at %.3f s, GPU picture at %.3f s, longest GUI "
        "stall %.1f ms (%.1f ms where the host paused none of this machine's CPUs; there, "
        "%.1f ms less the GUI thread's wait for a core), 1 ms timer late by p50 %.2f ms, p99 "
        "%.2f ms during the load\n",
        g.loadS, g.firstPaintS, g.gpuPictureS, g.maxGapMs, g.maxGapUnpausedMs, g.maxGapUnqueuedMs,
        g.lateP50Ms, g.lateP99Ms);
    std::printf("the process's CPU time by the GPU picture: %.3f s\n", g.gpuPictureCpuS);
    if (g.gpuFirstPartialS >= 0)
        std::printf("first partial GPU picture (1/%u of the GPU rows, over the whole time range) "
                    "at %.3f s\n",
                    g.gpuFirstPartialStride, g.gpuFirstPartialS);
    std::printf("the host took CPU time from this machine in %llu of %llu timer intervals\n",
                static_cast<unsigned long long>(g.pausedTicks),
                static_cast<unsigned long long>(g.ticks));
    std::printf("gui stalls over %.0f ms:", kReportedStallMs);
    for (const Stall& s : g.stalls) {
        std::printf(" %.1f ms ending at %.3f s", s.ms, s.endS);
        if (s.guiQueuedMs >= 0)
            std::printf(" (the GUI thread ran %.1f ms and waited %.1f ms for a core while the "
                        "process's other threads ran %.0f ms)",
                        s.guiCpuMs, s.guiQueuedMs, s.othersCpuMs);
        if (s.stealMs > 0)
            std::printf(" (the host took %.0f ms of CPU time meanwhile)", s.stealMs);
        std::printf(";");
    }
    std::printf("%s\n", g.stalls.empty() ? " none" : "");
}

} // namespace strobe::bench
