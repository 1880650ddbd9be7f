// SPDX-License-Identifier: MIT
#pragma once

// Opening a job: the files of a folder or a list, each summarised on its own thread (a rank
// summary file is read, a trace is loaded and summarised, then dropped), then makeJob. The one
// path for full traces and gathered summaries alike. The loader is passed in: model/ reads no
// file format itself.

#include "model/job/job.h"
#include "model/loadoptions.h"

#include <functional>
#include <memory>

namespace strobe {

// What a rank summary reads of a trace (summarizeTrace): the GPU work with its launch links,
// the runtime calls (HTA's window) and the annotations (the ProfilerStep#N ranges). A Kineto read
// without TracePart::CpuOps still keeps the ProfilerStep#N operators of older traces. The
// loaders openJob is given ask for these.
inline constexpr TraceParts kRankSummaryParts =
    kGpuWorkParts | TracePart::CudaApi | TracePart::Nvtx;

// The options openJob's loaders start from: kRankSummaryParts, read on the loading thread alone
// (threads = 1: openJob already reads one file per core, where a reader's second thread only
// adds its hand-off).
inline LoadOptions rankSummaryLoadOptions() {
    LoadOptions options;
    options.parts = kRankSummaryParts;
    options.threads = 1;
    return options;
}

// Loads a whole trace, or returns nullptr with one sentence naming the file in `error`.
using TraceLoader = std::function<std::unique_ptr<Trace>(const QString& path, QString* error)>;

// True for a file name the job reads as a rank summary (*.summary.json).
bool isRankSummaryName(const QString& path);

// The job's files in `folder`, by name: rank summaries, and traces told by their first bytes
// (an SQLite database, gzip, or JSON) so that any name works. A trace with its summary beside it
// (`X` and `X.summary.json`) is read from the summary. Hidden files and subfolders are skipped.
QStringList findJobFiles(const QString& folder);

// Summarises `paths` on up to `threads` threads (one file each at a time, so memory is
// `threads` traces at most) and makes the job. A file that fails is a warning naming it; ranks
// that carry no number get their position in `paths`, with a warning.
Job openJob(const QStringList& paths, const TraceLoader& load, const KernelClassTable& table,
            int threads);

} // namespace strobe
