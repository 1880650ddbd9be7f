// SPDX-License-Identifier: MIT
// Traces that are not plain files: pipes (a FIFO a writer fills, `<(cat trace.json)`), a FIFO
// that nobody writes to (never a hang), devices, and file names that are not valid UTF-8.
#include "formats/kineto/kinetoinput.h"
#include "formats/nativepath.h"
#include "formats/open.h"
#include "tests/support/gzipbytes.h"
#include "tests/support/sqlitequery.h"

#include <gtest/gtest.h>

#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <fcntl.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

using namespace strobe;

namespace {

const QByteArray kTrace =
    R"({"schemaVersion": 1, "traceEvents": [
       {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 10, "tid": 11,
        "ts": 100.5, "dur": 2, "args": {"correlation": 7}},
       {"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 103, "dur": 1.25,
        "args": {"device": 0, "stream": 7, "correlation": 7}}]})";

class KinetoPipes : public ::testing::Test {
protected:
    QTemporaryDir dir;
    QString fifo(const char* name) const {
        const QString path = dir.filePath(QString::fromUtf8(name));
        EXPECT_EQ(mkfifo(QFile::encodeName(path).constData(), 0600), 0);
        return path;
    }
};

// Opens the FIFO for writing (blocking until the reader has it open) and writes `bytes` in
// pieces, pausing between them.
std::thread writer(const QString& path, QByteArray bytes, int pauseMs = 0) {
    return std::thread([path, bytes, pauseMs] {
        const int fd = ::open(QFile::encodeName(path).constData(), O_WRONLY | O_CLOEXEC);
        ASSERT_GE(fd, 0);
        for (qsizetype at = 0; at < bytes.size(); at += 100) {
            ASSERT_GT(
                ::write(fd, bytes.constData() + at, std::min<qsizetype>(100, bytes.size() - at)),
                0);
            if (pauseMs)
                std::this_thread::sleep_for(std::chrono::milliseconds(pauseMs));
        }
        ::close(fd);
    });
}

} // namespace

TEST_F(KinetoPipes, AFifoThatAWriterFillsIsReadToItsEnd) {
    const QString path = fifo("trace.json");
    std::thread w = writer(path, kTrace, 1);
    const LoadResult r = loadTrace(path);
    w.join();
    ASSERT_TRUE(r.ok()) << r.error.toStdString(); // was "'trace.json' is empty (0 bytes)"
    EXPECT_EQ(r.trace->kernelCount(), 1u);
    EXPECT_EQ(r.trace->kernelAt(0).start, 103000);
    EXPECT_TRUE(r.trace->kernelAt(0).record.api.isValid());
}

TEST_F(KinetoPipes, AGzipThroughAFifoIsDecompressed) {
    const QString path = fifo("trace.json.gz");
    std::thread w = writer(path, test::gzip(kTrace));
    const LoadResult r = loadTrace(path);
    w.join();
    ASSERT_TRUE(r.ok()) << r.error.toStdString();
    EXPECT_EQ(r.trace->kernelCount(), 1u);
}

TEST_F(KinetoPipes, AnAnonymousPipeIsReadLikeAFifo) {
    // What `strobe-cli info <(cat trace.json)` opens: /dev/fd/N of a pipe.
    int ends[2];
    ASSERT_EQ(pipe(ends), 0);
    std::thread w([&] {
        ASSERT_EQ(::write(ends[1], kTrace.constData(), std::size_t(kTrace.size())), kTrace.size());
        ::close(ends[1]);
    });
    const LoadResult r = loadTrace(QStringLiteral("/dev/fd/%1").arg(ends[0]));
    w.join();
    ::close(ends[0]);
    ASSERT_TRUE(r.ok()) << r.error.toStdString();
    EXPECT_EQ(r.trace->kernelCount(), 1u);
}

TEST_F(KinetoPipes, AFifoWithoutAWriterDoesNotBlock) {
    // Before, open(2) itself waited for a writer, for ever.
    const QString path = fifo("nobody.json");
    kineto::JsonText text;
    QElapsedTimer clock;
    clock.start();
    const QString problem = kineto::readJsonText(
        path, text, nullptr, {std::chrono::milliseconds(300), std::chrono::milliseconds(300)});
    EXPECT_LT(clock.elapsed(), 3000);
    EXPECT_EQ(problem, QStringLiteral("is a pipe that nothing was written to in 0.3 s"));
}

TEST_F(KinetoPipes, AFifoWithoutAWriterIsCancelled) {
    const QString path = fifo("nobody.json");
    std::atomic<bool> cancel{false};
    LoadOptions o;
    o.cancel = &cancel;
    std::thread canceller([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        cancel = true;
    });
    QElapsedTimer clock;
    clock.start();
    const LoadResult r = loadTrace(path, o);
    canceller.join();
    EXPECT_LT(clock.elapsed(), 3000);
    EXPECT_TRUE(r.cancelled);
    EXPECT_EQ(r.error, QStringLiteral("Loading 'nobody.json' was cancelled."));
}

TEST_F(KinetoPipes, AWriterThatClosesWithoutWritingGivesAnEmptyPipe) {
    const QString path = fifo("empty.json");
    std::thread w = writer(path, {});
    const LoadResult r = loadTrace(path);
    w.join();
    EXPECT_EQ(r.error, QStringLiteral(
                           "'empty.json' is an empty pipe: its writer closed it without writing."));
}

TEST_F(KinetoPipes, ADatabaseThroughAPipeIsRefusedInOneSentence) {
    const QString path = fifo("db.sqlite");
    QFile f(QString::fromStdString(test::fixturePath("nsys2022.2-vectoradd-a.sqlite")));
    ASSERT_TRUE(f.open(QIODevice::ReadOnly));
    std::thread w = writer(path, f.read(64 << 10));
    const LoadResult r = loadTrace(path);
    w.join();
    EXPECT_EQ(r.error, QStringLiteral("'db.sqlite' is a pipe holding an SQLite database, which "
                                      "SQLite reads only from a file: save it to a file first."));
}

TEST_F(KinetoPipes, ADeviceIsNotARegularFile) {
    EXPECT_EQ(loadTrace(QStringLiteral("/dev/null")).error,
              QStringLiteral("'null' is not a regular file (a device, socket or other special "
                             "file), not a trace."));
    EXPECT_TRUE(loadTrace(dir.path())
                    .error.endsWith(QStringLiteral("' is a directory, not a trace file.")));
}

namespace {

// A file whose name holds byte 0xff (not UTF-8) in `dir`, with `bytes` in it; its QString path.
QString writeNonUtf8(const QTemporaryDir& dir, const QByteArray& suffix, const QByteArray& bytes) {
    const QByteArray name = QFile::encodeName(dir.path()) + "/trace-\xff" + suffix;
    const int fd = ::open(name.constData(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    EXPECT_GE(fd, 0);
    EXPECT_EQ(::write(fd, bytes.constData(), std::size_t(bytes.size())), bytes.size());
    ::close(fd);
    return pathFromNative(name);
}

// Removes what writeNonUtf8 wrote (QTemporaryDir, by Qt's names, cannot).
void removeNative(const QString& path) {
    ::unlink(nativePath(path).constData());
}

} // namespace

TEST(NativePath, BytesThatAreNotUtf8SurviveTheRoundTrip) {
    for (const QByteArray& b : {QByteArray("plain/name.json"), QByteArray("caf\xc3\xa9.json"),
                                QByteArray("a\xff"
                                           "b"),
                                QByteArray("\xc3"), QByteArray("\xed\xa0\x80x"),
                                QByteArray("\xf0\x9f\x98\x80\xfe"), QByteArray("\xc0\xaf")}) {
        EXPECT_EQ(nativePath(pathFromNative(b)), b) << b.toHex().toStdString();
    }
    EXPECT_EQ(pathFromNative("caf\xc3\xa9"), QStringLiteral("caf\u00e9"));
    const QString escaped = pathFromNative("a\xff"
                                           "b");
    ASSERT_EQ(escaped.size(), 3);
    EXPECT_EQ(escaped[1].unicode(), 0xDCFF); // the byte, kept as a lone surrogate
}

TEST_F(KinetoPipes, AKinetoFileWhoseNameIsNotUtf8Opens) {
    const QString path = writeNonUtf8(dir, ".json", kTrace);
    const LoadResult r = loadTrace(path);
    removeNative(path);
    ASSERT_TRUE(r.ok()) << r.error.toStdString(); // was: the file does not exist
    EXPECT_EQ(r.trace->kernelCount(), 1u);
}

TEST_F(KinetoPipes, AnNsysFileWhoseNameIsNotUtf8Opens) {
    QFile f(QString::fromStdString(test::fixturePath("nsys2022.2-vectoradd-a.sqlite")));
    ASSERT_TRUE(f.open(QIODevice::ReadOnly));
    const QString path = writeNonUtf8(dir, ".sqlite", f.readAll());
    const LoadResult r = loadTrace(path);
    removeNative(path);
    ASSERT_TRUE(r.ok()) << r.error.toStdString();
    EXPECT_GT(r.trace->kernelCount(), 0u);
}
