// SPDX-License-Identifier: MIT
// Input Dims -> the input-shapes text TensorBoard groups operators by (Python's str() of the
// list), and what the reader does with a value that is not one: a counted warning, never a
// failed load.
#include "formats/kineto/inputshapes.h"
#include "formats/open.h"

#include <gtest/gtest.h>

#include <QFile>
#include <QTemporaryDir>

using namespace strobe;
using namespace strobe::kineto;

namespace {

struct ShapesCase {
    const char* json;
    const char* text; // nullptr: Malformed
};

class NormaliseInputShapes : public ::testing::TestWithParam<ShapesCase> {};

TEST_P(NormaliseInputShapes, PythonListText) {
    std::string out;
    const InputShapesResult r = normaliseInputShapes(GetParam().json, out);
    if (GetParam().text) {
        EXPECT_EQ(r, InputShapesResult::Ok);
        EXPECT_EQ(out, GetParam().text);
    } else {
        EXPECT_EQ(r, InputShapesResult::Malformed) << out;
    }
}

INSTANTIATE_TEST_SUITE_P(
    Cases, NormaliseInputShapes,
    ::testing::Values(
        ShapesCase{"[[32, 3, 224, 224], [64, 3, 7, 7], [], []]",
                   "[[32, 3, 224, 224], [64, 3, 7, 7], [], []]"},
        ShapesCase{"[[32,3,224,224],[64,3,7,7],[],[]]",
                   "[[32, 3, 224, 224], [64, 3, 7, 7], [], []]"},
        ShapesCase{" [ [ 5 ,128 ] ,\n\t[ ] ]  ", "[[5, 128], []]"}, ShapesCase{"[]", "[]"},
        ShapesCase{"[[]]", "[[]]"},
        ShapesCase{"[[[128, 128], [128]], [], [0]]", "[[[128, 128], [128]], [], [0]]"},
        ShapesCase{"[[-1, 0, -0, 9223372036854775807]]", "[[-1, 0, 0, 9223372036854775807]]"},
        ShapesCase{"[[1.5]]", nullptr}, ShapesCase{"[[1e3]]", nullptr},
        ShapesCase{"[[01]]", nullptr}, ShapesCase{"[[-]]", nullptr}, ShapesCase{"[\"x\"]", nullptr},
        ShapesCase{"[{}]", nullptr}, ShapesCase{"[null]", nullptr}, ShapesCase{"[[1,]]", nullptr},
        ShapesCase{"[,]", nullptr}, ShapesCase{"[[1] [2]]", nullptr}, ShapesCase{"[[1]", nullptr},
        ShapesCase{"[[1]]]", nullptr}, ShapesCase{"[] []", nullptr}, ShapesCase{"5", nullptr},
        ShapesCase{"", nullptr}, ShapesCase{"  ", nullptr}));

TEST(NormaliseInputShapesLength, TheCapIsOnTheNormalisedText) {
    // 1000 lists "[7]" and 999 separators in brackets: 5,000 bytes normalised, 4,001 written
    // tight; the cap (4,096) falls between.
    std::string tight = "[";
    for (int i = 0; i < 1000; ++i)
        tight += i ? ",[7]" : "[7]";
    tight += ']';
    std::string out;
    EXPECT_EQ(normaliseInputShapes(tight, out), InputShapesResult::TooLong);
    EXPECT_EQ(tight.size(), 4001u);
    EXPECT_EQ(normaliseInputShapes(tight, out, 5000), InputShapesResult::Ok);
    EXPECT_EQ(out.size(), 5000u);
    EXPECT_EQ(normaliseInputShapes(tight, out, 4999), InputShapesResult::TooLong);
    // Blanks cost nothing.
    std::string loose(100000, ' ');
    loose += "[[1, 2]]";
    EXPECT_EQ(normaliseInputShapes(loose, out, 8), InputShapesResult::Ok);
    EXPECT_EQ(out, "[[1, 2]]");
}

std::unique_ptr<Trace> loadJson(const QTemporaryDir& dir, const QByteArray& events) {
    const QString path = dir.filePath(QStringLiteral("t.json"));
    QFile f(path);
    EXPECT_TRUE(f.open(QIODevice::WriteOnly));
    f.write(QByteArray(R"({"schemaVersion": 1, "traceEvents": [)") + events + "]}");
    f.close();
    LoadResult r = loadTrace(path);
    EXPECT_TRUE(r.ok()) << r.error.toStdString();
    return std::move(r.trace);
}

QByteArray op(const char* name, int ts, const QByteArray& args) {
    return QByteArray(R"({"ph": "X", "cat": "cpu_op", "name": ")") + name +
           R"(", "pid": 1, "tid": 1, "ts": )" + QByteArray::number(ts) + R"(, "dur": 1, "args": )" +
           args + "}";
}

std::uint64_t warningCount(const Trace& t, const char* kind) {
    for (const TraceWarning& w : t.warnings()) {
        if (w.kind == QLatin1String(kind))
            return w.count;
    }
    return 0;
}

} // namespace

TEST(KinetoInputShapes, BadValuesAreLeftOutAndCounted) {
    QTemporaryDir dir;
    QByteArray longDims = "[";
    for (int i = 0; i < 1000; ++i)
        longDims += i ? ",[7]" : "[7]";
    longDims += ']';
    const QByteArray events =
        op("good", 0, R"({"External id": 1, "Input Dims": [[2,3], []]})") + ',' +
        op("old", 2, R"({"Input dims": [[4]]})") + ',' +
        op("string", 4, R"({"Input Dims": "[[4]]"})") + ',' +
        op("decimal", 6, R"({"Input Dims": [[4.5]]})") + ',' +
        op("object", 8, R"({"Input Dims": [{"a": 1}], "External id": 5})") + ',' +
        op("long", 10, "{\"Input Dims\": " + longDims + "}") + ',' + op("none", 12, "{}") + ',' +
        // Python frames carry no shapes even when they say so.
        R"({"ph": "X", "cat": "python_function", "name": "f", "pid": 1, "tid": 1, "ts": 14,
            "dur": 1, "args": {"Input Dims": [[1]]}})";
    const std::unique_ptr<Trace> t = loadJson(dir, events);
    ASSERT_TRUE(t);
    std::map<std::string, std::string> shapes;
    for (std::uint32_t li = 0; li < t->lanes().size(); ++li) {
        const Lane& l = t->lane(li);
        for (std::uint32_t i = 0; i < l.size(); ++i) {
            const CpuOpRecord rec = t->cpuOps()[l.payload(i)];
            shapes[std::string(t->strings().view(l.nameId(i)))] =
                std::string(t->strings().view(rec.inputShapes));
        }
    }
    EXPECT_EQ(shapes, (std::map<std::string, std::string>{{"good", "[[2, 3], []]"},
                                                          {"old", "[[4]]"},
                                                          {"string", ""},
                                                          {"decimal", ""},
                                                          {"object", ""},
                                                          {"long", ""},
                                                          {"none", ""},
                                                          {"f", ""}}));
    EXPECT_EQ(warningCount(*t, "malformed-input-dims"), 3u);
    EXPECT_EQ(warningCount(*t, "long-input-dims"), 1u);
    EXPECT_EQ(warningCount(*t, "malformed-event"), 0u);
    // The members after a skipped value are still read.
    bool external5 = false;
    for (const CpuOpRecord& rec : t->cpuOps())
        external5 = external5 || rec.externalId == 5u;
    EXPECT_TRUE(external5);
}

// The shapes are a sparse column: a trace without them (every nsys export) pays nothing for it,
// one with them 8 bytes an operator that has them (an index and a string id).
TEST(KinetoInputShapes, ShapesCostOnlyTheOperatorsThatHaveThem) {
    auto cpuOpBytes = [](const Trace& t) {
        for (const Trace::MemoryUse& u : t.memoryBreakdown()) {
            if (u.what == QLatin1String("CPU op records"))
                return u.bytes;
        }
        return std::size_t(0);
    };
    QTemporaryDir dir;
    const std::unique_ptr<Trace> without = loadJson(dir, op("a", 0, "{}") + ',' + op("b", 2, "{}"));
    ASSERT_TRUE(without);
    // Two external-id slots and one word of has-external bits.
    EXPECT_EQ(cpuOpBytes(*without), 2 * sizeof(std::uint32_t) + sizeof(std::uint64_t));
    const std::unique_ptr<Trace> with =
        loadJson(dir, op("a", 0, R"({"Input Dims": [[1]]})") + ',' + op("b", 2, "{}") + ',' +
                          op("c", 4, R"({"Input Dims": [[1], [2]]})"));
    ASSERT_TRUE(with);
    EXPECT_EQ(cpuOpBytes(*with), 3 * sizeof(std::uint32_t) + sizeof(std::uint64_t) +
                                     2 * (sizeof(std::uint32_t) + sizeof(StringId)));
}
