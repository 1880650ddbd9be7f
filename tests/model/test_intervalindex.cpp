// SPDX-License-Identifier: MIT
#include "model/intervalindex.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

using namespace strobe;

namespace {

struct Intervals {
    std::vector<TimeNs> starts, ends;
};

// Start-sorted random intervals drawn from a small time domain so that touching endpoints,
// equal starts, zero-length and negative times all occur often.
Intervals randomIntervals(std::mt19937_64& rng, std::size_t n, TimeNs lo, TimeNs hi,
                          TimeNs maxLen) {
    std::uniform_int_distribution<TimeNs> start(lo, hi), len(0, maxLen);
    std::vector<std::pair<TimeNs, TimeNs>> v(n);
    for (auto& [s, e] : v) {
        s = start(rng);
        e = s + len(rng);
    }
    std::sort(v.begin(), v.end(), [](auto& a, auto& b) { return a.first < b.first; });
    Intervals out;
    for (auto& [s, e] : v) {
        out.starts.push_back(s);
        out.ends.push_back(e);
    }
    return out;
}

std::vector<std::uint32_t> bruteOverlap(const Intervals& iv, TimeNs a, TimeNs b) {
    std::vector<std::uint32_t> out;
    for (std::uint32_t i = 0; i < iv.starts.size(); ++i) {
        if (iv.starts[i] < b && effectiveEnd(iv.starts[i], iv.ends[i]) > a)
            out.push_back(i);
    }
    return out;
}

} // namespace

TEST(IntervalIndex, EmptyIndexFindsNothing) {
    IntervalIndex idx;
    std::vector<TimeNs> none;
    idx.build(none, none);
    EXPECT_TRUE(idx.overlapping(none, none, -100, 100).empty());
}

TEST(IntervalIndex, HalfOpenTouchingEndpointsDoNotOverlap) {
    const std::vector<TimeNs> s{0, 10, 20}, e{10, 20, 30};
    IntervalIndex idx;
    idx.build(s, e);
    EXPECT_EQ(idx.overlapping(s, e, 10, 20), (std::vector<std::uint32_t>{1}));
    EXPECT_EQ(idx.stabbing(s, e, 10), (std::vector<std::uint32_t>{1}));
    EXPECT_EQ(idx.stabbing(s, e, 9), (std::vector<std::uint32_t>{0}));
    EXPECT_TRUE(idx.stabbing(s, e, 30).empty());
}

TEST(IntervalIndex, ZeroLengthIntervalIsAPoint) {
    const std::vector<TimeNs> s{5}, e{5};
    IntervalIndex idx;
    idx.build(s, e);
    EXPECT_EQ(idx.stabbing(s, e, 5).size(), 1u);
    EXPECT_TRUE(idx.stabbing(s, e, 4).empty());
    EXPECT_TRUE(idx.stabbing(s, e, 6).empty());
    EXPECT_EQ(idx.overlapping(s, e, 5, 6).size(), 1u);
    EXPECT_TRUE(idx.overlapping(s, e, 0, 5).empty());
}

TEST(IntervalIndex, LongIntervalCoveringEverythingIsFoundFromAnyBlock) {
    // One long interval first, then thousands of short ones: the augmented max must carry it.
    std::vector<TimeNs> s{-1000}, e{1'000'000};
    for (TimeNs t = 0; t < 5000; ++t) {
        s.push_back(t * 10);
        e.push_back(t * 10 + 5);
    }
    IntervalIndex idx;
    idx.build(s, e);
    const auto hits = idx.stabbing(s, e, 49'997);
    ASSERT_EQ(hits.size(), 1u);
    EXPECT_EQ(hits[0], 0u);
    EXPECT_EQ(idx.stabbing(s, e, 49'993), (std::vector<std::uint32_t>{0, 5000}));
}

TEST(IntervalIndex, MatchesBruteForceOnRandomData) {
    std::mt19937_64 rng(42);
    for (std::size_t n : {1u, 2u, 15u, 16u, 17u, 33u, 100u, 257u, 1000u, 4099u}) {
        for (TimeNs maxLen : {0, 3, 50, 5000}) {
            const Intervals iv = randomIntervals(rng, n, -500, 2000, maxLen);
            IntervalIndex idx;
            idx.build(iv.starts, iv.ends);
            std::uniform_int_distribution<TimeNs> q(-700, 2200), w(1, 300);
            for (int k = 0; k < 200; ++k) {
                const TimeNs a = q(rng), b = a + w(rng);
                ASSERT_EQ(idx.overlapping(iv.starts, iv.ends, a, b), bruteOverlap(iv, a, b))
                    << "n=" << n << " maxLen=" << maxLen << " [" << a << "," << b << ")";
                const TimeNs t = q(rng);
                ASSERT_EQ(idx.stabbing(iv.starts, iv.ends, t), bruteOverlap(iv, t, t + 1));
            }
        }
    }
}

TEST(IntervalIndex, EqualStartsAreAllReported) {
    const std::vector<TimeNs> s(40, 7);
    std::vector<TimeNs> e;
    for (int i = 0; i < 40; ++i)
        e.push_back(7 + i);
    IntervalIndex idx;
    idx.build(s, e);
    EXPECT_EQ(idx.stabbing(s, e, 7).size(), 40u);
    EXPECT_EQ(idx.stabbing(s, e, 30).size(), 16u); // ends 31..46
}

TEST(IntervalIndex, EmptyWindowContainsNothing) {
    const std::vector<TimeNs> s{0}, e{100};
    IntervalIndex idx;
    idx.build(s, e);
    EXPECT_TRUE(idx.overlapping(s, e, 50, 50).empty());
    EXPECT_TRUE(idx.overlapping(s, e, 60, 50).empty());
}

TEST(IntervalIndex, FindsEveryIntervalOfARegularGridWhateverItsSize) {
    // A last block at an odd position is an internal node whose right child lies beyond the
    // array; its max must still come from the rightmost subtree (a once-missed case: n = 1300).
    for (std::size_t n = 1; n <= 3000; n += n < 100 ? 1 : 37) {
        std::vector<TimeNs> s, e;
        for (std::size_t i = 0; i < n; ++i) {
            s.push_back(TimeNs(i) * 100);
            e.push_back(TimeNs(i) * 100 + 50);
        }
        IntervalIndex idx;
        idx.build(s, e);
        for (std::size_t i = 0; i < n; ++i)
            ASSERT_EQ(idx.stabbing(s, e, TimeNs(i) * 100),
                      (std::vector<std::uint32_t>{std::uint32_t(i)}))
                << "n=" << n << " i=" << i;
    }
}
