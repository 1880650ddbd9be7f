// SPDX-License-Identifier: MIT
#include "model/correlationindex.h"

#include <gtest/gtest.h>
#include <map>
#include <random>

using namespace strobe;

namespace {

struct Call {
    std::uint32_t pid, id, call;
};

CorrelationIndex indexOf(const std::vector<Call>& calls) {
    CorrelationIndex index;
    for (const Call& c : calls)
        index.plan(c.pid, c.id);
    for (const Call& c : calls)
        index.add(c.pid, c.id, c.call);
    index.freeze();
    return index;
}

TEST(CorrelationIndex, FindsEachCallOfItsProcessAndTheFirstOfARepeat) {
    const CorrelationIndex index =
        indexOf({{7, 1, 10}, {7, 2, 11}, {7, 2, 12}, {9, 2, 13}, {7, 5, 14}});
    EXPECT_EQ(index.find(7, 1), 10u);
    EXPECT_EQ(index.find(7, 2), 11u) << "the first in lane order wins";
    EXPECT_EQ(index.find(9, 2), 13u) << "ids are per process";
    EXPECT_EQ(index.find(7, 5), 14u);
    EXPECT_EQ(index.find(7, 3), std::nullopt) << "a hole";
    EXPECT_EQ(index.find(7, 6), std::nullopt) << "past the largest id";
    EXPECT_EQ(index.find(8, 1), std::nullopt) << "an unknown process";
    EXPECT_EQ(index.find(7, 0xFFFFFFFF), std::nullopt);
}

TEST(CorrelationIndex, SparseIdsOfAHostileFileCostWhatTheCallsDo) {
    // Ids near 2^32: a direct table would take 16 GB.
    const CorrelationIndex index =
        indexOf({{1, 4'000'000'000u, 0}, {1, 3, 1}, {1, 4'000'000'000u, 2}, {1, 0xFFFFFFFE, 3}});
    EXPECT_LT(index.memoryBytes(), 1024u);
    EXPECT_EQ(index.find(1, 4'000'000'000u), 0u) << "the first of a repeat, sparse too";
    EXPECT_EQ(index.find(1, 3), 1u);
    EXPECT_EQ(index.find(1, 0xFFFFFFFE), 3u);
    EXPECT_EQ(index.find(1, 4), std::nullopt);
}

TEST(CorrelationIndex, DenseIdsTakeFourBytesEach) {
    std::vector<Call> calls;
    for (std::uint32_t i = 0; i < 100'000; ++i)
        calls.push_back({42, i + 1, i});
    const CorrelationIndex index = indexOf(calls);
    EXPECT_LE(index.memoryBytes(), 4u * 100'001);
    EXPECT_EQ(index.find(42, 100'000), 99'999u);
}

TEST(CorrelationIndex, AgreesWithAMapOnRandomCalls) {
    std::mt19937 rng(5);
    for (const std::uint32_t spread : {1000u, 100'000'000u}) { // dense, then sparse
        std::vector<Call> calls;
        std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> expected;
        for (std::uint32_t i = 0; i < 20'000; ++i) {
            const Call c{std::uint32_t(rng() % 3), std::uint32_t(rng() % spread), i};
            calls.push_back(c);
            expected.emplace(std::pair(c.pid, c.id), c.call); // keeps the first
        }
        const CorrelationIndex index = indexOf(calls);
        for (std::uint32_t probe = 0; probe < 40'000; ++probe) {
            const auto pid = std::uint32_t(rng() % 4);
            const auto id = probe < 20'000 ? calls[probe].id : std::uint32_t(rng());
            const auto it = expected.find({pid, id});
            const std::optional<std::uint32_t> want =
                it == expected.end() ? std::nullopt : std::optional(it->second);
            ASSERT_EQ(index.find(pid, id), want) << pid << " " << id << " spread " << spread;
        }
    }
}

TEST(CorrelationIndex, ManyProcessesOfOneCallCostWhatTheirCallsDo) {
    // A hostile file: many processes, one call each, ids in the thousands. No process may take
    // a table for the span of ids it does not have.
    std::vector<Call> calls;
    for (std::uint32_t pid = 0; pid < 100'000; ++pid)
        calls.push_back({pid, 4'000 + pid % 97, pid});
    const CorrelationIndex index = indexOf(calls);
    EXPECT_LE(index.memoryBytes(), 100'000u * (8 + 64));
    EXPECT_EQ(index.find(12'345, 4'000 + 12'345 % 97), 12'345u);
    EXPECT_EQ(index.find(12'345, 4'001 + 12'345 % 97), std::nullopt);
}

TEST(CorrelationIndex, DenseIdsThatStartHighAreDirectToo) {
    std::vector<Call> calls;
    for (std::uint32_t i = 0; i < 10'000; ++i)
        calls.push_back({3, 50'000'000 + i, i});
    const CorrelationIndex index = indexOf(calls);
    EXPECT_LE(index.memoryBytes(), 4u * 10'000) << "a table from the smallest id";
    EXPECT_EQ(index.find(3, 50'000'000), 0u);
    EXPECT_EQ(index.find(3, 50'009'999), 9'999u);
    EXPECT_EQ(index.find(3, 49'999'999), std::nullopt);
    EXPECT_EQ(index.find(3, 50'010'000), std::nullopt);
}

} // namespace
