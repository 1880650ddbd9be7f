// SPDX-License-Identifier: MIT
#pragma once

#include "formats/cache/cachefolder.h"

#include <QString>
#include <cstdint>
#include <functional>
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
// An entry of a big trace also holds a small preview of its GPU side (tracepreview.h), with a
// checksum of its own, which load() validates and hands over before it reads the rest.
class TraceCache {
public:
    // Without a cap of its own the cache sizes itself from the file system its folder is on
    // (capForDisk); kMinDefaultCapBytes when that cannot be asked.
    static constexpr std::uint64_t kMinDefaultCapBytes = std::uint64_t(2) << 30;
    static constexpr std::uint64_t kMaxDefaultCapBytes = std::uint64_t(64) << 30;
    static constexpr std::uint64_t kMinFreeMarginBytes = std::uint64_t(1) << 30;
    static constexpr std::uint64_t kMaxFreeMarginBytes = std::uint64_t(16) << 30;
    static constexpr std::int64_t kHashedBytes = std::int64_t{64} * 1024;
    // The GPU events of an entry's preview, at most.
    static constexpr std::uint64_t kPreviewEvents = 500'000;

    // The default cap on a file system of `disk` whose cache entries take `cacheBytes` now: a
    // twentieth of the file system, at least kMinDefaultCapBytes and at most
    // kMaxDefaultCapBytes, but never more than would leave less free than the margin (a tenth
    // of the file system, within [kMinFreeMarginBytes, kMaxFreeMarginBytes]) once the cache is
    // full: on a nearly full disk it is below kMinDefaultCapBytes, down to 0 (nothing is kept).
    static std::uint64_t capForDisk(const DiskSpace& disk, std::uint64_t cacheBytes);

    // `capBytes`: the most the folder may hold (a setting); nullopt: capForDisk, asked anew
    // at each load and store.
    explicit TraceCache(QString folder, std::optional<std::uint64_t> capBytes = std::nullopt);

    // The key of `path` as it is now; nullopt when it cannot be read.
    static std::optional<TraceCacheKey> keyOf(const QString& path);
    // Where the entry of the file at `canonicalPath` lives in this cache.
    QString entryPath(const QString& canonicalPath) const;

    // Called with the entry's preview once it is validated, before the rest is read.
    using PreviewSink = std::function<void(std::unique_ptr<Trace>)>;
    // The cached trace of `key`, or null (no entry, or a bad one, which is deleted). Marks the
    // entry as just used. `filePath` becomes the trace's filePath(). When `preview` is set and
    // the entry's trace has at least `previewMinEvents` events, its preview (when it has one)
    // goes to `preview` first; a preview is validated as the whole trace is, but a bad rest of
    // the entry still makes the result null after a preview was sent.
    std::unique_ptr<Trace> load(const TraceCacheKey& key, const QString& filePath,
                                const PreviewSink& preview = {},
                                std::uint64_t previewMinEvents = 0) const;
    // Writes the entry of `key` (atomically: a temporary file, then a rename) and evicts the
    // least recently used entries until the folder holds at most the cap. False, with a log
    // line, when it could not; a trace bigger than the cap is not stored. A trace of at least
    // `previewMinEvents` events gets a preview (cachePreviewOf, kPreviewEvents) in its entry.
    bool store(const TraceCacheKey& key, const Trace& trace,
               std::uint64_t previewMinEvents = 1'000'000) const;
    // Deletes the oldest entries (by last use) until they total at most the cap, keeping
    // `keep` when given unless it alone exceeds the cap.
    void evict(const QString& keep = {}) const;

    QString folder() const { return m_folder; }
    // The cap now: the one given, else capForDisk for the folder as it is now.
    std::uint64_t capBytes() const;

private:
    QString m_folder;
    std::optional<std::uint64_t> m_capBytes;
};

} // namespace strobe
