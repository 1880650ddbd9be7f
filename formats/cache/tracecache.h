// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <cstdint>
#include <memory>
#include <optional>

namespace strobe {

class Trace;

// What identifies one version of a trace file: an entry is used only when all of it matches.
struct TraceCacheKey {
    QString canonicalPath;
    std::uint64_t size = 0;
    std::int64_t mtimeMs = 0;  // last modification, ms since the epoch
    std::uint32_t headCrc = 0; // CRC-32 of the first kHashedBytes
    std::uint32_t tailCrc = 0; // CRC-32 of the last kHashedBytes
    friend bool operator==(const TraceCacheKey&, const TraceCacheKey&) = default;
};

// The reopen cache: frozen Traces of files opened before, one entry per file in a folder of
// their own (never beside the trace), at most a given total size, least recently used evicted.
// An entry that does not match its file, ends early, fails its checksum, comes from another
// build or fails validation is deleted and never trusted. Failures to write are logged only.
class TraceCache {
public:
    static constexpr std::uint64_t kDefaultCapBytes = std::uint64_t(2) << 30;
    static constexpr std::int64_t kHashedBytes = std::int64_t{64} * 1024;

    TraceCache(QString folder, std::uint64_t capBytes = kDefaultCapBytes);

    // The key of `path` as it is now; nullopt when it cannot be read.
    static std::optional<TraceCacheKey> keyOf(const QString& path);
    // Where the entry of the file at `canonicalPath` lives in this cache.
    QString entryPath(const QString& canonicalPath) const;

    // The cached trace of `key`, or null (no entry, or a bad one, which is deleted). Marks the
    // entry as just used. `filePath` becomes the trace's filePath().
    std::unique_ptr<Trace> load(const TraceCacheKey& key, const QString& filePath) const;
    // Writes the entry of `key` (atomically: a temporary file, then a rename) and evicts the
    // least recently used entries until the folder holds at most the cap. False, with a log
    // line, when it could not; a trace bigger than the cap is not stored.
    bool store(const TraceCacheKey& key, const Trace& trace) const;
    // Deletes the oldest entries (by last use) until they total at most the cap, keeping
    // `keep` when given unless it alone exceeds the cap.
    void evict(const QString& keep = {}) const;

    QString folder() const { return m_folder; }
    std::uint64_t capBytes() const { return m_capBytes; }

private:
    QString m_folder;
    std::uint64_t m_capBytes;
};

} // namespace strobe
