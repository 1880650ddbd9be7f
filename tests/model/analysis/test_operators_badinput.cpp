// SPDX-License-Identifier: MIT
// Hostile PyTorch traces through the reader and the operator analysis: External ids that repeat
// or point at each other, operators that end before they start, operators that overlap without
// nesting, a step with no GPU work. Each is a counted warning and a finished analysis.

#include "formats/open.h"
#include "model/analysis/operators.h"
#include "model/analysis/steps.h"

#include <QFile>
#include <QTemporaryDir>
#include <gtest/gtest.h>

namespace strobe {
namespace {

std::unique_ptr<Trace> loadJson(const QByteArray& json) {
    QTemporaryDir dir;
    EXPECT_TRUE(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("hostile.json"));
    QFile f(path);
    EXPECT_TRUE(f.open(QIODevice::WriteOnly));
    f.write(json);
    f.close();
    LoadResult r = loadTrace(path);
    EXPECT_TRUE(r.ok()) << r.error.toStdString();
    return std::move(r.trace);
}

std::uint64_t warningCount(const Trace& t, const char* kind) {
    for (const TraceWarning& w : t.warnings())
        if (w.kind == QLatin1String(kind))
            return w.count;
    return 0;
}

const OperatorRow* row(const OperatorTable& t, const char* name) {
    for (const OperatorRow& r : t.rows)
        if (r.name == QLatin1String(name))
            return &r;
    return nullptr;
}

// Thread 1: ProfilerStep#3 [0, 100) us with aten::a [10, 40) whose launch call [12, 14) runs
// kernel k1 [50, 60); aten::b [20, 70) crosses aten::a; aten::neg ends before it starts
// (dur -5); two operators share External id 7 and aten::self's id is the launch call's own
// correlation (an "External id cycle": ids that point back at each other). ProfilerStep#4
// [100, 200) launches nothing.
const char* const kHostile = R"({"traceEvents": [
 {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#3", "pid": 1, "tid": 1, "ts": 0, "dur": 100, "args": {"External id": 1}},
 {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#4", "pid": 1, "tid": 1, "ts": 100, "dur": 100, "args": {"External id": 2}},
 {"ph": "X", "cat": "cpu_op", "name": "aten::a", "pid": 1, "tid": 1, "ts": 10, "dur": 30, "args": {"External id": 7}},
 {"ph": "X", "cat": "cpu_op", "name": "aten::b", "pid": 1, "tid": 1, "ts": 20, "dur": 50, "args": {"External id": 7}},
 {"ph": "X", "cat": "cpu_op", "name": "aten::neg", "pid": 1, "tid": 1, "ts": 80, "dur": -5, "args": {"External id": 9}},
 {"ph": "X", "cat": "cpu_op", "name": "aten::self", "pid": 1, "tid": 1, "ts": 85, "dur": 5, "args": {"External id": 42}},
 {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 12, "dur": 2, "args": {"correlation": 42, "External id": 42}},
 {"ph": "X", "cat": "kernel", "name": "k1", "pid": 0, "tid": 7, "ts": 50, "dur": 10, "args": {"device": 0, "stream": 7, "correlation": 42, "External id": 7}}
]})";

TEST(OperatorsBadInput, HostileIdsAndRangesAreCountedNotFatal) {
    const auto trace = loadJson(kHostile);
    ASSERT_TRUE(trace);
    EXPECT_EQ(warningCount(*trace, "negative-duration"), 1u); // aten::neg: a zero-length range
    const OperatorForest forest = buildOperatorForest(*trace);
    EXPECT_EQ(forest.warnings().crossing, 1u); // aten::b crosses aten::a and is left out
    const OperatorTable table = operatorTable(*trace, forest);
    // The launch belongs to aten::a by containment, whatever the ids claim.
    const OperatorRow* a = row(table, "aten::a");
    ASSERT_NE(a, nullptr);
    EXPECT_EQ(a->deviceSelf, 10'000);
    EXPECT_EQ(a->hostSelf, 30'000 - 2'000);
    EXPECT_EQ(row(table, "aten::b"), nullptr);
    // The zero-length operator is a call that took no time and launched nothing.
    const OperatorRow* neg = row(table, "aten::neg");
    ASSERT_NE(neg, nullptr);
    EXPECT_EQ(neg->calls, 1u);
    EXPECT_EQ(neg->hostTotal, 0);
    EXPECT_EQ(row(table, "aten::self")->deviceSelf, 0);
    EXPECT_EQ(table.deviceTime, 10'000);

    const StepBreakdown steps = computeStepBreakdown(*trace);
    ASSERT_EQ(steps.source, StepSource::ProfilerSteps);
    // The second step launched nothing: the plugin drops a trailing step without GPU work.
    EXPECT_EQ(steps.droppedTailSteps, 1u);
    ASSERT_EQ(steps.steps.size(), 1u);
    EXPECT_EQ(steps.steps[0].name, QStringLiteral("3"));
    EXPECT_EQ(steps.steps[0].range, (TimeRange{0, 100'000}));
    EXPECT_EQ(steps.steps[0].of(StepCategory::Kernel), 10'000);
}

TEST(OperatorsBadInput, DeepNestingAndManyCrossingRangesStayLinear) {
    // 20,000 operators each starting inside the previous one and ending after it: every one
    // after the first crosses; then 20,000 properly nested ones, deeper than a lane's rows.
    QByteArray json = "{\"traceEvents\": [";
    for (int i = 0; i < 20000; ++i)
        json += QStringLiteral("{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"x\", \"pid\": 1, "
                               "\"tid\": 1, \"ts\": %1, \"dur\": 10},")
                    .arg(i * 5)
                    .toUtf8();
    for (int i = 0; i < 20000; ++i)
        json += QStringLiteral("{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"y\", \"pid\": 1, "
                               "\"tid\": 2, \"ts\": %1, \"dur\": %2}%3")
                    .arg(i)
                    .arg(100000 - 2 * i)
                    .arg(i + 1 < 20000 ? QStringLiteral(",") : QString())
                    .toUtf8();
    json += "]}";
    const auto trace = loadJson(json);
    ASSERT_TRUE(trace);
    const OperatorForest forest = buildOperatorForest(*trace);
    EXPECT_EQ(forest.warnings().crossing, 10000u); // every other x crosses the one before it
    const OperatorTable table = operatorTable(*trace, forest);
    const OperatorRow* y = row(table, "y");
    ASSERT_NE(y, nullptr);
    EXPECT_EQ(y->calls, 1u); // one y inside another of its name is one call (merged)
    EXPECT_EQ(forest.warnings().mergedRepeats, 19999u);
}

} // namespace
} // namespace strobe
