// SPDX-License-Identifier: MIT
#include "formats/cache/tracecache.h"

#include "formats/cache/cachestream.h"
#include "formats/cache/tracecodec.h"
#include "model/trace.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QLoggingCategory>
#include <QSaveFile>
#include <QStringBuilder>
#include <algorithm>
#include <array>
#include <thread>

namespace strobe {

// Debug lines (the time each read takes) only when asked for:
// QT_LOGGING_RULES=strobe.cache.debug=true
Q_LOGGING_CATEGORY(lcTraceCache, "strobe.cache", QtInfoMsg)

namespace {

constexpr std::array<char, 8> kMagic{'S', 'T', 'R', 'O', 'B', 'E', 'T', 'C'};
// The entry format: header layout and key fields. The payload's layout is
// TraceCodec::layoutFingerprint().
constexpr std::uint32_t kFormatVersion = 2;
const QString kSuffix = QStringLiteral(".strobecache");

// The fixed part of the header; the key's path follows it, then the payload's two parts (see
// TraceCodec::write), each with its size and CRC-32 here.
struct Header {
    std::array<char, 8> magic = kMagic;
    std::uint32_t formatVersion = kFormatVersion;
    std::uint32_t pathUnits = 0; // UTF-16 units of the canonical path
    std::uint64_t layout = 0;
    std::uint64_t size = 0;
    std::int64_t mtimeMs = 0;
    std::uint32_t headCrc = 0;
    std::uint32_t tailCrc = 0;
    std::array<std::uint64_t, 2> partBytes{};
    std::array<std::uint32_t, 2> partCrc{};
};
static_assert(sizeof(Header) == 72, "no padding in the stored header");

std::optional<std::uint32_t> crcOfRange(QFile& f, qint64 offset, qint64 bytes) {
    if (!f.seek(offset))
        return std::nullopt;
    const QByteArray b = f.read(bytes);
    if (b.size() != bytes)
        return std::nullopt;
    return cacheCrc32(0, b.constData(), std::size_t(b.size()));
}

void removeEntry(const QString& path, const QString& why) {
    qCInfo(lcTraceCache, "ignoring cache entry %s: %s", qUtf8Printable(path), qUtf8Printable(why));
    QFile::remove(path);
}

} // namespace

TraceCache::TraceCache(QString folder, std::uint64_t capBytes)
    : m_folder(std::move(folder))
    , m_capBytes(capBytes) {}

std::optional<TraceCacheKey> TraceCache::keyOf(const QString& path) {
    const QFileInfo info(path);
    TraceCacheKey key;
    key.canonicalPath = info.canonicalFilePath();
    if (key.canonicalPath.isEmpty() || !info.isFile())
        return std::nullopt;
    key.size = std::uint64_t(info.size());
    key.mtimeMs = info.lastModified().toMSecsSinceEpoch();
    QFile f(key.canonicalPath);
    if (!f.open(QIODevice::ReadOnly))
        return std::nullopt;
    const qint64 hashed = std::min<qint64>(kHashedBytes, f.size());
    const auto head = crcOfRange(f, 0, hashed);
    const auto tail = crcOfRange(f, f.size() - hashed, hashed);
    if (!head || !tail)
        return std::nullopt;
    key.headCrc = *head;
    key.tailCrc = *tail;
    return key;
}

QString TraceCache::entryPath(const QString& canonicalPath) const {
    const QByteArray hash =
        QCryptographicHash::hash(canonicalPath.toUtf8(), QCryptographicHash::Sha1).toHex();
    return m_folder % u'/' % QString::fromLatin1(hash.left(32)) % kSuffix;
}

std::unique_ptr<Trace> TraceCache::load(const TraceCacheKey& key, const QString& filePath) const {
    const QString path = entryPath(key.canonicalPath);
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return nullptr; // no entry
    // Every header field is compared with what it must be; the CRCs cover the two parts.
    CacheReader in(f, std::uint64_t(f.size()));
    Header h;
    if (!in.readPod(h) || h.magic != kMagic) {
        removeEntry(path, QStringLiteral("not a Strobe cache entry"));
        return nullptr;
    }
    if (h.formatVersion != kFormatVersion || h.layout != TraceCodec::layoutFingerprint()) {
        removeEntry(path, QStringLiteral("written by another version of Strobe"));
        return nullptr;
    }
    QString canonical;
    if (h.pathUnits <= in.remaining() / sizeof(QChar)) {
        canonical.resize(qsizetype(h.pathUnits));
        in.readBytes(canonical.data(), std::size_t(h.pathUnits) * sizeof(QChar));
    }
    if (!in.ok() || canonical != key.canonicalPath || h.size != key.size ||
        h.mtimeMs != key.mtimeMs || h.headCrc != key.headCrc || h.tailCrc != key.tailCrc) {
        removeEntry(path, QStringLiteral("made from another version of the trace file"));
        return nullptr;
    }
    const std::uint64_t offset = std::uint64_t(f.size()) - in.remaining();
    if (h.partBytes[0] > in.remaining() || h.partBytes[1] != in.remaining() - h.partBytes[0]) {
        removeEntry(path, QStringLiteral("truncated or extended"));
        return nullptr;
    }
    // Both parts at once, each on its own file handle: most of the time goes to faulting in the
    // new arrays, which two cores do twice as fast.
    QElapsedTimer clock;
    clock.start();
    std::unique_ptr<Trace> trace = TraceCodec::makeTrace(filePath);
    std::array<std::vector<Lane>, 2> lanes;
    std::array<bool, 2> parsed{};
    std::array<std::uint32_t, 2> crc{};
    std::array<qint64, 2> partNs{};
    auto readPart = [&](int part) {
        QFile pf(path);
        if (!pf.open(QIODevice::ReadOnly) ||
            !pf.seek(qint64(offset + (part == 1 ? h.partBytes[0] : 0))))
            return;
        CacheReader r(pf, h.partBytes[std::size_t(part)]);
        parsed[std::size_t(part)] =
            TraceCodec::read(r, part, *trace, lanes[std::size_t(part)]) && r.remaining() == 0;
        crc[std::size_t(part)] = r.crc();
        partNs[std::size_t(part)] = clock.nsecsElapsed();
    };
    std::thread second(readPart, 1);
    readPart(0);
    second.join();
    const qint64 readNs = clock.nsecsElapsed();
    if (!parsed[0] || !parsed[1]) {
        removeEntry(path, QStringLiteral("the payload does not parse"));
        return nullptr;
    }
    if (crc != h.partCrc) {
        removeEntry(path, QStringLiteral("checksum mismatch"));
        return nullptr;
    }
    TraceCodec::setLanes(*trace, std::move(lanes[0]), std::move(lanes[1]));
    if (const QString error = TraceCodec::validate(*trace); !error.isEmpty()) {
        removeEntry(path, error);
        return nullptr;
    }
    const qint64 validNs = clock.nsecsElapsed();
    TraceCodec::buildIndexes(*trace);
    qCDebug(lcTraceCache,
            "read %s: %.1f + %.1f MB, read %.0f ms (parts done at %.0f and %.0f ms), "
            "validate %.0f ms, index %.0f ms",
            qUtf8Printable(path), double(h.partBytes[0]) / 1e6, double(h.partBytes[1]) / 1e6,
            double(readNs) / 1e6, double(partNs[0]) / 1e6, double(partNs[1]) / 1e6,
            double(validNs - readNs) / 1e6, double(clock.nsecsElapsed() - validNs) / 1e6);
    f.close();
    // The entry's modification time is its last use, for eviction.
    QFile touch(path);
    if (touch.open(QIODevice::ReadWrite))
        touch.setFileTime(QDateTime::currentDateTimeUtc(), QFileDevice::FileModificationTime);
    return trace;
}

bool TraceCache::store(const TraceCacheKey& key, const Trace& trace) const {
    const QString path = entryPath(key.canonicalPath);
    auto failed = [&](const QString& why) {
        qCWarning(lcTraceCache, "cannot write the cache entry %s: %s", qUtf8Printable(path),
                  qUtf8Printable(why));
        return false;
    };
    if (!QDir().mkpath(m_folder))
        return failed(QStringLiteral("cannot create the folder"));
    // Measure first (counting costs nothing), so that an entry bigger than the cap is never
    // written.
    Header h;
    h.pathUnits = std::uint32_t(key.canonicalPath.size());
    h.layout = TraceCodec::layoutFingerprint();
    h.size = key.size;
    h.mtimeMs = key.mtimeMs;
    h.headCrc = key.headCrc;
    h.tailCrc = key.tailCrc;
    const std::uint32_t split = TraceCodec::splitLane(trace);
    for (int part = 0; part < 2; ++part) {
        CacheWriter counter(nullptr);
        TraceCodec::write(trace, part, split, counter);
        h.partBytes[std::size_t(part)] = counter.bytesWritten();
    }
    const std::uint64_t total = sizeof(Header) + std::uint64_t(h.pathUnits) * sizeof(QChar) +
                                h.partBytes[0] + h.partBytes[1];
    if (total > m_capBytes)
        return failed(
            QStringLiteral("the entry (%1 bytes) is bigger than the cache's cap").arg(total));
    QSaveFile file(path); // a temporary file in the folder, renamed on commit
    if (!file.open(QIODevice::WriteOnly))
        return failed(file.errorString());
    auto writeHeader = [&] {
        CacheWriter header(&file);
        header.writePod(h);
        header.writeBytes(key.canonicalPath.constData(), std::size_t(h.pathUnits) * sizeof(QChar));
        return header.finish();
    };
    if (!writeHeader()) // again below, with the checksums
        return failed(file.errorString());
    for (int part = 0; part < 2; ++part) {
        CacheWriter out(&file);
        TraceCodec::write(trace, part, split, out);
        if (!out.finish() || out.bytesWritten() != h.partBytes[std::size_t(part)])
            return failed(file.errorString());
        h.partCrc[std::size_t(part)] = out.crc();
    }
    if (!file.seek(0) || !writeHeader() || !file.commit())
        return failed(file.errorString());
    evict(path);
    return true;
}

void TraceCache::evict(const QString& keep) const {
    QDir dir(m_folder);
    // Temporary files of writes that never finished (the process died), older than an hour.
    const QDateTime stale = QDateTime::currentDateTimeUtc().addSecs(-3600);
    for (const QFileInfo& e :
         dir.entryInfoList({u'*' % kSuffix % QStringLiteral(".*")}, QDir::Files)) {
        if (e.lastModified() < stale)
            QFile::remove(e.absoluteFilePath());
    }
    QFileInfoList entries = dir.entryInfoList({u'*' % kSuffix}, QDir::Files, QDir::Time);
    std::uint64_t total = 0;
    for (const QFileInfo& e : entries)
        total += std::uint64_t(e.size());
    // Newest first: delete from the back, never `keep` (the entry just written).
    for (qsizetype i = entries.size() - 1; i >= 0 && total > m_capBytes; --i) {
        const QFileInfo& e = entries[i];
        if (e.absoluteFilePath() == QFileInfo(keep).absoluteFilePath())
            continue;
        if (QFile::remove(e.absoluteFilePath()))
            total -= std::uint64_t(e.size());
    }
}

} // namespace strobe
