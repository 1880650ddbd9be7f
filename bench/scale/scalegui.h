// SPDX-License-Identifier: MIT
#pragma once

// The scale benchmark's GUI figures: the real MainWindow opening a file, its first paints and
// the GUI thread's stalls meanwhile.

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

// Opens the file in the real MainWindow (TraceLoadJob on a worker, then the hand-over:
// ViewState::setTrace and every widget's rebuild on it) and watches the GUI thread with a 1 ms
// timer all along, and the window's own paints of its timeline.
GuiResult measureGui(const QString& path, const QString& cacheFolder = {});
void printGui(const GuiResult& g);

} // namespace strobe::bench
