// SPDX-License-Identifier: MIT
#pragma once

// The scale benchmark's GUI figures: the real MainWindow opening a file, its first paints and
// the GUI thread's stalls meanwhile.

#include "bench/scale/procstatus.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QString>
#include <cstdint>
#include <vector>

namespace strobe::bench {

// One GUI-thread stall over kReportedStallMs.
struct Stall {
    double endS = 0; // when it ended, s after openFile
    double ms = 0;   // its length
    // The CPU time the hypervisor took meanwhile, summed over the CPUs (in 10 ms steps).
    double stealMs = 0;
    // The GUI thread meanwhile: on a CPU, and runnable but waiting for one (-1: not known);
    // and the CPU time of the process's other threads (its loader and workers).
    double guiCpuMs = -1;
    double guiQueuedMs = -1;
    double othersCpuMs = -1;
};

struct GuiResult {
    double firstPaintS = -1;
    double gpuPictureS = -1;
    double gpuPictureCpuS = -1; // the process's CPU time by then (all its threads)
    // The end of the first paint of a partial GPU picture (a spread sample of the GPU rows:
    // TraceMetadata::gpuSampleStride > 1), and the share it holds (1 / stride); -1 and 0 when
    // none came (a trace read without sampled passes).
    double gpuFirstPartialS = -1;
    std::uint32_t gpuFirstPartialStride = 0;
    double loadS = -1;
    double maxGapMs = 0;
    // The longest gap during which the hypervisor took no CPU time from this machine (to its
    // 10 ms resolution): the stalls that the application and the guest's scheduler caused.
    double maxGapUnpausedMs = 0;
    // Of the gaps during which the hypervisor took no CPU time, the longest less the time the GUI
    // thread spent in it waiting for a core (whoever held the cores: this process's workers or
    // other processes, which each stall's othersCpuMs tells apart): what the GUI thread did
    // itself, or slept on (a lock, the disk). -1 where the kernel keeps no schedstat.
    double maxGapUnqueuedMs = -1;
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

// Opens the file in the real MainWindow (TraceLoadJob on a worker, then the hand-over:
// ViewState::setTrace and every widget's rebuild on it) and watches the GUI thread with a 1 ms
// timer all along, and the window's own paints of its timeline.
GuiResult measureGui(const QString& path, const QString& cacheFolder = {});

// The benchmark's application: with STROBE_BENCH_SLOW_EVENT_MS=T in the environment it lists on
// stderr every event the GUI thread took over T ms to deliver (its type, its receiver's class and
// name, its nesting depth, the GUI thread's time on a CPU and waiting for one, and when it ended, s
// after the last restartClock, which measureGui calls at openFile as its stalls' clock starts),
// which tells what a stall was (a paint, a layout, the queued hand-over of a trace).
class TimedApplication final : public QApplication {
public:
    TimedApplication(int& argc, char** argv);
    bool notify(QObject* receiver, QEvent* event) override;
    void restartClock() { m_clock.restart(); }

private:
    double m_thresholdMs = -1; // < 0: off
    int m_depth = 0;
    QElapsedTimer m_clock;
    ThreadTimes m_times; // the GUI thread's (constructed on it)
};
void printGui(const GuiResult& g);

} // namespace strobe::bench
