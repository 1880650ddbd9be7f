// SPDX-License-Identifier: MIT
#pragma once

#include "model/loadoptions.h"

#include <QByteArray>
#include <cstddef>
#include <memory>

namespace strobe {

// Reads a PyTorch profiler (Kineto) Chrome-trace JSON file, plain or gzip-compressed, into a
// Trace: CPU operators, user annotations, Python frames, CUDA runtime and driver calls, kernels,
// memcpys, memsets, synchronisations and instant events, joined by correlation id. One pass of
// simdjson's on-demand parser over the whole document on the calling thread, while a second
// thread maps the events it hands over in batches to the model (the calling thread itself with
// LoadOptions::threads = 1); LoadOptions::parts leaves out operators, syncs and memory samples; a
// plain file past one document's 4 GiB is read the same way a piece at a time (kinetosplit.cpp).
// See docs/KINETO.md for the mapping and docs/PERFORMANCE.md for the speed.
class KinetoJsonLoader {
public:
    KinetoJsonLoader(const QString& path, const LoadOptions& options);
    // The same for content already read (a pipe that loadTrace read to sniff it): plain JSON or
    // gzip; `path` names it in messages.
    KinetoJsonLoader(const QString& path, const LoadOptions& options, QByteArray content);
    ~KinetoJsonLoader();
    // Reads the traceEvents array in pieces of about `bytes` each, as text past 4 GiB is read
    // (docs/KINETO.md), whatever the text's size: for tests, which compare the two reads.
    void splitIntoPieces(std::size_t bytes);
    LoadResult load();

    // A read without TracePart::CpuOps keeps its simdjson parser (its structural index: about
    // four times the text's size) for the calling thread's next such read, until the thread ends
    // (docs/KINETO.md). releaseKeptParser frees the calling thread's, for a thread that lives on
    // after a batch of such reads (the viewer's pool thread after a job opens);
    // keptParserCapacity says how large it is (0: none), for tests.
    static void releaseKeptParser();
    static std::size_t keptParserCapacity();

private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

} // namespace strobe
