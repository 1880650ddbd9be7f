// SPDX-License-Identifier: MIT
#pragma once

// Reading a Kineto trace's bytes: plain JSON mapped (guardedmapping.h; read where it cannot be),
// or gzip decompressed in one pass (libdeflate) into one buffer, with the padding simdjson needs.

#include "formats/kineto/guardedmapping.h"

#include <QString>
#include <atomic>
#include <cstddef>
#include <memory>

namespace strobe::kineto {

// The largest JSON text the reader accepts: simdjson indexes documents with 32-bit offsets.
inline constexpr std::size_t kMaxJsonBytes = 0xFFFFFFFFu - 4096;

// The JSON text: a plain file mapped (where it can be), a gzip file decompressed into memory.
struct JsonText {
    std::unique_ptr<GuardedMapping> mapping; // the file's pages, or
    std::unique_ptr<char[]> bytes;           // the text read into memory
    std::size_t size = 0;                    // JSON bytes
    std::size_t capacity = 0;                // readable bytes (>= size + simdjson's padding)
    bool compressed = false;                 // read from gzip

    const char* begin() const { return mapping ? mapping->data() : bytes.get(); }
    // True when the mapped file shrank while it was read: the text is not the file's.
    bool damaged() const { return mapping && mapping->damaged(); }
};

// Reads `path` into `out`. Returns an empty string on success, otherwise the problem as the end of
// a sentence that starts with the file's name ("is a truncated gzip file"). Checks `cancel`
// between chunks; a cancel returns "cancelled".
QString readJsonText(const QString& path, JsonText& out, const std::atomic<bool>* cancel);

#if defined(__unix__)
// Reads the first `size` bytes of the open file `fd` into `dest`, the calling thread taking 16 MB
// chunks from the front and a helper thread from the back until they meet: copying a gigabyte
// out of the page cache, and faulting in the fresh pages it lands in, costs a third of the bare
// parse, and this way both cores share it. Returns 0, -1 when `cancel` became true, or the
// errno of a failed read (ENODATA: the file ended first).
int readFromBothEnds(int fd, char* dest, std::size_t size, const std::atomic<bool>* cancel);
#endif

// True when `head` starts with the gzip magic bytes.
bool isGzip(const char* head, std::size_t size);

} // namespace strobe::kineto
