// SPDX-License-Identifier: MIT
// NVTX ranges projected onto the GPU: exactly the work launched inside a range on its thread.
#include "model/analysis/nvtxprojection.h"
#include "model/analysis/nvtxstats.h"
#include "model/tracebuilder.h"
#include "tests/model/analysis/gaptestdata.h"
#include "tests/model/analysis/nvtxtestdata.h"

#include <gtest/gtest.h>

using namespace strobe;
using namespace strobe::test;

namespace {

TEST(NvtxProjection, HoldsExactlyTheKernelsLaunchedInside) {
    ProjectionTrace p;
    const NvtxProjector projector(*p.trace);
    const NvtxGpuWork w = projector.project(p.forward, std::nullopt, true);
    const std::vector<EventRef> expected{p.kernels.at("k1"), p.kernels.at("k2"), p.kernels.at("k3"),
                                         p.kernels.at("k4")};
    EXPECT_EQ(w.ops, expected);
    EXPECT_EQ(w.count, 4u);
    EXPECT_EQ(w.gpuTime, 1000 + 2000 + 500 + 4000);
    EXPECT_EQ(w.span, (TimeRange{20'000, 34'000}));

    const NvtxGpuWork in = projector.project(p.inner, std::nullopt, true);
    EXPECT_EQ(in.ops, (std::vector<EventRef>{p.kernels.at("k2"), p.kernels.at("k3")}));
    EXPECT_EQ(in.span, (TimeRange{21'000, 23'500}));

    const NvtxGpuWork gpu0 = projector.project(p.forward, 0u);
    EXPECT_EQ(gpu0.count, 3u);
    EXPECT_EQ(gpu0.gpuTime, 5500);
    EXPECT_EQ(projector.project(p.inner, 1u).span, (TimeRange{21'000, 23'000}));
    EXPECT_TRUE(projector.project(EventRef{}).isEmpty());
    EXPECT_TRUE(projector.project(p.kernels.at("k1")).isEmpty()); // not an NVTX range
    EXPECT_EQ(projectNvtxRange(*p.trace, p.forward).count, 4u);
}

TEST(NvtxProjection, ProjectedLanesPerGpuNestByRange) {
    ProjectionTrace p;
    const std::vector<ProjectedNvtxLane> lanes = buildProjectedNvtx(*p.trace);
    ASSERT_EQ(lanes.size(), 2u);
    const ProjectedNvtxLane& g0 = lanes[0];
    EXPECT_EQ(g0.deviceId, 0u);
    ASSERT_EQ(g0.lane.size(), 2u);
    EXPECT_EQ(g0.lane.rowCount(), 2);
    EXPECT_EQ(g0.lane.start(0), 20'000); // Forward on GPU 0: k1, k3, k4
    EXPECT_EQ(g0.lane.end(0), 34'000);
    EXPECT_EQ(g0.source[g0.lane.payload(0)], p.forward);
    EXPECT_EQ(g0.lane.start(1), 23'000); // inner on GPU 0: k3 only
    EXPECT_EQ(g0.lane.row(1), 1);
    EXPECT_EQ(g0.source[g0.lane.payload(1)], p.inner);
    EXPECT_EQ(lanes[1].deviceId, 1u);
    EXPECT_EQ(lanes[1].lane.size(), 2u); // Forward and inner both launched k2 there
}

TEST(NvtxProjection, ProjectedRangesAreLabelledByGroupedName) {
    // Two calls of one PyTorch operator, each launching a kernel: one label for both.
    TraceBuilder b(QStringLiteral("labels"));
    GpuInfo g;
    b.addGpu(g);
    const StringId first = b.intern("aten::mm, op_id = 1"),
                   second = b.intern("aten::mm, seq = 2, op_id = 3, sizes = [[4, 4]]");
    std::uint32_t corr = 0;
    for (TimeNs t : {TimeNs(1000), TimeNs(5000)}) {
        ApiCallRecord a;
        a.correlationId = ++corr;
        b.addApiCall(100, 101, t + 100, t + 200, b.intern("cudaLaunchKernel_v7000"), a);
        KernelConfig c;
        c.shortName = b.intern("k");
        b.addKernel(100, 0, 1, 7, t + 1000, t + 1500, c, corr, std::nullopt);
        NvtxRecord r;
        b.addNvtx(100, 101, kNoString, t, t + 1000, t == 1000 ? first : second, r, std::nullopt);
    }
    const auto trace = b.finish();
    const std::vector<ProjectedNvtxLane> grouped = buildProjectedNvtx(*trace);
    ASSERT_EQ(grouped.size(), 1u);
    const ProjectedNvtxLane& p = grouped[0];
    ASSERT_EQ(p.lane.size(), 2u);
    EXPECT_EQ(p.labels, std::vector<QString>{QStringLiteral("aten::mm")});
    for (std::uint32_t i = 0; i < 2; ++i) {
        EXPECT_EQ(p.label(p.lane.payload(i)), QStringLiteral("aten::mm"));
        // The event keeps the recorded name; the source is the CPU-side range.
        EXPECT_EQ(p.lane.nameId(i), i == 0 ? first : second);
        const EventRef src = p.source[p.lane.payload(i)];
        EXPECT_EQ(trace->lane(src.lane).nameId(src.index), p.lane.nameId(i));
    }
    const std::vector<ProjectedNvtxLane> raw = buildProjectedNvtx(*trace, RangeNaming::Raw);
    ASSERT_EQ(raw.size(), 1u);
    EXPECT_EQ(raw[0].label(raw[0].lane.payload(0)), QStringLiteral("aten::mm, op_id = 1"));
    EXPECT_EQ(raw[0].label(raw[0].lane.payload(1)),
              QStringLiteral("aten::mm, seq = 2, op_id = 3, sizes = [[4, 4]]"));
}

TEST(NvtxProjection, SampleForwardLaunchesItsKernels) {
    const auto trace = test::sampleTrace();
    ASSERT_TRUE(trace);
    NvtxSummary s = summarizeNvtx(*trace);
    addGpuProjection(*trace, s);
    bool found = false;
    for (const NvtxSummaryRow& r : s.rows) {
        if (r.range != QStringLiteral("Forward"))
            continue;
        found = true;
        EXPECT_EQ(r.stats.count, 20u);
        EXPECT_EQ(r.gpuOps, 20u * (50 * 3 + 3)); // 50 layers x 3 ops + fc's 3, per iteration
        EXPECT_EQ(r.instancesWithGpu, 20u);
        // The GPU runs Forward's kernels after the CPU launched them: the span starts later.
        const EventRef first = r.instances.front();
        const NvtxGpuWork w = projectNvtxRange(*trace, first);
        EXPECT_GT(w.span.start, trace->lane(first.lane).start(first.index));
    }
    EXPECT_TRUE(found);
}

} // namespace
