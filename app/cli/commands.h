// SPDX-License-Identifier: MIT
#pragma once

// The commands of strobe-cli. Each takes the arguments after its name and returns the process
// exit status: 0 success, 1 a file that cannot be read or written (one line on `err` saying
// why), 2 a usage error. They live in the strobe_cli library so tests run them in-process.

#include "model/traceparts.h"

#include <QStringList>
#include <QTextStream>
#include <memory>
#include <optional>

class QCoreApplication;

namespace strobe::cli {

struct Io {
    QTextStream& out;
    QTextStream& err;
    // What to read of the trace instead of the parts the command needs (docs/CLI.md lists
    // them); unset on the command line. Tests set it to compare a command's output on a full
    // load with its output on its own, partial one.
    std::optional<TraceParts> parts = std::nullopt;
};

int runInfo(const QStringList& args, Io io);          // cmd_info.cpp
int runSynth(const QStringList& args, Io io);         // cmd_synth.cpp
int runKernels(const QStringList& args, Io io);       // cmd_kernels.cpp
int runKernelSummary(const QStringList& args, Io io); // cmd_kernels.cpp
int runNvtxSummary(const QStringList& args, Io io);   // cmd_summaries.cpp
int runMemorySummary(const QStringList& args, Io io); // cmd_summaries.cpp
int runGaps(const QStringList& args, Io io);          // cmd_gaps.cpp
int runBreakdown(const QStringList& args, Io io);     // cmd_breakdown.cpp
int runDiff(const QStringList& args, Io io);          // cmd_diff.cpp
int runOps(const QStringList& args, Io io);           // cmd_ops.cpp
int runSteps(const QStringList& args, Io io);         // cmd_steps.cpp
int runAnalyze(const QStringList& args, Io io);       // cmd_analyze.cpp
int runJob(const QStringList& args, Io io);           // cmd_job.cpp (and `job summarize`)

// cmd_statsreports.cpp: nsys stats reports (nvtx-summary --gpu: runNvtxSummary hands it over).
int runApiSummary(const QStringList& args, Io io);
int runOsrtSummary(const QStringList& args, Io io);
int runMemorySizeSummary(const QStringList& args, Io io);
int runLaunchSummary(const QStringList& args, Io io);
int runNvtxGpuSummary(const QStringList& args, Io io);

// render/cmd_render.cpp in a GUI build (it needs a QGuiApplication: see makeApplication);
// cmd_render_unavailable.cpp, which says so, in a build without the GUI.
int runRender(const QStringList& args, Io io);

// The application object of `strobe-cli ARGS`: a QGuiApplication (makeDrawingApplication) for
// the commands that draw, a QCoreApplication for the others, which never touch Qt GUI.
std::unique_ptr<QCoreApplication> makeApplication(int& argc, char** argv);
// Sets QT_QPA_PLATFORM=offscreen when it is unset (no display, no X server) and makes a
// QGuiApplication; a plain QCoreApplication in a build without the GUI.
std::unique_ptr<QCoreApplication> makeDrawingApplication(int& argc, char** argv);

// Dispatches `strobe-cli COMMAND ARGS...` (argv without the program name).
int runCommandLine(const QStringList& argv, Io io);

} // namespace strobe::cli
