// SPDX-License-Identifier: MIT
// summarizeLaunches (nsys's cuda_kern_exec_sum) and summarizeNvtxGpu (nvtx_gpu_proj_sum) on
// hand-built traces with the cases the real fixtures lack: a kernel that starts before its call
// returns, a graph launch of two kernels, a kernel without its call, a call that crosses a
// range's end. The fixtures' SQL comparison is in tests/app/cli/test_cmd_statsreports.cpp.
#include "model/analysis/launchstats.h"
#include "model/analysis/nvtxgpustats.h"
#include "model/tracebuilder.h"

#include <gtest/gtest.h>
#include <memory>

using namespace strobe;

namespace {

struct Builder {
    TraceBuilder b{QStringLiteral("launches.sqlite")};
    std::uint32_t corr = 0;
    Builder() {
        GpuInfo g;
        g.id = 0;
        b.addGpu(g);
    }
    std::uint32_t call(std::uint32_t tid, const char* name, TimeNs start, TimeNs end) {
        ApiCallRecord a;
        a.correlationId = ++corr;
        b.addApiCall(1, tid, start, end, b.intern(name), a);
        return corr;
    }
    void kernel(const char* name, TimeNs start, TimeNs end, std::uint32_t correlation) {
        KernelConfig c;
        c.shortName = c.demangledName = b.intern(name);
        b.addKernel(1, 0, 1, 7, start, end, c, correlation, std::nullopt);
    }
    void range(std::uint32_t tid, const char* name, TimeNs start, TimeNs end) {
        b.addNvtx(1, tid, kNoString, start, end, b.intern(name), NvtxRecord{}, std::nullopt);
    }
    std::unique_ptr<Trace> finish() { return b.finish(); }
};

} // namespace

TEST(LaunchStats, QueueTimeOnlyForKernelsStartingAfterTheirCallAndGraphKernelsEachCount) {
    Builder t;
    t.kernel("a", 300, 400, t.call(1, "cudaLaunchKernel", 100, 200));     // queue 100
    t.kernel("a", 1100, 1150, t.call(1, "cudaLaunchKernel", 1000, 1200)); // starts inside
    const std::uint32_t graph = t.call(1, "cudaGraphLaunch", 2000, 2100);
    t.kernel("b", 2200, 2300, graph); // queue 100
    t.kernel("b", 2300, 2500, graph); // queue 200
    t.kernel("c", 3000, 3100, 99);    // its call was not recorded
    const auto trace = t.finish();
    const std::vector<LaunchSummaryRow> rows = summarizeLaunches(*trace);
    ASSERT_EQ(rows.size(), 2u); // c has no launching call
    // By average total time: b (300 and 500 ns) before a (300 and 200 ns).
    const LaunchSummaryRow& b = rows[0];
    EXPECT_EQ(b.name, QStringLiteral("b"));
    EXPECT_EQ(b.instances.size(), 2u);
    EXPECT_EQ(b.api.count, 2u);
    EXPECT_DOUBLE_EQ(b.api.mean, 100.0);
    EXPECT_EQ(b.queue.count, 2u);
    EXPECT_DOUBLE_EQ(b.queue.mean, 150.0);
    EXPECT_EQ(b.queue.max, 200);
    EXPECT_DOUBLE_EQ(b.total.mean, 400.0);
    const LaunchSummaryRow& a = rows[1];
    EXPECT_EQ(a.name, QStringLiteral("a"));
    EXPECT_EQ(a.kernel.count, 2u);
    EXPECT_DOUBLE_EQ(a.api.mean, 150.0);
    EXPECT_EQ(a.queue.count, 1u); // the second kernel began 100 ns before its call returned
    EXPECT_DOUBLE_EQ(a.queue.mean, 100.0);
    EXPECT_DOUBLE_EQ(a.kernel.mean, 75.0);
    EXPECT_DOUBLE_EQ(a.total.mean, 250.0); // 300, and 200 (the call ends after the kernel)
}

TEST(NvtxGpuStats, AnOperationBelongsToEveryRangeThatHoldsItsCallWhole) {
    Builder t;
    t.range(1, "outer", 0, 5000);
    t.range(1, "inner", 1000, 3000);
    t.range(1, "inner", 6000, 7000);  // launches nothing: left out
    t.range(2, "elsewhere", 0, 9000); // thread 2 launches nothing
    t.kernel("k1", 4000, 4500, t.call(1, "cudaLaunchKernel", 1100, 1200));
    t.kernel("k2", 6000, 6100, t.call(1, "cudaLaunchKernel", 2900, 3100)); // crosses inner's end
    t.kernel("k3", 8000, 8100, t.call(1, "cudaLaunchKernel", 5000, 5100)); // after outer
    const auto trace = t.finish();
    const std::vector<NvtxGpuSummaryRow> rows = summarizeNvtxGpu(*trace);
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[0].range, QStringLiteral("outer"));
    EXPECT_EQ(rows[0].gpuOps, 2u);
    EXPECT_EQ(rows[0].projected.total, 2100); // 4000 .. 6100
    EXPECT_EQ(rows[0].totalRangeNs, 5000);
    EXPECT_EQ(rows[1].range, QStringLiteral("inner"));
    EXPECT_EQ(rows[1].projected.count, 1u); // the second "inner" launched nothing
    EXPECT_EQ(rows[1].gpuOps, 1u);
    EXPECT_EQ(rows[1].projected.total, 500);
    EXPECT_EQ(rows[1].totalRangeNs, 2000);
    EXPECT_DOUBLE_EQ(rows[1].avgGpuOps(), 1.0);
}
