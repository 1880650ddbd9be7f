// SPDX-License-Identifier: MIT
// TimelineLod on a crowded lane (issue 46 item 7): a million kernels of one stream, all
// overlapping, fill every row of the lane and crowd the rest into its last row. Summarising that
// row visited every bucket an event spans, so the build was quadratic (over 30 s in the GUI,
// deaf to Cancel). Results are asserted, not times: the quadratic build takes minutes, past the
// test's timeout.
#include "model/lod/timelinelod.h"
#include "model/trace.h"
#include "model/tracebuilder.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

using namespace strobe;

namespace {

constexpr std::uint32_t kKernels = 1'000'000;
constexpr TimeNs kDuration = 1'000'000'000; // kernel i runs [i, i + 1 s): all overlap

std::shared_ptr<const Trace> overlappingKernels() {
    TraceBuilder b(QStringLiteral("crowded"));
    KernelConfig c;
    c.shortName = c.demangledName = b.intern("k");
    const std::uint32_t config = b.kernelConfig(c);
    for (std::uint32_t i = 0; i < kKernels; ++i)
        b.addKernel(1, 0, 1, 7, TimeNs(i), TimeNs(i) + kDuration, config, i + 1, std::nullopt);
    return std::shared_ptr<const Trace>(b.finish());
}

const Trace& crowdedTrace() {
    static const std::shared_ptr<const Trace> t = overlappingKernels();
    return *t;
}

std::shared_ptr<const Trace> shared() {
    return std::shared_ptr<const Trace>(&crowdedTrace(), [](const Trace*) {});
}

std::uint32_t kernelLane(const Trace& t) {
    for (std::uint32_t i = 0; i < t.lanes().size(); ++i) {
        if (t.lane(i).kind() == LaneKind::Kernels)
            return i;
    }
    ADD_FAILURE() << "no kernel lane";
    return 0;
}

} // namespace

TEST(TimelineLod, AMillionOverlappingKernelsSummariseTheirOverflowRow) {
    const Trace& t = crowdedTrace();
    const std::uint32_t li = kernelLane(t);
    const Lane& lane = t.lane(li);
    ASSERT_EQ(lane.size(), kKernels);
    // First fit: one kernel in each row but the last, which takes all the others.
    ASSERT_EQ(lane.rowCount(), Lane::kMaxRows);
    const std::uint32_t crowded = kKernels - (Lane::kMaxRows - 1);
    const RowView last = lane.rowView(Lane::kMaxRows - 1);
    ASSERT_EQ(last.size(), crowded);
    EXPECT_EQ(lane.overflowEvents(), crowded - 1); // the row's first kernel found it free
    EXPECT_EQ(lane.rowView(0).size(), 1u);

    const std::atomic<bool> cancelled{false};
    TimelineLod lod(shared());
    lod.build(cancelled);
    ASSERT_TRUE(lod.isComplete());
    EXPECT_EQ(lod.rowSummary(li, 0), nullptr); // one kernel: no summary
    const RowSummary* s = lod.rowSummary(li, Lane::kMaxRows - 1);
    ASSERT_NE(s, nullptr);
    // Level 0: every kernel of the row counted once; busy time is the row's union, from its
    // first start to the last kernel's end.
    const TimeNs firstStart = last.start(0);
    EXPECT_EQ(firstStart, TimeNs(Lane::kMaxRows - 1));
    std::uint64_t counted = 0;
    TimeNs busy = 0;
    for (const RowSummary::Bucket& b : s->level(0)) {
        counted += b.count;
        busy += b.busy;
    }
    EXPECT_EQ(counted, crowded);
    EXPECT_EQ(busy, TimeNs(kKernels - 1) + kDuration - firstStart);
    // The top level is one bucket holding it all, its representative a colour class.
    const auto& top = s->level(s->levelCount() - 1);
    ASSERT_EQ(top.size(), 1u);
    EXPECT_EQ(top[0].count, crowded);
    EXPECT_EQ(top[0].busy, busy);
    EXPECT_EQ(top[0].rep, 0u);
    EXPECT_EQ(lod.colorClasses(li).size(), 1u);
    // Fully covered columns at full zoom-out.
    std::vector<SummaryColumn> cols;
    const double nsPerColumn = double(busy) / 1000.0;
    const auto level = s->levelFor(nsPerColumn);
    ASSERT_TRUE(level);
    s->columns(last, firstStart, nsPerColumn, 1000, *level, cols);
    for (int i = 0; i < 1000; ++i) {
        ASSERT_TRUE(cols[std::size_t(i)].covered) << i;
        ASSERT_GT(cols[std::size_t(i)].busy, 0.99f) << i;
    }
    // The GPU is busy from the first kernel's start to the last one's end.
    const auto* util = lod.utilization();
    ASSERT_NE(util, nullptr);
    ASSERT_EQ(util->size(), 1u);
    ASSERT_EQ((*util)[0].all.busy().size(), 1u);
    EXPECT_EQ((*util)[0].all.busy()[0], (TimeRange{0, TimeNs(kKernels - 1) + kDuration}));
}

// A cancel raised while the summaries are built ends the build at once, incomplete.
TEST(TimelineLod, ACancelledBuildOfTheCrowdedLaneEndsPromptly) {
    crowdedTrace(); // built outside the timed part
    for (int delayUs : {0, 200, 2000}) {
        std::atomic<bool> cancelled{false};
        TimelineLod lod(shared());
        const auto started = std::chrono::steady_clock::now();
        std::thread canceller([&] {
            std::this_thread::sleep_for(std::chrono::microseconds(delayUs));
            cancelled = true;
        });
        lod.build(cancelled);
        canceller.join();
        const auto took = std::chrono::steady_clock::now() - started;
        EXPECT_LT(took, std::chrono::seconds(10)) << delayUs;
        if (!lod.isComplete()) {
            EXPECT_EQ(lod.utilization(), nullptr);
        }
    }
    // Cancelled before it starts: nothing is built.
    const std::atomic<bool> already{true};
    TimelineLod lod(shared());
    lod.build(already);
    EXPECT_FALSE(lod.isComplete());
    EXPECT_EQ(lod.rowSummary(kernelLane(crowdedTrace()), Lane::kMaxRows - 1), nullptr);
}
