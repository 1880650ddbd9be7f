// SPDX-License-Identifier: MIT
#pragma once

// Reading a Kineto trace's bytes: plain JSON mapped (guardedmapping.h; read where it cannot be),
// gzip decompressed in one pass (libdeflate) into one buffer, with the padding simdjson needs, or
// a pipe read to its end first (either kind). A UTF-8 byte order mark before the text is skipped.

#include "formats/kineto/guardedmapping.h"

#include <QByteArray>
#include <QString>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <memory>

namespace strobe::kineto {

// The largest JSON text the reader accepts: simdjson indexes documents with 32-bit offsets.
inline constexpr std::size_t kMaxJsonBytes = 0xFFFFFFFFu - 4096;

// A gzip file may decompress to at most this many times its size (plus kMinInflateCeiling):
// real Kineto JSON compresses 10 to 20 times, synthetic traces of repeated events 40 or so, and
// DEFLATE itself allows 1032 times, which is what a "gzip bomb" uses.
inline constexpr std::size_t kMaxInflateRatio = 64;
inline constexpr std::size_t kMinInflateCeiling = std::size_t(256) << 20;

// How long a pipe may keep the reader waiting: for its first byte (a FIFO that no program has
// opened for writing yet), and between bytes once data came.
struct PipeWait {
    std::chrono::milliseconds firstByte{4'000}; // a FIFO nobody writes gets its sentence within 5 s
    std::chrono::milliseconds stall{30'000};
};

// The JSON text: a plain file mapped (where it can be), a gzip file decompressed into memory.
struct JsonText {
    std::unique_ptr<GuardedMapping> mapping; // the file's pages, or
    std::unique_ptr<char[]> bytes;           // the text read into memory, or
    QByteArray piped;                        // the text as a pipe gave it (padding included)
    std::size_t size = 0;                    // JSON bytes from begin()
    std::size_t capacity = 0;                // readable bytes from begin() (>= size + padding)
    std::size_t skipped = 0;                 // bytes before begin(): a byte order mark
    bool compressed = false;                 // read from gzip

    const char* begin() const {
        return (mapping ? mapping->data() : bytes ? bytes.get() : piped.constData()) + skipped;
    }
    // True when the mapped file shrank while it was read: the text is not the file's.
    bool damaged() const { return mapping && mapping->damaged(); }
};

// Reads `path` into `out`. Returns an empty string on success, otherwise the problem as the end of
// a sentence that starts with the file's name ("is a truncated gzip file"). Checks `cancel`
// between chunks; a cancel returns "cancelled".
// A pipe (a FIFO, `<(cat trace.json)`) is read to its end, waiting as `wait` allows; anything else
// that is not a regular file is refused.
QString readJsonText(const QString& path, JsonText& out, const std::atomic<bool>* cancel,
                     const PipeWait& wait = {});

// The same for content already in memory (a pipe that loadTrace read to sniff it): plain JSON
// or gzip.
QString jsonTextFrom(QByteArray content, JsonText& out, const std::atomic<bool>* cancel);

#if defined(__unix__)
// Reads the pipe `fd` (opened O_NONBLOCK) to its end into `out`, at most kMaxJsonBytes. Returns an
// empty string, "cancelled", or the end of a sentence ("is a pipe that nothing was written to").
QString readPipe(int fd, QByteArray& out, const std::atomic<bool>* cancel, const PipeWait& wait);
#endif

#if defined(__unix__)
// Reads the first `size` bytes of the open file `fd` into `dest`, the calling thread taking 16 MB
// chunks from the front and a helper thread from the back until they meet: copying a gigabyte
// out of the page cache, and faulting in the fresh pages it lands in, costs a third of the bare
// parse, and this way both cores share it. Returns 0, -1 when `cancel` became true, or the
// errno of a failed read (ENODATA: the file ended first).
int readFromBothEnds(int fd, char* dest, std::size_t size, const std::atomic<bool>* cancel);
#endif

// Where `text` turns binary (a control byte other than tab, newline or carriage return, with
// binary bytes after it: looksBinary over the next 4 KiB), as the end of a sentence that starts
// with the file's name ("is binary from byte 5120 of 21504 on, not JSON text"); empty when it
// does not. For the parser's error path only: it reads the whole text.
QString binaryContentProblem(const JsonText& text);

// True when `head` starts with the gzip magic bytes.
bool isGzip(const char* head, std::size_t size);

} // namespace strobe::kineto
