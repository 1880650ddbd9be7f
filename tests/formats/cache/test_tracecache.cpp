// SPDX-License-Identifier: MIT
// The reopen cache through loadTrace: exact round trips on real fixtures, and every way an entry
// can be wrong (truncated, damaged, another version, a changed file) detected and ignored.
#include "formats/cache/tracecache.h"
#include "formats/cache/tracepreview.h"
#include "formats/open.h"
#include "model/trace.h"
#include "tests/formats/cache/cachetesthelpers.h"
#include "tests/formats/cache/traceequal.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <gtest/gtest.h>
#include <sys/statvfs.h>
#include <zlib.h>

namespace strobe {
namespace {

// Signs a modified payload again with zlib's CRC-32 (the same polynomial), as a crafted entry
// would be: both parts and the preview (cachetesthelpers.h has the layout).
void resign(QByteArray& entry, qsizetype payloadStart) {
    const auto part0 = qsizetype(headerField<std::uint64_t>(entry, 48));
    const auto part1 = qsizetype(headerField<std::uint64_t>(entry, 56));
    const qsizetype preview = previewBytes(entry);
    const auto* bytes = reinterpret_cast<const Bytef*>(entry.constData());
    const auto crc0 = std::uint32_t(crc32(0, bytes + payloadStart, uInt(part0)));
    const auto crc1 = std::uint32_t(crc32(0, bytes + payloadStart + part0, uInt(part1)));
    const auto crcP = std::uint32_t(crc32(0, bytes + payloadStart + part0 + part1, uInt(preview)));
    std::memcpy(entry.data() + 64, &crc0, 4);
    std::memcpy(entry.data() + 68, &crc1, 4);
    if (preview > 0)
        std::memcpy(entry.data() + 80, &crcP, 4);
}

class TraceCacheRoundTrip : public testing::TestWithParam<const char*> {};

TEST_P(TraceCacheRoundTrip, ReopenGivesTheSameTrace) {
    const QString path = kFixtures + u'/' + QLatin1String(GetParam());
    QTemporaryDir cache;
    ASSERT_TRUE(cache.isValid());
    const LoadResult fresh = loadTrace(path);
    ASSERT_TRUE(fresh.ok()) << fresh.error.toStdString();
    const LoadResult first = loadCached(path, cache.path());
    ASSERT_TRUE(first.ok());
    EXPECT_FALSE(first.fromCache);
    ASSERT_TRUE(QFileInfo::exists(entryOf(cache.path(), path)));
    const LoadResult second = loadCached(path, cache.path());
    ASSERT_TRUE(second.ok());
    EXPECT_TRUE(second.fromCache);
    EXPECT_GT(second.trace->lanes().size(), 0u);
    test::expectTracesEqual(*fresh.trace, *second.trace);
    test::exerciseTrace(*second.trace);
}

INSTANTIATE_TEST_SUITE_P(
    Fixtures, TraceCacheRoundTrip,
    testing::Values("nsys/nsys2022.2-saxpy-mpi-nvtx.sqlite", "nsys/nsys2022.2-vectoradd-a.sqlite",
                    "nsys/nsys2023.3-openmp-offload.sqlite", "nsys/nsys2024.5-cloverleaf.sqlite",
                    "nsys/nsys2025.5-cuda-graphs.sqlite", "nsys/nsys2026.2-h100-2gpu-nvtx.sqlite",
                    "kineto/hta-v100-memory-events.json.gz", "kineto/hta-a100-nccl-ddp.json.gz",
                    "kineto/small-before-fix.trace.json",
                    // operators with input shapes (Input Dims, and Input dims in 2021's format)
                    "kineto/hta-sampled-rank0.json.gz",
                    "kineto/resnet50-kineto-2021.pt.trace.json.gz"));

// Loads `path` through a cache whose entry was replaced by `entry`: the entry must be ignored,
// the result equal a fresh load, and the entry rebuilt.
void expectIgnoredAndRebuilt(const QString& path, const QString& folder, const QByteArray& entry,
                             const Trace& fresh, bool compare = true) {
    const QString file = entryOf(folder, path);
    writeAll(file, entry);
    const LoadResult r = loadCached(path, folder);
    ASSERT_TRUE(r.ok());
    EXPECT_FALSE(r.fromCache);
    if (compare)
        test::expectTracesEqual(fresh, *r.trace);
    const LoadResult again = loadCached(path, folder);
    EXPECT_TRUE(again.fromCache) << "the entry was rebuilt";
}

TEST(TraceCache, TruncatedEntriesAreIgnored) {
    QTemporaryDir cache;
    const LoadResult fresh = loadTrace(kSmallKineto);
    ASSERT_TRUE(fresh.ok());
    ASSERT_TRUE(loadCached(kSmallKineto, cache.path()).ok());
    const QByteArray entry = readAll(entryOf(cache.path(), kSmallKineto));
    ASSERT_GT(entry.size(), payloadOffset(kSmallKineto) + 1000);
    // Every length through the header and the start of the payload, then a dense sample, then
    // every length near the end.
    std::vector<qsizetype> lengths;
    for (qsizetype n = 0; n < payloadOffset(kSmallKineto) + 300; ++n)
        lengths.push_back(n);
    for (qsizetype n = payloadOffset(kSmallKineto) + 300; n < entry.size() - 40; n += 53)
        lengths.push_back(n);
    for (qsizetype n = entry.size() - 40; n < entry.size(); ++n)
        lengths.push_back(n);
    for (qsizetype n : lengths) {
        SCOPED_TRACE(testing::Message() << "truncated to " << n << " of " << entry.size());
        expectIgnoredAndRebuilt(kSmallKineto, cache.path(), entry.left(n), *fresh.trace,
                                n % 16 == 0);
        if (testing::Test::HasFailure())
            return;
    }
}

TEST(TraceCache, FlippedBytesAreIgnored) {
    QTemporaryDir cache;
    const LoadResult fresh = loadTrace(kSmallNsys);
    ASSERT_TRUE(fresh.ok());
    ASSERT_TRUE(loadCached(kSmallNsys, cache.path()).ok());
    const QByteArray entry = readAll(entryOf(cache.path(), kSmallNsys));
    // Each header byte (checksums included) and a sample of payload bytes.
    std::vector<qsizetype> offsets;
    for (qsizetype i = 0; i < payloadOffset(kSmallNsys); ++i)
        offsets.push_back(i);
    for (qsizetype i = payloadOffset(kSmallNsys); i < entry.size(); i += 331)
        offsets.push_back(i);
    offsets.push_back(entry.size() - 1);
    offsets.push_back(entry.size() / 2);
    for (qsizetype i : offsets) {
        SCOPED_TRACE(testing::Message() << "flipped byte " << i);
        QByteArray bad = entry;
        bad[i] = char(bad[i] ^ 0x20);
        expectIgnoredAndRebuilt(kSmallNsys, cache.path(), bad, *fresh.trace, i % 64 == 0);
        if (testing::Test::HasFailure())
            return;
    }
}

TEST(TraceCache, AnotherVersionIsIgnored) {
    QTemporaryDir cache;
    const LoadResult fresh = loadTrace(kSmallNsys);
    ASSERT_TRUE(loadCached(kSmallNsys, cache.path()).ok());
    const QByteArray entry = readAll(entryOf(cache.path(), kSmallNsys));
    QByteArray format = entry; // the entry format version, after the 8-byte magic
    format[8] = char(format[8] + 1);
    expectIgnoredAndRebuilt(kSmallNsys, cache.path(), format, *fresh.trace);
    QByteArray layout = entry; // the build's record-layout fingerprint
    layout[16] = char(layout[16] + 1);
    expectIgnoredAndRebuilt(kSmallNsys, cache.path(), layout, *fresh.trace);
}

// A crafted entry: payload bytes changed and the checksum made to match. Validation must reject
// whatever would index out of range; whatever it accepts must be safe to read (the asan preset
// runs this too).
// The reasons the cache logged for the entries it ignored.
QStringList g_reasons;
void collectReasons(QtMsgType, const QMessageLogContext& context, const QString& message) {
    if (context.category && std::strcmp(context.category, "strobe.cache") == 0)
        g_reasons << message;
}

TEST(TraceCache, CraftedEntriesWithAValidChecksumAreValidatedOrRejected) {
    QTemporaryDir cache;
    ASSERT_TRUE(loadCached(kSmallNsys, cache.path()).ok());
    const QByteArray entry = readAll(entryOf(cache.path(), kSmallNsys));
    const qsizetype start = payloadOffset(kSmallNsys);
    int rejected = 0, accepted = 0;
    QStringList reasons;
    const qsizetype step = std::max<qsizetype>(1, (entry.size() - start) / 1000) | 1;
    for (qsizetype i = start; i < entry.size(); i += step) {
        QByteArray bad = entry;
        bad[i] = char(bad[i] ^ (i % 3 == 0 ? 0x80 : i % 3 == 1 ? 0x01 : 0x02));
        resign(bad, start);
        writeAll(entryOf(cache.path(), kSmallNsys), bad);
        g_reasons.clear();
        const QtMessageHandler previous = qInstallMessageHandler(collectReasons);
        const LoadResult r = loadCached(kSmallNsys, cache.path());
        qInstallMessageHandler(previous);
        for (const QString& reason : std::as_const(g_reasons))
            reasons << reason.section(QStringLiteral(": "), 1);
        ASSERT_TRUE(r.ok());
        if (r.fromCache) {
            ++accepted;
            test::exerciseTrace(*r.trace);
        } else {
            ++rejected;
        }
    }
    // Flipped counts, indices and string ids are caught; flipped times and sizes are values.
    RecordProperty("rejected", rejected);
    RecordProperty("accepted", accepted);
    EXPECT_GT(rejected, 100);
    EXPECT_GT(accepted, 100);
    // Rejected by validation, not only by parsing: each kind of check fires.
    auto count = [&](const char* what) { return reasons.filter(QLatin1String(what)).size(); };
    EXPECT_GT(count("string out of range"), 0);
    EXPECT_GT(count("does not index its record table"), 0);
    EXPECT_GT(count("not sorted"), 0);
    EXPECT_GT(count("does not parse"), 0);
}

// A crafted entry whose memcpy record holds an optional's flag that is neither 0 nor 1: loading
// that bool would be undefined behaviour, so validation rejects it first.
TEST(TraceCache, AFlagByteThatIsNotABoolIsRejected) {
    QTemporaryDir cache;
    const LoadResult fresh = loadTrace(kSmallNsys);
    ASSERT_TRUE(fresh.ok());
    ASSERT_GT(fresh.trace->memcpys().size(), 0u);
    ASSERT_TRUE(loadCached(kSmallNsys, cache.path()).ok());
    QByteArray entry = readAll(entryOf(cache.path(), kSmallNsys));
    // The stored memcpy records: the table's size, then the first one's self and stream as raw
    // bytes.
    const MemcpyRecord& m = fresh.trace->memcpys()[0];
    QByteArray head(reinterpret_cast<const char*>(&m.self), sizeof m.self);
    head.append(reinterpret_cast<const char*>(&m.stream), sizeof m.stream);
    const std::uint64_t n = fresh.trace->memcpys().size();
    const QByteArray marker = QByteArray(reinterpret_cast<const char*>(&n), 8) + head;
    // The marker's bytes also occur elsewhere by chance; the table's record is the one whose
    // correlation id's flag says engaged, as the record's does.
    ASSERT_TRUE(m.correlationId.has_value());
    const auto* base = reinterpret_cast<const char*>(&m);
    const qsizetype flagAt = 8 + (reinterpret_cast<const char*>(&m.correlationId) - base) +
                             qsizetype(sizeof(std::uint32_t));
    qsizetype flag = -1;
    for (qsizetype k = entry.indexOf(marker); k >= 0 && flag < 0;
         k = entry.indexOf(marker, k + 1)) {
        if (k + flagAt < entry.size() && entry[k + flagAt] == 1)
            flag = k + flagAt;
    }
    ASSERT_GE(flag, 0);
    entry[flag] = 2;
    resign(entry, payloadOffset(kSmallNsys));
    writeAll(entryOf(cache.path(), kSmallNsys), entry);
    g_reasons.clear();
    const QtMessageHandler previous = qInstallMessageHandler(collectReasons);
    const LoadResult r = loadCached(kSmallNsys, cache.path());
    qInstallMessageHandler(previous);
    ASSERT_TRUE(r.ok());
    EXPECT_FALSE(r.fromCache);
    ASSERT_EQ(g_reasons.size(), 1);
    EXPECT_TRUE(g_reasons[0].endsWith(QStringLiteral(": memcpy flag that is not a bool")))
        << g_reasons[0].toStdString();
    test::expectTracesEqual(*fresh.trace, *r.trace);
}

TEST(TraceCache, AChangedFileIsNeverServedFromTheCache) {
    QTemporaryDir dir, cache;
    const QString copy = dir.filePath(QStringLiteral("trace.sqlite"));
    ASSERT_TRUE(QFile::copy(kSmallNsys, copy));
    QFile(copy).setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    ASSERT_TRUE(loadCached(copy, cache.path()).ok());
    ASSERT_TRUE(loadCached(copy, cache.path()).fromCache);
    auto setMtime = [&](const QDateTime& t) {
        QFile f(copy);
        ASSERT_TRUE(f.open(QIODevice::ReadWrite));
        ASSERT_TRUE(f.setFileTime(t, QFileDevice::FileModificationTime));
    };
    // Touched: same bytes, new modification time.
    setMtime(QFileInfo(copy).lastModified().addSecs(5));
    LoadResult touched = loadCached(copy, cache.path());
    ASSERT_TRUE(touched.ok());
    EXPECT_FALSE(touched.fromCache);
    EXPECT_TRUE(loadCached(copy, cache.path()).fromCache) << "rebuilt for the new time";
    // Grown by a byte (SQLite ignores bytes past its pages), the time put back.
    const QDateTime mtime = QFileInfo(copy).lastModified();
    {
        QFile f(copy);
        ASSERT_TRUE(f.open(QIODevice::Append));
        f.write("x", 1);
    }
    setMtime(mtime);
    const LoadResult grown = loadCached(copy, cache.path());
    ASSERT_TRUE(grown.ok()) << grown.error.toStdString();
    EXPECT_FALSE(grown.fromCache);
    // A byte of the last page changed, size and time kept: the page hash differs.
    QByteArray bytes = readAll(copy);
    bytes[bytes.size() - 1] = 'y';
    writeAll(copy, bytes);
    setMtime(mtime);
    const LoadResult edited = loadCached(copy, cache.path());
    ASSERT_TRUE(edited.ok());
    EXPECT_FALSE(edited.fromCache);
    test::expectTracesEqual(*loadTrace(copy).trace, *edited.trace);
}

TEST(TraceCache, EvictionKeepsTheTotalUnderTheCapLeastRecentlyUsedFirst) {
    QTemporaryDir dir, cache;
    QStringList copies;
    for (const char* name : {"a.json", "b.json", "c.json"}) {
        copies << dir.filePath(QLatin1String(name));
        ASSERT_TRUE(QFile::copy(kSmallKineto, copies.back()));
    }
    ASSERT_TRUE(loadCached(copies[0], cache.path()).ok());
    const qint64 entryBytes = QFileInfo(entryOf(cache.path(), copies[0])).size();
    ASSERT_GT(entryBytes, 0);
    const std::uint64_t cap = std::uint64_t(entryBytes) * 2 + entryBytes / 2; // room for two
    ASSERT_TRUE(loadCached(copies[1], cache.path(), cap).ok());
    auto age = [&](const QString& trace, int secondsAgo) {
        QFile f(entryOf(cache.path(), trace));
        ASSERT_TRUE(f.open(QIODevice::ReadWrite));
        f.setFileTime(QDateTime::currentDateTimeUtc().addSecs(-secondsAgo),
                      QFileDevice::FileModificationTime);
    };
    age(copies[0], 100);
    age(copies[1], 50);
    // Reopening a marks it as just used, so b is now the least recently used.
    ASSERT_TRUE(loadCached(copies[0], cache.path(), cap).fromCache);
    ASSERT_TRUE(loadCached(copies[2], cache.path(), cap).ok());
    EXPECT_TRUE(QFileInfo::exists(entryOf(cache.path(), copies[0])));
    EXPECT_FALSE(QFileInfo::exists(entryOf(cache.path(), copies[1])));
    EXPECT_TRUE(QFileInfo::exists(entryOf(cache.path(), copies[2])));
    qint64 total = 0;
    for (const QFileInfo& e : QDir(cache.path()).entryInfoList(QDir::Files))
        total += e.size();
    EXPECT_LE(std::uint64_t(total), cap);
    EXPECT_EQ(total, 2 * entryBytes);
}

TEST(TraceCache, AnEntryBiggerThanTheCapIsNotWritten) {
    QTemporaryDir cache;
    const LoadResult r = loadCached(kSmallKineto, cache.path(), 1000);
    ASSERT_TRUE(r.ok());
    EXPECT_FALSE(QFileInfo::exists(entryOf(cache.path(), kSmallKineto)));
    EXPECT_TRUE(QDir(cache.path()).entryList(QDir::Files).isEmpty());
}

TEST(TraceCache, AnUnwritableFolderStillLoads) {
    QTemporaryDir dir;
    const QString blocker = dir.filePath(QStringLiteral("file"));
    writeAll(blocker, "not a folder");
    const QString folder = blocker + QStringLiteral("/cache"); // under a regular file
    const LoadResult fresh = loadTrace(kSmallNsys);
    const LoadResult r = loadCached(kSmallNsys, folder);
    ASSERT_TRUE(r.ok()) << r.error.toStdString();
    EXPECT_FALSE(r.fromCache);
    test::expectTracesEqual(*fresh.trace, *r.trace);
    EXPECT_FALSE(loadCached(kSmallNsys, folder).fromCache);
}

TEST(TraceCache, BadFilesGiveTheSameSentenceWithACache) {
    QTemporaryDir dir, cache;
    const QString text = dir.filePath(QStringLiteral("notes.txt"));
    writeAll(text, "just some text\n");
    const LoadResult plain = loadTrace(text);
    const LoadResult cached = loadCached(text, cache.path());
    EXPECT_FALSE(cached.ok());
    EXPECT_EQ(cached.error, plain.error);
    EXPECT_TRUE(QDir(cache.path()).entryList(QDir::Files).isEmpty());
}

TEST(TraceCache, KeyNamesTheFileAsItIsNow) {
    QTemporaryDir dir;
    EXPECT_FALSE(TraceCache::keyOf(dir.filePath(QStringLiteral("missing"))));
    EXPECT_FALSE(TraceCache::keyOf(dir.path())) << "a folder has no key";
    const auto key = TraceCache::keyOf(kSmallNsys);
    ASSERT_TRUE(key);
    EXPECT_EQ(key->size, std::uint64_t(QFileInfo(kSmallNsys).size()));
    EXPECT_EQ(key->mtimeMs, QFileInfo(kSmallNsys).lastModified().toMSecsSinceEpoch());
    const QByteArray bytes = readAll(kSmallNsys);
    EXPECT_EQ(key->headCrc,
              std::uint32_t(crc32(0, reinterpret_cast<const Bytef*>(bytes.data()), 65536)));
    EXPECT_EQ(key->tailCrc,
              std::uint32_t(crc32(
                  0, reinterpret_cast<const Bytef*>(bytes.data() + bytes.size() - 65536), 65536)));
}

// The operators' input shapes (a sparse column of string ids) come back from the cache: every
// one of the 23,622 operators of the 2021 ResNet-50 trace that recorded Input dims, and the
// shapes of its most frequent convolution 36 times.
TEST(TraceCache, OperatorInputShapesSurviveAReopen) {
    const QString path =
        kFixtures + QStringLiteral("/kineto/resnet50-kineto-2021.pt.trace.json.gz");
    QTemporaryDir cache;
    ASSERT_TRUE(loadCached(path, cache.path()).ok());
    const LoadResult r = loadCached(path, cache.path());
    ASSERT_TRUE(r.ok());
    ASSERT_TRUE(r.fromCache);
    const Trace& t = *r.trace;
    std::size_t withShapes = 0, conv = 0;
    for (std::uint32_t li = 0; li < t.lanes().size(); ++li) {
        const Lane& l = t.lane(li);
        if (l.kind() != LaneKind::CpuOps)
            continue;
        for (std::uint32_t i = 0; i < l.size(); ++i) {
            const StringId shapes = t.cpuOps()[l.payload(i)].inputShapes;
            EXPECT_EQ(t.cpuOpInputShapes(l.payload(i)), shapes);
            withShapes += shapes != kNoString;
            conv += t.strings().view(l.nameId(i)) == "aten::conv2d" &&
                    t.strings().view(shapes) ==
                        "[[32, 256, 14, 14], [1024, 256, 1, 1], [], [], [], [], []]";
        }
    }
    EXPECT_EQ(withShapes, 23622u);
    EXPECT_EQ(conv, 36u);
}

// A crafted entry whose input-shapes column names a string past the table is rejected.
TEST(TraceCache, InputShapesOutsideTheStringTableAreRejected) {
    const QString path = kFixtures + QStringLiteral("/kineto/hta-sampled-rank0.json.gz");
    QTemporaryDir cache;
    const LoadResult fresh = loadTrace(path);
    ASSERT_TRUE(fresh.ok());
    ASSERT_TRUE(loadCached(path, cache.path()).ok());
    QByteArray entry = readAll(entryOf(cache.path(), path));
    // The column's values as stored: their count, then the ids of the operators with shapes in
    // record order. The first four ids after the count mark the place.
    std::vector<StringId> values;
    for (const CpuOpRecord& op : fresh.trace->cpuOps()) {
        if (op.inputShapes != kNoString)
            values.push_back(op.inputShapes);
    }
    ASSERT_GT(values.size(), 2000u);
    const std::uint64_t n = values.size();
    const QByteArray marker =
        QByteArray(reinterpret_cast<const char*>(&n), 8) +
        QByteArray(reinterpret_cast<const char*>(values.data()), qsizetype(4 * sizeof(StringId)));
    const qsizetype at = entry.indexOf(marker);
    ASSERT_GE(at, 0);
    EXPECT_EQ(entry.indexOf(marker, at + 1), -1);
    const StringId outside = StringId(fresh.trace->strings().size());
    std::memcpy(entry.data() + at + 8, &outside, sizeof outside);
    resign(entry, payloadOffset(path));
    writeAll(entryOf(cache.path(), path), entry);
    g_reasons.clear();
    const QtMessageHandler previous = qInstallMessageHandler(collectReasons);
    const LoadResult r = loadCached(path, cache.path());
    qInstallMessageHandler(previous);
    ASSERT_TRUE(r.ok());
    EXPECT_FALSE(r.fromCache);
    ASSERT_EQ(g_reasons.size(), 1);
    EXPECT_TRUE(
        g_reasons[0].endsWith(QStringLiteral(": sparse column: index or value out of range")))
        << g_reasons[0].toStdString();
    test::expectTracesEqual(*fresh.trace, *r.trace);
}

// The default cap, by hand for disks of several sizes: a twentieth of the disk within
// [2, 64] GiB, less whatever would leave under a tenth of it (within [1, 16] GiB) free.
TEST(TraceCache, TheDefaultCapScalesWithTheDiskAndKeepsAMarginFree) {
    constexpr std::uint64_t GiB = std::uint64_t(1) << 30;
    auto cap = [](std::uint64_t total, std::uint64_t available, std::uint64_t cached) {
        return TraceCache::capForDisk(DiskSpace{total, available}, cached);
    };
    // The benchmark's disk (252 GB, 36 free) holds a 100M-event entry (2.28 GB).
    EXPECT_EQ(cap(256 * GiB, 40 * GiB, 0), 256 * GiB / 20);
    EXPECT_GT(cap(252'000'000'000, 36'000'000'000, 0), 2'280'000'000u);
    EXPECT_EQ(cap(64 * GiB, 20 * GiB, 0), 64 * GiB / 20) << "a laptop's disk: 3.2 GiB";
    EXPECT_EQ(cap(2048 * GiB, 1024 * GiB, 0), 64 * GiB) << "at most 64 GiB";
    EXPECT_EQ(cap(8 * GiB, 4 * GiB, 0), 2 * GiB) << "at least 2 GiB when the disk has room";
    // Room: what is cached plus what is free, less the margin (16 GiB on 256 GiB).
    EXPECT_EQ(cap(256 * GiB, 18 * GiB, 1 * GiB), 3 * GiB);
    EXPECT_EQ(cap(256 * GiB, 14 * GiB, 4 * GiB), 2 * GiB) << "below the margin: gives back";
    EXPECT_EQ(cap(256 * GiB, 5 * GiB, 4 * GiB), 0u) << "a full disk: nothing kept";
    EXPECT_EQ(cap(20 * GiB, 10 * GiB, 0), 2 * GiB) << "margin 2 GiB, a tenth";
    EXPECT_EQ(cap(5 * GiB, 5 * GiB / 2, 0), 3 * GiB / 2) << "margin at least 1 GiB";
    EXPECT_EQ(cap(0, 0, 0), 0u);
}

// Without a cap of its own the cache asks its folder's file system (statvfs here, before and
// after, as others write to the disk meanwhile); a cap given wins.
TEST(TraceCache, WithoutACapTheCacheSizesItselfFromItsDisk) {
    QTemporaryDir cache;
    ASSERT_TRUE(loadCached(kSmallKineto, cache.path(), std::nullopt).ok());
    const auto entry = std::uint64_t(QFileInfo(entryOf(cache.path(), kSmallKineto)).size());
    ASSERT_GT(entry, 0u) << "written under the disk's cap";
    auto disk = [&] {
        struct statvfs st {};
        EXPECT_EQ(::statvfs(QFile::encodeName(cache.path()).constData(), &st), 0);
        return DiskSpace{std::uint64_t(st.f_blocks) * st.f_frsize,
                         std::uint64_t(st.f_bavail) * st.f_frsize};
    };
    const std::uint64_t before = TraceCache::capForDisk(disk(), entry);
    const std::uint64_t cap = TraceCache(cache.path()).capBytes();
    const std::uint64_t after = TraceCache::capForDisk(disk(), entry);
    EXPECT_GE(cap, std::min(before, after));
    EXPECT_LE(cap, std::max(before, after));
    EXPECT_EQ(TraceCache(cache.path(), 12345).capBytes(), 12345u);
    EXPECT_TRUE(loadCached(kSmallKineto, cache.path(), std::nullopt).fromCache);
    // A cap the entry does not fit in: not read, deleted.
    EXPECT_FALSE(loadCached(kSmallKineto, cache.path(), entry - 1).fromCache);
    EXPECT_FALSE(QFileInfo::exists(entryOf(cache.path(), kSmallKineto)));
}

// The preview section (the Kineto reader sends no previews of its own, so every preview here
// came from the cache).
class TraceCachePreview : public testing::Test {
protected:
    void SetUp() override {
        fresh = loadTrace(kSmallKineto);
        ASSERT_TRUE(fresh.ok());
        std::vector<std::unique_ptr<Trace>> none;
        ASSERT_TRUE(loadCachedWithPreviews(kSmallKineto, cache.path(), none).ok());
        ASSERT_TRUE(none.empty()) << "a fresh Kineto load sends no preview";
        entry = readAll(entryOf(cache.path(), kSmallKineto));
        at = previewOffset(entry, kSmallKineto);
        bytes = previewBytes(entry);
        ASSERT_GT(bytes, 1000);
        ASSERT_EQ(at + bytes, entry.size()) << "the preview ends the entry";
    }
    // Loads with previews from `bad` in place of the entry; the reasons logged.
    LoadResult loadFrom(const QByteArray& bad, std::vector<std::unique_ptr<Trace>>& previews) {
        writeAll(entryOf(cache.path(), kSmallKineto), bad);
        g_reasons.clear();
        const QtMessageHandler previous = qInstallMessageHandler(collectReasons);
        LoadResult r = loadCachedWithPreviews(kSmallKineto, cache.path(), previews);
        qInstallMessageHandler(previous);
        return r;
    }
    QTemporaryDir cache;
    LoadResult fresh;
    QByteArray entry;
    qsizetype at = 0, bytes = 0;
};

TEST_F(TraceCachePreview, AReopenSendsTheValidatedPreviewFirst) {
    std::vector<std::unique_ptr<Trace>> previews;
    const LoadResult r = loadCachedWithPreviews(kSmallKineto, cache.path(), previews);
    ASSERT_TRUE(r.ok());
    EXPECT_TRUE(r.fromCache);
    ASSERT_EQ(previews.size(), 1u);
    const std::unique_ptr<Trace> expected =
        cachePreviewOf(*fresh.trace, TraceCache::kPreviewEvents);
    ASSERT_NE(expected, nullptr);
    test::expectTracesEqual(*expected, *previews[0]);
    EXPECT_EQ(previews[0]->metadata().stage, TraceStage::GpuSide) << "all of a small GPU side";
    EXPECT_EQ(headerField<std::uint8_t>(entry, 84), std::uint8_t(TraceStage::GpuSide));
    test::exerciseTrace(*previews[0]);
    test::expectTracesEqual(*fresh.trace, *r.trace);
    EXPECT_EQ(r.trace->metadata().stage, TraceStage::Complete);
    // Not asked for (strobe-cli), or a trace under previewMinRows: none sent, same trace.
    EXPECT_TRUE(loadCached(kSmallKineto, cache.path()).fromCache);
    LoadOptions o;
    o.cacheFolder = cache.path();
    o.previewMinRows = laneEventCount(*fresh.trace) + 1;
    o.preview = [&previews](std::unique_ptr<Trace> t) { previews.push_back(std::move(t)); };
    EXPECT_TRUE(loadTrace(kSmallKineto, o).fromCache);
    EXPECT_EQ(previews.size(), 1u);
    // An entry written for a viewer that wants no preview of so small a trace holds none.
    QTemporaryDir other;
    ASSERT_TRUE(loadCached(kSmallKineto, other.path()).ok());
    EXPECT_EQ(previewBytes(readAll(entryOf(other.path(), kSmallKineto))), 0);
}

TEST_F(TraceCachePreview, ADamagedPreviewIsRefusedBeforeItIsSent) {
    int tried = 0;
    for (qsizetype i = at; i < entry.size(); i += std::max<qsizetype>(1, bytes / 60)) {
        SCOPED_TRACE(testing::Message() << "flipped byte " << i - at << " of the preview");
        QByteArray bad = entry;
        bad[i] = char(bad[i] ^ 0x10);
        std::vector<std::unique_ptr<Trace>> previews;
        const LoadResult r = loadFrom(bad, previews);
        ASSERT_TRUE(r.ok());
        EXPECT_FALSE(r.fromCache);
        EXPECT_TRUE(previews.empty());
        ASSERT_EQ(g_reasons.size(), 1);
        EXPECT_TRUE(g_reasons[0].contains(QStringLiteral(": the preview")))
            << g_reasons[0].toStdString();
        test::expectTracesEqual(*fresh.trace, *r.trace);
        ++tried;
        if (testing::Test::HasFailure())
            return;
    }
    EXPECT_GT(tried, 50);
    // Cut inside the preview, its size, stage and padding changed: the header does not match.
    const std::vector<std::pair<qsizetype, char>> header = {
        {72, char(entry[72] + 1)}, {84, char(TraceStage::Complete)}, {84, 7}, {85, 1}, {87, 1}};
    for (const auto& [offset, value] : header) {
        SCOPED_TRACE(testing::Message() << "header byte " << offset << " set to " << int(value));
        QByteArray bad = entry;
        bad[offset] = value;
        std::vector<std::unique_ptr<Trace>> previews;
        const LoadResult r = loadFrom(bad, previews);
        EXPECT_FALSE(r.fromCache);
        EXPECT_TRUE(previews.empty());
    }
    // The trace's event count: checked once the rest is read (a wrong one only decides whether
    // a preview is sent).
    QByteArray events = entry;
    events[88] = char(events[88] + 1);
    std::vector<std::unique_ptr<Trace>> previews;
    EXPECT_FALSE(loadFrom(events, previews).fromCache);
    ASSERT_EQ(g_reasons.size(), 1);
    EXPECT_TRUE(g_reasons[0].endsWith(QStringLiteral(": its event count does not match")));
    previews.clear();
    EXPECT_FALSE(loadFrom(entry.left(at + bytes / 2), previews).fromCache);
    EXPECT_TRUE(previews.empty());
    ASSERT_EQ(g_reasons.size(), 1);
    EXPECT_TRUE(g_reasons[0].endsWith(QStringLiteral(": truncated or extended")));
}

// A damaged rest with a sound preview: the preview is sent (it was validated), then the entry
// is refused and the trace read from its file.
TEST_F(TraceCachePreview, ADamagedRestAfterASoundPreviewIsStillRefused) {
    QByteArray bad = entry;
    const qsizetype inPart1 =
        payloadOffset(kSmallKineto) + qsizetype(headerField<std::uint64_t>(entry, 48)) + 100;
    bad[inPart1] = char(bad[inPart1] ^ 0x04);
    std::vector<std::unique_ptr<Trace>> previews;
    const LoadResult r = loadFrom(bad, previews);
    ASSERT_TRUE(r.ok());
    EXPECT_FALSE(r.fromCache);
    EXPECT_EQ(previews.size(), 1u);
    ASSERT_EQ(g_reasons.size(), 1);
    EXPECT_TRUE(g_reasons[0].endsWith(QStringLiteral(": checksum mismatch")) ||
                g_reasons[0].endsWith(QStringLiteral(": the payload does not parse")))
        << g_reasons[0].toStdString();
    test::expectTracesEqual(*fresh.trace, *r.trace);
}

// Crafted previews (bytes changed, the preview's checksum made to match): validation rejects
// what would index out of range, and what it accepts is safe to read.
TEST_F(TraceCachePreview, CraftedPreviewsAreValidatedOrRejected) {
    int rejected = 0, accepted = 0, byValidation = 0;
    for (qsizetype i = at; i < entry.size(); i += std::max<qsizetype>(1, bytes / 400) | 1) {
        QByteArray bad = entry;
        bad[i] = char(bad[i] ^ (i % 3 == 0 ? 0x80 : i % 3 == 1 ? 0x01 : 0x02));
        resign(bad, payloadOffset(kSmallKineto));
        std::vector<std::unique_ptr<Trace>> previews;
        const LoadResult r = loadFrom(bad, previews);
        ASSERT_TRUE(r.ok());
        if (r.fromCache) {
            ++accepted;
            ASSERT_EQ(previews.size(), 1u);
            test::exerciseTrace(*previews[0]);
        } else {
            ++rejected;
            EXPECT_TRUE(previews.empty());
            byValidation += !g_reasons.filter(QStringLiteral(": the preview: ")).isEmpty();
        }
    }
    EXPECT_GT(rejected, 40);
    EXPECT_GT(accepted, 40);
    EXPECT_GT(byValidation, 0);
}

} // namespace
} // namespace strobe
