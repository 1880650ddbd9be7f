// SPDX-License-Identifier: MIT
// buildOverview's findings on traces built by hand: which kernel the fill question names (the
// one with the most time at stake), where its GPU limits come from (as strobe-cli info finds
// them), the gap figures the idle question shares with the GPU Gaps panel, and unified-memory
// migrations counted beside the memory answer.
#include "model/analysis/overview.h"

#include "model/tracebuilder.h"
#include "tests/support/qtprinters.h"

#include <gtest/gtest.h>

using namespace strobe;

namespace {

KernelConfig config(TraceBuilder& b, const char* name, std::int32_t blocks,
                    std::int32_t threads = 128) {
    KernelConfig c;
    c.shortName = b.intern(name);
    c.grid = {blocks, 1, 1};
    c.block = {threads, 1, 1};
    return c;
}

const OverviewFinding& findingOf(const Overview& o, FindingQuestion q) {
    for (const OverviewFinding& f : o.findings) {
        if (f.question == q)
            return f;
    }
    throw std::runtime_error("no finding for the question");
}

GpuInfo fullGpu() {
    GpuInfo g;
    g.id = 0;
    g.smCount = 132;
    g.maxWarpsPerSm = 64;
    g.maxRegistersPerSm = 65536;
    g.threadsPerWarp = 32;
    g.maxShmemPerSm = 228 * 1024;
    return g;
}

// reduce_kernel launches 1 block once for 2 µs; softmax 4 blocks 100 times for 10 µs each;
// gemm fills the GPU. The old rule named reduce_kernel (the smallest fill), 0.2 % of compute.
TEST(OverviewFill, NamesTheUnderfillingKernelWithTheMostTime) {
    TraceBuilder b(QStringLiteral("fill"));
    b.addGpu(fullGpu());
    const KernelConfig reduce = config(b, "reduce_kernel", 1);
    const KernelConfig softmax = config(b, "softmax", 4);
    const KernelConfig gemm = config(b, "gemm", 264);
    TimeNs t = 0;
    b.addKernel(1, 0, 1, 7, t, t + 2'000, reduce, std::nullopt, std::nullopt);
    t += 3'000;
    for (int i = 0; i < 100; ++i, t += 11'000)
        b.addKernel(1, 0, 1, 7, t, t + 10'000 + i, softmax, std::nullopt, std::nullopt);
    b.addKernel(1, 0, 1, 7, t, t + 50'000, gemm, std::nullopt, std::nullopt);
    const auto trace = b.finish();
    const Overview o = buildOverview(*trace, KernelClassTable::defaults(), std::nullopt, 100'000);
    const OverviewFinding& f = findingOf(o, FindingQuestion::Fill);
    ASSERT_EQ(f.answer, FindingAnswer::Underfilled);
    ASSERT_EQ(f.configs.size(), 1u);
    EXPECT_EQ(trace->string(trace->kernelConfigs()[f.configs[0]].shortName),
              QStringLiteral("softmax"));
    EXPECT_EQ(f.blocks, 4);
    EXPECT_EQ(f.launches, 100u);
    EXPECT_EQ(f.kernelNs, 100 * 10'000 + 99 * 100 / 2);
    // 4 blocks of 4 warps on 132 SMs of 64 warps.
    EXPECT_DOUBLE_EQ(f.warpSlotFraction, 16.0 / (132.0 * 64.0));
    // Its longest launch, for the detail pane: the last one (10.099 µs).
    const Lane& l = trace->lane(f.event.lane);
    EXPECT_EQ(l.end(f.event.index) - l.start(f.event.index), 10'099);
}

// NCCL picks its grid (one block per channel) on purpose: communication is its own question,
// and an all-reduce of 2 blocks taking most of the time is not a kernel to retune.
TEST(OverviewFill, LeavesCommunicationKernelsToTheirOwnQuestion) {
    TraceBuilder b(QStringLiteral("fillnccl"));
    b.addGpu(fullGpu());
    b.addKernel(1, 0, 1, 7, 0, 500'000, config(b, "ncclKernel_AllReduce_RING_LL_Sum_float", 2),
                std::nullopt, std::nullopt);
    b.addKernel(1, 0, 1, 7, 600'000, 610'000, config(b, "layer_norm", 8), std::nullopt,
                std::nullopt);
    const auto trace = b.finish();
    const Overview o = buildOverview(*trace, KernelClassTable::defaults(), std::nullopt, 100'000);
    const OverviewFinding& f = findingOf(o, FindingQuestion::Fill);
    ASSERT_EQ(f.answer, FindingAnswer::Underfilled);
    EXPECT_EQ(trace->string(trace->kernelConfigs()[f.configs.at(0)].shortName),
              QStringLiteral("layer_norm"));
}

// A reduced export: the SM count is recorded but no other limit; strobe-cli info takes the
// limits from the architecture table by the GPU's name (9.0: 64 warps per SM), and so does the
// fill question: 4 blocks of 8 warps on 132 SMs is 32 of 8448 warp slots, not 4 of 132 blocks.
TEST(OverviewFill, TakesTheLimitsWhereInfoTakesThem) {
    TraceBuilder b(QStringLiteral("reduced"));
    GpuInfo g;
    g.id = 0;
    g.name = b.intern("NVIDIA H100 80GB HBM3");
    g.smCount = 132;
    b.addGpu(g);
    b.addKernel(1, 0, 1, 7, 0, 10'000, config(b, "softmax", 4, 256), std::nullopt, std::nullopt);
    const auto trace = b.finish();
    const Overview o = buildOverview(*trace, KernelClassTable::defaults(), std::nullopt, 100'000);
    const OverviewFinding& f = findingOf(o, FindingQuestion::Fill);
    ASSERT_EQ(f.answer, FindingAnswer::Underfilled);
    EXPECT_EQ(f.limits.source, GpuLimitsSource::ArchitectureTable);
    EXPECT_EQ(f.limits.basis, GpuLimitsBasis::CapabilityOfName);
    EXPECT_DOUBLE_EQ(f.warpSlotFraction, 32.0 / (132.0 * 64.0));
}

// Without an SM count the answer keeps the limits info would print, so the text can say the
// same thing about this GPU.
TEST(OverviewFill, WithoutAnSmCountKeepsInfosLimits) {
    TraceBuilder b(QStringLiteral("nosm"));
    GpuInfo g;
    g.id = 0;
    g.name = b.intern("NVIDIA A100-SXM4-80GB");
    b.addGpu(g);
    b.addKernel(1, 0, 1, 7, 0, 10'000, config(b, "softmax", 4), std::nullopt, std::nullopt);
    const auto trace = b.finish();
    const Overview o = buildOverview(*trace, KernelClassTable::defaults(), std::nullopt, 100'000);
    const OverviewFinding& f = findingOf(o, FindingQuestion::Fill);
    EXPECT_EQ(f.answer, FindingAnswer::NoSmCount);
    EXPECT_EQ(f.limits.basis, GpuLimitsBasis::CapabilityOfName);
    EXPECT_EQ(f.limits.capability, (ComputeCapability{8, 0}));
}

// Kernels at [0, 1000), [1050, 2000), [202000, 203000) and [203040, 400000): one gap of 200 µs
// at the 100 µs threshold, and 90 ns of shorter idle. A window over [150000, 250000) holds half
// of the gap: its time is clipped to the window, the count is the gap overlapping it.
TEST(OverviewIdle, GapTimeIsClippedToTheWindow) {
    TraceBuilder b(QStringLiteral("idle"));
    b.addGpu(fullGpu());
    const KernelConfig k = config(b, "gemm", 264);
    for (const auto& [s, e] :
         {std::pair<TimeNs, TimeNs>{0, 1000}, {1050, 2000}, {202'000, 203'000}, {203'040, 400'000}})
        b.addKernel(1, 0, 1, 7, s, e, k, std::nullopt, std::nullopt);
    const auto trace = b.finish();
    const Overview whole =
        buildOverview(*trace, KernelClassTable::defaults(), std::nullopt, 100'000);
    const OverviewFinding& w = findingOf(whole, FindingQuestion::Starved);
    EXPECT_EQ(w.gapCount, 1u);
    EXPECT_EQ(w.gapTotal, 200'000);
    EXPECT_EQ(w.gpu.idle, 200'090);
    EXPECT_FALSE(w.window);
    const TimeRange window{150'000, 250'000};
    const Overview part = buildOverview(*trace, KernelClassTable::defaults(), window, 100'000);
    const OverviewFinding& p = findingOf(part, FindingQuestion::Starved);
    EXPECT_EQ(p.gapCount, 1u);
    EXPECT_EQ(p.gapTotal, 52'000); // [150000, 202000)
    ASSERT_TRUE(p.window);
    EXPECT_EQ(*p.window, window);
}

// GPU 0 runs a kernel over [0, 1 ms); its unified-memory lane holds three migrations, two
// overlapping ([100, 300) and [200, 400) µs), one after the span ([2, 3) ms). The memory answer
// counts the two in the span and their union, 300 µs; the breakdown's memory and idle stay as
// they were (migrations are not stream work).
TEST(OverviewMemory, CountsMigrationsAsTheirOwnShare) {
    TraceBuilder b(QStringLiteral("uvm"));
    b.addGpu(fullGpu());
    b.addKernel(1, 0, 1, 7, 0, 1'000'000, config(b, "add", 264), std::nullopt, std::nullopt);
    MemcpyRecord m;
    m.copyKind = MemcpyKind::UnifiedHtoD;
    m.bytes = 4096;
    for (const auto& [s, e] :
         {std::pair<TimeNs, TimeNs>{100'000, 300'000}, {200'000, 400'000}, {2'000'000, 3'000'000}})
        b.addMemcpy(1, 0, 1, 7, s, e, b.intern("[Unified Memory Transfer HtoD]"), m);
    const auto trace = b.finish();
    const Overview o = buildOverview(*trace, KernelClassTable::defaults(), std::nullopt, 100'000);
    const OverviewFinding& f = findingOf(o, FindingQuestion::Memory);
    EXPECT_EQ(f.migrations, 2u);
    EXPECT_EQ(f.migrationNs, 300'000);
    EXPECT_EQ(f.migrationsOutside, 1u);
    EXPECT_EQ(f.gpu.memory, 0);
    EXPECT_EQ(f.gpu.idle, 0);
    // Over a window, clipped to it: [250, 350) µs holds 100 µs of the union, both migrations.
    const Overview part =
        buildOverview(*trace, KernelClassTable::defaults(), TimeRange{250'000, 350'000}, 100'000);
    const OverviewFinding& p = findingOf(part, FindingQuestion::Memory);
    EXPECT_EQ(p.migrations, 2u);
    EXPECT_EQ(p.migrationNs, 100'000);
    EXPECT_EQ(p.migrationsOutside, 1u);
}

} // namespace
