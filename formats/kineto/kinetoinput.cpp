// SPDX-License-Identifier: MIT
#include "formats/kineto/kinetoinput.h"
#include "formats/kineto/bothends.h"
#include "formats/kineto/prefaulter.h"

#include <QFile>
#include <QStringBuilder>
#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <libdeflate.h>
#include <simdjson.h>

#if defined(__unix__)
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace strobe::kineto {

namespace {

constexpr std::size_t kPadding = simdjson::SIMDJSON_PADDING;
constexpr std::size_t kChunk = std::size_t(16) << 20;
// DEFLATE cannot expand data more than about 1032:1; anything claiming more is corrupt.
constexpr std::size_t kMaxRatio = 1100;
// Kineto JSON compresses 10 to 30 times; prefaulting stops at this much.
constexpr std::size_t kLikelyRatio = 64;

bool cancelled(const std::atomic<bool>* cancel) {
    return cancel && cancel->load(std::memory_order_relaxed);
}

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
    std::size_t done = 0;
    while (done < size) {
        if (cancelled(cancel))
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

QString inflate(const QByteArray& gz, JsonText& out) {
    const auto inSize = std::size_t(gz.size());
    if (inSize < 18)
        return QStringLiteral("is a truncated gzip file (%1 bytes)").arg(inSize);
    // The last member's ISIZE (size mod 2^32) is a good first guess for one-member files.
    std::uint32_t isize = 0;
    std::memcpy(&isize, gz.constData() + inSize - 4, 4);
    const std::size_t ceiling = std::min<std::size_t>(kMaxJsonBytes, inSize * kMaxRatio);
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
        if (r != LIBDEFLATE_INSUFFICIENT_SPACE)
            return QStringLiteral("is a truncated or corrupt gzip file (decompression failed "
                                  "at compressed byte %1 of %2)")
                .arg(inPos)
                .arg(inSize);
        if (capacity >= ceiling)
            return capacity >= kMaxJsonBytes
                       ? tooLarge(capacity)
                       : QStringLiteral("is a corrupt gzip file (it expands beyond what DEFLATE "
                                        "can produce from %1 bytes)")
                             .arg(inSize);
        capacity = std::min(ceiling, capacity * 2);
    }
}

} // namespace

bool isGzip(const char* head, std::size_t size) {
    return size >= 2 && static_cast<unsigned char>(head[0]) == 0x1f &&
           static_cast<unsigned char>(head[1]) == 0x8b;
}

QString readJsonText(const QString& path, JsonText& out, const std::atomic<bool>* cancel) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return QStringLiteral("cannot be opened: ") % file.errorString();
    char head[2] = {0, 0};
    const qint64 n = file.peek(head, 2);
    if (!isGzip(head, std::size_t(std::max<qint64>(n, 0))))
        return readPlain(file, out, cancel);
    if (std::uint64_t(file.size()) > kMaxJsonBytes)
        return tooLarge(std::uint64_t(file.size()));
    const QByteArray gz = file.readAll();
    if (gz.size() != file.size())
        return QStringLiteral("could not be read: ") % file.errorString();
    if (cancelled(cancel))
        return QStringLiteral("cancelled");
    return inflate(gz, out);
}

} // namespace strobe::kineto
