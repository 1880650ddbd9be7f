// SPDX-License-Identifier: MIT
// DriverCallFilter (issue 20, item 6): nested driver calls are dropped as records arrive, direct
// ones kept, and nothing piles up in memory.
#include "capture/driverfilter.h"

#include <gtest/gtest.h>

using namespace strobe::capture;
using strobe::nsys::ApiCallRow;

namespace {

ApiCallRow call(std::uint32_t tid, std::int64_t start, std::int64_t end, std::uint32_t corr,
                const char* name, std::uint8_t eventClass) {
    ApiCallRow r;
    r.tid = tid;
    r.start = start;
    r.end = end;
    r.correlationId = corr;
    r.name = name;
    r.eventClass = eventClass;
    return r;
}

std::vector<std::uint32_t> correlations(const std::vector<ApiCallRow>& rows) {
    std::vector<std::uint32_t> ids;
    for (const auto& r : rows)
        ids.push_back(r.correlationId);
    return ids;
}

} // namespace

TEST(DriverCallFilter, NestedDroppedDirectKeptInRecordOrder) {
    DriverCallFilter f;
    DriverCallFilter::Output out;
    // Thread 1: direct cuCtxSynchronize (corr 1), then cudaMemsetAsync (corr 3) which made
    // cuMemsetD8Async (corr 2): CUPTI delivers 1, 2, 3 (in order of return).
    f.addDriver(call(1, 100, 110, 1, "cuCtxSynchronize", 1), &out);
    f.addDriver(call(1, 210, 220, 2, "cuMemsetD8Async", 1), &out);
    EXPECT_TRUE(out.direct.empty());
    EXPECT_EQ(f.pending(), 2u);
    f.addRuntime(call(1, 200, 230, 3, "cudaMemsetAsync_v3020", 0), &out);
    EXPECT_EQ(correlations(out.direct), std::vector<std::uint32_t>{1});
    ASSERT_EQ(out.nested.size(), 1u);
    EXPECT_EQ(out.nested[0].driverCorrelation, 2u);
    EXPECT_EQ(out.nested[0].runtimeCorrelation, 3u);
    EXPECT_TRUE(out.nested[0].memset);
    EXPECT_EQ(f.pending(), 0u);
}

TEST(DriverCallFilter, ThreadsAreSeparateAndTouchingEndsCountAsInside) {
    DriverCallFilter f;
    DriverCallFilter::Output out;
    f.addDriver(call(2, 200, 230, 10, "cuLaunchKernel", 1), &out); // same times, other thread
    f.addDriver(call(1, 200, 230, 11, "cuLaunchKernel", 1), &out); // equal to the runtime span
    f.addRuntime(call(1, 200, 230, 12, "cudaLaunchKernel_v7000", 0), &out);
    EXPECT_TRUE(out.direct.empty());
    ASSERT_EQ(out.nested.size(), 1u);
    EXPECT_EQ(out.nested[0].driverCorrelation, 11u);
    EXPECT_FALSE(out.nested[0].memset);
    EXPECT_EQ(f.pending(), 1u); // thread 2's call waits for a runtime call of thread 2
    f.drain(&out);
    EXPECT_EQ(correlations(out.direct), std::vector<std::uint32_t>{10});
    EXPECT_EQ(f.pending(), 0u);
}

TEST(DriverCallFilter, LateDriverRecordIsMatchedAgainstRecentRuntimeCalls) {
    DriverCallFilter f;
    DriverCallFilter::Output out;
    f.addRuntime(call(1, 100, 200, 5, "cudaMalloc_v3020", 0), &out);
    f.addDriver(call(1, 120, 130, 4, "cuMemAlloc_v2", 1), &out);
    EXPECT_EQ(out.nested.size(), 1u);
    EXPECT_EQ(f.pending(), 0u);
    // A call after the runtime span waits; one starting after a later runtime call's end too.
    f.addDriver(call(1, 300, 310, 6, "cuStreamSynchronize", 1), &out);
    f.addRuntime(call(1, 250, 280, 7, "cudaGetDevice_v3020", 0), &out);
    EXPECT_TRUE(out.direct.empty());
    EXPECT_EQ(f.pending(), 1u);
}

TEST(DriverCallFilter, PureDriverProgramIsBounded) {
    DriverCallFilter f;
    DriverCallFilter::Output out;
    const std::size_t n = DriverCallFilter::kMaxPendingPerThread + 100;
    for (std::size_t i = 0; i < n; ++i)
        f.addDriver(call(1, std::int64_t(i) * 10, std::int64_t(i) * 10 + 5, std::uint32_t(i + 1),
                         "cuLaunchKernel", 1),
                    &out);
    EXPECT_EQ(f.pending(), DriverCallFilter::kMaxPendingPerThread);
    EXPECT_EQ(f.peakPending(), DriverCallFilter::kMaxPendingPerThread + 1);
    ASSERT_EQ(out.direct.size(), 100u);
    EXPECT_EQ(out.direct.front().correlationId, 1u); // oldest first
    EXPECT_EQ(out.direct.back().correlationId, 100u);
    EXPECT_GT(f.heldBytes(), DriverCallFilter::kMaxPendingPerThread * sizeof(ApiCallRow));
    f.drain(&out);
    EXPECT_EQ(out.direct.size(), n);
    EXPECT_LT(f.heldBytes(), 1024u);
}
