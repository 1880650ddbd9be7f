// SPDX-License-Identifier: MIT
#include "model/lod/utilization.h"
#include "model/tracebuilder.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

using namespace strobe;

namespace {
std::unique_ptr<Trace> gpuTrace() {
    TraceBuilder b(QStringLiteral("synthetic"));
    KernelConfig cfg;
    cfg.shortName = b.intern("k");
    // device 0, stream 7: overlapping kernels [0,100) [50,150); touching [150,200)
    b.addKernel(1, 0, 1, 7, 0, 100, cfg, 1u, std::nullopt);
    b.addKernel(1, 0, 1, 7, 50, 150, cfg, 2u, std::nullopt);
    b.addKernel(1, 0, 1, 7, 150, 200, cfg, 3u, std::nullopt);
    // device 0, stream 8: memcpy [1000, 1100), memset zero-length at 5000
    MemcpyRecord mc;
    mc.copyKind = MemcpyKind::HtoD;
    b.addMemcpy(1, 0, 1, 8, 1000, 1100, b.intern("memcpy"), mc);
    b.addMemset(1, 0, 1, 8, 5000, 5000, b.intern("memset"), MemsetRecord{});
    // a migration on device 0 does not count as stream work
    MemcpyRecord uvm;
    uvm.copyKind = MemcpyKind::UnifiedHtoD;
    b.addMemcpy(1, 0, 1, 8, 2000, 3000, b.intern("uvm"), uvm);
    // device 1 only
    b.addKernel(1, 1, 2, 9, -300, -200, cfg, 4u, std::nullopt);
    return b.finish();
}
// Busy time in [a, b) straight from the interval list, independent of DeviceUtilization.
TimeNs busyByHand(const std::vector<TimeRange>& busy, TimeNs a, TimeNs b) {
    TimeNs sum = 0;
    for (const TimeRange& r : busy)
        sum += std::max<TimeNs>(0, std::min(r.end, b) - std::max(r.start, a));
    return sum;
}
} // namespace

TEST(Utilization, BusyIntervalsMergeOverlappingAndTouchingWork) {
    auto t = gpuTrace();
    const std::vector<TimeRange> want{{0, 200}, {1000, 1100}, {5000, 5001}};
    EXPECT_EQ(busyIntervals(*t, 0), want);
    const std::vector<TimeRange> want1{{-300, -200}};
    EXPECT_EQ(busyIntervals(*t, 1), want1);
    EXPECT_TRUE(busyIntervals(*t, 5).empty());
}

TEST(Utilization, IdleGapsRespectTheThreshold) {
    const std::vector<TimeRange> busy{{0, 200}, {1000, 1100}, {5000, 5001}};
    EXPECT_EQ(idleGaps(busy, 800), (std::vector<TimeRange>{{200, 1000}, {1100, 5000}}));
    EXPECT_EQ(idleGaps(busy, 801), (std::vector<TimeRange>{{1100, 5000}}));
    EXPECT_TRUE(idleGaps(busy, 10'000).empty());
    EXPECT_TRUE(idleGaps({}, 1).empty());
}

TEST(Utilization, BusyTimeAndFractions) {
    DeviceUtilization u(0, {{0, 200}, {1000, 1100}});
    EXPECT_EQ(u.busyTime(-100, 2000), 300);
    EXPECT_EQ(u.busyTime(100, 1050), 150);
    EXPECT_EQ(u.busyTime(200, 1000), 0);
    EXPECT_EQ(u.busyTime(50, 50), 0);
    const auto f = u.busyFractions(0, 100.0, 12);
    ASSERT_EQ(f.size(), 12u);
    EXPECT_FLOAT_EQ(f[0], 1.0f);
    EXPECT_FLOAT_EQ(f[1], 1.0f);
    EXPECT_FLOAT_EQ(f[2], 0.0f);
    EXPECT_FLOAT_EQ(f[10], 1.0f);
    EXPECT_FLOAT_EQ(f[11], 0.0f);
    const auto half = u.busyFractions(150, 100.0, 1);
    EXPECT_FLOAT_EQ(half[0], 0.5f);
}

TEST(Utilization, BusyIntervalsOfKernelsOrCopiesOnly) {
    auto t = gpuTrace();
    EXPECT_EQ(busyIntervals(*t, 0, BusyWork::Kernels), (std::vector<TimeRange>{{0, 200}}));
    // The memcpy and the zero-length memset; the migration never counts.
    EXPECT_EQ(busyIntervals(*t, 0, BusyWork::Copies),
              (std::vector<TimeRange>{{1000, 1100}, {5000, 5001}}));
    EXPECT_TRUE(busyIntervals(*t, 1, BusyWork::Copies).empty());
    EXPECT_EQ(busyIntervals(*t, 1, BusyWork::Kernels), (std::vector<TimeRange>{{-300, -200}}));
}

TEST(Utilization, UniteIntervalsMergesOverlapsAndTouchingEnds) {
    const std::vector<TimeRange> a{{0, 10}, {20, 30}, {50, 60}};
    const std::vector<TimeRange> b{{5, 12}, {30, 40}, {70, 80}};
    EXPECT_EQ(uniteIntervals(a, b),
              (std::vector<TimeRange>{{0, 12}, {20, 40}, {50, 60}, {70, 80}}));
    EXPECT_EQ(uniteIntervals(a, {}), a);
    EXPECT_EQ(uniteIntervals({}, b), b);
    EXPECT_EQ(totalDuration(uniteIntervals(a, b)), 12 + 20 + 10 + 10);
    EXPECT_EQ(totalDuration({}), 0);
}

TEST(Utilization, BuildsOnePerGpuWithKernelsAndCopiesApart) {
    auto t = gpuTrace();
    const auto all = buildUtilization(*t);
    ASSERT_EQ(all.size(), t->gpus().size());
    ASSERT_EQ(all.size(), 2u);
    EXPECT_EQ(all[0].deviceId, 0u);
    EXPECT_EQ(all[0].all.busy(), busyIntervals(*t, 0));
    EXPECT_EQ(all[0].kernels.busy(), (std::vector<TimeRange>{{0, 200}}));
    EXPECT_EQ(all[0].copies.busy(), (std::vector<TimeRange>{{1000, 1100}, {5000, 5001}}));
    EXPECT_EQ(&all[0].of(BusyWork::Kernels), &all[0].kernels);
    EXPECT_EQ(&all[0].of(BusyWork::Copies), &all[0].copies);
    EXPECT_EQ(&all[0].of(BusyWork::All), &all[0].all);
    EXPECT_EQ(all[1].all.busy(), (std::vector<TimeRange>{{-300, -200}}));
    EXPECT_TRUE(all[1].copies.busy().empty());
}

TEST(Utilization, ZoomedOutFractionsComeFromTheSummaryAndKeepEveryBusyColumn) {
    // 20,000 busy intervals with gaps, some long idle stretches: ~50 per column at 400 columns.
    std::mt19937 rng(4);
    std::uniform_int_distribution<TimeNs> len(1, 3'000), gap(1, 4'000), pause(0, 60);
    std::vector<TimeRange> busy;
    TimeNs t = -5'000'000;
    for (int i = 0; i < 20'000; ++i) {
        t += gap(rng) + (pause(rng) == 0 ? 2'000'000 : 0);
        const TimeNs e = t + len(rng);
        busy.push_back({t, e});
        t = e;
    }
    const DeviceUtilization u(0, busy);
    const TimeNs v0 = busy.front().start - 1'000, v1 = busy.back().end + 1'000;
    const int cols = 400;
    const double npc = double(v1 - v0) / cols;
    const std::vector<float> f = u.busyFractions(v0, npc, cols);
    ASSERT_EQ(f.size(), std::size_t(cols));
    double total = 0;
    int idle = 0;
    for (int i = 0; i < cols; ++i) {
        const TimeNs a = v0 + TimeNs(std::floor(i * npc)),
                     b = v0 + TimeNs(std::floor((i + 1) * npc));
        const TimeNs exact = busyByHand(busy, a, b);
        ASSERT_EQ(f[std::size_t(i)] > 0.0f, exact > 0) << i;
        idle += exact == 0 ? 1 : 0;
        total += double(f[std::size_t(i)]) * double(b - a);
    }
    EXPECT_GT(idle, 5); // the pauses show as idle columns
    const double want = double(busyByHand(busy, v0, v1));
    EXPECT_NEAR(total, want, want * 0.01); // prorated edges move busy time, never lose it
}

// Issue 46 (found by the fuzzer under UBSan): the utilisation strip of a view over the whole
// clamped range, 2^63 ns on 100 columns. Each column's end was the view start plus a double
// cast to int64, which overflowed past INT64_MAX; it saturates, and the fractions stay right.
TEST(Utilization, AViewWiderThanInt64ReachesHasItsFractions) {
    DeviceUtilization u(0, {{kMinTime, 0}});
    const double nsPerBucket = (double(kMaxTime) - double(kMinTime)) / 100.0;
    const auto f = u.busyFractions(kMinTime, nsPerBucket * 1.5, 100); // ends far past INT64_MAX
    ASSERT_EQ(f.size(), 100u);
    EXPECT_FLOAT_EQ(f[0], 1.0f);
    EXPECT_FLOAT_EQ(f[32], 1.0f);
    EXPECT_FLOAT_EQ(f[40], 0.0f);
    for (float x : f) {
        EXPECT_GE(x, 0.0f);
        EXPECT_LE(x, 1.0f);
    }
}

// The k-way merge of a device's lanes against a sort and merge of every event by hand: many
// streams of random, overlapping, touching and empty intervals, each stream start-sorted.
TEST(Utilization, BusyIntervalsOfManyStreamsEqualASortAndMergeByHand) {
    std::mt19937_64 rng(7);
    for (int round = 0; round < 20; ++round) {
        TraceBuilder b(QStringLiteral("streams"));
        KernelConfig cfg;
        cfg.shortName = b.intern("k");
        std::vector<TimeRange> all;
        const int streams = 1 + int(rng() % 12);
        std::uint32_t corr = 0;
        for (int s = 0; s < streams; ++s) {
            TimeNs t = TimeNs(rng() % 1000);
            const int n = int(rng() % 300);
            for (int i = 0; i < n; ++i) {
                t += TimeNs(rng() % 50);
                const TimeNs e = t + TimeNs(rng() % 60); // empty ones too
                b.addKernel(1, 0, 1, std::uint32_t(s), t, e, cfg, ++corr, std::nullopt);
                all.push_back({t, std::max(e, t + 1)});
            }
        }
        std::sort(all.begin(), all.end(), [](auto& x, auto& y) { return x.start < y.start; });
        std::vector<TimeRange> want;
        for (const TimeRange& r : all) {
            if (!want.empty() && r.start <= want.back().end)
                want.back().end = std::max(want.back().end, r.end);
            else
                want.push_back(r);
        }
        auto t = b.finish();
        EXPECT_EQ(busyIntervals(*t, 0), want) << "round " << round;
        EXPECT_EQ(busyIntervals(*t, 0, BusyWork::Kernels), want) << "round " << round;
        EXPECT_TRUE(busyIntervals(*t, 0, BusyWork::Copies).empty());
    }
}
