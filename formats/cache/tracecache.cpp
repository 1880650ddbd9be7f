// SPDX-License-Identifier: MIT
#include "formats/cache/tracecache.h"

#include "formats/cache/cachefolder.h"
#include "formats/cache/cachestream.h"
#include "formats/cache/tracecodec.h"
#include "formats/cache/tracepreview.h"
#include "model/trace.h"
#include "model/tracebuilder.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QLoggingCategory>
#include <QStringBuilder>
#include <QStringList>
#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <new>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace strobe {

// Debug lines (the time each read takes) only when asked for:
// QT_LOGGING_RULES=strobe.cache.debug=true
Q_LOGGING_CATEGORY(lcTraceCache, "strobe.cache", QtInfoMsg)

namespace {

constexpr std::array<char, 8> kMagic{'S', 'T', 'R', 'O', 'B', 'E', 'T', 'C'};
// The entry format: header layout and key fields. The payload's layout is
// TraceCodec::layoutFingerprint(). 3: the preview section, its size, checksum and stage, and
// the trace's event count.
constexpr std::uint32_t kFormatVersion = 3;
const QString kSuffix = QStringLiteral(".strobecache");

// The fixed part of the header; the key's path follows it, then the payload's two parts (see
// TraceCodec::write), each with its size and CRC-32 here, then the preview (cachePreviewOf; both
// of its parts in one section, with its own size and CRC-32; none when previewBytes is 0).
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
    std::uint64_t previewBytes = 0;
    std::uint32_t previewCrc = 0;
    TraceStage previewStage = TraceStage::Complete; // GpuSide or GpuSideBegun with a preview
    std::array<std::uint8_t, 3> zero{};
    std::uint64_t events = 0; // in the whole trace's lanes
};
static_assert(sizeof(Header) == 96, "no padding in the stored header");

std::optional<std::uint32_t> crcOfRange(QFile& f, qint64 offset, qint64 bytes) {
    if (!f.seek(offset))
        return std::nullopt;
    const QByteArray b = f.read(bytes);
    if (b.size() != bytes)
        return std::nullopt;
    return cacheCrc32(0, b.constData(), std::size_t(b.size()));
}

// Folders refused in this run: each is named once on the log, then left alone until the
// program ends (the GUI would otherwise say it again on every open).
std::mutex g_refusedMutex;
QStringList g_refused;

// The cache folder, opened and checked; null when it is untrusted (said once per run).
std::unique_ptr<CacheFolder> openFolder(const QString& folder, bool create) {
    {
        const std::lock_guard lock(g_refusedMutex);
        if (g_refused.contains(folder))
            return nullptr;
    }
    auto dir = std::make_unique<CacheFolder>(folder, create);
    if (dir->state() != CacheFolder::State::Untrusted)
        return dir;
    const std::lock_guard lock(g_refusedMutex);
    if (!g_refused.contains(folder)) {
        g_refused << folder;
        qCWarning(lcTraceCache,
                  "ignoring the reopen cache folder %s: %s, so the cache is off for this run",
                  qUtf8Printable(folder), qUtf8Printable(dir->problem()));
    }
    return nullptr;
}

QByteArray entryName(const QString& canonicalPath) {
    const QByteArray hash =
        QCryptographicHash::hash(canonicalPath.toUtf8(), QCryptographicHash::Sha1).toHex();
    return hash.left(32) + kSuffix.toLatin1();
}

void removeEntry(const CacheFolder& dir, const QByteArray& name, const QString& path,
                 const QString& why) {
    qCInfo(lcTraceCache, "ignoring cache entry %s: %s", qUtf8Printable(path), qUtf8Printable(why));
    dir.remove(name);
}

// Reads the opened entry `f`; null with `why` set when it is bad (the caller deletes it).
std::unique_ptr<Trace> readEntry(const CacheFolder& dir, const QByteArray& name,
                                 const OpenedCacheEntry& entry, QFile& f, const TraceCacheKey& key,
                                 const QString& filePath, const TraceCache::PreviewSink& sink,
                                 std::uint64_t previewMinEvents, QString& why) {
    const QString path = f.fileName();
    // Every header field is compared with what it must be; the CRCs cover the two parts.
    CacheReader in(f, entry.bytes);
    Header h;
    if (!in.readPod(h) || h.magic != kMagic) {
        why = QStringLiteral("not a Strobe cache entry");
        return nullptr;
    }
    if (h.formatVersion != kFormatVersion || h.layout != TraceCodec::layoutFingerprint()) {
        why = QStringLiteral("written by another version of Strobe");
        return nullptr;
    }
    QString canonical;
    if (h.pathUnits <= in.remaining() / sizeof(QChar)) {
        canonical.resize(qsizetype(h.pathUnits));
        in.readBytes(canonical.data(), std::size_t(h.pathUnits) * sizeof(QChar));
    }
    if (!in.ok() || canonical != key.canonicalPath || h.size != key.size ||
        h.mtimeMs != key.mtimeMs || h.headCrc != key.headCrc || h.tailCrc != key.tailCrc) {
        why = QStringLiteral("made from another version of the trace file");
        return nullptr;
    }
    const std::uint64_t offset = entry.bytes - in.remaining();
    if (h.partBytes[0] > in.remaining() || h.partBytes[1] > in.remaining() - h.partBytes[0] ||
        h.previewBytes != in.remaining() - h.partBytes[0] - h.partBytes[1]) {
        why = QStringLiteral("truncated or extended");
        return nullptr;
    }
    const bool previewFields =
        h.previewBytes > 0
            ? h.previewStage == TraceStage::GpuSide || h.previewStage == TraceStage::GpuSideBegun
            : h.previewStage == TraceStage::Complete && h.previewCrc == 0;
    if (h.zero != decltype(h.zero){} || !previewFields) {
        why = QStringLiteral("not a Strobe cache entry");
        return nullptr;
    }
    // The preview first: a small section that a viewer paints while the rest is read. It is
    // checked as the whole trace is (size, checksum, every cross-reference) before it is sent.
    QElapsedTimer clock;
    clock.start();
    if (h.previewBytes > 0) {
        const std::uint64_t previewAt = offset + h.partBytes[0] + h.partBytes[1];
        if (!f.seek(qint64(previewAt))) {
            why = QStringLiteral("truncated or extended");
            return nullptr;
        }
        CacheReader r(f, h.previewBytes);
        std::unique_ptr<Trace> preview = TraceCodec::makeTrace(filePath);
        std::vector<Lane> lanes0, lanes1;
        if (!TraceCodec::read(r, 0, *preview, lanes0) ||
            !TraceCodec::read(r, 1, *preview, lanes1) || r.remaining() != 0) {
            why = QStringLiteral("the preview does not parse");
            return nullptr;
        }
        if (r.crc() != h.previewCrc) {
            why = QStringLiteral("the preview's checksum does not match");
            return nullptr;
        }
        TraceCodec::setLanes(*preview, std::move(lanes0), std::move(lanes1));
        if (QString error = TraceCodec::validate(*preview); !error.isEmpty()) {
            why = QStringLiteral("the preview: ") + error;
            return nullptr;
        }
        if ((preview->metadata().gpuSampleStride == 1) != (h.previewStage == TraceStage::GpuSide)) {
            why = QStringLiteral("the preview: its sample stride does not match its stage");
            return nullptr;
        }
        TraceCodec::buildIndexes(*preview);
        TraceBuilder::markGpuPreview(*preview, h.previewStage, std::nullopt);
        if (sink && h.events >= previewMinEvents)
            sink(std::move(preview));
    }
    const qint64 previewNs = clock.nsecsElapsed();
    // Both parts at once, each on its own file handle: most of the time goes to faulting in the
    // new arrays, which two cores do twice as fast. No exception may leave a thread.
    std::unique_ptr<Trace> trace = TraceCodec::makeTrace(filePath);
    std::array<std::vector<Lane>, 2> lanes;
    std::array<bool, 2> parsed{}, outOfMemory{};
    std::array<std::uint32_t, 2> crc{};
    std::array<qint64, 2> partNs{};
    auto readPart = [&](int part) {
        const auto p = std::size_t(part);
        try {
            QFile own;
            QFile* pf = &f;
            if (part == 1) { // the same file, not whatever its name holds now
                const OpenedCacheEntry again = dir.openEntry(name);
                if (again.status != OpenedCacheEntry::Status::Opened)
                    return;
                if (!own.open(again.fd, QIODevice::ReadOnly, QFileDevice::AutoCloseHandle)) {
                    ::close(again.fd);
                    return;
                }
                if (again.device != entry.device || again.inode != entry.inode)
                    return;
                pf = &own;
            }
            const std::uint64_t at = offset + (part == 1 ? h.partBytes[0] : 0);
            if (!pf->seek(qint64(at)))
                return;
            CacheReader r(*pf, h.partBytes[p]);
            parsed[p] = TraceCodec::read(r, part, *trace, lanes[p]) && r.remaining() == 0;
            crc[p] = r.crc();
        } catch (const std::bad_alloc&) {
            outOfMemory[p] = true;
        } catch (...) {
            parsed[p] = false;
        }
        partNs[p] = clock.nsecsElapsed();
    };
    std::thread second(readPart, 1);
    readPart(0);
    second.join();
    const qint64 readNs = clock.nsecsElapsed();
    if (outOfMemory[0] || outOfMemory[1]) {
        why = QStringLiteral("reading it needs more memory than there is");
        return nullptr;
    }
    if (!parsed[0] || !parsed[1]) {
        why = QStringLiteral("the payload does not parse");
        return nullptr;
    }
    if (crc != h.partCrc) {
        why = QStringLiteral("checksum mismatch");
        return nullptr;
    }
    TraceCodec::setLanes(*trace, std::move(lanes[0]), std::move(lanes[1]));
    if (laneEventCount(*trace) != h.events) {
        why = QStringLiteral("its event count does not match");
        return nullptr;
    }
    if (trace->metadata().gpuSampleStride != 1) {
        why = QStringLiteral("a sample stored as a whole trace");
        return nullptr;
    }
    if (QString error = TraceCodec::validate(*trace); !error.isEmpty()) {
        why = std::move(error);
        return nullptr;
    }
    const qint64 validNs = clock.nsecsElapsed();
    TraceCodec::buildIndexes(*trace);
    qCDebug(lcTraceCache,
            "read %s: preview %.1f MB in %.0f ms, then %.1f + %.1f MB, read %.0f ms (parts done "
            "at %.0f and %.0f ms), validate %.0f ms, index %.0f ms",
            qUtf8Printable(path), double(h.previewBytes) / 1e6, double(previewNs) / 1e6,
            double(h.partBytes[0]) / 1e6, double(h.partBytes[1]) / 1e6,
            double(readNs - previewNs) / 1e6, double(partNs[0] - previewNs) / 1e6,
            double(partNs[1] - previewNs) / 1e6, double(validNs - readNs) / 1e6,
            double(clock.nsecsElapsed() - validNs) / 1e6);
    return trace;
}

// The bytes of the entries in the folder now.
std::uint64_t entryBytes(const CacheFolder& dir) {
    const QByteArray suffix = kSuffix.toLatin1();
    std::uint64_t total = 0;
    for (const CacheFolderEntry& e : dir.list()) {
        if (e.regular && e.name.endsWith(suffix))
            total += e.bytes;
    }
    return total;
}

// The cap given, else the one the folder's file system allows now.
std::uint64_t capIn(const CacheFolder& dir, std::optional<std::uint64_t> given) {
    if (given)
        return *given;
    const std::optional<DiskSpace> disk = dir.diskSpace();
    return disk ? TraceCache::capForDisk(*disk, entryBytes(dir)) : TraceCache::kMinDefaultCapBytes;
}

// Deletes the temporary files of writes that never finished, anything but a regular file under
// an entry's name, then the least recently used entries until the rest fit in `cap`.
void evictIn(const CacheFolder& dir, const QByteArray& keep, std::uint64_t cap) {
    const QByteArray suffix = kSuffix.toLatin1();
    const std::int64_t stale =
        (QDateTime::currentMSecsSinceEpoch() - qint64{3600} * 1000) * 1'000'000;
    std::vector<CacheFolderEntry> entries;
    std::uint64_t total = 0;
    for (CacheFolderEntry& e : dir.list()) {
        if (e.name.endsWith(suffix)) {
            if (!e.regular) {
                dir.remove(e.name); // a link goes, never its target
                continue;
            }
            total += e.bytes;
            entries.push_back(std::move(e));
        } else if (e.name.contains(QByteArray(suffix + '.')) && (!e.regular || e.mtimeNs < stale)) {
            dir.remove(e.name);
        }
    }
    // Newest first: delete from the back, never `keep` (the entry just written).
    std::sort(entries.begin(), entries.end(),
              [](const auto& a, const auto& b) { return a.mtimeNs > b.mtimeNs; });
    for (auto e = entries.rbegin(); e != entries.rend() && total > cap; ++e) {
        if (e->name != keep && dir.remove(e->name))
            total -= e->bytes;
    }
}

} // namespace

std::uint64_t TraceCache::capForDisk(const DiskSpace& disk, std::uint64_t cacheBytes) {
    const std::uint64_t wanted =
        std::clamp(disk.totalBytes / 20, kMinDefaultCapBytes, kMaxDefaultCapBytes);
    const std::uint64_t margin =
        std::clamp(disk.totalBytes / 10, kMinFreeMarginBytes, kMaxFreeMarginBytes);
    // What the entries take now and what is free, less the margin: the cache grows into free
    // space down to the margin, and gives back what it holds when the disk is below it.
    const std::uint64_t held = std::min(cacheBytes, kMaxDefaultCapBytes);
    const std::uint64_t free = std::min(disk.availableBytes, disk.totalBytes);
    const std::uint64_t allowed = held + free > margin ? held + free - margin : 0;
    return std::min(wanted, allowed);
}

TraceCache::TraceCache(QString folder, std::optional<std::uint64_t> capBytes)
    : m_folder(std::move(folder))
    , m_capBytes(capBytes) {}

std::uint64_t TraceCache::capBytes() const {
    if (m_capBytes)
        return *m_capBytes;
    const auto dir = openFolder(m_folder, false);
    return dir && dir->state() == CacheFolder::State::Usable ? capIn(*dir, m_capBytes)
                                                             : kMinDefaultCapBytes;
}

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
    return m_folder % u'/' % QString::fromLatin1(entryName(canonicalPath));
}

std::unique_ptr<Trace> TraceCache::load(const TraceCacheKey& key, const QString& filePath,
                                        const PreviewSink& preview,
                                        std::uint64_t previewMinEvents) const {
    const auto dir = openFolder(m_folder, false);
    if (!dir || dir->state() != CacheFolder::State::Usable)
        return nullptr;
    const QString path = entryPath(key.canonicalPath);
    const QByteArray name = entryName(key.canonicalPath);
    const OpenedCacheEntry entry = dir->openEntry(name);
    if (entry.status == OpenedCacheEntry::Status::NotRegular) {
        removeEntry(*dir, name, path, QStringLiteral("not a regular file"));
        return nullptr;
    }
    if (entry.status != OpenedCacheEntry::Status::Opened)
        return nullptr; // no entry
    QFile f(path);      // the name for messages; the file is the one opened
    if (!f.open(entry.fd, QIODevice::ReadOnly, QFileDevice::AutoCloseHandle)) {
        ::close(entry.fd);
        return nullptr;
    }
    // store() never writes an entry bigger than the cap: a bigger one (a sparse file declaring
    // terabytes) is not read at all.
    if (entry.bytes > capIn(*dir, m_capBytes)) {
        removeEntry(*dir, name, path, QStringLiteral("bigger than the cache's cap"));
        return nullptr;
    }
    QString why;
    std::unique_ptr<Trace> trace;
    try {
        trace = readEntry(*dir, name, entry, f, key, filePath, preview, previewMinEvents, why);
    } catch (const std::bad_alloc&) {
        why = QStringLiteral("reading it needs more memory than there is");
    } catch (...) {
        why = QStringLiteral("it cannot be read");
    }
    if (!trace) {
        removeEntry(*dir, name, path, why.isEmpty() ? QStringLiteral("it cannot be read") : why);
        return nullptr;
    }
    // The entry's modification time is its last use, for eviction; set on the file opened.
    ::futimens(f.handle(), nullptr);
    return trace;
}

bool TraceCache::store(const TraceCacheKey& key, const Trace& trace,
                       std::uint64_t previewMinEvents) const {
    const QString path = entryPath(key.canonicalPath);
    const QByteArray name = entryName(key.canonicalPath);
    auto failed = [&](const QString& why) {
        qCWarning(lcTraceCache, "cannot write the cache entry %s: %s", qUtf8Printable(path),
                  qUtf8Printable(why));
        return false;
    };
    const auto dir = openFolder(m_folder, true);
    if (!dir)
        return false; // untrusted, said once
    if (dir->state() != CacheFolder::State::Usable)
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
    h.events = laneEventCount(trace);
    const std::uint32_t split = TraceCodec::splitLane(trace);
    for (int part = 0; part < 2; ++part) {
        CacheWriter counter(nullptr);
        TraceCodec::write(trace, part, split, counter);
        h.partBytes[std::size_t(part)] = counter.bytesWritten();
    }
    const std::unique_ptr<Trace> preview =
        h.events >= previewMinEvents ? cachePreviewOf(trace, kPreviewEvents) : nullptr;
    // Both of the preview's parts in one section (its lanes all in the first).
    auto writePreview = [&](CacheWriter& out) {
        const auto lanes = std::uint32_t(preview->lanes().size());
        TraceCodec::write(*preview, 0, lanes, out);
        TraceCodec::write(*preview, 1, lanes, out);
    };
    if (preview) {
        CacheWriter counter(nullptr);
        writePreview(counter);
        h.previewBytes = counter.bytesWritten();
        h.previewStage = preview->metadata().stage;
    }
    const std::uint64_t total = sizeof(Header) + std::uint64_t(h.pathUnits) * sizeof(QChar) +
                                h.partBytes[0] + h.partBytes[1] + h.previewBytes;
    const std::uint64_t cap = capIn(*dir, m_capBytes);
    if (total > cap)
        return failed(
            QStringLiteral("the entry (%1 bytes) is bigger than the cache's cap").arg(total));
    // A new private file in the folder, renamed over the entry's name when complete: whatever
    // was under that name (a link too) is replaced, never written through.
    QByteArray temp;
    const int fd = dir->createTemporary(name, temp);
    if (fd < 0)
        return failed(QString::fromLocal8Bit(std::strerror(errno)));
    QFile file(path);
    if (!file.open(fd, QIODevice::WriteOnly, QFileDevice::AutoCloseHandle)) {
        ::close(fd);
        dir->remove(temp);
        return failed(file.errorString());
    }
    auto abandon = [&](const QString& why) {
        file.close();
        dir->remove(temp);
        return failed(why);
    };
    auto writeHeader = [&] {
        CacheWriter header(&file);
        header.writePod(h);
        header.writeBytes(key.canonicalPath.constData(), std::size_t(h.pathUnits) * sizeof(QChar));
        return header.finish();
    };
    if (!writeHeader()) // again below, with the checksums
        return abandon(file.errorString());
    for (int part = 0; part < 2; ++part) {
        CacheWriter out(&file);
        TraceCodec::write(trace, part, split, out);
        if (!out.finish() || out.bytesWritten() != h.partBytes[std::size_t(part)])
            return abandon(file.errorString());
        h.partCrc[std::size_t(part)] = out.crc();
    }
    if (preview) {
        CacheWriter out(&file);
        writePreview(out);
        if (!out.finish() || out.bytesWritten() != h.previewBytes)
            return abandon(file.errorString());
        h.previewCrc = out.crc();
    }
    if (!file.seek(0) || !writeHeader() || !file.flush())
        return abandon(file.errorString());
    if (::fsync(file.handle()) != 0 || !dir->rename(temp, name))
        return abandon(QString::fromLocal8Bit(std::strerror(errno)));
    file.close();
    evictIn(*dir, name, capIn(*dir, m_capBytes));
    return true;
}

void TraceCache::evict(const QString& keep) const {
    const auto dir = openFolder(m_folder, false);
    if (dir && dir->state() == CacheFolder::State::Usable)
        evictIn(*dir, QFile::encodeName(QFileInfo(keep).fileName()), capIn(*dir, m_capBytes));
}

} // namespace strobe
