// SPDX-License-Identifier: MIT
#include "model/lod/rowsummary.h"
#include "tests/support/columncover.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

using namespace strobe;

namespace {
// A frozen lane of random events around time zero: zero-length ones, touching ones, equal
// starts and negative times, spread over rows by first fit.
Lane randomLane(std::uint32_t seed, int events, TimeNs lo, TimeNs hi) {
    std::mt19937 rng(seed);
    std::uniform_int_distribution<TimeNs> at(lo, hi);
    std::uniform_int_distribution<int> kind(0, 9);
    std::uniform_int_distribution<TimeNs> len(1, 40);
    Lane lane(LaneKind::Kernels, 0);
    TimeNs prevEnd = lo;
    for (int i = 0; i < events; ++i) {
        const int k = kind(rng);
        TimeNs s = at(rng);
        if (k == 0)
            s = prevEnd; // touching the previous one
        TimeNs e = s + len(rng);
        if (k == 1)
            e = s; // zero-length
        if (k == 2)
            e = s + 2'000; // long: spans several buckets
        lane.append(s, e, 0, std::uint32_t(i));
        prevEnd = e;
    }
    lane.finalize(RowPolicy::FirstFit);
    return lane;
}

bool coversNs(const RowView& row, TimeNs t) {
    for (std::uint32_t k = 0; k < row.size(); ++k) {
        if (row.start(k) <= t && t < effectiveEnd(row.start(k), row.end(k)))
            return true;
    }
    return false;
}

// More overlapping events than a lane has rows: its last row takes the rest, overlapping, so
// that row's ends are not sorted.
Lane crowdedLane() {
    Lane crowded(LaneKind::Kernels, 0);
    std::mt19937 fill(5);
    std::uniform_int_distribution<TimeNs> len(1, 90'000);
    for (int i = 0; i < Lane::kMaxRows + 6'000; ++i) {
        const TimeNs s = TimeNs(i) * 2;
        crowded.append(s, s + 200'000 + len(fill), 0, std::uint32_t(i));
    }
    crowded.finalize(RowPolicy::FirstFit);
    return crowded;
}

TimeNs overlap(TimeNs a, TimeNs b, TimeNs c, TimeNs d) {
    return std::max<TimeNs>(0, std::min(b, d) - std::max(a, c));
}
} // namespace

TEST(RowSummary, BucketsMatchBruteForceOnRandomRows) {
    int checkedRows = 0;
    for (std::uint32_t seed = 1; seed <= 6; ++seed) {
        const Lane lane = randomLane(seed, 400, -3'000, 3'000);
        for (std::uint16_t r = 0; r < lane.rowCount(); ++r) {
            const RowView row = lane.rowView(r);
            const RowSummary s = RowSummary::build(row);
            ASSERT_FALSE(s.isEmpty());
            EXPECT_EQ(s.origin(), row.start(0));
            ASSERT_EQ(s.level(s.levelCount() - 1).size(), 1u);
            std::uint32_t total = 0;
            for (int l = 0; l < s.levelCount(); ++l) {
                const TimeNs w = s.bucketWidth(l);
                const auto& buckets = s.level(l);
                for (std::size_t j = 0; j < buckets.size(); ++j) {
                    const TimeNs bs = s.origin() + TimeNs(j) * w, be = bs + w;
                    TimeNs busy = 0, firstNs = -1, lastNs = -1;
                    for (TimeNs t = bs; t < be; ++t) {
                        if (!coversNs(row, t))
                            continue;
                        ++busy;
                        firstNs = firstNs < 0 ? t - bs : firstNs;
                        lastNs = t - bs;
                    }
                    std::uint32_t count = 0;
                    TimeNs bestCover = 0;
                    for (std::uint32_t k = 0; k < row.size(); ++k) {
                        const TimeNs a = row.start(k), b = effectiveEnd(a, row.end(k));
                        count += (a >= bs && a < be) ? 1 : 0;
                        bestCover = std::max(bestCover, overlap(a, b, bs, be));
                    }
                    ASSERT_EQ(buckets[j].busy, busy) << seed << " row " << r << " level " << l;
                    ASSERT_EQ(buckets[j].count, count) << seed << " row " << r << " level " << l;
                    if (l == 0)
                        total += count;
                    if (busy == 0)
                        continue;
                    ASSERT_EQ(buckets[j].firstCovered, std::uint32_t(firstNs)) << l << " " << j;
                    ASSERT_EQ(buckets[j].coveredEnd, std::uint32_t(lastNs + 1)) << l << " " << j;
                    // The colour of a busy bucket comes from an event covering it, at level 0
                    // the one covering most of it.
                    ASSERT_NE(buckets[j].rep, RowSummary::kNone);
                    const std::uint32_t k = buckets[j].rep;
                    const TimeNs repCover =
                        overlap(row.start(k), effectiveEnd(row.start(k), row.end(k)), bs, be);
                    EXPECT_GT(repCover, 0);
                    if (l == 0) {
                        EXPECT_EQ(repCover, bestCover);
                    }
                }
            }
            EXPECT_EQ(total, row.size());
            ++checkedRows;
        }
    }
    EXPECT_GT(checkedRows, 6); // first fit spread the overlapping events over several rows
}

TEST(RowSummary, ColumnsMarkExactlyThePixelsHoldingAnEvent) {
    std::mt19937 rng(99);
    int covered = 0, empty = 0;
    for (std::uint32_t seed = 11; seed <= 16; ++seed) {
        const Lane lane = randomLane(seed, 3'000, -200'000, 200'000);
        const RowView row = lane.rowView(0);
        const RowSummary s = RowSummary::build(row);
        for (int view = 0; view < 12; ++view) {
            std::uniform_real_distribution<double> nsPerCol(2.0, 6'000.0);
            std::uniform_int_distribution<TimeNs> start(-260'000, 150'000);
            const double npc = nsPerCol(rng);
            const TimeNs v0 = start(rng);
            const int cols = 300;
            const std::vector<bool> holds = test::columnsHoldingEvents(row, v0, npc, cols);
            // Every level gives the same marks; the chosen one is only the cheapest.
            for (int level = 0; level < s.levelCount(); ++level) {
                std::vector<SummaryColumn> got;
                s.columns(row, v0, npc, cols, level, got);
                ASSERT_EQ(got.size(), std::size_t(cols));
                for (int i = 0; i < cols; ++i) {
                    const bool want = holds[std::size_t(i)];
                    ASSERT_EQ(got[std::size_t(i)].covered, want)
                        << "seed " << seed << " view " << view << " level " << level << " col "
                        << i;
                    if (level == 0)
                        (want ? covered : empty) += 1;
                    if (want) {
                        EXPECT_GT(got[std::size_t(i)].busy, 0.0f);
                        EXPECT_LE(got[std::size_t(i)].busy, 1.0f);
                        EXPECT_LT(got[std::size_t(i)].rep, row.size());
                    }
                }
            }
        }
    }
    EXPECT_GT(covered, 1'000); // both kinds of column were exercised
    EXPECT_GT(empty, 1'000);
}

TEST(RowSummary, ColumnsOfAnOverflowRowMarkExactlyThePixelsHoldingAnEvent) {
    const Lane crowded = crowdedLane();
    const RowView row = crowded.rowView(Lane::kMaxRows - 1);
    ASSERT_TRUE(row.mayOverlap());
    ASSERT_GE(row.size(), RowSummary::kMinEvents);
    const RowSummary s = RowSummary::build(row);
    int covered = 0, empty = 0;
    std::mt19937 rng(3);
    for (int view = 0; view < 8; ++view) {
        std::uniform_real_distribution<double> nsPerCol(2.0, 3'000.0);
        std::uniform_int_distribution<TimeNs> start(100'000, 500'000);
        const double npc = nsPerCol(rng);
        const TimeNs v0 = start(rng);
        const std::vector<bool> holds = test::columnsHoldingEvents(row, v0, npc, 200);
        for (int level = 0; level < s.levelCount(); ++level) {
            std::vector<SummaryColumn> got;
            s.columns(row, v0, npc, 200, level, got);
            for (int i = 0; i < 200; ++i) {
                const bool want = holds[std::size_t(i)];
                ASSERT_EQ(got[std::size_t(i)].covered, want)
                    << "view " << view << " level " << level << " col " << i;
                (want ? covered : empty) += 1;
            }
        }
    }
    EXPECT_GT(covered, 100);
    EXPECT_GT(empty, 100);
}

TEST(RowSummary, LevelForPicksTheCoarsestBucketsNoWiderThanAColumn) {
    const Lane lane = randomLane(3, 2'000, 0, 1'000'000);
    const RowSummary s = RowSummary::build(lane.rowView(0));
    const TimeNs w0 = s.bucketWidth(0);
    EXPECT_FALSE(s.levelFor(double(w0) * 0.99).has_value());
    EXPECT_EQ(s.levelFor(double(w0)), 0);
    EXPECT_EQ(s.levelFor(double(w0) * 1.9), 0);
    EXPECT_EQ(s.levelFor(double(w0) * 2.0), 1);
    EXPECT_EQ(s.levelFor(double(w0) * 4.5), 2);
    EXPECT_EQ(s.levelFor(1e18), s.levelCount() - 1);
}

TEST(RowSummary, CountsAndBusyOfAFullColumnAddUp) {
    // Ten 10-ns events 100 ns apart starting at -500: one column over everything sees all.
    Lane lane(LaneKind::Kernels, 0);
    for (int i = 0; i < 10; ++i)
        lane.append(-500 + i * 100, -490 + i * 100, 0, std::uint32_t(i));
    lane.finalize(RowPolicy::FirstFit);
    const RowSummary s = RowSummary::build(lane.rowView(0));
    std::vector<SummaryColumn> cols;
    s.columns(lane.rowView(0), -10'000, 20'000.0, 1, s.levelCount() - 1, cols);
    ASSERT_EQ(cols.size(), 1u);
    EXPECT_TRUE(cols[0].covered);
    EXPECT_EQ(cols[0].count, 10u);
    EXPECT_FLOAT_EQ(cols[0].busy, 100.0f / 20'000.0f);
    EXPECT_TRUE(RowSummary::build(RowView(lane, nullptr, 0)).isEmpty());
}
