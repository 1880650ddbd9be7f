// SPDX-License-Identifier: MIT
// Reading a Kineto trace's bytes: large enough that a plain file is mapped and read in from both
// ends (or, where it cannot be mapped, read by two threads) and that a second thread faults the
// pages in while gzip is decompressed; the bytes must come out unchanged. A mapped file that
// shrinks reads as zeros and says so instead of killing the process.
#include "formats/kineto/kinetoinput.h"
#include "formats/kineto/prefaulter.h"
#include "tests/support/gzipbytes.h"

#include <gtest/gtest.h>

#include <QFile>
#include <QTemporaryDir>
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <simdjson.h>
#include <thread>
#include <vector>
#include <zlib.h>

#if defined(__unix__)
#include <csignal>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>
#endif

using namespace strobe::kineto;

namespace {

// 48 MB of JSON whose every line differs, so a misplaced or zeroed page shows.
QByteArray largeJson() {
    QByteArray json("{\"traceEvents\": [\n");
    json.reserve(48 << 20);
    for (int i = 0; json.size() < (48 << 20); ++i)
        json += "  {\"ph\": \"i\", \"name\": \"mark " + QByteArray::number(i) +
                "\", \"pid\": 1, \"tid\": 1, \"ts\": " + QByteArray::number(i) + "},\n";
    json += "  {\"ph\": \"i\", \"name\": \"end\", \"pid\": 1, \"tid\": 1, \"ts\": 0}\n]}\n";
    return json;
}

// Level 1: the largest input here is 48 MB.
QByteArray gzip(const QByteArray& plain) {
    return strobe::test::gzip(plain, 1);
}

QString write(const QTemporaryDir& dir, const QString& name, const QByteArray& bytes) {
    QFile f(dir.filePath(name));
    EXPECT_TRUE(f.open(QIODevice::WriteOnly));
    EXPECT_EQ(f.write(bytes), bytes.size());
    return f.fileName();
}

void expectSameText(const JsonText& text, const QByteArray& json) {
    ASSERT_EQ(text.size, std::size_t(json.size()));
    ASSERT_GE(text.capacity, text.size + simdjson::SIMDJSON_PADDING);
    EXPECT_EQ(std::memcmp(text.begin(), json.constData(), text.size), 0);
    for (std::size_t i = 0; i < simdjson::SIMDJSON_PADDING; ++i)
        ASSERT_EQ(text.begin()[text.size + i], '\0') << i;
}

} // namespace

TEST(KinetoInput, ALargePlainFileIsReadUnchanged) {
    QTemporaryDir dir;
    const QByteArray json = largeJson();
    JsonText text;
    EXPECT_EQ(readJsonText(write(dir, QStringLiteral("big.json"), json), text, nullptr), QString());
    EXPECT_FALSE(text.compressed);
#if defined(__unix__)
    EXPECT_TRUE(text.mapping); // mapped, not copied
#endif
    expectSameText(text, json);
}

TEST(KinetoInput, ALargeGzipFileIsInflatedUnchanged) {
    QTemporaryDir dir;
    const QByteArray json = largeJson();
    JsonText text;
    EXPECT_EQ(readJsonText(write(dir, QStringLiteral("big.json.gz"), gzip(json)), text, nullptr),
              QString());
    EXPECT_TRUE(text.compressed);
    expectSameText(text, json);
}

TEST(KinetoInput, ACancelledReadSaysSo) {
    QTemporaryDir dir;
    std::atomic<bool> cancel{true};
    JsonText text;
    EXPECT_EQ(readJsonText(write(dir, QStringLiteral("c.json"), largeJson()), text, &cancel),
              QStringLiteral("cancelled"));
}

#if defined(__unix__)
TEST(KinetoInput, ReadingFromBothEndsFillsEveryByteOrSaysWhyNot) {
    QTemporaryDir dir;
    const QByteArray json = largeJson();
    QFile f(write(dir, QStringLiteral("both.json"), json));
    ASSERT_TRUE(f.open(QIODevice::ReadOnly));
    std::vector<char> dest(std::size_t(json.size()) + 16, '\x7f');
    ASSERT_EQ(readFromBothEnds(f.handle(), dest.data(), std::size_t(json.size()), nullptr), 0);
    EXPECT_EQ(std::memcmp(dest.data(), json.constData(), std::size_t(json.size())), 0);
    EXPECT_EQ(dest[std::size_t(json.size())], '\x7f'); // nothing written past the size
    // A file shorter than the size it was said to have (truncated meanwhile): ENODATA.
    EXPECT_EQ(readFromBothEnds(f.handle(), dest.data(), std::size_t(json.size()) + 8, nullptr),
              ENODATA);
    std::atomic<bool> cancel{true};
    EXPECT_EQ(readFromBothEnds(f.handle(), dest.data(), std::size_t(json.size()), &cancel), -1);
    EXPECT_EQ(readFromBothEnds(-1, dest.data(), 100, nullptr), EBADF);
}
#endif

#if defined(__unix__) && defined(MADV_POPULATE_WRITE)
namespace {

// Resident pages of [p, p + size), by mincore().
std::size_t residentPages(void* p, std::size_t size) {
    const auto page = std::size_t(sysconf(_SC_PAGESIZE));
    std::vector<unsigned char> v((size + page - 1) / page);
    if (mincore(p, size, v.data()) != 0)
        return 0;
    std::size_t n = 0;
    for (unsigned char c : v)
        n += c & 1;
    return n;
}

// Waits up to ten seconds for every page of the region to be resident.
bool becomesResident(void* p, std::size_t size) {
    const auto page = std::size_t(sysconf(_SC_PAGESIZE));
    for (int i = 0; i < 1000; ++i) {
        if (residentPages(p, size) == size / page)
            return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return false;
}

} // namespace

TEST(Prefaulter, FaultsInTheWholeRegionFromEitherEndWithoutWritingIt) {
    constexpr std::size_t kSize = std::size_t(64) << 20;
    for (const Prefaulter::From from : {Prefaulter::From::Start, Prefaulter::From::End}) {
        void* p = mmap(nullptr, kSize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        ASSERT_NE(p, MAP_FAILED);
        ASSERT_LT(residentPages(p, kSize), kSize / std::size_t(sysconf(_SC_PAGESIZE)) / 2);
        {
            Prefaulter prefaulter(p, kSize, from);
            EXPECT_TRUE(becomesResident(p, kSize));
        }
        const auto* bytes = static_cast<const unsigned char*>(p);
        EXPECT_EQ(std::count(bytes, bytes + kSize, 0), std::ptrdiff_t(kSize)); // still zeros
        munmap(p, kSize);
    }
}

TEST(Prefaulter, LeavesSmallRegionsAndStopsWhenDestroyed) {
    constexpr std::size_t kSmall = std::size_t(8) << 20;
    void* p = mmap(nullptr, kSmall, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ASSERT_NE(p, MAP_FAILED);
    { Prefaulter prefaulter(p, kSmall, Prefaulter::From::Start); }
    EXPECT_EQ(residentPages(p, kSmall), 0u); // below 32 MB the writer faults its own pages
    munmap(p, kSmall);
    // Destroyed at once, a prefaulter of a large region returns without faulting it all.
    constexpr std::size_t kLarge = std::size_t(2) << 30;
    void* q = mmap(nullptr, kLarge, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    ASSERT_NE(q, MAP_FAILED);
    {
        Prefaulter prefaulter(q, kLarge, Prefaulter::From::End);
        prefaulter.stop();
    }
    EXPECT_LT(residentPages(q, kLarge), kLarge / std::size_t(sysconf(_SC_PAGESIZE)));
    munmap(q, kLarge);
}
#endif

#if defined(__unix__)
namespace {

// A file of `size` bytes 'a'..'z', open for reading; -1 on failure.
int patternFile(const QString& path, std::size_t size) {
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return -1;
    QByteArray bytes(qsizetype(size), '\0');
    for (std::size_t i = 0; i < size; ++i)
        bytes[qsizetype(i)] = char('a' + i % 26);
    f.write(bytes);
    f.close();
    return open(path.toLocal8Bit().constData(), O_RDONLY);
}

} // namespace

TEST(GuardedMapping, AFileThatShrinksUnderItReadsZerosThereAndSaysSo) {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("shrinks.json"));
    constexpr std::size_t kSize = std::size_t(1) << 20;
    const int fd = patternFile(path, kSize);
    ASSERT_GE(fd, 0);
    auto m = GuardedMapping::map(fd, kSize, 64);
    ASSERT_TRUE(m);
    EXPECT_GE(m->capacity(), kSize + 64);
    EXPECT_EQ(m->populate(nullptr), 0);
    EXPECT_EQ(m->data()[kSize - 1], char('a' + (kSize - 1) % 26));
    EXPECT_EQ(m->data()[kSize + 63], '\0'); // the padding
    EXPECT_FALSE(m->damaged());
    ASSERT_TRUE(QFile::resize(path, 100));         // another program truncates the file
    EXPECT_EQ(m->data()[50], char('a' + 50 % 26)); // the page still backed
    const volatile char* far = m->data() + kSize / 2;
    EXPECT_EQ(*far, '\0'); // would have been SIGBUS
    EXPECT_TRUE(m->damaged());
    EXPECT_EQ(m->populate(nullptr), EFAULT); // reading the rest in fails too
    m.reset();
    ::close(fd);
}

// In a child process: a guarded mapping (so the handler is installed), then a plain mapping of
// another file that is then truncated, and a read of it. Exits with 3 when the setup fails, with
// 4 or 5 when the read returned.
[[noreturn]] void readATruncatedPlainMapping(const QString& guarded, const QString& other) {
    const int g = patternFile(guarded, 1 << 16);
    const int o = patternFile(other, 1 << 16);
    auto m = GuardedMapping::map(g, 1 << 16, 64);
    void* p = mmap(nullptr, 1 << 16, PROT_READ, MAP_PRIVATE, o, 0);
    if (!m || p == MAP_FAILED || !QFile::resize(other, 0))
        std::exit(3);
    const volatile char* far = static_cast<const char*>(p) + (1 << 15);
    std::exit(*far == 0 ? 4 : 5);
}

TEST(GuardedMappingDeathTest, ASigbusOutsideItStillEndsTheProcess) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    QTemporaryDir dir;
#if defined(__SANITIZE_ADDRESS__)
    // AddressSanitizer's handler came first: the fault is passed on to it, and it reports it.
    EXPECT_EXIT(readATruncatedPlainMapping(dir.filePath(QStringLiteral("g.json")),
                                           dir.filePath(QStringLiteral("o.bin"))),
                ::testing::ExitedWithCode(1), "AddressSanitizer: BUS");
#else
    EXPECT_EXIT(readATruncatedPlainMapping(dir.filePath(QStringLiteral("g.json")),
                                           dir.filePath(QStringLiteral("o.bin"))),
                ::testing::KilledBySignal(SIGBUS), "");
#endif
}

TEST(GuardedMapping, WhatCannotBeMappedIsLeftToTheReader) {
    int pipeEnds[2];
    ASSERT_EQ(pipe(pipeEnds), 0);
    EXPECT_FALSE(GuardedMapping::map(pipeEnds[0], 4096, 64)); // not a regular file
    ::close(pipeEnds[0]);
    ::close(pipeEnds[1]);
    QTemporaryDir dir;
    const int fd = patternFile(dir.filePath(QStringLiteral("e.json")), 10);
    ASSERT_GE(fd, 0);
    EXPECT_FALSE(GuardedMapping::map(fd, 0, 64)); // nothing to map
    ::close(fd);
}
#endif
