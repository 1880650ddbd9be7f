// SPDX-License-Identifier: MIT
// Bad Kineto input: one sentence naming the file and the problem, or counted warnings; never a
// crash, a hang or unbounded memory.
#include "formats/kineto/kinetoreader.h"
#include "formats/kineto/kinetoreaderimpl.h"
#include "formats/open.h"
#include "tests/support/gzipbytes.h"
#include "tests/support/kinetoscan.h"

#include <gtest/gtest.h>

#include <QCryptographicHash>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <set>
#include <zlib.h>

using namespace strobe;

namespace {

class KinetoErrors : public ::testing::Test {
protected:
    QTemporaryDir dir;
    QString write(const QString& name, const QByteArray& bytes) const {
        QFile f(dir.filePath(name));
        EXPECT_TRUE(f.open(QIODevice::WriteOnly));
        f.write(bytes);
        return dir.filePath(name);
    }
    static QByteArray gzip(const QByteArray& plain) { return test::gzip(plain); }
    static QString errorOf(const QString& path) {
        const LoadResult r = loadTrace(path);
        EXPECT_FALSE(r.ok());
        return r.error;
    }
    static std::unique_ptr<Trace> open(const QString& path) {
        LoadResult r = loadTrace(path);
        EXPECT_TRUE(r.ok()) << r.error.toStdString();
        return std::move(r.trace);
    }
    static std::uint64_t warningCount(const Trace& t, const char* kind) {
        for (const TraceWarning& w : t.warnings()) {
            if (w.kind == QLatin1String(kind))
                return w.count;
        }
        return 0;
    }
};

// A minimal runtime call and the kernel it launched.
const char* const kPair =
    R"({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 10, "tid": 11,
        "ts": 100.5, "dur": 2, "args": {"correlation": 7}},
       {"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 103, "dur": 1.25,
        "args": {"device": 0, "stream": 7, "correlation": 7, "grid": [2, 1, 1],
                 "block": [64, 1, 1], "registers per thread": 16, "shared memory": 0}})";

QByteArray traceWith(const QByteArray& events) {
    return QByteArray(R"({"schemaVersion": 1, "traceEvents": [)") + events + "]}";
}

} // namespace

TEST_F(KinetoErrors, TruncatedGzipIsOneSentence) {
    QFile src(QString::fromStdString(test::kinetoFixturePath("hta-sampled-rank0.json.gz")));
    ASSERT_TRUE(src.open(QIODevice::ReadOnly));
    const QByteArray whole = src.readAll();
    const qsizetype half = whole.size() / 2;
    const QString e = errorOf(write(QStringLiteral("cut.json.gz"), whole.left(half)));
    // Where it ends, not where its member began (byte 0).
    EXPECT_EQ(e, QStringLiteral("'cut.json.gz' is a truncated gzip file: its compressed stream "
                                "ends early, at byte %1 of %1.")
                     .arg(half));
    EXPECT_TRUE(errorOf(write(QStringLiteral("tiny.gz"), QByteArray("\x1f\x8b\x08", 3)))
                    .startsWith(QStringLiteral("'tiny.gz' is a truncated gzip file")));
}

TEST_F(KinetoErrors, CorruptGzipIsOneSentence) {
    QByteArray gz = gzip(traceWith(kPair));
    for (qsizetype i = 12; i < gz.size() - 8; ++i)
        gz[i] = char(gz[i] ^ 0x5A);
    const QString e = errorOf(write(QStringLiteral("bad.json.gz"), gz));
    EXPECT_TRUE(e.startsWith(QStringLiteral("'bad.json.gz' is a corrupt gzip file: its compressed "
                                            "data is invalid at byte ")))
        << e.toStdString();
    EXPECT_TRUE(e.endsWith(QStringLiteral(" of %1.").arg(gz.size()))) << e.toStdString();
}

TEST_F(KinetoErrors, AGzipOfBinaryBytesSaysSo) {
    QByteArray noise(64 << 10, '\0');
    std::uint64_t x = 88172645463325252ull; // xorshift: incompressible bytes
    for (char& c : noise) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        c = char(x);
    }
    EXPECT_EQ(errorOf(write(QStringLiteral("noise.json.gz"), gzip(noise))),
              QStringLiteral("'noise.json.gz' is a gzip file, but what it decompresses to is "
                             "binary, not JSON text."));
}

// Issue 44, item 15: text that turns binary past the first 4 KiB (a JSON head, then noise) was
// read as JSON and blamed on the parser ("it ends inside a string (truncated?)" when the noise
// holds an odd number of quotes). It says where the content turns binary, gzip or not.
TEST_F(KinetoErrors, TextThatTurnsBinaryLaterSaysWhere) {
    QByteArray events;
    for (int i = 0; i < 40; ++i)
        events += QByteArray(kPair) + ",\n";
    QByteArray content = QByteArray(R"({"schemaVersion": 1, "traceEvents": [)") + events;
    ASSERT_GT(content.size(), 4096);
    const qsizetype head = content.size();
    std::uint64_t x = 88172645463325252ull;
    QByteArray noise(16 << 10, '\0');
    for (qsizetype i = 1; i < noise.size(); ++i) { // byte 0 stays NUL: binary from `head` on
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        noise[i] = char(x);
    }
    noise[1] = '"'; // an odd number of quotes whatever the rest holds
    content += noise;
    EXPECT_EQ(errorOf(write(QStringLiteral("mixed.json.gz"), gzip(content))),
              QStringLiteral("'mixed.json.gz' is a gzip file, but what it decompresses to is "
                             "binary from byte %1 of %2 on, not JSON text.")
                  .arg(head)
                  .arg(content.size()));
    EXPECT_EQ(errorOf(write(QStringLiteral("mixed.json"), content)),
              QStringLiteral("'mixed.json' is binary from byte %1 of %2 on, not JSON text.")
                  .arg(head)
                  .arg(content.size()));
    // One stray control character in a string is a JSON error, not binary content.
    QByteArray stray = traceWith(kPair);
    stray.replace("cudaLaunchKernel", "cudaLaunch\x01Kernel");
    const QString e = errorOf(write(QStringLiteral("stray.json"), stray));
    EXPECT_TRUE(e.startsWith(QStringLiteral("'stray.json' is not valid JSON"))) << e.toStdString();
}

TEST_F(KinetoErrors, AGzipBombStopsAtTheRatioCap) {
    // 300 MB of blanks in about 300 KB: past the cap (64 times the size, at least 256 MB), the
    // decompressor stops with one sentence instead of expanding all of it.
    z_stream z{};
    ASSERT_EQ(deflateInit2(&z, 9, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY), Z_OK);
    const QByteArray blanks(1 << 20, ' ');
    QByteArray gz, chunk(1 << 16, '\0');
    for (int mb = 0; mb <= 300; ++mb) {
        z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(blanks.constData()));
        z.avail_in = mb < 300 ? uInt(blanks.size()) : 0;
        do {
            z.next_out = reinterpret_cast<Bytef*>(chunk.data());
            z.avail_out = uInt(chunk.size());
            deflate(&z, mb < 300 ? Z_NO_FLUSH : Z_FINISH);
            gz.append(chunk.constData(), chunk.size() - qsizetype(z.avail_out));
        } while (z.avail_out == 0);
    }
    deflateEnd(&z);
    ASSERT_LT(gz.size(), 1 << 20);
    const QString e = errorOf(write(QStringLiteral("bomb.json.gz"), gz));
    EXPECT_EQ(e, QStringLiteral("'bomb.json.gz' decompresses to more than 64 times its size (over "
                                "256 MB from %1 KB), more than a trace's JSON text plausibly "
                                "holds.")
                     .arg((gz.size() + 1023) / 1024));
}

TEST_F(KinetoErrors, AByteOrderMarkBeforeTheTextIsSkipped) {
    const QByteArray bom("\xEF\xBB\xBF");
    auto plain = open(write(QStringLiteral("bom.json"), bom + traceWith(kPair)));
    auto packed = open(write(QStringLiteral("bom.json.gz"), gzip(bom + traceWith(kPair))));
    ASSERT_TRUE(plain && packed);
    EXPECT_EQ(plain->kernelCount(), 1u);
    EXPECT_EQ(packed->kernelCount(), 1u);
    EXPECT_EQ(packed->kernelAt(0).start, 103000);
    // Positions in messages still count the file's bytes, the mark included: byte 33 is the '{'
    // where a comma should be.
    const QString e = errorOf(write(QStringLiteral("bomcut.json"),
                                    bom + R"({"traceEvents": [{"ph": "X"} {"ph": "X"}]})"));
    EXPECT_EQ(e, QStringLiteral("'bomcut.json' is not valid JSON near byte 33: it is truncated or "
                                "its brackets do not match."))
        << e.toStdString();
}

TEST_F(KinetoErrors, ParserProblemsAreInStrobesWords) {
    // An empty document gave simdjson's "No structural element found" before.
    EXPECT_EQ(errorOf(write(QStringLiteral("blank.json.gz"), gzip("   \n  "))),
              QStringLiteral("'blank.json.gz' is not valid JSON: it holds no JSON value."));
    for (int code = 1; code < int(simdjson::NUM_ERROR_CODES); ++code) {
        const QString words = kineto::simdjsonProblem(simdjson::error_code(code));
        EXPECT_NE(words, QString::fromUtf8(simdjson::error_message(simdjson::error_code(code))));
        EXPECT_TRUE(
            words.startsWith(QLatin1String("it ")) || words.startsWith(QLatin1String("there ")) ||
            words.startsWith(QLatin1String("a ")) || words.startsWith(QLatin1String("the ")))
            << code << ' ' << words.toStdString();
    }
}

TEST_F(KinetoErrors, TimesBeyondTheRangeAreClampedNotDropped) {
    // 1e20 us is past int64 nanoseconds; 5e15 us past the model's 2^62 ns; ts + dur overflows.
    const QByteArray events = R"(
        {"ph": "X", "cat": "cpu_op", "name": "far", "pid": 1, "tid": 1, "ts": 1e20, "dur": 1},
        {"ph": "X", "cat": "cpu_op", "name": "long", "pid": 1, "tid": 2, "ts": 1,
         "dur": 9223372036854775},
        {"ph": "X", "cat": "cpu_op", "name": "before", "pid": 1, "tid": 3, "ts": -1e30, "dur": 1},
        {"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 5e15, "dur": 1,
         "args": {"device": 0, "stream": 7}},
        {"ph": "i", "s": "t", "name": "mark", "pid": 1, "tid": 1, "ts": 99999999999999999999},
        {"ph": "X", "cat": "cpu_op", "name": "ok", "pid": 1, "tid": 1, "ts": 1, "dur": 1})";
    auto t = open(write(QStringLiteral("far.json"), traceWith(events)));
    ASSERT_TRUE(t);
    EXPECT_EQ(warningCount(*t, "malformed-event"), 0u);
    EXPECT_EQ(warningCount(*t, "time-out-of-range"), 5u);
    EXPECT_EQ(t->counts().cpuOps, 4u);
    EXPECT_EQ(t->counts().nvtxMarks, 1u);
    ASSERT_EQ(t->kernelCount(), 1u);
    EXPECT_EQ(t->kernelAt(0).start, kMaxTime);
    std::set<std::pair<TimeNs, TimeNs>> spans;
    for (const Lane& l : t->lanes()) {
        for (std::uint32_t i = 0; i < l.size(); ++i)
            spans.emplace(l.start(i), l.end(i));
    }
    EXPECT_TRUE(spans.count({kMaxTime, kMaxTime})); // far, and the mark
    EXPECT_TRUE(spans.count({1000, kMaxTime}));     // long
    EXPECT_TRUE(spans.count({kMinTime, kMinTime})); // before: -1e30 + 1 us, clamped
    EXPECT_GE(t->timeRange().start, kMinTime);
    EXPECT_LE(t->timeRange().end, kMaxTime);
}

TEST_F(KinetoErrors, GzipAndPlainGiveTheSameTrace) {
    auto plain = open(write(QStringLiteral("t.json"), traceWith(kPair)));
    auto packed = open(write(QStringLiteral("t.json.gz"), gzip(traceWith(kPair))));
    ASSERT_EQ(plain->kernelCount(), 1u);
    ASSERT_EQ(packed->kernelCount(), 1u);
    EXPECT_EQ(packed->kernelAt(0).start, 103000);
    EXPECT_EQ(packed->kernelAt(0).end, 104250);
    EXPECT_EQ(plain->kernelAt(0).start, packed->kernelAt(0).start);
    EXPECT_TRUE(packed->kernelAt(0).record.api.isValid());
}

TEST_F(KinetoErrors, InvalidJsonIsOneSentence) {
    const QString e =
        errorOf(write(QStringLiteral("broken.json"), R"({"traceEvents": [{"ph": "X", "ts": )"));
    EXPECT_TRUE(e.startsWith(QStringLiteral("'broken.json' is not valid JSON: ")))
        << e.toStdString();
    EXPECT_TRUE(e.endsWith(u'.'));
    const QString cut = errorOf(write(QStringLiteral("cut.json"), traceWith(kPair).chopped(3)));
    EXPECT_TRUE(cut.startsWith(QStringLiteral("'cut.json' is not valid JSON")))
        << cut.toStdString();
    const QString trailing =
        errorOf(write(QStringLiteral("trail.json"), traceWith(kPair) + " {\"x\": 1}"));
    EXPECT_TRUE(trailing.startsWith(QStringLiteral("'trail.json' is not valid JSON")))
        << trailing.toStdString();
}

TEST_F(KinetoErrors, JsonThatIsNotATrace) {
    EXPECT_EQ(errorOf(write(QStringLiteral("a.json"), R"({"traces": [], "version": 3})")),
              QStringLiteral("'a.json' is JSON but not a trace: it has no traceEvents array."));
    EXPECT_EQ(errorOf(write(QStringLiteral("b.json"), R"({"traceEvents": {"ph": "X"}})")),
              QStringLiteral("'b.json' is JSON but not a trace: its traceEvents is not an array."));
    // Sniffing sends only '{', '[' and gzip here; called directly, the reader still says what is
    // wrong.
    const LoadResult scalar = KinetoJsonLoader(write(QStringLiteral("d.json"), "42"), {}).load();
    EXPECT_EQ(scalar.error,
              QStringLiteral("'d.json' is JSON but not a trace: its top level is not an object."));
    // A bare array is the Chrome format's trace: its non-object elements are malformed events.
    auto bare = open(write(QStringLiteral("c.json"), "[1, 2, 3]"));
    EXPECT_EQ(warningCount(*bare, "malformed-event"), 3u);
}

TEST_F(KinetoErrors, BareArrayOfEventsIsATrace) {
    auto t = open(write(QStringLiteral("bare.json"), QByteArray("[") + kPair + "]"));
    EXPECT_EQ(t->kernelCount(), 1u);
    EXPECT_EQ(t->counts().cudaApiCalls, 1u);
}

TEST_F(KinetoErrors, WrongTypedAndMissingFieldsAreCountedWarnings) {
    const QByteArray bad = R"(
        {"ph": "X", "cat": "cpu_op", "name": "a", "pid": 1, "tid": 1, "ts": "12", "dur": 1},
        {"ph": "X", "cat": "cpu_op", "name": "b", "pid": {"x": 1}, "tid": 1, "ts": 12, "dur": 1},
        {"ph": "X", "cat": "cpu_op", "name": "c", "pid": 1, "tid": 1, "dur": 1},
        {"cat": "cpu_op", "name": "d", "pid": 1, "tid": 1, "ts": 1, "dur": 1},
        {"ph": "X", "cat": "cpu_op", "name": "e", "pid": 1, "tid": 1, "ts": 1, "dur": [1]},
        {"ph": "X", "cat": "kernel", "name": "f", "ts": 1, "dur": 1, "args": {}},
        17, "text", null,
        {"ph": "X", "cat": "cpu_op", "name": "ok", "pid": 1, "tid": 1, "ts": 1, "dur": 1})";
    auto t = open(write(QStringLiteral("w.json"), traceWith(bad)));
    EXPECT_EQ(warningCount(*t, "malformed-event"), 9u);
    EXPECT_EQ(t->counts().cpuOps, 1u);
    EXPECT_EQ(t->kernelCount(), 0u);
}

TEST_F(KinetoErrors, NegativeDurationsBecomeZeroLengthWithAWarning) {
    const QByteArray events = R"(
        {"ph": "X", "cat": "cpu_op", "name": "a", "pid": 1, "tid": 1, "ts": 10, "dur": -5},
        {"ph": "X", "cat": "user_annotation", "name": "b", "pid": 1, "tid": 1, "ts": 20,
         "dur": -0.001},
        {"ph": "X", "cat": "cpu_op", "name": "c", "pid": 1, "tid": 1, "ts": 30})";
    auto t = open(write(QStringLiteral("neg.json"), traceWith(events)));
    EXPECT_EQ(warningCount(*t, "negative-duration"), 2u);
    EXPECT_EQ(warningCount(*t, "missing-duration"), 1u);
    for (const Lane& l : t->lanes()) {
        for (std::uint32_t i = 0; i < l.size(); ++i)
            EXPECT_EQ(l.end(i), l.start(i));
    }
}

TEST_F(KinetoErrors, AHugeStringIsCutNotKept) {
    const QByteArray huge(24 << 20, 'x');
    const QByteArray events = R"({"ph": "X", "cat": "cpu_op", "name": ")" + huge +
                              R"(", "pid": 1, "tid": 1, "ts": 1, "dur": 1})";
    auto t = open(write(QStringLiteral("huge.json"), traceWith(events)));
    EXPECT_EQ(warningCount(*t, "long-name"), 1u);
    ASSERT_EQ(t->counts().cpuOps, 1u);
    for (const Lane& l : t->lanes())
        EXPECT_EQ(t->strings().view(l.nameId(0)).size(), 64u * 1024u);
    EXPECT_LT(t->memoryBytes(), std::size_t(1) << 20);
}

TEST_F(KinetoErrors, UnknownCategoriesAndPhasesAreCountedAndSkipped) {
    const QByteArray events = R"js(
        {"ph": "X", "cat": "overhead", "name": "a", "pid": 1, "tid": 1, "ts": 1, "dur": 1},
        {"ph": "C", "name": "counter", "pid": 1, "tid": 1, "ts": 1, "args": {"v": 1}},
        {"ph": "X", "cat": "Trace", "name": "PyTorch Profiler (0)", "pid": "Spans",
         "tid": "PyTorch Profiler", "ts": 1, "dur": 100},
        {"ph": "i", "s": "g", "name": "Iteration Start", "pid": "Traces", "tid": "x", "ts": 1})js";
    auto t = open(write(QStringLiteral("skip.json"), traceWith(events)));
    EXPECT_EQ(warningCount(*t, "skipped-category"), 2u);
    EXPECT_EQ(warningCount(*t, "malformed-event"), 0u);
    EXPECT_TRUE(t->lanes().empty());
}

TEST_F(KinetoErrors, FlowsLinkOperationsThatCarryNoCorrelation) {
    // Old traces: ids only on the ac2g flow (s at the runtime call, f at the GPU operation).
    const QByteArray events = R"(
        {"ph": "X", "cat": "Runtime", "name": "cudaLaunchKernel", "pid": 5, "tid": "6",
         "ts": 100, "dur": 2, "args": {}},
        {"ph": "s", "id": 99, "pid": 5, "tid": 6, "ts": 100, "cat": "async", "name": "launch"},
        {"ph": "X", "cat": "Kernel", "name": "k", "pid": 0, "tid": "stream 7", "ts": 104,
         "dur": 1, "args": {"device": 0, "stream": 7}},
        {"ph": "f", "id": 99, "pid": 0, "tid": "stream 7", "ts": 104, "cat": "async",
         "name": "launch", "bp": "e"})";
    auto t = open(write(QStringLiteral("flow.json"), traceWith(events)));
    ASSERT_EQ(t->kernelCount(), 1u);
    const KernelRecord& k = t->kernelAt(0).record;
    EXPECT_EQ(k.correlationId, 99u);
    ASSERT_TRUE(k.api.isValid());
    EXPECT_EQ(t->lane(k.api.lane).kind(), LaneKind::CudaApi);
    EXPECT_EQ(t->kernelAt(0).stream->streamId, 7u);
    EXPECT_EQ(t->kernelAt(0).config->detail, LaunchDetail::None);
}

namespace {

// A runtime call and the kernel it launched, linked only by their ac2g flow `id` (no
// args.correlation on either), the flow written before both events or after each.
QByteArray flowLinkedLaunch(int id, int ts, bool flowsFirst) {
    const QByteArray i = QByteArray::number(id), t = QByteArray::number(ts),
                     g = QByteArray::number(ts + 5);
    const QByteArray call = R"({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", )"
                            R"("pid": 5, "tid": 6, "ts": )" +
                            t + R"(, "dur": 2, "args": {}})";
    const QByteArray kernel = R"({"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, )"
                              R"("ts": )" +
                              g + R"(, "dur": 1, "args": {"device": 0, "stream": 7}})";
    const QByteArray start = R"({"ph": "s", "id": )" + i + R"(, "pid": 5, "tid": 6, "ts": )" + t +
                             R"(, "cat": "ac2g", "name": "ac2g"})";
    const QByteArray end = R"({"ph": "f", "id": )" + i + R"(, "pid": 0, "tid": 7, "ts": )" + g +
                           R"(, "cat": "ac2g", "name": "ac2g", "bp": "e"})";
    return flowsFirst ? start + ",\n" + end + ",\n" + call + ",\n" + kernel
                      : call + ",\n" + start + ",\n" + kernel + ",\n" + end;
}

} // namespace

TEST_F(KinetoErrors, FlowsReadBeforeTheFirstUncorrelatedLaunchStillLinkIt) {
    // Flows are read only once a launch without args.correlation turns up: the ones met before
    // it (here the first 3,000 pairs, which come before their launches, and more than one
    // batch) are read again then; those after it directly.
    QByteArray events;
    constexpr int kLaunches = 6000;
    for (int i = 0; i < kLaunches; ++i)
        events += (i ? ",\n" : "") + flowLinkedLaunch(100 + i, 20 * i, i < kLaunches / 2);
    auto t = open(write(QStringLiteral("flows.json"), traceWith(events)));
    ASSERT_EQ(t->kernelCount(), std::size_t(kLaunches));
    for (std::size_t i = 0; i < t->kernelCount(); ++i) {
        const KernelRecord& k = t->kernelAt(i).record;
        ASSERT_EQ(k.correlationId, std::uint32_t(100 + i)) << i;
        ASSERT_TRUE(k.api.isValid()) << i;
        ASSERT_EQ(t->lane(k.api.lane).start(k.api.index), TimeNs(20000 * i)) << i;
        ASSERT_EQ(t->apiCalls()[t->lane(k.api.lane).payload(k.api.index)].correlationId,
                  std::uint32_t(100 + i))
            << i;
    }
    EXPECT_EQ(warningCount(*t, "malformed-event"), 0u);
}

TEST_F(KinetoErrors, OfTwoFlowsToOneOperationTheFirstInTheDocumentWins) {
    // Flow ends at one stream and time, each written twice: first with id i, and far later (past
    // the 40,000 events the parser thread may run ahead of the builder thread, which by then
    // wants flows handed on) with id 100,000 + i. The parser thread kept the first ones, the
    // builder thread read the second ones, and the first still win, as in a one-thread read.
    constexpr int kFlows = 1000, kFiller = 45'000;
    auto flowEnd = [](int id, int ts) -> QByteArray {
        return R"({"ph": "f", "id": )" + QByteArray::number(id) +
               R"(, "pid": 0, "tid": 7, "ts": )" + QByteArray::number(ts) +
               R"(, "cat": "ac2g", "name": "ac2g", "bp": "e"},)" + "\n";
    };
    QByteArray events;
    for (int i = 0; i < kFlows; ++i)
        events += flowEnd(i + 1, 10 * i);
    events += R"({"ph": "X", "cat": "kernel", "name": "first", "pid": 0, "tid": 7, "ts": 5, )"
              R"("dur": 1, "args": {"device": 0, "stream": 7}},)"
              "\n";
    for (int i = 0; i < kFiller; ++i)
        events += R"({"ph": "X", "cat": "cpu_op", "name": "f", "pid": 5, "tid": 6, "ts": )" +
                  QByteArray::number(i) + R"(, "dur": 1},)" + "\n";
    for (int i = 0; i < kFlows; ++i)
        events += flowEnd(100'000 + i + 1, 10 * i);
    for (int i = 0; i < kFlows; ++i)
        events += (i ? ",\n" : "") +
                  QByteArray(R"({"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, )"
                             R"("ts": )") +
                  QByteArray::number(10 * i) + R"(, "dur": 1, "args": {"device": 0, "stream": 7}})";
    auto t = open(write(QStringLiteral("twice.json"), traceWith(events)));
    ASSERT_EQ(t->kernelCount(), std::size_t(kFlows + 1));
    std::size_t linked = 0;
    for (std::size_t k = 0; k < t->kernelCount(); ++k) {
        const KernelLaunch kl = t->kernelAt(k);
        if (kl.start % 10'000 != 0)
            continue; // "first", at 5 us
        ASSERT_EQ(kl.record.correlationId, std::uint32_t(kl.start / 10'000 + 1)) << kl.start;
        ++linked;
    }
    EXPECT_EQ(linked, std::size_t(kFlows));
    EXPECT_EQ(t->counts().cpuOps, std::uint64_t(kFiller));
}

TEST_F(KinetoErrors, AFileTruncatedWhileItIsParsedIsOneSentenceNotACrash) {
    // Another program cuts the file to a tenth once it is mapped and read in (the progress
    // report at 5%): what the parser then finds is zeros, and the load says what happened.
    QByteArray events;
    for (int i = 0; i < 20'000; ++i)
        events += (i ? ",\n" : "") + QByteArray(kPair);
    const QByteArray json = traceWith(events);
    const QString path = write(QStringLiteral("cut-while-read.json"), json);
    LoadOptions options;
    bool cut = false;
    options.progress = [&](int perMille) {
        if (perMille == 50 && !cut)
            cut = QFile::resize(path, json.size() / 10);
    };
    const LoadResult r = loadTrace(path, options);
    ASSERT_TRUE(cut);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error, QStringLiteral("'cut-while-read.json' changed while it was read: it is now "
                                      "shorter than when it was opened."));
}

TEST_F(KinetoErrors, AKernelWithoutCorrelationTakesItsFlowsIdEvenWhenItsCallHasOne) {
    const QByteArray events = R"(
        {"ph": "s", "id": 41, "pid": 5, "tid": 6, "ts": 100, "cat": "ac2g", "name": "ac2g"},
        {"ph": "f", "id": 41, "pid": 0, "tid": 7, "ts": 104, "cat": "a\u0063\u0032g",
         "name": "ac2g", "bp": "e"},
        {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 5, "tid": 6,
         "ts": 100, "dur": 2, "args": {"correlation": 41}},
        {"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 104, "dur": 1,
         "args": {"device": 0, "stream": 7}})";
    auto t = open(write(QStringLiteral("half.json"), traceWith(events)));
    ASSERT_EQ(t->kernelCount(), 1u);
    const KernelRecord& k = t->kernelAt(0).record;
    EXPECT_EQ(k.correlationId, 41u); // from the flow, whose category is written with escapes
    EXPECT_TRUE(k.api.isValid());
}

TEST_F(KinetoErrors, BrokenFlowsCountOnlyWhenTheyAreNeeded) {
    // A flow without ts or id is malformed when flows are read; when every launch carries
    // args.correlation they are not read at all, like any other member the mapping has no use for.
    const QByteArray broken = R"(,
        {"ph": "s", "id": 7, "pid": 10, "tid": 11, "cat": "ac2g", "name": "ac2g"},
        {"ph": "f", "pid": 0, "tid": 7, "ts": 103, "cat": "ac2g", "name": "ac2g", "bp": "e"})";
    auto linked = open(write(QStringLiteral("linked.json"), traceWith(kPair + broken)));
    EXPECT_EQ(warningCount(*linked, "malformed-event"), 0u);
    EXPECT_TRUE(linked->kernelAt(0).record.api.isValid());
    const QByteArray uncorrelated = R"(,
        {"ph": "X", "cat": "kernel", "name": "k2", "pid": 0, "tid": 7, "ts": 200, "dur": 1,
         "args": {"device": 0, "stream": 7}})";
    auto needed =
        open(write(QStringLiteral("needed.json"), traceWith(kPair + broken + uncorrelated)));
    EXPECT_EQ(warningCount(*needed, "malformed-event"), 2u);
    ASSERT_EQ(needed->kernelCount(), 2u);
    EXPECT_FALSE(needed->kernelAt(1).record.correlationId.has_value());
    EXPECT_FALSE(needed->kernelAt(1).record.api.isValid());
}

TEST_F(KinetoErrors, KernelsShareAConfigurationExactlyWhenTheirRecordedValuesAgree) {
    // The lookup is keyed on the text as written; the configurations still on the values.
    auto kernel = [](int ts, const char* args) -> QByteArray {
        return QByteArray(
                   R"({"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": )") +
               QByteArray::number(ts) +
               R"(, "dur": 1, "args": {"device": 0, "stream": 7, "grid": [2, 1, 1], )" + args +
               "}}";
    };
    const QByteArray events =
        kernel(1, R"("block": [64, 1, 1], "registers per thread": 16, "warps per SM": 8)") + ",\n" +
        kernel(2, R"("block": [64, 1, 1], "registers per thread": 16, "warps per SM": 8)") + ",\n" +
        kernel(3, R"("block": [64, 1, 1], "registers per thread": 16, "warps per SM": 8.5)") +
        ",\n" +
        kernel(4, R"("block": [64, 1, 1], "registers per thread": 16.0, "warps per SM": 8.0)") +
        ",\n" +
        kernel(
            5,
            R"("block": [64, 1, 1], "registers per thread": "\u0031\u0036", "warps per SM": 8)") +
        ",\n" + kernel(6, R"("block": [32, 1, 1], "registers per thread": 16, "warps per SM": 8)");
    auto t = open(write(QStringLiteral("configs.json"), traceWith(events)));
    ASSERT_EQ(t->kernelCount(), 6u);
    std::vector<std::uint32_t> config;
    for (std::size_t i = 0; i < 6; ++i)
        config.push_back(t->kernelAt(i).record.config);
    EXPECT_EQ(config[1], config[0]);
    EXPECT_NE(config[2], config[0]); // 8.5 warps per SM
    EXPECT_EQ(config[3], config[0]); // 16.0 and 8.0: the same values written otherwise
    EXPECT_EQ(config[4], config[0]); // registers as an escaped string of digits
    EXPECT_NE(config[5], config[0]); // another block
    EXPECT_EQ(t->kernelConfigs().size(), 3u);
    EXPECT_EQ(t->kernelAt(2).config->recordedOccupancy.warpsPerSm, 8.5f);
    EXPECT_EQ(t->kernelAt(5).config->block[0], 32);
    EXPECT_EQ(t->kernelAt(4).config->registersPerThread, 16u);
}

TEST_F(KinetoErrors, GpuWorkGoesToTheProcessThatLaunchedIt) {
    const QByteArray events = R"(
        {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 10, "tid": 10,
         "ts": 1, "dur": 1, "args": {"correlation": 1}},
        {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 20, "tid": 20,
         "ts": 2, "dur": 1, "args": {"correlation": 2}},
        {"ph": "X", "cat": "kernel", "name": "a", "pid": 0, "tid": 7, "ts": 5, "dur": 1,
         "args": {"device": 0, "stream": 7, "correlation": 2}},
        {"ph": "X", "cat": "kernel", "name": "b", "pid": 0, "tid": 7, "ts": 6, "dur": 1,
         "args": {"device": 0, "stream": 7, "correlation": 1}})";
    auto t = open(write(QStringLiteral("two.json"), traceWith(events)));
    ASSERT_EQ(t->kernelCount(), 2u);
    EXPECT_EQ(t->kernelAt(0).stream->pid, 20u);
    EXPECT_EQ(t->kernelAt(1).stream->pid, 10u);
    EXPECT_TRUE(t->kernelAt(0).record.api.isValid() && t->kernelAt(1).record.api.isValid());
    ASSERT_EQ(t->processes().size(), 2u);
}

TEST_F(KinetoErrors, TheFileIsNeverModified) {
    const QString path = write(QStringLiteral("keep.json"), traceWith(kPair));
    QFile f(path);
    ASSERT_TRUE(f.open(QIODevice::ReadOnly));
    const QByteArray before = QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256);
    f.close();
    const QDateTime mtime = QFileInfo(path).lastModified();
    ASSERT_TRUE(loadTrace(path).ok());
    ASSERT_TRUE(f.open(QIODevice::ReadOnly));
    EXPECT_EQ(QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256), before);
    EXPECT_EQ(QFileInfo(path).lastModified(), mtime);
}

TEST_F(KinetoErrors, CancelGivesACancelledResult) {
    std::atomic<bool> cancel{true};
    LoadOptions o;
    o.cancel = &cancel;
    const LoadResult r = loadTrace(write(QStringLiteral("c.json"), traceWith(kPair)), o);
    EXPECT_FALSE(r.ok());
    EXPECT_TRUE(r.cancelled);
}

TEST_F(KinetoErrors, EscapedStringsAreUnescaped) {
    // Escapes in the name, the category and the phase; an escaped pid string too.
    const QByteArray events = R"(
        {"ph": "\u0058", "cat": "cpu\u005fop", "name": "a\"b\\c\u00e9\/", "pid": "\u0031",
         "tid": 1, "ts": 1, "dur": 2},
        {"ph": "X", "cat": "cpu_op", "name": "plain", "pid": 1, "tid": 1, "ts": 5, "dur": 1})";
    auto t = open(write(QStringLiteral("esc.json"), traceWith(events)));
    ASSERT_EQ(t->counts().cpuOps, 2u);
    ASSERT_EQ(t->lanes().size(), 1u);
    const Lane& l = t->lane(0);
    ASSERT_EQ(l.size(), 2u);
    EXPECT_EQ(t->strings().view(l.nameId(0)), "a\"b\\c\xc3\xa9/");
    EXPECT_EQ(t->strings().view(l.nameId(1)), "plain");
    EXPECT_EQ(t->threads().at(0).pid, 1u);
}

TEST_F(KinetoErrors, AnInvalidEscapeIsOneSentence) {
    const QString e = errorOf(
        write(QStringLiteral("q.json"),
              traceWith(R"({"ph": "X", "cat": "cpu_op", "name": "a\qb", "pid": 1, "tid": 1, "ts": 1,
                      "dur": 1})")));
    EXPECT_EQ(e, QStringLiteral("'q.json' is not valid JSON: it has a string with an invalid "
                                "escape."));
}

namespace {

// `n` runtime calls on one thread, each launching a kernel: more events than the reader hands
// between its threads in one go.
QByteArray launches(int n, int badEscapeAt = -1) {
    QByteArray events;
    for (int i = 0; i < n; ++i) {
        const QByteArray ts = QByteArray::number(10 * i), id = QByteArray::number(i + 1);
        const QByteArray name =
            i == badEscapeAt ? QByteArray("k\\x") : QByteArray("k") + QByteArray::number(i % 7);
        if (i > 0)
            events += ",\n";
        events += QByteArray(R"({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", )") +
                  R"("pid": 10, "tid": 11, "ts": )" + ts +
                  R"(.5, "dur": 1, "args": {"correlation": )" + id + "}},\n";
        events += QByteArray(R"({"ph": "X", "cat": "kernel", "name": ")") + name +
                  R"(", "pid": 0, "tid": 7, "ts": )" + ts +
                  R"(.75, "dur": 2.125, "args": {"device": 0, "stream": 7, "correlation": )" + id +
                  R"(, "grid": [)" + QByteArray::number(i % 5 + 1) + ", 1, 1]}}";
    }
    return events;
}

} // namespace

TEST_F(KinetoErrors, EventsKeepTheirOrderAcrossBatches) {
    constexpr int kLaunches = 12000; // 24,000 events: a dozen batches
    auto t = open(write(QStringLiteral("many.json"), traceWith(launches(kLaunches))));
    ASSERT_EQ(t->kernelCount(), std::size_t(kLaunches));
    ASSERT_EQ(t->counts().cudaApiCalls, std::uint64_t(kLaunches));
    for (std::size_t i = 0; i < t->kernelCount(); ++i) {
        const auto k = t->kernelAt(i);
        ASSERT_EQ(k.start, TimeNs(10000 * i + 750)) << i;
        ASSERT_EQ(k.end, TimeNs(10000 * i + 2875)) << i;
        ASSERT_EQ(k.config->grid[0], std::int32_t(i % 5 + 1)) << i;
        ASSERT_EQ(t->strings().view(k.config->demangledName), "k" + std::to_string(i % 7)) << i;
        ASSERT_EQ(k.record.correlationId, std::uint32_t(i + 1)) << i;
        ASSERT_TRUE(k.record.api.isValid()) << i;
        ASSERT_EQ(t->lane(k.record.api.lane).start(k.record.api.index), TimeNs(10000 * i + 500))
            << i;
    }
}

TEST_F(KinetoErrors, AnErrorFoundByTheBuilderThreadStopsTheLoad) {
    // The bad escape sits in the 20,001st event, which the builder thread meets while the parser
    // thread has read far beyond it.
    const QString e =
        errorOf(write(QStringLiteral("late.json"), traceWith(launches(12000, 10000))));
    EXPECT_EQ(e, QStringLiteral("'late.json' is not valid JSON: it has a string with an invalid "
                                "escape."));
}

TEST_F(KinetoErrors, ArgsBeforeThePhaseAndCategoryAreStillRead) {
    const QByteArray events = R"(
        {"args": {"correlation": 3}, "name": "cudaLaunchKernel", "ph": "X", "cat": "cuda_runtime",
         "pid": 1, "tid": 1, "ts": 1, "dur": 1},
        {"args": {"device": 0, "stream": 9, "correlation": 3, "grid": [4, 2, 1],
                  "block": [32, 1, 1], "registers per thread": 40},
         "name": "k", "ph": "X", "cat": "kernel", "pid": 0, "tid": 9, "ts": 3, "dur": 1},
        {"ph": "X", "cat": "python_function", "name": "f", "pid": 1, "tid": 1, "ts": 0, "dur": 9,
         "args": {"Python id": 1, "Python parent id": null}})";
    auto t = open(write(QStringLiteral("order.json"), traceWith(events)));
    ASSERT_EQ(t->kernelCount(), 1u);
    const auto k = t->kernelAt(0);
    EXPECT_EQ(k.config->grid, (std::array<std::int32_t, 3>{4, 2, 1}));
    EXPECT_EQ(k.config->block, (std::array<std::int32_t, 3>{32, 1, 1}));
    EXPECT_EQ(k.config->registersPerThread, 40u);
    EXPECT_EQ(k.stream->streamId, 9u);
    EXPECT_TRUE(k.record.api.isValid());
    EXPECT_EQ(t->counts().pythonFunctions, 1u);
}

TEST_F(KinetoErrors, CancelDuringTheWalkGivesACancelledResult) {
    std::atomic<bool> cancel{false};
    LoadOptions o;
    o.cancel = &cancel;
    o.progress = [&](int perMille) {
        if (perMille > 50) // the walk has begun: both threads are running
            cancel = true;
    };
    const LoadResult r = loadTrace(write(QStringLiteral("c.json"), traceWith(launches(40000))), o);
    EXPECT_FALSE(r.ok());
    EXPECT_TRUE(r.cancelled);
    EXPECT_EQ(r.error, QStringLiteral("Loading 'c.json' was cancelled."));
}

// A job's read (no operators, syncs or memory samples; one thread: the events mapped on the
// parsing thread) fails with the same sentence as the full read, and counts the same warnings.
TEST_F(KinetoErrors, AJobsReadGivesTheFullReadsSentencesAndWarnings) {
    QByteArray badRows;
    for (const char* row :
         {R"({"ph": "X", "cat": "cpu_op", "name": "a", "pid": 1, "tid": 1, "ts": "12", "dur": 1})",
          R"({"ph": "X", "cat": "cpu_op", "name": "b", "pid": {"x": 1}, "tid": 1, "ts": 1})",
          R"({"ph": "X", "cat": "cpu_op", "name": "c", "pid": 1, "tid": 1, "dur": 1})",
          R"({"ph": "X", "cat": "cpu_op", "name": "e", "pid": 1, "tid": 1, "ts": 1, "dur": [1]})",
          R"({"ph": "X", "cat": "cpu_op", "name": "n", "pid": 1, "tid": 1, "ts": 5, "dur": -5})",
          R"({"ph": "X", "cat": "python_function", "name": "m", "pid": 1, "tid": 1, "ts": 6})",
          R"({"ph": "X", "cat": "cpu_op", "name": "t", "pid": 1, "tid": 1, "ts": 1e20, "dur": 1})",
          R"({"ph": "X", "cat": "cuda_sync", "name": "s", "pid": 0, "tid": 7, "ts": 9, "dur": 1})",
          R"({"ph": "X", "cat": "kernel", "name": "f", "ts": 1, "dur": 1, "args": {}})", "17"})
        badRows += QByteArray(row) + ",\n";
    const QByteArray hugeName = R"({"ph": "X", "cat": "cpu_op", "name": ")" +
                                QByteArray(70 << 10, 'x') +
                                R"(", "pid": 1, "tid": 1, "ts": 1, "dur": 1})";
    const QByteArray good = traceWith(kPair);
    const std::vector<std::pair<QString, QByteArray>> inputs = {
        {QStringLiteral("truncated.json.gz"), gzip(good).chopped(20)},
        {QStringLiteral("broken.json"), R"({"traceEvents": [{"ph": "X", "ts": )"},
        {QStringLiteral("cut.json"), good.chopped(3)},
        {QStringLiteral("trail.json"), good + " {\"x\": 1}"},
        {QStringLiteral("not-a-trace.json"), R"({"traces": [], "version": 3})"},
        {QStringLiteral("escape.json"),
         traceWith(R"({"ph": "X", "cat": "cpu_op", "name": "a\qb", "pid": 1, "tid": 1, "ts": 1,
                       "dur": 1})")},
        {QStringLiteral("late.json"), traceWith(launches(12000, 10000))},
        {QStringLiteral("bad-rows.json"), traceWith(badRows + kPair)},
        {QStringLiteral("huge-name.json"), traceWith(hugeName + ",\n" + kPair)},
    };
    LoadOptions job;
    job.parts = kAllTraceParts & ~(TracePart::CpuOps | TracePart::Syncs | TracePart::GpuMemory);
    job.threads = 1;
    std::size_t failed = 0, warned = 0;
    for (const auto& [name, bytes] : inputs) {
        SCOPED_TRACE(name.toStdString());
        const QString path = write(name, bytes);
        const LoadResult full = loadTrace(path, LoadOptions{});
        const LoadResult reduced = loadTrace(path, job);
        ASSERT_EQ(full.ok(), reduced.ok()) << reduced.error.toStdString();
        EXPECT_EQ(full.error, reduced.error);
        if (!full.ok()) {
            ++failed;
            continue;
        }
        const auto& a = full.trace->warnings();
        const auto& b = reduced.trace->warnings();
        ASSERT_EQ(a.size(), b.size());
        for (std::size_t i = 0; i < a.size(); ++i) {
            EXPECT_EQ(a[i].kind, b[i].kind);
            EXPECT_EQ(a[i].count, b[i].count);
            EXPECT_EQ(a[i].message, b[i].message);
        }
        warned += !a.empty();
        EXPECT_EQ(reduced.trace->kernelCount(), full.trace->kernelCount());
    }
    EXPECT_EQ(failed, 7u);
    EXPECT_EQ(warned, 2u);
}
