// SPDX-License-Identifier: MIT
#include "model/lod/foldruns.h"
#include "model/lod/timemapping.h"
#include "model/tracebuilder.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <utility>

using namespace strobe;

namespace {
// A trace with one kernel lane holding `events` on one stream (FirstFit rows).
std::unique_ptr<Trace> kernelTrace(const std::vector<std::pair<TimeNs, TimeNs>>& events) {
    TraceBuilder b(QStringLiteral("synthetic"));
    KernelConfig cfg;
    cfg.shortName = b.intern("k");
    for (auto [s, e] : events)
        b.addKernel(1, 0, 1, 7, s, e, cfg, std::nullopt, std::nullopt);
    return b.finish();
}

struct Item {
    std::uint32_t first, count;
    double x0, x1;
    bool operator==(const Item&) const = default;
};

std::vector<Item> items(const Trace& t, TimeNs viewStart, double nsPerPx, int width, double minPx) {
    std::vector<Item> out;
    for (const DrawItem& d : foldRuns(t.lane(0).rowView(0), viewStart, nsPerPx, width, minPx))
        out.push_back({d.first, d.count, d.x0, d.x1});
    return out;
}
} // namespace

TEST(FoldRuns, WideEventsAreDrawnAlone) {
    auto t = kernelTrace({{0, 100}, {200, 300}});
    // 10 ns per pixel: 10 px each, minPx 3
    const auto got = items(*t, 0, 10.0, 100, 3.0);
    const std::vector<Item> want{{0, 1, 0.0, 10.0}, {1, 1, 20.0, 30.0}};
    EXPECT_EQ(got, want);
    for (const DrawItem& d : foldRuns(t->lane(0).rowView(0), 0, 10.0, 100, 3.0))
        EXPECT_FALSE(d.isFolded);
}

TEST(FoldRuns, NarrowNeighboursFoldIntoOneCountedItem) {
    // Five 1-ns kernels 2 ns apart, then a gap of 100 ns, then a wide one.
    auto t = kernelTrace({{0, 1}, {2, 3}, {4, 5}, {6, 7}, {8, 9}, {109, 200}});
    // 1 ns per pixel, minPx 3: each small kernel is 1 px wide, gaps 1 px (< 3): one run.
    const auto d = foldRuns(t->lane(0).rowView(0), 0, 1.0, 300, 3.0);
    ASSERT_EQ(d.size(), 2u);
    EXPECT_EQ(d[0].first, 0u);
    EXPECT_EQ(d[0].count, 5u);
    EXPECT_TRUE(d[0].isFolded);
    EXPECT_DOUBLE_EQ(d[0].x0, 0.0);
    EXPECT_DOUBLE_EQ(d[0].x1, 9.0);
    EXPECT_EQ(d[1].first, 5u);
    EXPECT_EQ(d[1].count, 1u);
    EXPECT_FALSE(d[1].isFolded);
}

TEST(FoldRuns, GapOfMinPxOrMoreSplitsRuns) {
    auto t = kernelTrace({{0, 1}, {2, 3}, {10, 11}, {12, 13}});
    // gap 3 -> 10 is 7 px >= 3: two runs of two
    const auto got = items(*t, 0, 1.0, 100, 3.0);
    const std::vector<Item> want{{0, 2, 0.0, 3.0}, {2, 2, 10.0, 13.0}};
    EXPECT_EQ(got, want);
}

TEST(FoldRuns, AWideEventEndsARunAndStaysAlone) {
    // narrow, narrow, then a wide one starting 1 px later
    auto t = kernelTrace({{0, 1}, {2, 3}, {4, 50}});
    const auto got = items(*t, 0, 1.0, 100, 3.0);
    const std::vector<Item> want{{0, 2, 0.0, 3.0}, {2, 1, 4.0, 50.0}};
    EXPECT_EQ(got, want);
}

TEST(FoldRuns, ALoneNarrowEventIsOnePixelWide) {
    auto t = kernelTrace({{1000, 1001}});
    // 100 ns per pixel: 0.01 px wide -> widened to 1 px
    const auto d = foldRuns(t->lane(0).rowView(0), 0, 100.0, 100, 3.0);
    ASSERT_EQ(d.size(), 1u);
    EXPECT_EQ(d[0].count, 1u);
    EXPECT_FALSE(d[0].isFolded);
    EXPECT_DOUBLE_EQ(d[0].x0, 10.0);
    EXPECT_DOUBLE_EQ(d[0].x1, 11.0);
}

TEST(FoldRuns, ZeroLengthEventsAndTouchingEndpoints) {
    // zero-length at 10, touching pair [20,30) [30,40)
    auto t = kernelTrace({{10, 10}, {20, 30}, {30, 40}});
    const auto got = items(*t, 0, 1.0, 100, 3.0);
    const std::vector<Item> want{{0, 1, 10.0, 11.0}, {1, 1, 20.0, 30.0}, {2, 1, 30.0, 40.0}};
    EXPECT_EQ(got, want);
}

TEST(FoldRuns, OnlyTheVisibleWindowIsVisitedAndClamped) {
    auto t = kernelTrace({{500, 600}, {900, 1050}, {1060, 1070}, {1095, 1500}, {2000, 2100}});
    // view [1000, 1100) at 1 ns per pixel
    const auto got = items(*t, 1000, 1.0, 100, 3.0);
    const std::vector<Item> want{{1, 1, -1.0, 50.0}, {2, 1, 60.0, 70.0}, {3, 1, 95.0, 101.0}};
    EXPECT_EQ(got, want);
}

TEST(FoldRuns, ManyEventsFoldToAFewItemsPerPixel) {
    // 100k events of 1 ns every 10 ns over 1 ms, drawn 1000 px wide (1000 ns per pixel).
    std::vector<std::pair<TimeNs, TimeNs>> ev;
    for (int i = 0; i < 100'000; ++i)
        ev.push_back({TimeNs(i) * 10, TimeNs(i) * 10 + 1});
    auto t = kernelTrace(ev);
    const auto d = foldRuns(t->lane(0).rowView(0), 0, 1000.0, 1000, 3.0);
    ASSERT_EQ(d.size(), 1u); // one dense run
    EXPECT_EQ(d[0].count, 100'000u);
    std::uint64_t covered = 0;
    for (const auto& item : d)
        covered += item.count;
    EXPECT_EQ(covered, 100'000u);
}

TEST(FoldRuns, EveryVisibleEventIsCoveredExactlyOnce) {
    std::vector<std::pair<TimeNs, TimeNs>> ev;
    TimeNs t0 = 0;
    for (int i = 0; i < 5000; ++i) {
        const TimeNs len = (i % 7 == 0) ? 5000 : (i % 3) * 10;
        const TimeNs gap = (i % 11 == 0) ? 20'000 : 30;
        ev.push_back({t0, t0 + len});
        t0 += len + gap;
    }
    auto t = kernelTrace(ev);
    const RowView row = t->lane(0).rowView(0);
    for (double nsPerPx : {1.0, 17.0, 250.0, 4000.0}) {
        const auto d = foldRuns(row, 0, nsPerPx, 2000, 3.0);
        std::uint32_t next = 0;
        for (const auto& item : d) {
            EXPECT_EQ(item.first, next) << nsPerPx;
            EXPECT_GE(item.x1 - item.x0, 1.0);
            EXPECT_EQ(item.isFolded, item.count > 1);
            next = item.first + item.count;
        }
        const auto viewEnd = TimeNs(std::ceil(2000 * nsPerPx));
        EXPECT_EQ(next, row.firstStartingAtOrAfter(viewEnd)) << nsPerPx;
    }
}

// Issue 46 (found by the fuzzer under UBSan): a view over the whole clamped range, 2^63 ns wide
// on 800 px. The view's end and each run's reach were viewStart plus a double cast to int64,
// which overflowed; both saturate, and every event is still drawn, in order, inside the width.
TEST(FoldRuns, AViewWiderThanInt64ReachesFoldsWithoutOverflow) {
    auto t = kernelTrace({{kMinTime, kMinTime + 10}, {-5, 5}, {kMaxTime - 10, kMaxTime}});
    const double nsPerPx = (double(kMaxTime) - double(kMinTime)) / 800.0;
    const auto got = foldRuns(t->lane(0).rowView(0), kMinTime, nsPerPx, 800, 3.0);
    ASSERT_EQ(got.size(), 3u);
    EXPECT_EQ(got[0].first, 0u);
    EXPECT_EQ(got[2].first, 2u);
    for (const DrawItem& d : got) {
        EXPECT_GE(d.x0, -1.0);
        EXPECT_LE(d.x1, 801.0);
    }
    EXPECT_NEAR(got[1].x0, 400.0, 1.0);
    const TimeMapping unit{0, 1.0};
    EXPECT_EQ(unit.toTime(1e30), std::numeric_limits<TimeNs>::max());
    EXPECT_EQ(TimeMapping::saturatingNs(std::nan("")), 0);
}
