// SPDX-License-Identifier: MIT
// The split read of Kineto JSON (text past 4 GiB, read a piece at a time): the same model as the
// whole-document read on every fixture and on synthetic traces whose strings and nesting hold
// what a naive splitter would cut at; bad input gets one sentence. Pieces are made tiny here
// (KinetoJsonLoader::splitIntoPieces), so that they are many and events straddle every boundary.
#include "formats/kineto/jsonsplit.h"
#include "formats/kineto/kinetoreader.h"
#include "model/trace.h"
#include "tests/formats/cache/traceequal.h"
#include "tests/support/kinetoscan.h"

#include <gtest/gtest.h>

#include <QByteArray>
#include <QFile>
#include <QTemporaryDir>
#include <string>
#include <zlib.h>

using namespace strobe;
using namespace strobe::kineto;

namespace {

LoadResult loadWhole(const QString& path) {
    return KinetoJsonLoader(path, LoadOptions{}).load();
}

LoadResult loadSplit(const QString& path, std::size_t pieceBytes) {
    KinetoJsonLoader loader(path, LoadOptions{});
    loader.splitIntoPieces(pieceBytes);
    return loader.load();
}

// Expects the split read of `path`, in pieces of each size, to give the whole read's model.
void expectSplitEqualsWhole(const QString& path, std::initializer_list<std::size_t> sizes) {
    const LoadResult whole = loadWhole(path);
    ASSERT_TRUE(whole.ok()) << whole.error.toStdString();
    for (const std::size_t size : sizes) {
        SCOPED_TRACE("pieces of " + std::to_string(size) + " bytes");
        const LoadResult split = loadSplit(path, size);
        ASSERT_TRUE(split.ok()) << split.error.toStdString();
        test::expectTracesEqual(*whole.trace, *split.trace);
    }
}

QString writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& bytes) {
    QFile f(dir.filePath(name));
    EXPECT_TRUE(f.open(QIODevice::WriteOnly));
    EXPECT_EQ(f.write(bytes), bytes.size());
    return dir.filePath(name);
}

QByteArray gunzipFile(const std::string& path) {
    QByteArray out;
    gzFile f = gzopen(path.c_str(), "rb");
    EXPECT_NE(f, nullptr);
    char chunk[1 << 16];
    for (int n = 0; (n = gzread(f, chunk, sizeof chunk)) > 0;)
        out.append(chunk, n);
    gzclose(f);
    return out;
}

// Names that hold what a splitter that does not track strings cuts at.
const char* const kNastyNames[] = {
    R"(aten::add},{\"ph\": \"X\"})",
    R"(},{)",
    R"(} , {)",
    R"(a\"},{\"b)",
    R"(back\\slash\\},{)",
    R"(caf\u00e9 {x}, [y])",
    R"(emoji \ud83d\ude00 },\n{)",
    R"(void k<{1}, {2}>(float*))",
    R"(\"quoted\"},)",
    R"(])",
};

// A trace of `steps` steps: operators, runtime calls, kernels, memcpys, flows, instants and
// metadata, with the nasty names, nesting of objects in arrays in args (so ",{" appears deeper
// than the events), one event per line or several per line. `uncorrelated`: some launches lack
// args.correlation, so the flows kept by place are read again at the end.
QByteArray syntheticTrace(int steps, bool uncorrelated, bool bareArray) {
    std::string events;
    auto add = [&](const std::string& e, int i) {
        if (!events.empty())
            events += i % 3 == 0 ? ",\n  " : i % 3 == 1 ? "," : " , ";
        events += e;
    };
    add(R"({"ph": "M", "name": "process_name", "pid": 10, "tid": 0, "args": {"name": "py},{thon"}})",
        0);
    add(R"({"ph": "M", "name": "thread_name", "pid": 10, "tid": 11, "args": {"name": "main"}})", 1);
    for (int i = 0; i < steps; ++i) {
        const std::string name = kNastyNames[std::size_t(i) % std::size(kNastyNames)];
        const std::string ts = std::to_string(1000 + i * 50);
        const std::string corr = std::to_string(100 + i);
        add(R"({"ph": "X", "cat": "cpu_op", "name": ")" + name +
                R"(", "pid": 10, "tid": 11, "ts": )" + ts +
                R"(, "dur": 40, "args": {"External id": )" + std::to_string(i) +
                R"(, "Input Dims": [[2, 3], [], [4]], "nested": {"list": [{"a": "},{"}, {"b": [{}, {}]}]}}})",
            i);
        const bool correlated = !uncorrelated || i % 4 != 1;
        add(R"({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 10, "tid": 11, "ts": )" +
                std::to_string(1000 + i * 50 + 5) + R"(, "dur": 3, "args": {)" +
                (correlated ? R"("correlation": )" + corr + ", " : std::string()) +
                R"("cbid": 211}})",
            i + 1);
        add(R"({"ph": "s", "id": )" + corr + R"(, "pid": 10, "tid": 11, "ts": )" +
                std::to_string(1000 + i * 50 + 5) + R"(, "cat": "ac2g", "name": "ac2g"})",
            i + 2);
        add(R"({"ph": "X", "cat": "kernel", "name": ")" + name +
                R"(", "pid": 0, "tid": 7, "ts": )" + std::to_string(1000 + i * 50 + 10) +
                R"(, "dur": 12, "args": {"device": 0, "stream": 7, "correlation": )" + corr +
                R"(, "grid": [)" + std::to_string(1 + i % 5) +
                R"(, 1, 1], "block": [128, 1, 1], "registers per thread": 32, "shared memory": 0}})",
            i + 3);
        add(R"({"ph": "f", "id": )" + corr + R"(, "pid": 0, "tid": 7, "ts": )" +
                std::to_string(1000 + i * 50 + 10) +
                R"(, "cat": "ac2g", "name": "ac2g", "bp": "e"})",
            i + 4);
        if (i % 5 == 0)
            add(R"j({"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD (Pageable -> Device)", "pid": 0, "tid": 7, "ts": )j" +
                    std::to_string(1000 + i * 50 + 30) +
                    R"(, "dur": 4, "args": {"device": 0, "stream": 7, "bytes": 4096}})",
                i);
        if (i % 7 == 0)
            add(R"({"ph": "i", "s": "t", "name": "mark },{ )" + std::to_string(i) +
                    R"(", "pid": 10, "tid": 11, "ts": )" + ts + "}",
                i);
        if (i % 11 == 0)
            add(R"({"ph": "X", "cat": "python_function", "name": "train.py(12): step", "pid": 10, "tid": 11, "ts": )" +
                    ts + R"(, "dur": 45})",
                i);
    }
    if (bareArray)
        return QByteArray::fromStdString("[\n" + events + "\n]\n");
    return QByteArray::fromStdString(
        R"({"schemaVersion": 1, "deviceProperties": [{"id": 0, "name": "GPU \"0\" },{", "numSms": 80,
 "computeMajor": 7, "computeMinor": 0, "warpSize": 32}, {"id": 1, "name": "B"}],
 "distributedInfo": {"backend": "nccl", "rank": 1, "world_size": 2},
 "traceEvents": [
  )" + events +
        R"(
], "traceName": "t],[},{\"", "displayTimeUnit": "ms", "baseTimeNanoseconds": 1700000000000000000}
)");
}

} // namespace

TEST(KinetoSplit, EveryFixtureGivesTheWholeReadsModel) {
    for (const std::string& name : test::kinetoFixtures()) {
        SCOPED_TRACE(name);
        const QString path = QString::fromStdString(test::kinetoFixturePath(name));
        // Gzip fixtures: the text in memory, read in pieces; large pieces and small ones.
        expectSplitEqualsWhole(path, {4096, std::size_t(1) << 20});
    }
}

TEST(KinetoSplit, FixturesAsPlainFilesGiveTheWholeReadsModel) {
    // A plain file is read in pieces from the file itself, never whole.
    QTemporaryDir dir;
    for (const std::string& name : test::kinetoFixtures()) {
        SCOPED_TRACE(name);
        const std::string path = test::kinetoFixturePath(name);
        const bool gz = name.size() > 3 && name.substr(name.size() - 3) == ".gz";
        QByteArray plain;
        if (gz) {
            plain = gunzipFile(path);
        } else {
            QFile f(QString::fromStdString(path));
            ASSERT_TRUE(f.open(QIODevice::ReadOnly));
            plain = f.readAll();
        }
        const QString copy = writeFile(dir, QStringLiteral("plain.json"), plain);
        // The smallest fixtures in pieces of a few events; every one in 64 KiB pieces.
        if (plain.size() < (1 << 20))
            expectSplitEqualsWhole(copy, {1, 300, 65536});
        else
            expectSplitEqualsWhole(copy, {65536});
    }
}

TEST(KinetoSplit, SyntheticStringsAndNestingThatLookLikeBoundaries) {
    QTemporaryDir dir;
    for (const bool uncorrelated : {false, true}) {
        SCOPED_TRACE(uncorrelated ? "launches without correlation" : "every launch correlated");
        const QString path =
            writeFile(dir, QStringLiteral("nasty.json"), syntheticTrace(60, uncorrelated, false));
        const LoadResult whole = loadWhole(path);
        ASSERT_TRUE(whole.ok()) << whole.error.toStdString();
        // The trace holds what it was written with (the comparison is not of two empty models).
        EXPECT_EQ(whole.trace->counts().kernels, 60u);
        EXPECT_EQ(whole.trace->counts().cpuOps, 60u);
        EXPECT_EQ(whole.trace->counts().cudaApiCalls, 60u);
        EXPECT_EQ(whole.trace->metadata().rank, 1u);
        EXPECT_EQ(whole.trace->metadata().sessionStartUtcNs, 1700000000000000000);
        // Every size from one byte (each event a piece) up: the pieces' nominal ends fall in
        // strings, in args, between the ',' and the '{', everywhere.
        expectSplitEqualsWhole(path, {1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 377, 610, 987,
                                      1597, 4096, 1 << 20});
    }
}

TEST(KinetoSplit, EveryPieceEndGivesTheWholeReadsModel) {
    // Piece sizes 1 to 700 bytes, one apart: the guessed end of some piece falls at every byte
    // of an event, inside every name.
    QTemporaryDir dir;
    const QString path =
        writeFile(dir, QStringLiteral("small.json"), syntheticTrace(4, true, false));
    const LoadResult whole = loadWhole(path);
    ASSERT_TRUE(whole.ok()) << whole.error.toStdString();
    for (std::size_t size = 1; size <= 700; ++size) {
        const LoadResult split = loadSplit(path, size);
        ASSERT_TRUE(split.ok()) << size << ": " << split.error.toStdString();
        test::expectTracesEqual(*whole.trace, *split.trace);
        if (::testing::Test::HasFailure())
            FAIL() << "pieces of " << size << " bytes";
    }
}

TEST(KinetoSplit, BareArrayAndByteOrderMark) {
    QTemporaryDir dir;
    const QByteArray bare = syntheticTrace(20, true, true);
    expectSplitEqualsWhole(writeFile(dir, QStringLiteral("bare.json"), bare), {1, 77, 4096});
    expectSplitEqualsWhole(writeFile(dir, QStringLiteral("bom.json"),
                                     "\xEF\xBB\xBF" + syntheticTrace(20, false, false)),
                           {1, 77, 4096});
}

TEST(KinetoSplit, ElementsThatAreNotEventsAreCountedAsInTheWholeRead) {
    QTemporaryDir dir;
    const QByteArray json =
        R"({"traceEvents": [1, "x", [{"a": 1}, {"b": 2}], null, {"ph": "X", "cat": "cpu_op", "name": "a", "pid": 1, "tid": 1, "ts": 1, "dur": 2}, {}, [], {"ph": "X", "cat": "cpu_op", "name": "b},{", "pid": 1, "tid": 1, "ts": 5, "dur": 2}]})";
    const QString path = writeFile(dir, QStringLiteral("odd.json"), json);
    const LoadResult whole = loadWhole(path);
    ASSERT_TRUE(whole.ok()) << whole.error.toStdString();
    EXPECT_EQ(whole.trace->counts().cpuOps, 2u);
    expectSplitEqualsWhole(path, {1, 2, 9, 30, 100});
}

TEST(KinetoSplit, BadInputGetsOneSentence) {
    QTemporaryDir dir;
    const std::string event =
        R"({"ph": "X", "cat": "cpu_op", "name": "a", "pid": 1, "tid": 1, "ts": 1, "dur": 2})";
    std::string many;
    for (int i = 0; i < 50; ++i)
        many += (i ? ", " : "") + event;
    struct Case {
        const char* what;
        std::string json;
        const char* expected; // a part of the sentence
    };
    const Case cases[] = {
        {"unterminated array", R"({"traceEvents": [)" + many, "not valid JSON"},
        {"unterminated array after a comma", R"({"traceEvents": [)" + many + ",", "not valid JSON"},
        {"unterminated string", R"({"traceEvents": [)" + many + R"(, {"ph": "X}, {)",
         "not valid JSON"},
        {"garbage after the array", R"({"traceEvents": [)" + many + "]} trailing",
         "not valid JSON"},
        {"an object after the object", R"({"traceEvents": [)" + many + "]} {}",
         "more text after the top-level value"},
        {"garbage after the bare array", "[" + many + "] x", "more text after the top-level value"},
        {"garbage between events", R"({"traceEvents": [)" + many + ", @@@, " + many + "]}",
         "not valid JSON near byte"},
        {"a brace that closes nothing", R"({"traceEvents": [)" + many + "}, " + many + "]}",
         "not valid JSON"},
        {"a missing comma", R"({"traceEvents": [)" + many + " " + many + "]}", "not valid JSON"},
        {"no traceEvents", R"({"traceEvent": [)" + many + "]}", "no traceEvents array"},
        {"traceEvents not an array", R"({"traceEvents": {"a": 1}})", "not an array"},
        {"two traceEvents arrays",
         R"({"traceEvents": [)" + many + R"(], "traceEvents": [)" + event + "]}",
         "second traceEvents array"},
        {"a string at the top", R"("traceEvents")", "not a trace"},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.what);
        const QString path =
            writeFile(dir, QStringLiteral("bad.json"), QByteArray::fromStdString(c.json));
        // The whole read refuses it too, but for the second array (which it walks).
        EXPECT_EQ(loadWhole(path).ok(), std::string(c.what) == "two traceEvents arrays");
        for (const std::size_t size : {1, 64, 1000, 1 << 20}) {
            SCOPED_TRACE(size);
            const LoadResult r = loadSplit(path, size);
            ASSERT_FALSE(r.ok());
            const std::string error = r.error.toStdString();
            EXPECT_NE(error.find(c.expected), std::string::npos) << error;
            EXPECT_EQ(error.rfind("'bad.json' ", 0), 0u) << error;
            EXPECT_EQ(error.back(), '.') << error;
            EXPECT_EQ(error.find('\n'), std::string::npos) << error;
        }
    }
}

TEST(JsonSplit, GuessCutFindsCommasBetweenObjectsOnly) {
    const std::string text = R"({"a": 1} , {"b": [1, 2]},[3],{"c": "}, {"}  ,  {"d": 4})";
    const std::size_t n = text.size();
    EXPECT_EQ(guessCut(text.data(), 0, n), text.find(" , {") + 1);
    // From past the first: the next is the ',' inside the string (a guess; the parse tells).
    EXPECT_EQ(guessCut(text.data(), 12, n), text.find("}, {\"}") + 1);
    EXPECT_EQ(guessCut(text.data(), text.find("}, {\"}") + 2, n), text.find("}  ,") + 3);
    EXPECT_EQ(guessCut(text.data(), text.find("}  ,") + 3, n), n);
    // A '}' and ',' at the very end: no '{' follows within the bytes.
    EXPECT_EQ(guessCut("{}, ", 0, 4), 4u);
}

TEST(JsonSplit, ExactCutTracksStringsEscapesAndNesting) {
    const std::string text =
        R"({"n": "},{\"}, {", "a": [{"x": 1}, {"y": "\\"}]}, {"z": "]"}, 7 ] , "tail": 1})";
    auto source = memoryTextSource(text.data(), text.size(), 0);
    QString problem;
    const Cut first = exactCut(*source, 0, 1, 1 << 20, problem);
    EXPECT_TRUE(problem.isEmpty());
    EXPECT_EQ(first.kind, CutKind::Comma);
    EXPECT_EQ(first.at, text.find(R"(}]}, {"z")") + 3);
    const Cut second = exactCut(*source, first.at + 1, first.at + 2, 1 << 20, problem);
    EXPECT_EQ(second.kind, CutKind::Comma);
    EXPECT_EQ(second.at, text.find(", 7"));
    const Cut end = exactCut(*source, second.at + 1, second.at + 2, 1 << 20, problem);
    EXPECT_EQ(end.kind, CutKind::ArrayEnd);
    EXPECT_EQ(end.at, text.find("7 ]") + 2);
    // At least `atLeast`: the commas before it are passed over.
    EXPECT_EQ(exactCut(*source, 0, first.at + 1, 1 << 20, problem).at, second.at);
    // A limit shorter than the element: too far.
    EXPECT_EQ(exactCut(*source, 0, 1, 10, problem).kind, CutKind::TooFar);
    const std::string unbalanced = R"({"a": 1}}, {})";
    auto bad = memoryTextSource(unbalanced.data(), unbalanced.size(), 0);
    const Cut u = exactCut(*bad, 0, 1, 1 << 20, problem);
    EXPECT_EQ(u.kind, CutKind::Unbalanced);
    EXPECT_EQ(u.at, 8u);
    const std::string open = R"({"a": "}, {)";
    auto unterminated = memoryTextSource(open.data(), open.size(), 0);
    EXPECT_EQ(exactCut(*unterminated, 0, 1, 1 << 20, problem).kind, CutKind::End);
}

TEST(JsonSplit, FindEventsArrayMatchesTheTopLevelMemberOnly) {
    auto find = [](const std::string& text, EventsArray& out) {
        auto source = memoryTextSource(text.data(), text.size(), 0);
        return findEventsArray(*source, 1 << 20, out).toStdString();
    };
    EventsArray where;
    const std::string text =
        R"({"x": {"traceEvents": [1]}, "s": "\"traceEvents\": [", "trace\u0045vents": [2],)"
        R"( "traceEvents"  :  [3]})";
    EXPECT_EQ(find(text, where), "");
    EXPECT_FALSE(where.rootIsArray);
    EXPECT_EQ(where.bracket, text.find("[3]"));
    EXPECT_EQ(find("  [1, 2]", where), "");
    EXPECT_TRUE(where.rootIsArray);
    EXPECT_EQ(where.bracket, 2u);
    EXPECT_NE(find(R"({"traceEvents": "[]"})", where).find("not an array"), std::string::npos);
    EXPECT_NE(find(R"({"a": [1]})", where).find("no traceEvents"), std::string::npos);
    EXPECT_NE(find(R"({"a": "traceEvents)", where).find("not valid JSON"), std::string::npos);
    EXPECT_NE(find("42", where).find("not a trace"), std::string::npos);
}
