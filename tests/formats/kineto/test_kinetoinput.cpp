// SPDX-License-Identifier: MIT
// Reading a Kineto trace's bytes: large enough that two threads read a plain file (one from each
// end) and that a second thread faults the pages in while gzip is decompressed; the bytes must
// come out unchanged.
#include "formats/kineto/kinetoinput.h"
#include "tests/support/gzipbytes.h"

#include <gtest/gtest.h>

#include <QFile>
#include <QTemporaryDir>
#include <cerrno>
#include <cstring>
#include <simdjson.h>
#include <vector>
#include <zlib.h>

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
    EXPECT_EQ(std::memcmp(text.bytes.get(), json.constData(), text.size), 0);
    for (std::size_t i = 0; i < simdjson::SIMDJSON_PADDING; ++i)
        ASSERT_EQ(text.bytes[text.size + i], '\0') << i;
}

} // namespace

TEST(KinetoInput, ALargePlainFileIsReadUnchanged) {
    QTemporaryDir dir;
    const QByteArray json = largeJson();
    JsonText text;
    EXPECT_EQ(readJsonText(write(dir, QStringLiteral("big.json"), json), text, nullptr), QString());
    EXPECT_FALSE(text.compressed);
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
