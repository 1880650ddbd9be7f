// SPDX-License-Identifier: MIT
// The one thread label and lane-owner rule every lane header, gap sentence and event detail
// uses: Trace::threadLabel, Trace::processLabel, ownerOf.
#include "model/trace.h"
#include "model/tracebuilder.h"
#include "model/types.h"

#include <gtest/gtest.h>

using namespace strobe;

namespace {

TEST(LaneOwner, ThreadLanesAreTheCpuKindsAndGpuLanesHaveAStreamOrDevice) {
    for (int k = 0; k <= int(LaneKind::Uvm); ++k) {
        const LaneOwner o = ownerOf(LaneKind(k));
        EXPECT_EQ(isGpuLane(LaneKind(k)), o == LaneOwner::Stream || o == LaneOwner::Device) << k;
    }
    EXPECT_EQ(ownerOf(LaneKind::CudaApi), LaneOwner::Thread);
    EXPECT_EQ(ownerOf(LaneKind::Osrt), LaneOwner::Thread);
    EXPECT_EQ(ownerOf(LaneKind::Nvtx), LaneOwner::Thread);
    EXPECT_EQ(ownerOf(LaneKind::CpuOps), LaneOwner::Thread);
    EXPECT_EQ(ownerOf(LaneKind::Python), LaneOwner::Thread);
    EXPECT_EQ(ownerOf(LaneKind::NvtxStartEnd), LaneOwner::Process);
    EXPECT_EQ(ownerOf(LaneKind::Memset), LaneOwner::Stream);
    EXPECT_EQ(ownerOf(LaneKind::Uvm), LaneOwner::Device);
}

TEST(TraceLabels, ThreadAndProcessInEachForm) {
    TraceBuilder b(QStringLiteral("labels"));
    b.setProcessName(4242, b.intern("python"));
    b.setThreadName(4242, 4242, b.intern("python"));
    ApiCallRecord a;
    b.addApiCall(4242, 4242, 0, 10, b.intern("cudaMalloc"), a);
    b.addApiCall(4242, 7, 0, 10, b.intern("cudaFree"), a); // an unnamed thread
    const std::unique_ptr<Trace> t = b.finish();
    std::uint32_t named = 0, unnamed = 0, namedLane = 0;
    for (std::uint32_t li = 0; li < t->lanes().size(); ++li) {
        const std::uint32_t th = t->lane(li).owner();
        if (t->threads()[th].tid == 4242) {
            named = th;
            namedLane = li;
        } else {
            unnamed = th;
        }
    }
    ASSERT_NE(named, unnamed);
    EXPECT_EQ(t->threadLabel(named), QStringLiteral("python [4242]"));
    EXPECT_EQ(t->threadLabel(named, Trace::ThreadLabelForm::WithPid),
              QStringLiteral("python [4242] (pid 4242)"));
    EXPECT_EQ(t->threadLabel(unnamed), QStringLiteral("Thread [7]"));
    EXPECT_EQ(t->threadLabel(unnamed, Trace::ThreadLabelForm::WithPid),
              QStringLiteral("Thread [7] (pid 4242)"));
    EXPECT_EQ(t->threadLabel(99), QStringLiteral("unknown"));
    EXPECT_EQ(t->threadLabel(99, Trace::ThreadLabelForm::WithPid), QStringLiteral("unknown"));
    EXPECT_EQ(t->laneLabel(namedLane), QStringLiteral("python [4242] / CUDA API"));
    const std::uint32_t process = t->threads()[named].process;
    EXPECT_EQ(t->processLabel(process), QStringLiteral("python [4242]"));
    EXPECT_EQ(t->processLabel(99), QStringLiteral("unknown"));
}

} // namespace
