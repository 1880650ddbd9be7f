// SPDX-License-Identifier: MIT
#include "formats/open.h"

#include "formats/cache/tracecache.h"
#include "formats/kineto/kinetoreader.h"
#include "formats/nsys/reader/nsyssqliteloader.h"
#include "model/heappages.h"

#include <QFile>
#include <QFileInfo>
#include <QStringBuilder>
#include <optional>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace strobe {

namespace {

QString quoted(const QString& path) {
    return u'\'' % QFileInfo(path).fileName() % u'\'';
}

bool isMostlyText(const QByteArray& head) {
    if (head.isEmpty())
        return false;
    qsizetype printable = 0;
    for (char c : head) {
        const auto u = static_cast<unsigned char>(c);
        if (u == '\n' || u == '\r' || u == '\t' || (u >= 0x20 && u != 0x7F))
            ++printable;
        else if (u == 0)
            return false;
    }
    return printable * 100 >= head.size() * 95;
}

std::uint32_t bigEndian(const QByteArray& b, int offset, int bytes) {
    std::uint32_t v = 0;
    for (int i = 0; i < bytes; ++i)
        v = (v << 8) | static_cast<unsigned char>(b[offset + i]);
    return v;
}

// A gzip stream (Kineto's .json.gz) or text that starts like a JSON object or array.
bool looksLikeJson(const QByteArray& head) {
    if (head.startsWith("\x1f\x8b"))
        return true;
    QByteArray t = head.trimmed();
    if (t.startsWith("\xEF\xBB\xBF")) // a UTF-8 byte order mark
        t = t.mid(3).trimmed();
    return t.startsWith('{') || t.startsWith('[');
}

// Checks what the file is before a reader sees it; returns an error sentence, or empty when the
// file looks like an SQLite database or a JSON trace worth opening.
QString sniff(const QString& path) {
    const QFileInfo info(path);
    if (!info.exists())
        return QStringLiteral("Cannot open ") % quoted(path) %
               QStringLiteral(": the file does not exist.");
    if (info.isDir())
        return quoted(path) % QStringLiteral(" is a directory, not a trace file.");
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return QStringLiteral("Cannot read ") % quoted(path) % QStringLiteral(": ") %
               file.errorString() % u'.';
    if (file.size() == 0)
        return quoted(path) % QStringLiteral(" is empty (0 bytes), not a trace.");
    const QByteArray head = file.read(4096);
    if (head.startsWith(QByteArrayLiteral("NVIDIA Tegra Profiler Report")) ||
        info.suffix() == QLatin1String("nsys-rep") || info.suffix() == QLatin1String("qdrep"))
        return quoted(path) %
               QStringLiteral(" is an Nsight Systems report, which only Nsight Systems can read; "
                              "export it first with: nsys export --type sqlite ") %
               info.fileName();
    if (head.startsWith(QByteArrayLiteral("SQLite format 3\0"))) {
        if (head.size() < 100)
            return quoted(path) %
                   QStringLiteral(" is truncated: it ends inside the SQLite header.");
        std::uint64_t pageSize = bigEndian(head, 16, 2);
        if (pageSize == 1)
            pageSize = 65536;
        const std::uint64_t pages = bigEndian(head, 28, 4);
        const std::uint64_t expected = pageSize * pages;
        // SQLite trusts the in-header page count only while the version-valid-for number (offset
        // 92) equals the change counter (offset 24); otherwise it sizes from the file, and so do
        // we.
        const bool countValid = bigEndian(head, 92, 4) == bigEndian(head, 24, 4);
        if (countValid && pages > 0 && std::uint64_t(file.size()) < expected)
            return quoted(path) % QStringLiteral(" is truncated: its SQLite header promises ") %
                   QString::number(expected) % QStringLiteral(" bytes but the file has ") %
                   QString::number(file.size()) % u'.';
        return {};
    }
    if (looksLikeJson(head))
        return {};
    if (isMostlyText(head))
        return quoted(path) % QStringLiteral(" is a text file, not a trace database.");
    return quoted(path) %
           QStringLiteral(
               " is not a trace database: it is neither SQLite nor an Nsight Systems report.");
}

} // namespace

#if defined(__GLIBC__)
// glibc raises its mmap threshold to the size of each mapped block freed (up to 32 MB), so once
// the first big arrays are freed, the ones allocated next land among holes in the heap: at 10M
// events 0.6 B/event stayed resident after a load. A fixed 4 MiB threshold, set when a program
// that loads traces starts, maps every big array on its own (freed whole) and keeps small ones
// on the heap: 24.2 -> 23.6 B/event, load time unchanged within noise (256 KiB instead: loads
// 15% slower, from page faults). Process-wide, as malloc_trim below is: it also fixes the trim
// threshold, and a temporary array of 4 MiB or more is mapped afresh each time (the GUI's big
// arrays are per trace). Under ASan, whose allocator ignores it, it does nothing.
[[maybe_unused]] const bool kMmapThresholdFixed = mallopt(M_MMAP_THRESHOLD, 4 << 20) == 1;
#endif

LoadResult loadTrace(const QString& path, const LoadOptions& options) {
    if (QString error = sniff(path); !error.isEmpty()) {
        LoadResult r;
        r.error = error;
        return r;
    }
    std::optional<TraceCache> cache;
    std::optional<TraceCacheKey> key;
    if (!options.cacheFolder.isEmpty()) {
        cache.emplace(options.cacheFolder, options.cacheCapBytes);
        key = TraceCache::keyOf(path);
    }
    if (key) {
        if (std::unique_ptr<Trace> cached = cache->load(*key, path)) {
            if (options.progress)
                options.progress(1000);
            LoadResult r;
            r.trace = std::move(cached);
            r.fromCache = true;
            return r;
        }
    }
    QFile file(path);
    const bool json = file.open(QIODevice::ReadOnly) && looksLikeJson(file.read(4096));
    file.close();
    LoadResult result =
        json ? KinetoJsonLoader(path, options).load() : NsysSqliteLoader(path, options).load();
    // Only whole traces are kept: a cached one then serves any later request, partial or not.
    if (key && result.ok() && result.trace->metadata().loadedParts == kAllTraceParts)
        cache->store(*key, *result.trace); // a failure is logged; the load still succeeds
    // The builder's staging arrays were freed in pieces; hand the pages back so that the resident
    // size after a load is the trace's, not the peak's.
    returnFreedHeapPages();
    return result;
}

} // namespace strobe
