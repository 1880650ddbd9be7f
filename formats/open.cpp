// SPDX-License-Identifier: MIT
#include "formats/open.h"

#include "formats/cache/tracecache.h"
#include "formats/kineto/kinetoinput.h"
#include "formats/kineto/kinetoreader.h"
#include "formats/nativepath.h"
#include "formats/nsys/reader/nsyssqliteloader.h"
#include "model/heappages.h"

#include <QFile>
#include <QFileInfo>
#include <QStringBuilder>
#include <cerrno>
#include <cstring>
#include <optional>

#if defined(__unix__)
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

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

// The sentence for an SQLite file shorter than its header says (empty when it is not).
QString truncatedDatabase(const QString& path, const QByteArray& head, qint64 size) {
    std::uint64_t pageSize = bigEndian(head, 16, 2);
    if (pageSize == 1)
        pageSize = 65536;
    const std::uint64_t pages = bigEndian(head, 28, 4);
    const std::uint64_t expected = pageSize * pages;
    // SQLite trusts the in-header page count only while the version-valid-for number (offset 92)
    // equals the change counter (offset 24); otherwise it sizes from the file, and so do we.
    const bool countValid = bigEndian(head, 92, 4) == bigEndian(head, 24, 4);
    if (countValid && pages > 0 && std::uint64_t(size) < expected)
        return quoted(path) % QStringLiteral(" is truncated: its SQLite header promises ") %
               QString::number(expected) % QStringLiteral(" bytes but the file has ") %
               QString::number(size) % u'.';
    return {};
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

// What sniff() found: an error sentence, or the kind of trace; a pipe's content, read whole
// (it cannot be read twice).
struct Sniffed {
    QString error;
    bool json = false;
    std::optional<QByteArray> piped;
};

// Checks the first bytes `head` of `path` (a file of `size` bytes, or a pipe's content).
Sniffed sniffHead(const QString& path, const QByteArray& head, qint64 size, bool pipe) {
    Sniffed s;
    const QFileInfo info(path);
    if (head.startsWith(QByteArrayLiteral("NVIDIA Tegra Profiler Report")) ||
        info.suffix() == QLatin1String("nsys-rep") || info.suffix() == QLatin1String("qdrep")) {
        s.error = quoted(path) %
                  QStringLiteral(" is an Nsight Systems report, which only Nsight Systems can "
                                 "read; export it first with: nsys export --type sqlite ") %
                  info.fileName();
    } else if (head.startsWith(QByteArrayLiteral("SQLite format 3\0"))) {
        if (pipe)
            s.error = quoted(path) %
                      QStringLiteral(" is a pipe holding an SQLite database, which SQLite reads "
                                     "only from a file: save it to a file first.");
        else if (head.size() < 100)
            s.error =
                quoted(path) % QStringLiteral(" is truncated: it ends inside the SQLite header.");
        else
            s.error = truncatedDatabase(path, head, size);
    } else if (looksLikeJson(head)) {
        s.json = true;
    } else if (isMostlyText(head)) {
        s.error = quoted(path) % QStringLiteral(" is a text file, not a trace database.");
    } else {
        s.error = quoted(path) % QStringLiteral(" is not a trace database: it is neither SQLite "
                                                "nor an Nsight Systems report.");
    }
    return s;
}

// Checks what the file is before a reader sees it: an error sentence, or empty when it looks like
// an SQLite database or a JSON trace worth opening. Opens without blocking (a FIFO without a
// writer would hold open(2) for ever) and by the name's bytes (formats/nativepath.h). A pipe is
// read to its end here, waiting for its writer as kineto::PipeWait allows; devices, sockets and
// other special files are refused.
Sniffed sniff(const QString& path, const std::atomic<bool>* cancel) {
    Sniffed s;
#if defined(__unix__)
    const int fd = openNativeForReading(path);
    if (fd < 0) {
        const int error = errno;
        if (error == ENOENT)
            s.error = QStringLiteral("Cannot open ") % quoted(path) %
                      QStringLiteral(": the file does not exist.");
        else
            s.error = QStringLiteral("Cannot read ") % quoted(path) % QStringLiteral(": ") %
                      QString::fromLocal8Bit(std::strerror(error)) % u'.';
        return s;
    }
    struct stat st {};
    if (fstat(fd, &st) != 0 || S_ISDIR(st.st_mode) ||
        !(S_ISREG(st.st_mode) || S_ISFIFO(st.st_mode))) {
        ::close(fd);
        if (S_ISDIR(st.st_mode))
            s.error = quoted(path) % QStringLiteral(" is a directory, not a trace file.");
        else
            s.error = quoted(path) % QStringLiteral(" is not a regular file (a device, socket or "
                                                    "other special file), not a trace.");
        return s;
    }
    if (S_ISFIFO(st.st_mode)) {
        QByteArray content;
        const QString problem = kineto::readPipe(fd, content, cancel, kineto::PipeWait{});
        ::close(fd);
        if (problem == QLatin1String("cancelled"))
            s.error = QStringLiteral("Loading ") % quoted(path) % QStringLiteral(" was cancelled.");
        else if (!problem.isEmpty())
            s.error = quoted(path) % u' ' % problem % u'.';
        else if (content.isEmpty())
            s.error = quoted(path) %
                      QStringLiteral(" is an empty pipe: its writer closed it without writing.");
        if (!s.error.isEmpty())
            return s;
        s = sniffHead(path, content.left(4096), content.size(), true);
        if (s.json)
            s.piped = std::move(content);
        return s;
    }
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    QFile file;
    if (!file.open(fd, QIODevice::ReadOnly, QFileDevice::AutoCloseHandle)) {
        ::close(fd);
        s.error = QStringLiteral("Cannot read ") % quoted(path) % QStringLiteral(": ") %
                  file.errorString() % u'.';
        return s;
    }
#else
    (void)cancel;
    const QFileInfo info(path);
    if (!info.exists()) {
        s.error = QStringLiteral("Cannot open ") % quoted(path) %
                  QStringLiteral(": the file does not exist.");
        return s;
    }
    if (info.isDir()) {
        s.error = quoted(path) % QStringLiteral(" is a directory, not a trace file.");
        return s;
    }
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        s.error = QStringLiteral("Cannot read ") % quoted(path) % QStringLiteral(": ") %
                  file.errorString() % u'.';
        return s;
    }
#endif
    if (file.size() == 0) {
        s.error = quoted(path) % QStringLiteral(" is empty (0 bytes), not a trace.");
        return s;
    }
    return sniffHead(path, file.read(4096), file.size(), false);
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
    Sniffed sniffed = sniff(path, options.cancel);
    if (!sniffed.error.isEmpty()) {
        LoadResult r;
        r.error = sniffed.error;
        r.cancelled = sniffed.error.endsWith(QLatin1String(" was cancelled."));
        return r;
    }
    std::optional<TraceCache> cache;
    std::optional<TraceCacheKey> key;
    if (!options.cacheFolder.isEmpty() && !sniffed.piped) { // a pipe's content is gone once read
        cache.emplace(options.cacheFolder, options.cacheCapBytes);
        key = TraceCache::keyOf(path);
    }
    if (key) {
        if (std::unique_ptr<Trace> cached =
                cache->load(*key, path, options.preview, options.previewMinRows)) {
            if (options.progress)
                options.progress(1000);
            LoadResult r;
            r.trace = std::move(cached);
            r.fromCache = true;
            return r;
        }
    }
    LoadResult result = sniffed.piped
                            ? KinetoJsonLoader(path, options, *std::move(sniffed.piped)).load()
                        : sniffed.json ? KinetoJsonLoader(path, options).load()
                                       : NsysSqliteLoader(path, options).load();
    // Only whole traces are kept: a cached one then serves any later request, partial or not.
    if (key && result.ok() && result.trace->metadata().loadedParts == kAllTraceParts)
        cache->store(*key, *result.trace, options.previewMinRows); // a failure is only logged
    // The builder's staging arrays were freed in pieces; hand the pages back so that the resident
    // size after a load is the trace's, not the peak's.
    returnFreedHeapPages();
    return result;
}

} // namespace strobe
