// SPDX-License-Identifier: MIT
#pragma once

#include "model/trace.h"

#include <QString>
#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>

namespace strobe {

// What every trace reader (formats/) takes and gives back: the format-free half of loading.
struct LoadOptions {
    // Set to true from any thread to stop loading; the result then has cancelled == true.
    const std::atomic<bool>* cancel = nullptr;
    // Called from the loading thread with progress in per mille (0..1000), monotonic.
    std::function<void(int)> progress;
    // Threads that read the file: 1, the loading thread alone; 2, beside it a worker stepping
    // SQLite; 3 (or more), two workers, which read each big nsys table in interleaved stripes of
    // rowids. The loading thread builds the model meanwhile. The Kineto reader parses on the
    // loading thread and maps the events on a second one, or on the loading thread with 1. Every
    // choice gives the same Trace.
    int threads = 3;
    // Called from the loading thread with a first Trace that holds only the GPU side (kernels,
    // memcpys, memsets) before the CPU side is read, when the trace has at least previewMinRows
    // event rows and a CPU side is to be read; the full Trace follows in the LoadResult. Lets a
    // viewer show a big trace's GPU lanes seconds before the rest. The nsys reader reads it in a
    // quick pass of its own without the kernels' launch details (metadata().loadedParts lacks
    // TracePart::KernelDetail: no launch configurations, correlation or graph node ids). Its
    // time range is the whole trace's as estimated from the tables' first and last rows.
    std::function<void(std::unique_ptr<Trace>)> preview;
    std::uint64_t previewMinRows = 1'000'000;
    // The nsys reader sends an earlier preview as well, of the GPU rows read so far, once this
    // long has passed since the load began and the GPU tables are still being read: a first
    // frame of a big trace (its extent, GPUs and streams, the kernels of its start) within a
    // fraction of a second. Its metadata().stage is TraceStage::GpuSideBegun.
    std::chrono::milliseconds earlyPreviewAfter{100};
    // Where the GPU tables hold at least this many rows, the quick pass reads them in sampled
    // passes instead (formats/nsys/reader/gpupassplan.h): first one block of rowids in every 16
    // (or fewer, for a bigger trace) spread over each table, then the blocks between, halving
    // the gap, until every row is read once. A GpuSideBegun preview follows the first pass, and
    // later ones up to a quarter of the rows as gpuSampleInterval allows, with
    // metadata().gpuSampleStride the share it holds (1/stride of each table's rowids, spread
    // over the whole of it); the GpuSide preview after the last holds the same events as a quick
    // pass in one go. No early preview then.
    std::uint64_t gpuSampleMinRows = 1 << 18;
    // After the first partial picture, the next comes only after a pass that ends at least this
    // long after the last one (each costs the viewer a frozen copy and a redraw, which delay the
    // complete picture): at 10M events the passes are faster and the 1/16 picture is the one
    // partial picture; at 100M about one every half second.
    std::chrono::milliseconds gpuSampleInterval{500};
    // Wall-clock budget for reading the file's database; past it loading fails with a sentence.
    // 0: 30 s plus 1 s per MB of file (a hostile file must not keep a reader busy for ever).
    std::chrono::milliseconds timeBudget{0};
    // What to read (default: everything); the Trace's metadata().loadedParts says what was. The
    // nsys reader does not query the tables of a part left out; the Kineto reader parses its file
    // whole either way and leaves out CpuOps (all but the ProfilerStep#N operators), Syncs and
    // GpuMemory (docs/KINETO.md), reading the other parts whatever this says, and says so.
    TraceParts parts = kAllTraceParts;
    // The reopen cache (formats/cache/tracecache.h): a folder for the frozen traces of files
    // opened before, and the most it may hold. Empty: the file is read every time. No cap (the
    // default): sized from the folder's file system (TraceCache::capForDisk: a twentieth of it,
    // 2 to 64 GiB, never leaving less free than a tenth of it, 1 to 16 GiB). From the cache, a
    // big trace's preview goes to `preview` as well (a sample of its GPU side spread over the
    // whole trace, TraceMetadata::gpuSampleStride; previewMinRows as above).
    QString cacheFolder;
    std::optional<std::uint64_t> cacheCapBytes;
};

struct LoadResult {
    std::unique_ptr<Trace> trace; // null on error or cancel
    QString error;                // one sentence naming the file and the problem
    bool cancelled = false;
    bool fromCache = false; // the trace came from the reopen cache, not from reading the file
    bool ok() const { return trace != nullptr; }
};

} // namespace strobe
