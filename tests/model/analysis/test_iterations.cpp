// SPDX-License-Identifier: MIT
#include "model/analysis/iterations.h"

#include "model/tracebuilder.h"
#include "tests/model/analysis/gaptestdata.h"
#include "tests/support/qtprinters.h"

#include <gtest/gtest.h>

using namespace strobe;

namespace {

// Ranges on thread (1, tid): name, start, end.
struct R {
    std::uint32_t tid;
    const char* name;
    TimeNs start, end;
};

std::unique_ptr<Trace> rangesTrace(std::initializer_list<R> ranges) {
    TraceBuilder b(QStringLiteral("synthetic"));
    NvtxRecord rec;
    for (const R& r : ranges)
        b.addNvtx(1, r.tid, kNoString, r.start, r.end, b.intern(r.name), rec, std::nullopt);
    return b.finish();
}

TEST(Iterations, FindsExactNameBeforePrefix) {
    const auto t = rangesTrace(
        {{1, "step", 0, 10}, {1, "step 1", 20, 30}, {1, "step 2", 40, 50}, {2, "step", 5, 8}});
    const RangeInstances exact = findRangeInstances(*t, QStringLiteral("step"));
    ASSERT_EQ(exact.instances.size(), 2u);
    EXPECT_EQ(exact.instances[0], (TimeRange{0, 10}));
    EXPECT_EQ(exact.instances[1], (TimeRange{5, 8}));
    // Nested instances count once in the windows.
    ASSERT_EQ(exact.windows.size(), 1u);
    EXPECT_EQ(exact.windowTotal(), 10);
    const RangeInstances prefix = findRangeInstances(*t, QStringLiteral("step "));
    ASSERT_EQ(prefix.instances.size(), 2u);
    EXPECT_EQ(prefix.labels, (std::vector<QString>{QStringLiteral("1"), QStringLiteral("2")}));
    EXPECT_EQ(exact.labels, (std::vector<QString>{QStringLiteral("0"), QStringLiteral("1")}));
    EXPECT_EQ(prefix.windowTotal(), 20);
    EXPECT_TRUE(prefix.contains(20));
    EXPECT_TRUE(prefix.contains(29));
    EXPECT_FALSE(prefix.contains(30)); // half-open
    EXPECT_FALSE(prefix.contains(35));
    EXPECT_FALSE(prefix.contains(19));
    EXPECT_TRUE(findRangeInstances(*t, QStringLiteral("nope")).instances.empty());
}

TEST(Iterations, DetectsTheSampleIterations) {
    const auto trace = test::sampleTrace();
    ASSERT_TRUE(trace);
    const auto d = detectIterationRange(*trace);
    ASSERT_TRUE(d);
    EXPECT_EQ(d->name, QStringLiteral("Iteration")); // not "Epoch": no loop word
    EXPECT_TRUE(d->detected);
    EXPECT_EQ(d->instances.size(), 20u);
    // Each iteration starts where the previous one ends: touching windows merge, one per epoch,
    // and cover exactly the instances.
    EXPECT_EQ(d->windows.size(), 2u);
    TimeNs total = 0;
    for (const TimeRange& r : d->instances)
        total += r.duration();
    EXPECT_EQ(d->windowTotal(), total);
}

TEST(Iterations, ProfilerStepWinsAndOverlapDisqualifies) {
    const auto t = rangesTrace({{1, "ProfilerStep#1", 0, 100},
                                {1, "ProfilerStep#2", 100, 200},
                                {1, "Iteration 1", 10, 20},
                                {1, "Iteration 2", 30, 40},
                                {1, "Iteration 3", 50, 60},
                                {2, "batch_1", 0, 50},
                                {2, "batch_2", 40, 90}}); // overlapping: no loop
    const auto d = detectIterationRange(*t);
    ASSERT_TRUE(d);
    EXPECT_EQ(d->name, QStringLiteral("ProfilerStep"));
    EXPECT_EQ(d->instances.size(), 2u);

    const auto overlapping =
        rangesTrace({{2, "batch_1", 0, 50}, {2, "batch_2", 40, 90}, {1, "Epoch 1", 0, 90}});
    EXPECT_FALSE(detectIterationRange(*overlapping));
    const auto single = rangesTrace({{1, "step 1", 0, 50}, {1, "forward", 50, 60}});
    EXPECT_FALSE(detectIterationRange(*single));
    // On one thread only: the same family on another thread is not counted twice.
    const auto twoThreads = rangesTrace(
        {{1, "step 1", 0, 50}, {1, "step 2", 50, 90}, {1, "step 3", 90, 95}, {2, "step 1", 0, 40}});
    const auto d2 = detectIterationRange(*twoThreads);
    ASSERT_TRUE(d2);
    EXPECT_EQ(d2->name, QStringLiteral("step"));
    EXPECT_EQ(d2->instances.size(), 3u);
}

TEST(Iterations, ProfilerStepAsAFrameworkOperator) {
    // Older PyTorch profiler traces record the step as a cpu_op around the step's operators.
    TraceBuilder b(QStringLiteral("synthetic"));
    const StringId conv = b.intern("aten::conv2d");
    for (int k = 0; k < 3; ++k) {
        const TimeNs base = 1000 * k;
        b.addCpuOp(LaneKind::CpuOps, 1, 1, base, base + 900,
                   b.intern("ProfilerStep#" + std::to_string(k + 5)), CpuOpRecord{});
        b.addCpuOp(LaneKind::CpuOps, 1, 1, base + 10, base + 20, conv, CpuOpRecord{});
    }
    const auto t = b.finish();
    const auto d = detectIterationRange(*t);
    ASSERT_TRUE(d);
    EXPECT_EQ(d->name, QStringLiteral("ProfilerStep"));
    ASSERT_EQ(d->instances.size(), 3u);
    EXPECT_EQ(d->instances[2], (TimeRange{2000, 2900}));
    // Numbered as the trace numbers them, not from zero.
    EXPECT_EQ(d->labels, (std::vector<QString>{QStringLiteral("5"), QStringLiteral("6"),
                                               QStringLiteral("7")}));
    EXPECT_EQ(findRangeInstances(*t, QStringLiteral("ProfilerStep#6")).labels,
              std::vector<QString>{QStringLiteral("6")});
    EXPECT_EQ(findRangeInstances(*t, QStringLiteral("ProfilerStep")).windowTotal(), 2700);
}

} // namespace
