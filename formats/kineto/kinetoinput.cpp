// SPDX-License-Identifier: MIT
#include "formats/kineto/kinetoinput.h"
#include "formats/kineto/bothends.h"
#include "formats/kineto/prefaulter.h"
#include "formats/nativepath.h"
#include "model/loadboundary.h"

#include <QFile>
#include <QStringBuilder>
#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <libdeflate.h>
#include <new>
#include <simdjson.h>
#include <zlib.h>

#if defined(__unix__)
#include <fcntl.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

namespace strobe::kineto {

namespace {

constexpr std::size_t kPadding = simdjson::SIMDJSON_PADDING;
// Kineto JSON compresses 10 to 30 times; prefaulting stops at this much.
constexpr std::size_t kLikelyRatio = 64;

QString tooLarge(std::uint64_t bytes) {
    return QStringLiteral("holds %1 MB of JSON, more than the 4 GiB one JSON document can have")
        .arg(bytes >> 20);
}

bool allocate(JsonText& out, std::size_t size) {
    out.bytes.reset(new (std::nothrow) char[size + kPadding]);
    out.capacity = out.bytes ? size + kPadding : 0;
    return out.bytes != nullptr;
}

} // namespace

#if defined(__unix__)
int readFromBothEnds(int fd, char* dest, std::size_t size, const std::atomic<bool>* cancel) {
    return forEachChunkFromBothEnds(size, cancel, [&](std::size_t begin, std::size_t end) {
        for (std::size_t at = begin; at < end;) {
            const ssize_t got = pread(fd, dest + at, end - at, off_t(at));
            if (got < 0 && errno == EINTR)
                continue;
            if (got <= 0)
                return got < 0 ? errno : ENODATA;
            at += std::size_t(got);
        }
        return 0;
    });
}
#endif

namespace {

QString truncatedWhileRead() {
    return QStringLiteral("could not be read: it ended before its size (was it truncated while "
                          "being read?)");
}

QString readPlain(QFile& file, JsonText& out, const std::atomic<bool>* cancel) {
    const auto size = std::uint64_t(file.size());
    if (size > kMaxJsonBytes)
        return tooLarge(size);
#if defined(__unix__)
    // Mapped where it can be, its pages read in from both ends; a file that shrinks meanwhile
    // shows as damaged() once parsed (GuardedMapping), and is then refused.
    if (auto mapping = GuardedMapping::map(file.handle(), std::size_t(size), kPadding)) {
        if (const int error = mapping->populate(cancel)) {
            if (error < 0)
                return QStringLiteral("cancelled");
            return error == EFAULT ? truncatedWhileRead()
                                   : QStringLiteral("could not be read: ") %
                                         QString::fromLocal8Bit(std::strerror(error));
        }
        out.size = std::size_t(size);
        out.capacity = mapping->capacity();
        out.mapping = std::move(mapping);
        return {};
    }
#endif
    if (!allocate(out, std::size_t(size)))
        return QStringLiteral("is too large to load into memory (%1 MB)").arg(size >> 20);
#if defined(__unix__)
    if (const int error = readFromBothEnds(file.handle(), out.bytes.get(), size, cancel)) {
        if (error < 0)
            return QStringLiteral("cancelled");
        if (error == ENODATA)
            return truncatedWhileRead();
        return QStringLiteral("could not be read: ") % QString::fromLocal8Bit(std::strerror(error));
    }
    const std::size_t done = std::size_t(size);
#else
    constexpr std::size_t kChunk = std::size_t(16) << 20;
    std::size_t done = 0;
    while (done < size) {
        if (isCancelled(cancel))
            return QStringLiteral("cancelled");
        const auto want = qint64(std::min<std::uint64_t>(kChunk, size - done));
        const qint64 got = file.read(out.bytes.get() + done, want);
        if (got <= 0)
            return QStringLiteral("could not be read: ") % file.errorString();
        done += std::size_t(got);
    }
#endif
    out.size = done;
    std::memset(out.bytes.get() + done, 0, kPadding);
    return {};
}

std::size_t physicalMemory() {
#if defined(__unix__)
    const long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGESIZE);
    if (pages > 0 && pageSize > 0)
        return std::size_t(pages) * std::size_t(pageSize);
#endif
    return kMaxJsonBytes;
}

// What is wrong with the gzip member at `from` of `gz`, which libdeflate refused without saying
// where: zlib's streaming inflate, into a scratch buffer, finds the byte (an error path only).
QString gzipProblem(const QByteArray& gz, std::size_t from) {
    const auto size = std::size_t(gz.size());
    z_stream z{};
    if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)
        return QStringLiteral("could not be decompressed: out of memory");
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(gz.constData() + from));
    z.avail_in = uInt(size - from); // <= kMaxJsonBytes
    std::unique_ptr<Bytef[]> scratch(new Bytef[1 << 16]);
    int rc = Z_OK;
    while (rc == Z_OK) {
        z.next_out = scratch.get();
        z.avail_out = 1 << 16;
        rc = inflate(&z, Z_NO_FLUSH);
    }
    const std::size_t at = size - z.avail_in;
    inflateEnd(&z);
    if (rc == Z_BUF_ERROR && z.avail_in == 0)
        return QStringLiteral("is a truncated gzip file: its compressed stream ends early, at "
                              "byte %1 of %2")
            .arg(at)
            .arg(size);
    return QStringLiteral("is a corrupt gzip file: its compressed data is invalid at byte %1 of "
                          "%2")
        .arg(std::min(at + 1, size))
        .arg(size);
}

QString inflate(const QByteArray& gz, JsonText& out) {
    const auto inSize = std::size_t(gz.size());
    if (inSize < 18)
        return QStringLiteral("is a truncated gzip file (%1 bytes)").arg(inSize);
    // The last member's ISIZE (size mod 2^32) is a good first guess for one-member files.
    std::uint32_t isize = 0;
    std::memcpy(&isize, gz.constData() + inSize - 4, 4);
    // Past what the file can plausibly hold, or what memory holds, the decompressor stops.
    const std::size_t plausible = std::max(kMinInflateCeiling, inSize * kMaxInflateRatio);
    const std::size_t ceiling = std::min({kMaxJsonBytes, plausible, physicalMemory()});
    std::size_t capacity = std::clamp<std::size_t>(isize, 4096, ceiling);
    std::unique_ptr<libdeflate_decompressor, void (*)(libdeflate_decompressor*)> d(
        libdeflate_alloc_decompressor(), libdeflate_free_decompressor);
    if (!d)
        return QStringLiteral("could not be decompressed: out of memory");
    for (;;) {
        if (!allocate(out, capacity))
            return QStringLiteral("is too large to decompress into memory (%1 MB)")
                .arg(capacity >> 20);
        std::size_t inPos = 0, outPos = 0;
        libdeflate_result r = LIBDEFLATE_SUCCESS;
        // The decompressor writes from the start; fault in what it will write, but no more
        // than a usual JSON compression ratio makes likely (ISIZE may be wrong).
        Prefaulter prefaulter(out.bytes.get(), std::min(capacity, inSize * kLikelyRatio),
                              Prefaulter::From::End);
        // Concatenated gzip members decompress one after the other into the same buffer.
        while (inPos < inSize && r == LIBDEFLATE_SUCCESS) {
            std::size_t usedIn = 0, produced = 0;
            r = libdeflate_gzip_decompress_ex(d.get(), gz.constData() + inPos, inSize - inPos,
                                              out.bytes.get() + outPos, capacity - outPos, &usedIn,
                                              &produced);
            inPos += usedIn;
            outPos += produced;
            if (r == LIBDEFLATE_SUCCESS && usedIn == 0)
                break;
        }
        if (r == LIBDEFLATE_SUCCESS) {
            out.size = outPos;
            out.compressed = true;
            std::memset(out.bytes.get() + outPos, 0, kPadding);
            return {};
        }
        if (r != LIBDEFLATE_INSUFFICIENT_SPACE) {
            out = {};
            return gzipProblem(gz, inPos);
        }
        if (capacity >= ceiling) {
            out = {};
            if (ceiling == kMaxJsonBytes)
                return tooLarge(capacity);
            if (ceiling == plausible)
                return QStringLiteral("decompresses to more than %1 times its size (over %2 MB "
                                      "from %3 KB), more than a trace's JSON text plausibly "
                                      "holds")
                    .arg(kMaxInflateRatio)
                    .arg(ceiling >> 20)
                    .arg((inSize + 1023) >> 10);
            return QStringLiteral("is too large to decompress into memory (more than %1 MB)")
                .arg(ceiling >> 20);
        }
        capacity = std::min(ceiling, capacity * 2);
    }
}

} // namespace

namespace {

// Whether the start of decompressed content is binary, not text: a NUL byte, or fewer than 95%
// of its bytes printable (those from 0x80 count: UTF-8).
bool looksBinary(const char* p, std::size_t n) {
    n = std::min<std::size_t>(n, 4096);
    std::size_t printable = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const auto u = static_cast<unsigned char>(p[i]);
        if (u == 0)
            return true;
        printable += u == '\n' || u == '\r' || u == '\t' || (u >= 0x20 && u != 0x7F);
    }
    return printable * 100 < n * 95;
}

// The text read: a byte order mark skipped, decompressed content that is no text refused.
QString finish(JsonText& out) {
    if (out.size >= 3 && std::memcmp(out.begin(), "\xEF\xBB\xBF", 3) == 0) {
        out.skipped = 3;
        out.size -= 3;
        out.capacity -= 3;
    }
    if (out.compressed && looksBinary(out.begin(), out.size)) {
        out = {};
        return QStringLiteral("is a gzip file, but what it decompresses to is binary, not JSON "
                              "text");
    }
    return {};
}

QString fromMemory(QByteArray&& content, JsonText& out, const std::atomic<bool>* cancel) {
    if (isCancelled(cancel))
        return QStringLiteral("cancelled");
    if (isGzip(content.constData(), std::size_t(content.size()))) {
        const QString problem = inflate(content, out);
        return problem.isEmpty() ? finish(out) : problem;
    }
    const auto size = std::size_t(content.size());
    if (size > kMaxJsonBytes)
        return tooLarge(size);
    content.resize(qsizetype(size) + qsizetype(kPadding));
    std::memset(content.data() + size, 0, kPadding);
    out.piped = std::move(content);
    out.size = size;
    out.capacity = size + kPadding;
    return finish(out);
}

} // namespace

#if defined(__unix__)
QString readPipe(int fd, QByteArray& out, const std::atomic<bool>* cancel, const PipeWait& wait) {
    using Clock = std::chrono::steady_clock;
    out.clear();
    std::size_t size = 0;
    auto lastData = Clock::now();
    bool hungUp = false;
    for (;;) {
        if (std::size_t(out.size()) - size < (std::size_t(1) << 16)) {
            const std::size_t grown = std::max<std::size_t>(std::size_t(out.size()) * 2, 1 << 20);
            if (size > kMaxJsonBytes)
                return tooLarge(size);
            try {
                out.resize(qsizetype(std::min(grown, kMaxJsonBytes + (std::size_t(1) << 20))));
            } catch (const std::bad_alloc&) {
                return QStringLiteral("is too large to read into memory (%1 MB)").arg(size >> 20);
            }
        }
        const ssize_t got = ::read(fd, out.data() + size, std::size_t(out.size()) - size);
        if (got > 0) {
            size += std::size_t(got);
            lastData = Clock::now();
            continue;
        }
        // 0 with no writer connected: the end, once data came or a writer hung up; before that
        // the FIFO may still be waiting for its writer.
        if (got == 0 && (size > 0 || hungUp))
            break;
        if (got < 0 && errno != EAGAIN && errno != EINTR)
            return QStringLiteral("could not be read: ") %
                   QString::fromLocal8Bit(std::strerror(errno));
        if (isCancelled(cancel))
            return QStringLiteral("cancelled");
        const auto limit = size > 0 ? wait.stall : wait.firstByte;
        if (Clock::now() - lastData >= limit)
            return size > 0 ? QStringLiteral("could not be read: its writer stopped for %1 s "
                                             "before the end")
                                  .arg(double(limit.count()) / 1000.0)
                            : QStringLiteral("is a pipe that nothing was written to in %1 s")
                                  .arg(double(limit.count()) / 1000.0);
        pollfd p{fd, POLLIN, 0};
        if (poll(&p, 1, 100) > 0 && (p.revents & POLLHUP))
            hungUp = true;
    }
    out.resize(qsizetype(size));
    return {};
}
#endif

QString jsonTextFrom(QByteArray content, JsonText& out, const std::atomic<bool>* cancel) {
    return fromMemory(std::move(content), out, cancel);
}

QString binaryContentProblem(const JsonText& text) {
    const char* p = text.begin();
    for (std::size_t i = 0; i < text.size; ++i) {
        const auto u = static_cast<unsigned char>(p[i]);
        if (u >= 0x20 || u == '\n' || u == '\r' || u == '\t')
            continue;
        // A stray control byte in a string is a JSON error of its own, not binary content.
        if (!looksBinary(p + i, text.size - i))
            continue;
        const QString where =
            QStringLiteral("binary from byte %1 of %2 on, not JSON text").arg(i).arg(text.size);
        return text.compressed
                   ? QStringLiteral("is a gzip file, but what it decompresses to is ") % where
                   : QStringLiteral("is ") % where;
    }
    return {};
}

bool isGzip(const char* head, std::size_t size) {
    return size >= 2 && static_cast<unsigned char>(head[0]) == 0x1f &&
           static_cast<unsigned char>(head[1]) == 0x8b;
}

QString readJsonText(const QString& path, JsonText& out, const std::atomic<bool>* cancel,
                     const PipeWait& wait) {
    QFile file;
#if defined(__unix__)
    // By the name's bytes (formats/nativepath.h), never blocking on a FIFO without a writer.
    const int fd = openNativeForReading(path);
    if (fd < 0)
        return QStringLiteral("cannot be opened: ") % QString::fromLocal8Bit(std::strerror(errno));
    struct stat st {};
    if (fstat(fd, &st) != 0 || !(S_ISREG(st.st_mode) || S_ISFIFO(st.st_mode))) {
        ::close(fd);
        return QStringLiteral("is not a regular file or a pipe");
    }
    if (S_ISFIFO(st.st_mode)) {
        QByteArray content;
        QString problem = readPipe(fd, content, cancel, wait); // (not const: returned by move)
        ::close(fd);
        if (!problem.isEmpty())
            return problem;
        if (content.isEmpty())
            return QStringLiteral("is an empty pipe: its writer closed it without writing");
        return fromMemory(std::move(content), out, cancel);
    }
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    if (!file.open(fd, QIODevice::ReadOnly, QFileDevice::AutoCloseHandle)) {
        ::close(fd);
        return QStringLiteral("cannot be opened: ") % file.errorString();
    }
#else
    (void)wait;
    file.setFileName(path);
    if (!file.open(QIODevice::ReadOnly))
        return QStringLiteral("cannot be opened: ") % file.errorString();
#endif
    char head[2] = {0, 0};
    const qint64 n = file.peek(head, 2);
    if (!isGzip(head, std::size_t(std::max<qint64>(n, 0)))) {
        const QString problem = readPlain(file, out, cancel);
        return problem.isEmpty() ? finish(out) : problem;
    }
    if (std::uint64_t(file.size()) > kMaxJsonBytes)
        return tooLarge(std::uint64_t(file.size()));
    const QByteArray gz = file.readAll();
    if (gz.size() != file.size())
        return QStringLiteral("could not be read: ") % file.errorString();
    if (isCancelled(cancel))
        return QStringLiteral("cancelled");
    const QString problem = inflate(gz, out);
    return problem.isEmpty() ? finish(out) : problem;
}

} // namespace strobe::kineto
