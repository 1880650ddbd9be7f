// SPDX-License-Identifier: MIT
// The reopen cache against a hostile cache folder: links where entries belong, FIFOs, folders
// others can write to, and forged entries whose counts run past their real bytes. Nothing may be
// written outside the folder, nothing may crash or hang, and the trace always opens.
#include "formats/cache/cachefolder.h"
#include "formats/cache/tracecache.h"
#include "formats/open.h"
#include "model/trace.h"
#include "tests/formats/cache/cachetesthelpers.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <algorithm>
#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <future>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

namespace strobe {
namespace {

struct stat lstatOf(const QString& path) {
    struct stat st {};
    if (::lstat(QFile::encodeName(path).constData(), &st) != 0)
        st.st_mode = 0;
    return st;
}

bool isLink(const QString& path) {
    return S_ISLNK(lstatOf(path).st_mode);
}
bool isRegular(const QString& path) {
    return S_ISREG(lstatOf(path).st_mode);
}

void makeLink(const QString& target, const QString& link) {
    ASSERT_EQ(::symlink(QFile::encodeName(target).constData(), QFile::encodeName(link).constData()),
              0);
}

// What the cache said on its log, by type.
struct LogLine {
    QtMsgType type;
    QString text;
};
std::vector<LogLine> g_log;
void collect(QtMsgType type, const QMessageLogContext& context, const QString& message) {
    if (context.category && std::strcmp(context.category, "strobe.cache") == 0)
        g_log.push_back({type, message});
}
class LogCapture {
public:
    LogCapture() {
        g_log.clear();
        m_previous = qInstallMessageHandler(collect);
    }
    ~LogCapture() { qInstallMessageHandler(m_previous); }
    std::vector<LogLine> warnings() const {
        std::vector<LogLine> w;
        for (const LogLine& l : g_log)
            if (l.type == QtWarningMsg)
                w.push_back(l);
        return w;
    }
    bool said(const QString& part) const {
        return std::any_of(g_log.begin(), g_log.end(),
                           [&](const LogLine& l) { return l.text.contains(part); });
    }

private:
    QtMessageHandler m_previous;
};

// A copy of the small nsys trace in a folder of its own, as the audit's trace.sqlite.
struct TraceCopy {
    QTemporaryDir dir;
    QString path = dir.filePath(QStringLiteral("trace.sqlite"));
    TraceCopy() {
        EXPECT_TRUE(QFile::copy(kSmallNsys, path));
        QFile(path).setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    }
};

TEST(CacheHostile, ADanglingLinkAtTheEntryIsReplacedNotWrittenThrough) {
    TraceCopy trace;
    QTemporaryDir cache;
    const QString journal = trace.path + QStringLiteral("-journal");
    const QString entry = entryOf(cache.path(), trace.path);
    makeLink(journal, entry);
    const LoadResult first = loadCached(trace.path, cache.path());
    ASSERT_TRUE(first.ok()) << first.error.toStdString();
    EXPECT_FALSE(QFileInfo::exists(journal)) << "written through the link";
    EXPECT_TRUE(isRegular(entry)) << "the link is replaced by a real entry";
    const LoadResult second = loadCached(trace.path, cache.path());
    ASSERT_TRUE(second.ok()) << second.error.toStdString();
    EXPECT_TRUE(second.fromCache);
    const LoadResult plain = loadTrace(trace.path);
    EXPECT_TRUE(plain.ok()) << plain.error.toStdString();
}

TEST(CacheHostile, AStoreNeverWritesThroughALinkToAnExistingFile) {
    TraceCopy trace;
    QTemporaryDir cache;
    const QString victim = trace.dir.filePath(QStringLiteral("notes.txt"));
    writeAll(victim, "precious\n");
    const LoadResult fresh = loadTrace(trace.path);
    ASSERT_TRUE(fresh.ok());
    const auto key = TraceCache::keyOf(trace.path);
    ASSERT_TRUE(key);
    const QString entry = entryOf(cache.path(), trace.path);
    makeLink(victim, entry);
    ASSERT_TRUE(TraceCache(cache.path()).store(*key, *fresh.trace));
    EXPECT_EQ(readAll(victim), QByteArray("precious\n"));
    EXPECT_TRUE(isRegular(entry));
    EXPECT_EQ(lstatOf(entry).st_mode & 0777, 0600u) << "a private file";
    EXPECT_TRUE(loadCached(trace.path, cache.path()).fromCache);
}

TEST(CacheHostile, ALinkToAValidEntryElsewhereIsNotFollowed) {
    TraceCopy trace;
    QTemporaryDir cache;
    ASSERT_TRUE(loadCached(trace.path, cache.path()).ok());
    const QString entry = entryOf(cache.path(), trace.path);
    const QString outside = trace.dir.filePath(QStringLiteral("planted.strobecache"));
    ASSERT_TRUE(QFile::rename(entry, outside));
    const struct stat before = lstatOf(outside);
    makeLink(outside, entry);
    const LoadResult r = loadCached(trace.path, cache.path());
    ASSERT_TRUE(r.ok());
    EXPECT_FALSE(r.fromCache) << "read through the link";
    const struct stat after = lstatOf(outside);
    EXPECT_TRUE(isRegular(outside)) << "the link's target is left alone";
    EXPECT_EQ(after.st_mtim.tv_sec, before.st_mtim.tv_sec) << "touched through the link";
    EXPECT_EQ(after.st_mtim.tv_nsec, before.st_mtim.tv_nsec);
    EXPECT_TRUE(isRegular(entry));
}

TEST(CacheHostile, EvictionRemovesLinksNeverTheirTargets) {
    TraceCopy trace;
    QTemporaryDir cache;
    const QString victim = trace.dir.filePath(QStringLiteral("big.bin"));
    writeAll(victim, QByteArray(1 << 20, 'v'));
    const QString link =
        cache.filePath(QStringLiteral("0123456789abcdef0123456789abcdef.strobecache"));
    makeLink(victim, link);
    ASSERT_TRUE(loadCached(trace.path, cache.path()).ok());
    EXPECT_FALSE(isLink(link)) << "a link under an entry's name is not an entry";
    EXPECT_EQ(QFileInfo(victim).size(), 1 << 20);
    EXPECT_TRUE(isRegular(entryOf(cache.path(), trace.path)));
}

TEST(CacheHostile, AFifoAtTheEntryDoesNotBlock) {
    TraceCopy trace;
    QTemporaryDir cache;
    const QString entry = entryOf(cache.path(), trace.path);
    ASSERT_EQ(::mkfifo(QFile::encodeName(entry).constData(), 0600), 0);
    QElapsedTimer clock;
    clock.start();
    auto load =
        std::async(std::launch::async, [&] { return loadCached(trace.path, cache.path()); });
    if (load.wait_for(std::chrono::seconds(10)) != std::future_status::ready) {
        ADD_FAILURE() << "the load blocked on the FIFO";
        // Let the blocked open go on, so that the test can end.
        const int w = ::open(QFile::encodeName(entry).constData(), O_WRONLY | O_NONBLOCK);
        if (w >= 0)
            ::close(w);
    }
    const LoadResult r = load.get();
    const qint64 ms = clock.elapsed();
    ASSERT_TRUE(r.ok());
    EXPECT_FALSE(r.fromCache);
    EXPECT_LT(ms, 1000);
    EXPECT_TRUE(isRegular(entry)) << "the FIFO is replaced by an entry";
    EXPECT_TRUE(loadCached(trace.path, cache.path()).fromCache);
}

// The folder is refused with one sentence, the trace still loads, and nothing is written.
void expectRefused(const QString& folder, const QString& why, const QString& lookIn) {
    LogCapture log;
    for (int i = 0; i < 2; ++i) {
        const LoadResult r = loadCached(kSmallKineto, folder);
        ASSERT_TRUE(r.ok()) << r.error.toStdString();
        EXPECT_FALSE(r.fromCache);
    }
    const auto warnings = log.warnings();
    ASSERT_EQ(warnings.size(), 1u) << "one sentence for the run";
    EXPECT_TRUE(warnings[0].text.contains(folder)) << warnings[0].text.toStdString();
    EXPECT_TRUE(warnings[0].text.contains(why)) << warnings[0].text.toStdString();
    EXPECT_TRUE(warnings[0].text.endsWith(QStringLiteral("the cache is off for this run")));
    EXPECT_TRUE(QDir(lookIn).entryList(QDir::Files | QDir::System).isEmpty());
}

TEST(CacheHostile, AFolderOthersCanWriteToIsRefused) {
    QTemporaryDir dir;
    const QString folder = dir.filePath(QStringLiteral("open"));
    ASSERT_EQ(::mkdir(QFile::encodeName(folder).constData(), 0700), 0);
    ASSERT_EQ(::chmod(QFile::encodeName(folder).constData(), 0777), 0);
    expectRefused(folder, QStringLiteral("users other than its owner can write to it"), folder);
    const QString group = dir.filePath(QStringLiteral("group"));
    ASSERT_EQ(::mkdir(QFile::encodeName(group).constData(), 0700), 0);
    ASSERT_EQ(::chmod(QFile::encodeName(group).constData(), 0770), 0);
    expectRefused(group, QStringLiteral("users other than its owner can write to it"), group);
}

TEST(CacheHostile, AFolderThatIsALinkIsRefused) {
    QTemporaryDir dir;
    const QString real = dir.filePath(QStringLiteral("real"));
    ASSERT_EQ(::mkdir(QFile::encodeName(real).constData(), 0700), 0);
    const QString link = dir.filePath(QStringLiteral("link"));
    makeLink(real, link);
    expectRefused(link, QStringLiteral("it is a symbolic link"), real);
}

TEST(CacheHostile, AnotherUsersFolderIsRefused) {
    if (::geteuid() != 0)
        GTEST_SKIP() << "needs root to give a folder away; CacheFolderProblem covers the rule";
    QTemporaryDir dir;
    const QString folder = dir.filePath(QStringLiteral("theirs"));
    ASSERT_EQ(::mkdir(QFile::encodeName(folder).constData(), 0700), 0);
    ASSERT_EQ(::chown(QFile::encodeName(folder).constData(), 65534, 65534), 0);
    expectRefused(folder, QStringLiteral("it belongs to another user"), folder);
}

TEST(CacheHostile, FolderProblemRule) {
    CacheFolderStat ok;
    ok.isDirectory = true;
    ok.owner = 1000;
    ok.mode = 0700;
    EXPECT_EQ(cacheFolderProblem(ok, 1000), QString());
    CacheFolderStat readable = ok;
    readable.mode = 0755;
    EXPECT_EQ(cacheFolderProblem(readable, 1000), QString()) << "others may read, not write";
    EXPECT_EQ(cacheFolderProblem(ok, 1001), QStringLiteral("it belongs to another user"));
    for (std::uint32_t mode : {0720u, 0702u, 0777u, 01777u}) {
        CacheFolderStat open = ok;
        open.mode = mode;
        EXPECT_EQ(cacheFolderProblem(open, 1000),
                  QStringLiteral("users other than its owner can write to it"))
            << std::oct << mode;
    }
    CacheFolderStat link = ok;
    link.isSymLink = true;
    link.isDirectory = false;
    EXPECT_EQ(cacheFolderProblem(link, 1000), QStringLiteral("it is a symbolic link"));
    CacheFolderStat file = ok;
    file.isDirectory = false;
    EXPECT_EQ(cacheFolderProblem(file, 1000), QStringLiteral("it is not a folder"));
}

TEST(CacheHostile, MissingFoldersAreCreatedPrivate) {
    QTemporaryDir dir;
    const QString top = dir.filePath(QStringLiteral("a"));
    const QString folder = top + QStringLiteral("/b/traces");
    ASSERT_TRUE(loadCached(kSmallKineto, folder).ok());
    const QString b = top + QStringLiteral("/b");
    for (const QString& f : {top, b, folder})
        EXPECT_EQ(lstatOf(f).st_mode & 0777, 0700u) << f.toStdString();
    EXPECT_TRUE(loadCached(kSmallKineto, folder).fromCache);
}

// A forged entry: the real one, its first part declared `hole` bytes longer (a hole in a sparse
// file, zeros), its first count (the format name's length) set to `units`, and both checksums
// made to match, so that only the counts are wrong.
void writeForged(const QString& entryPath, const QByteArray& entry, qsizetype payloadStart,
                 std::uint64_t hole, std::uint64_t units) {
    const auto part0 = headerField<std::uint64_t>(entry, 48);
    const auto part1 = headerField<std::uint64_t>(entry, 56);
    QByteArray first = entry.mid(payloadStart, qsizetype(part0));
    std::memcpy(first.data(), &units, 8);
    const QByteArray second = entry.mid(payloadStart + qsizetype(part0), qsizetype(part1));
    const QByteArray preview = entry.mid(payloadStart + qsizetype(part0 + part1));
    // The CRC-32 of `hole` zeros, by doubling.
    const Bytef zero = 0;
    uLong zeros = crc32(0, &zero, 1);
    for (std::uint64_t n = 1; n < hole; n *= 2)
        zeros = crc32_combine64(zeros, zeros, z_off64_t(n));
    const auto* b = reinterpret_cast<const Bytef*>(first.constData());
    const auto crc0 =
        std::uint32_t(crc32_combine64(crc32(0, b, uInt(first.size())), zeros, z_off64_t(hole)));
    const auto crc1 = std::uint32_t(
        crc32(0, reinterpret_cast<const Bytef*>(second.constData()), uInt(second.size())));
    QByteArray header = entry.left(payloadStart);
    const std::uint64_t declared = part0 + hole;
    std::memcpy(header.data() + 48, &declared, 8);
    std::memcpy(header.data() + 64, &crc0, 4);
    std::memcpy(header.data() + 68, &crc1, 4);
    QFile f(entryPath);
    ASSERT_TRUE(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    ASSERT_EQ(f.write(header + first), header.size() + first.size());
    ASSERT_TRUE(f.seek(qint64(payloadStart + qsizetype(part0) + qint64(hole))));
    ASSERT_EQ(f.write(second + preview), second.size() + preview.size());
}

TEST(CacheHostile, ASparseEntryDeclaringATerabyteIsDeletedAndTheTraceLoads) {
    QTemporaryDir cache;
    ASSERT_TRUE(loadCached(kSmallKineto, cache.path()).ok());
    const QString entry = entryOf(cache.path(), kSmallKineto);
    const QByteArray real = readAll(entry);
    // A terabyte of hole and a format name of 2^39 UTF-16 units: every count fits the size.
    const std::uint64_t hole = std::uint64_t(1) << 40;
    writeForged(entry, real, payloadOffset(kSmallKineto), hole, hole / 2);
    ASSERT_GT(QFileInfo(entry).size(), qint64(hole));
    LogCapture log;
    const LoadResult r = loadCached(kSmallKineto, cache.path());
    ASSERT_TRUE(r.ok());
    EXPECT_FALSE(r.fromCache);
    EXPECT_TRUE(log.said(QStringLiteral("bigger than the cache's cap")));
    EXPECT_EQ(QFileInfo(entry).size(), real.size()) << "the forged entry is gone, a real one made";
    EXPECT_TRUE(loadCached(kSmallKineto, cache.path()).fromCache);
}

TEST(CacheHostile, AHugeCountInARealEntryIsRefusedBeforeAllocating) {
    QTemporaryDir cache;
    ASSERT_TRUE(loadCached(kSmallKineto, cache.path()).ok());
    const QString entry = entryOf(cache.path(), kSmallKineto);
    const QByteArray real = readAll(entry);
    for (std::uint64_t units :
         {std::uint64_t(1) << 40, ~std::uint64_t(0), std::uint64_t(1) << 62}) {
        writeForged(entry, real, payloadOffset(kSmallKineto), 0, units);
        LogCapture log;
        const LoadResult r = loadCached(kSmallKineto, cache.path());
        ASSERT_TRUE(r.ok());
        EXPECT_FALSE(r.fromCache);
        EXPECT_TRUE(log.said(QStringLiteral("does not parse")));
        // Deleted and written again (not byte for byte: raw records carry their padding).
        EXPECT_EQ(QFileInfo(entry).size(), real.size());
        EXPECT_TRUE(loadCached(kSmallKineto, cache.path()).fromCache);
    }
}

#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
std::uint64_t virtualBytes() {
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return 0;
    for (const QByteArray& line : status.readAll().split('\n'))
        if (line.startsWith("VmSize:"))
            return line.mid(7).trimmed().split(' ').first().toULongLong() * 1024;
    return 0;
}

// Under the cap, but a count whose array does not fit in memory: the allocation fails, and that
// must read as a bad entry (deleted, the trace loaded from its file), not abort the program.
TEST(CacheHostile, AnEntryThatRunsOutOfMemoryIsABadEntry) {
    QTemporaryDir cache;
    ASSERT_TRUE(loadCached(kSmallKineto, cache.path()).ok());
    const QString entry = entryOf(cache.path(), kSmallKineto);
    const QByteArray real = readAll(entry);
    const std::uint64_t hole = std::uint64_t(1) << 30; // a 1 GiB format name, 512 MiB allowed
    writeForged(entry, real, payloadOffset(kSmallKineto), hole, hole / 2);
    const std::uint64_t vm = virtualBytes();
    ASSERT_GT(vm, 0u);
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        const rlimit limit{rlim_t(vm + (std::uint64_t(512) << 20)),
                           rlim_t(vm + (std::uint64_t(512) << 20))};
        ::setrlimit(RLIMIT_AS, &limit);
        LogCapture log;
        const LoadResult r = loadCached(kSmallKineto, cache.path());
        const bool good = r.ok() && !r.fromCache && QFileInfo(entry).size() == real.size() &&
                          log.said(QStringLiteral("needs more memory than there is"));
        ::_exit(good ? 0 : 3);
    }
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFEXITED(status)) << "the child died of signal " << WTERMSIG(status);
    EXPECT_EQ(WEXITSTATUS(status), 0);
    EXPECT_EQ(QFileInfo(entry).size(), real.size());
}
#endif

} // namespace
} // namespace strobe
