// SPDX-License-Identifier: MIT
// summarizeGpus on 100k devices that each ran one kernel (issue 46 item 6): every device's
// summary looked for its lanes among all the lanes, O(devices x lanes), over 30 s. Results are
// asserted, not times: the quadratic version runs past the test's timeout.
#include "model/analysis/gaps.h"
#include "model/lod/utilization.h"
#include "model/trace.h"
#include "model/tracebuilder.h"

#include <gtest/gtest.h>

using namespace strobe;

namespace {

constexpr std::uint32_t kDevices = 100'000;

// Device d runs one kernel [10 d, 10 d + 5 + d % 3); device 0 also a memcpy after it.
std::unique_ptr<Trace> oneKernelPerDevice() {
    TraceBuilder b(QStringLiteral("devices"));
    KernelConfig c;
    c.shortName = c.demangledName = b.intern("k");
    const std::uint32_t config = b.kernelConfig(c);
    for (std::uint32_t d = 0; d < kDevices; ++d) {
        const TimeNs s = TimeNs(d) * 10;
        b.addKernel(1, d, 1, 7, s, s + 5 + d % 3, config, d + 1, std::nullopt);
    }
    MemcpyRecord m;
    b.addMemcpy(1, 0, 1, 7, 100, 130, b.intern("copy"), m);
    return b.finish();
}

} // namespace

TEST(ManyDevices, SummarizeGpusGivesEveryDeviceItsOwnWork) {
    const auto t = oneKernelPerDevice();
    ASSERT_TRUE(t);
    ASSERT_EQ(t->gpus().size(), kDevices);
    const std::vector<DeviceIdleSummary> all = summarizeGpus(*t, 1);
    ASSERT_EQ(all.size(), kDevices);
    for (std::uint32_t d = 0; d < kDevices; ++d) {
        const DeviceIdleSummary& s = all[d];
        ASSERT_EQ(s.deviceId, d);
        ASSERT_EQ(s.kernelNs, TimeNs(5 + d % 3)) << d;
        ASSERT_EQ(s.copyNs, d == 0 ? 30 : 0) << d;
        ASSERT_TRUE(s.busySpan) << d;
        ASSERT_EQ(s.busySpan->start, TimeNs(d) * 10) << d;
    }
    // Device 0: the kernel [0, 5), then 95 ns idle, then the copy [100, 130).
    EXPECT_EQ(all[0].gapCount, 1u);
    EXPECT_EQ(all[0].idleNs, 95);
    EXPECT_EQ(all[0].busyNs, 35);
    EXPECT_EQ(all[1].gapCount, 0u);
    // Counting kernels alone, device 0 has no gap.
    const std::vector<DeviceIdleSummary> kernels = summarizeGpus(*t, 1, BusyWork::Kernels);
    ASSERT_EQ(kernels.size(), kDevices);
    EXPECT_EQ(kernels[0].gapCount, 0u);
    EXPECT_EQ(kernels[0].busyNs, 5);
    // The utilisation agrees, device by device.
    const std::vector<GpuUtilization> util = buildUtilization(*t);
    ASSERT_EQ(util.size(), kDevices);
    EXPECT_EQ(util[kDevices - 1].deviceId, kDevices - 1);
    ASSERT_EQ(util[kDevices - 1].kernels.busy().size(), 1u);
    EXPECT_EQ(
        util[kDevices - 1].kernels.busy()[0],
        (TimeRange{TimeNs(kDevices - 1) * 10, TimeNs(kDevices - 1) * 10 + 5 + (kDevices - 1) % 3}));
    EXPECT_EQ(util[0].copies.busy().size(), 1u);
}

TEST(ManyDevices, ACancelledUtilisationIsEmpty) {
    const auto t = oneKernelPerDevice();
    const std::atomic<bool> cancelled{true};
    EXPECT_TRUE(buildUtilization(*t, &cancelled).empty());
}
