// SPDX-License-Identifier: MIT
#include "model/lane.h"

#include <algorithm>
#include <gtest/gtest.h>

#include <chrono>
#include <random>

using namespace strobe;

namespace {

// Every row must hold non-overlapping intervals in start order.
void expectRowsDisjoint(const Lane& lane) {
    std::size_t total = 0;
    for (std::uint16_t r = 0; r < lane.rowCount(); ++r) {
        const RowView row = lane.rowView(r);
        total += row.size();
        for (std::uint32_t k = 1; k < row.size(); ++k)
            EXPECT_LE(effectiveEnd(row.start(k - 1), row.end(k - 1)), row.start(k)) << "row " << r;
    }
    EXPECT_EQ(total, lane.size());
}

} // namespace

TEST(Lane, FinalizeSortsByStartLongerFirstAndReturnsPermutation) {
    Lane lane(LaneKind::Nvtx, 0);
    lane.append(10, 20, 1, 100);
    lane.append(0, 5, 2, 101);
    lane.append(10, 30, 3, 102);
    const auto order = lane.finalize(RowPolicy::Nesting);
    EXPECT_EQ(order, (std::vector<std::uint32_t>{1, 2, 0}));
    EXPECT_EQ(lane.payload(0), 101u);
    EXPECT_EQ(lane.payload(1), 102u); // equal start: the longer one is the parent
    EXPECT_EQ(lane.row(1), 0);
    EXPECT_EQ(lane.row(2), 1);
    EXPECT_EQ(lane.timeRange(), (TimeRange{0, 30}));
}

TEST(Lane, NestingPolicyGivesDepth) {
    Lane lane(LaneKind::Nvtx, 0);
    // [0,100) > [10,50) > [20,30), then [60,70) back at depth 1, [100,110) at depth 0.
    lane.append(0, 100, 0, 0);
    lane.append(10, 50, 0, 1);
    lane.append(20, 30, 0, 2);
    lane.append(60, 70, 0, 3);
    lane.append(100, 110, 0, 4);
    lane.finalize(RowPolicy::Nesting);
    EXPECT_EQ(lane.rowCount(), 3);
    const std::vector<int> depth{lane.row(0), lane.row(1), lane.row(2), lane.row(3), lane.row(4)};
    EXPECT_EQ(depth, (std::vector<int>{0, 1, 2, 1, 0}));
    expectRowsDisjoint(lane);
}

TEST(Lane, FirstFitPutsOverlappingWorkInExtraRows) {
    Lane lane(LaneKind::Kernels, 0);
    lane.append(0, 10, 0, 0);
    lane.append(5, 15, 0, 1);  // overlaps the first: row 1
    lane.append(12, 20, 0, 2); // row 0 is free again at 12
    lane.append(10, 11, 0, 3); // touching end of the first: row 0
    lane.finalize(RowPolicy::FirstFit);
    EXPECT_EQ(lane.rowCount(), 2);
    EXPECT_EQ(lane.rowView(0).size(), 3u);
    EXPECT_EQ(lane.rowView(1).size(), 1u);
    expectRowsDisjoint(lane);
}

TEST(Lane, RowsNeverOverlapOnRandomData) {
    std::mt19937_64 rng(7);
    for (RowPolicy policy : {RowPolicy::Nesting, RowPolicy::FirstFit}) {
        Lane lane(LaneKind::Kernels, 0);
        std::uniform_int_distribution<TimeNs> s(-1000, 100000), len(0, 2000);
        for (int i = 0; i < 3000; ++i) {
            const TimeNs a = s(rng);
            lane.append(a, a + len(rng), 0, std::uint32_t(i));
        }
        lane.finalize(policy);
        expectRowsDisjoint(lane);
    }
}

TEST(Lane, RowViewBinarySearches) {
    Lane lane(LaneKind::Kernels, 0);
    for (TimeNs t = 0; t < 10; ++t)
        lane.append(t * 10, t * 10 + 5, 0, 0);
    lane.finalize(RowPolicy::FirstFit);
    const RowView row = lane.rowView(0);
    EXPECT_EQ(row.firstEndingAfter(-5), 0u);
    EXPECT_EQ(row.firstEndingAfter(5), 1u); // [0,5) ends at 5: not after
    EXPECT_EQ(row.firstEndingAfter(4), 0u);
    EXPECT_EQ(row.firstStartingAtOrAfter(10), 1u);
    EXPECT_EQ(row.firstStartingAtOrAfter(11), 2u);
    EXPECT_EQ(row.firstStartingAtOrAfter(1000), 10u);
}

TEST(Lane, OverlapQueryAcrossRows) {
    Lane lane(LaneKind::Nvtx, 0);
    lane.append(0, 100, 0, 0);
    lane.append(10, 20, 0, 1);
    lane.append(40, 60, 0, 2);
    lane.finalize(RowPolicy::Nesting);
    EXPECT_EQ(lane.stabbing(15), (std::vector<std::uint32_t>{0, 1}));
    EXPECT_EQ(lane.overlapping(20, 40), (std::vector<std::uint32_t>{0}));
    EXPECT_EQ(lane.overlapping(-10, 0).size(), 0u);
}

TEST(Lane, FirstFitKeepsNegativeTimesInTheFirstRow) {
    Lane lane(LaneKind::Kernels, 0);
    lane.append(-500, -400, 0, 0);
    lane.append(-300, -100, 0, 1);
    lane.finalize(RowPolicy::FirstFit);
    EXPECT_EQ(lane.rowCount(), 1);
}

// Compressed storage: every start and end round-trips, including durations that need the side
// table (negative, zero, >= 2^32 - 1 ns), starts before zero and a lane whose blocks span more
// than 32 bits (kept as 64-bit starts).
TEST(LaneCompression, EveryValueRoundTrips) {
    for (const TimeNs stride : {TimeNs(7), TimeNs(100'000'000), TimeNs(1) << 40}) {
        Lane l(LaneKind::Kernels, 0);
        std::vector<std::pair<TimeNs, TimeNs>> in;
        std::uint64_t x = 12345;
        for (int i = 0; i < 1000; ++i) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            const TimeNs s = -5'000'000'000 + TimeNs(i) * stride;
            TimeNs e = s + TimeNs(x >> 40);
            if (i % 97 == 0)
                e = s + (TimeNs(1) << 33); // too long for 32 bits
            if (i % 89 == 0)
                e = s - 3; // inverted: kept exactly
            if (i % 83 == 0)
                e = s; // zero-length
            if (i == 500)
                e = s + TimeNs(0xFFFFFFFF); // exactly the sentinel value
            in.emplace_back(s, e);
            l.append(s, e, StringId(i % 5), std::uint32_t(i));
        }
        l.finalize(RowPolicy::FirstFit);
        ASSERT_EQ(l.size(), in.size());
        EXPECT_EQ(l.hasCompactStarts(), stride < (TimeNs(1) << 26));
        for (std::uint32_t i = 0; i < l.size(); ++i) {
            const auto& [s, e] = in[l.payload(i)];
            ASSERT_EQ(l.start(i), s) << "stride " << stride << " event " << i;
            ASSERT_EQ(l.end(i), e) << "stride " << stride << " event " << i;
            ASSERT_EQ(l.nameId(i), StringId(l.payload(i) % 5));
        }
        // The views decode the same values and keep starts sorted for binary search.
        const auto starts = l.starts();
        EXPECT_TRUE(std::is_sorted(starts.begin(), starts.end()));
        const TimeNs probe = in[600].first;
        EXPECT_EQ(l.start(std::uint32_t(std::lower_bound(starts.begin(), starts.end(), probe) -
                                        starts.begin())),
                  probe);
    }
}

// Rows of a first-fit lane partition its events, and row() agrees with the row lists.
TEST(LaneCompression, RowsPartitionTheEvents) {
    Lane l(LaneKind::Kernels, 0);
    for (int i = 0; i < 300; ++i)
        l.append(TimeNs(i) * 10, TimeNs(i) * 10 + (i % 3 == 0 ? 35 : 5), 0, std::uint32_t(i));
    l.finalize(RowPolicy::FirstFit);
    ASSERT_GT(l.rowCount(), 1);
    std::vector<int> seen(l.size(), 0);
    for (std::uint16_t r = 0; r < l.rowCount(); ++r) {
        const RowView row = l.rowView(r);
        for (std::uint32_t k = 0; k < row.size(); ++k) {
            ++seen[row.laneIndex(k)];
            EXPECT_EQ(l.row(row.laneIndex(k)), r);
            if (k > 0) {
                EXPECT_LE(effectiveEnd(row.start(k - 1), row.end(k - 1)), row.start(k));
            }
        }
    }
    EXPECT_TRUE(std::all_of(seen.begin(), seen.end(), [](int n) { return n == 1; }));
}

// The audit's case: a million kernels overlapping on one stream took 53 s with first fit over a
// list of rows. With heaps it is O(n log n); past the row cap the rest share the last row.
TEST(LaneRows, MillionOverlappingEventsAreFastAndNoneIsDropped) {
    constexpr std::uint32_t n = 1'000'000;
    Lane lane(LaneKind::Kernels, 0);
    lane.reserve(n);
    for (std::uint32_t i = 0; i < n; ++i)
        lane.append(TimeNs(i), TimeNs(n) + TimeNs(i), 0, i);
    const auto t0 = std::chrono::steady_clock::now();
    lane.finalize(RowPolicy::FirstFit);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_LT(seconds, 10.0);
    EXPECT_EQ(lane.rowCount(), Lane::kMaxRows);
    EXPECT_EQ(lane.overflowEvents(), n - (Lane::kMaxRows - 1) - 1);
    std::size_t total = 0;
    for (std::uint16_t r = 0; r < lane.rowCount(); ++r)
        total += lane.rowView(r).size();
    EXPECT_EQ(total, std::size_t(n));
    EXPECT_FALSE(lane.rowView(0).mayOverlap());
    EXPECT_TRUE(lane.rowView(Lane::kMaxRows - 1).mayOverlap());
}

TEST(LaneRows, FirstFitMatchesTheLowestFreeRow) {
    // Row 0 frees at 10, row 1 at 5: an event at 12 takes row 0 (the lowest), at 6 row 1.
    Lane lane(LaneKind::Kernels, 0);
    lane.append(0, 10, 0, 0);
    lane.append(1, 5, 0, 1);
    lane.append(2, 20, 0, 2);
    lane.append(6, 8, 0, 3);
    lane.append(12, 14, 0, 4);
    lane.finalize(RowPolicy::FirstFit);
    const std::vector<int> rows{lane.row(0), lane.row(1), lane.row(2), lane.row(3), lane.row(4)};
    EXPECT_EQ(rows, (std::vector<int>{0, 1, 2, 1, 0}));
    EXPECT_EQ(lane.overflowEvents(), 0u);
}

TEST(LaneRows, OverflowRowSearchFindsOverlappingEvents) {
    Lane lane(LaneKind::Kernels, 0);
    for (std::uint32_t i = 0; i < Lane::kMaxRows; ++i)
        lane.append(TimeNs(i), 1'000'000, 0, i); // fills every row, the last with [65534, 1e6)
    lane.append(Lane::kMaxRows, Lane::kMaxRows + 5, 0, 0); // overflow, short
    lane.append(Lane::kMaxRows + 1, 2'000'000, 0, 0);      // overflow, long
    lane.finalize(RowPolicy::FirstFit);
    EXPECT_EQ(lane.overflowEvents(), 2u);
    const RowView last = lane.rowView(Lane::kMaxRows - 1);
    ASSERT_EQ(last.size(), 3u);
    // Ends 1e6, 65540, 2e6 are not sorted: at t = 70000 the first event still runs.
    EXPECT_EQ(last.firstEndingAfter(70'000), 0u);
    EXPECT_EQ(last.firstEndingAfter(1'500'000), 2u);
    EXPECT_EQ(last.firstEndingAfter(3'000'000), 3u);
}

TEST(LaneRows, DeepNestingPastTheCapIsCounted) {
    Lane lane(LaneKind::Nvtx, 0);
    const std::uint32_t n = Lane::kMaxRows + 3;
    for (std::uint32_t i = 0; i < n; ++i)
        lane.append(TimeNs(i), TimeNs(2 * n) - TimeNs(i), 0, i); // each inside the previous
    lane.finalize(RowPolicy::Nesting);
    EXPECT_EQ(lane.rowCount(), Lane::kMaxRows);
    EXPECT_EQ(lane.overflowEvents(), 3u);
    EXPECT_EQ(lane.rowView(Lane::kMaxRows - 1).size(), 4u);
}

TEST(LaneCompression, ExtremeTimesRoundTrip) {
    constexpr TimeNs kMax = std::numeric_limits<TimeNs>::max();
    Lane lane(LaneKind::Kernels, 0);
    lane.append(-kMax, kMax, 0, 0);
    lane.append(-1, kMax, 0, 1);
    lane.finalize(RowPolicy::FirstFit);
    EXPECT_EQ(lane.start(0), -kMax);
    EXPECT_EQ(lane.end(0), kMax);
    EXPECT_EQ(lane.start(1), -1);
    EXPECT_EQ(lane.end(1), kMax);
    EXPECT_EQ(lane.timeRange().duration(), kMax);
}

// While building, starts are staged as frozen lanes keep them (a block base and 32-bit offsets)
// as long as each lies within 2^31 ns of its block's first, in order or not; a start further
// away is kept beside, and when those are more than a quarter of the lane every start is
// spelled out. Either way every staged value reads back, before and after finalize().
TEST(LaneStaging, NearbyStartsStayCompactAndEveryStartReadsBack) {
    enum Order {
        Ascending,
        SlightlyOutOfOrder,
        FarBefore,
        FarJumpInABlock,
        OutOfOrderAndFar,
        ManyFar,
        kOrders
    };
    std::size_t bytes[kOrders] = {};
    constexpr int kEvents = 5000;
    for (int order = 0; order < kOrders; ++order) {
        Lane l(LaneKind::Nvtx, 0);
        std::vector<std::pair<TimeNs, TimeNs>> in;
        for (int i = 0; i < kEvents; ++i) {
            TimeNs s = 1'000'000 + TimeNs(i) * 1000;
            if ((order == SlightlyOutOfOrder || order == OutOfOrderAndFar) && i % 10 == 9)
                s -= 2'000'000'000; // 2 s before the others: an outer range written at its end
            if (order == FarBefore && i == 3000)
                s -= 2'200'000'000; // more than 2^31 ns before its block's first
            if ((order == FarJumpInABlock || order == OutOfOrderAndFar) && i >= 3001)
                s += TimeNs(1) << 33; // 3001 is inside a block of 64: its offset would not fit
            if (order == ManyFar && i % 3 == 1)
                s += 3'000'000'000; // a third of the starts 3 s away from their neighbours
            // Some ends do not fit a 32-bit duration, or come before their start: kept beside.
            const TimeNs e = i % 97 == 0   ? s + (TimeNs(1) << 33)
                             : i % 89 == 0 ? s - 3
                                           : s + 10 + i % 7;
            in.emplace_back(s, e);
            l.append(s, e, StringId(i % 3), std::uint32_t(i));
        }
        bytes[order] = l.memoryBytes();
        for (std::uint32_t i = 0; i < kEvents; ++i) {
            ASSERT_EQ(l.start(i), in[i].first) << "order " << order << ", staged event " << i;
            ASSERT_EQ(l.end(i), in[i].second) << "order " << order << ", staged event " << i;
        }
        l.finalize(RowPolicy::FirstFit);
        for (std::uint32_t i = 0; i < l.size(); ++i) {
            ASSERT_EQ(l.start(i), in[l.payload(i)].first) << "order " << order << ", event " << i;
            ASSERT_EQ(l.end(i), in[l.payload(i)].second) << "order " << order << ", event " << i;
        }
        EXPECT_TRUE(std::is_sorted(l.starts().begin(), l.starts().end()));
        // Frozen, a block of sorted starts spanning 2^32 ns or more is spelled out.
        EXPECT_EQ(l.hasCompactStarts(), order != FarJumpInABlock && order != OutOfOrderAndFar)
            << "order " << order;
    }
    // 4-byte offsets (and a few starts beside) instead of 8-byte starts.
    for (const int compact :
         {Ascending, SlightlyOutOfOrder, FarBefore, FarJumpInABlock, OutOfOrderAndFar})
        EXPECT_LE(bytes[compact] + 3 * kEvents, bytes[ManyFar]) << "order " << compact;
}

// Kernel lanes stage no names: they follow from the payload (the launch configuration's), given
// to finalize(); more distinct names than 16-bit indices hold are kept as a column.
TEST(LaneStaging, NamesGivenByPayloadFollowTheirEventsThroughTheSort) {
    Lane l(LaneKind::Kernels, 0);
    for (std::uint32_t i = 0; i < 300; ++i)
        l.appendUnnamed(TimeNs(300 - i) * 100, TimeNs(300 - i) * 100 + 50, i); // backwards
    l.finalize(RowPolicy::FirstFit,
               [](std::uint32_t payload) { return StringId(1000 + payload % 7); });
    ASSERT_EQ(l.size(), 300u);
    for (std::uint32_t i = 0; i < l.size(); ++i) {
        EXPECT_EQ(l.nameId(i), StringId(1000 + l.payload(i) % 7)) << i;
        EXPECT_EQ(l.start(i), TimeNs(300 - l.payload(i)) * 100) << i;
    }
}

TEST(LaneStaging, NamesGivenByPayloadBeyondSixteenBitIndicesReadBack) {
    Lane l(LaneKind::Kernels, 0);
    constexpr std::uint32_t kEvents = 70'000; // more distinct names than a 16-bit index holds
    for (std::uint32_t i = 0; i < kEvents; ++i)
        l.appendUnnamed(TimeNs(i) * 10, TimeNs(i) * 10 + 5, i);
    l.finalize(RowPolicy::FirstFit, [](std::uint32_t payload) { return StringId(payload * 3); });
    for (std::uint32_t i = 0; i < l.size(); i += 997)
        ASSERT_EQ(l.nameId(i), StringId(l.payload(i) * 3)) << i;
    EXPECT_EQ(l.nameId(kEvents - 1), StringId((kEvents - 1) * 3));
}
