// SPDX-License-Identifier: MIT
// The GPU memory counter lane: its columns at several zoom levels, and its row in the layout.
#include "model/tracebuilder.h"
#include "render/geometry/countercolumns.h"
#include "render/geometry/lanelayout.h"

#include <gtest/gtest.h>

using namespace strobe;

namespace {

// 100 at t=10, 300 at t=20, 50 at t=25, 200 at t=40.
GpuMemoryTrack track() {
    GpuMemoryTrack t;
    t.samples = {{10, 100, std::nullopt}, {20, 300, 400}, {25, 50, 400}, {40, 200, 400}};
    return t;
}

using Col = std::optional<std::uint64_t>;

TEST(CounterColumns, EachColumnHoldsTheMostAllocatedDuringIt) {
    // 10 ns per column from 0: [0,10) unknown, [10,20) 100, [20,30) 300 (then 50), [30,40) 50,
    // [40,50) 200, then held.
    EXPECT_EQ(counterColumns(track(), 0, 10.0, 6),
              (std::vector<Col>{std::nullopt, 100, 300, 50, 200, 200}));
    // Zoomed out: one column sees everything.
    EXPECT_EQ(counterColumns(track(), 0, 1000.0, 1), (std::vector<Col>{300}));
    // Zoomed in past the last sample: the value is held.
    EXPECT_EQ(counterColumns(track(), 1000, 0.5, 3), (std::vector<Col>{200, 200, 200}));
    // A window starting exactly on a sample, and fractional widths.
    EXPECT_EQ(counterColumns(track(), 20, 2.5, 4), (std::vector<Col>{300, 300, 50, 50}));
    EXPECT_TRUE(counterColumns(track(), 0, 10.0, 0).empty());
    EXPECT_EQ(counterColumns(GpuMemoryTrack{}, 0, 10.0, 2), (std::vector<Col>{{}, {}}));
}

TEST(CounterColumns, PeakIsTheFirstMaximumInTheWindow) {
    GpuMemoryTrack t = track();
    t.samples.push_back({50, 300, std::nullopt});
    ASSERT_TRUE(t.peak());
    EXPECT_EQ(t.peak()->time, 20);
    EXPECT_EQ(t.peak(TimeRange{21, 45})->allocated, 200u);
    EXPECT_EQ(t.peak(TimeRange{21, 45})->time, 40);
    EXPECT_FALSE(t.peak(TimeRange{60, 70}));
    EXPECT_FALSE(GpuMemoryTrack{}.peak());
}

TEST(CounterColumns, LayoutAddsACounterRowOnlyForGpusThatRecordedMemory) {
    TraceBuilder b(QStringLiteral("memory"));
    KernelConfig c;
    c.shortName = b.intern("k");
    b.addKernel(1, 0, 1, 7, 0, 100, c, std::nullopt, std::nullopt);
    b.addKernel(1, 1, 1, 7, 0, 100, c, std::nullopt, std::nullopt);
    b.addGpuMemorySample(1, {50, 1000, std::nullopt});
    b.addGpuMemorySample(1, {20, 500, std::nullopt}); // out of order: sorted at finish
    const auto t = b.finish();
    ASSERT_EQ(t->gpuMemory().size(), 1u);
    EXPECT_EQ(t->gpuMemoryOf(1)->samples.front().time, 20);
    EXPECT_FALSE(t->gpuMemoryOf(0));
    LaneLayout layout;
    layout.setTrace(t.get());
    std::vector<std::uint32_t> counters;
    for (const LayoutRow& r : layout.rows()) {
        if (r.kind == LayoutRowKind::MemoryCounter) {
            counters.push_back(r.deviceId);
            EXPECT_EQ(r.height, LaneLayout::kCounterHeight);
            EXPECT_EQ(r.label, QStringLiteral("GPU memory"));
        }
    }
    EXPECT_EQ(counters, std::vector<std::uint32_t>{1});
    // Collapsed, the GPU keeps its utilisation strip and its counter.
    for (std::uint32_t g = 0; g < layout.groups().size(); ++g)
        layout.setExpanded(g, false);
    int shown = 0;
    for (const LayoutRow& r : layout.rows())
        shown += r.kind == LayoutRowKind::MemoryCounter;
    EXPECT_EQ(shown, 1);
}

} // namespace
