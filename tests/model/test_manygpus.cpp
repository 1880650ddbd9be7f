// SPDX-License-Identifier: MIT
// TraceBuilder with a hostile number of GPUs (issue 46 item 6): 100k device descriptions (a
// Kineto deviceProperties array, an nsys TARGET_INFO_GPU table) took 10 s, each one compared
// with every GPU before it. Results are asserted, not times: the quadratic version takes
// longer than the test's timeout.
#include "model/trace.h"
#include "model/tracebuilder.h"

#include <gtest/gtest.h>

using namespace strobe;

namespace {

const TraceWarning* warningOf(const Trace& t, const QString& kind) {
    for (const TraceWarning& w : t.warnings()) {
        if (w.kind == kind)
            return &w;
    }
    return nullptr;
}

constexpr std::uint32_t kDevices = 100'000;
constexpr std::size_t kCap = TraceBuilder::kMaxGpuDescriptions;

} // namespace

TEST(ManyGpus, DescriptionsPastTheCapAreDroppedAndCountedOnce) {
    TraceBuilder b(QStringLiteral("many"));
    for (std::uint32_t id = 0; id < kDevices; ++id) {
        GpuInfo g;
        g.id = kDevices - 1 - id; // descending: the order they are kept in is not the ids'
        g.smCount = 1 + id;
        b.addGpu(g);
    }
    // Described again: kept ones are replaced, dropped ones are counted again.
    GpuInfo again;
    again.id = kDevices - 1;
    again.smCount = 7;
    b.addGpu(again);
    again.id = 0;
    b.addGpu(again);
    KernelConfig c;
    c.shortName = c.demangledName = b.intern("k");
    b.addKernel(1, 5, 1, 7, 0, 10, c, 1, std::nullopt); // device 5: dropped, but it ran work
    const auto t = b.finish();
    ASSERT_TRUE(t);
    // The first kCap ids described (kDevices - 1 down to kDevices - kCap), plus device 5.
    ASSERT_EQ(t->gpus().size(), kCap + 1);
    EXPECT_EQ(t->gpus().front().id, 5u);
    EXPECT_EQ(t->gpus().front().smCount, 0u); // its description was dropped
    EXPECT_EQ(t->gpus()[1].id, kDevices - kCap);
    EXPECT_EQ(t->gpus()[1].smCount, kCap);
    EXPECT_EQ(t->gpus().back().id, kDevices - 1);
    EXPECT_EQ(t->gpus().back().smCount, 7u);
    for (std::size_t i = 1; i < t->gpus().size(); ++i)
        ASSERT_LT(t->gpus()[i - 1].id, t->gpus()[i].id);
    const TraceWarning* w = warningOf(*t, QStringLiteral("too-many-gpus"));
    ASSERT_NE(w, nullptr);
    EXPECT_EQ(w->count, kDevices - kCap + 1);
    EXPECT_TRUE(w->message.startsWith(QString::number(kDevices - kCap + 1) +
                                      QStringLiteral(" GPU descriptions beyond the first 4096")))
        << w->message.toStdString();
}

TEST(ManyGpus, AtTheCapNothingIsDropped) {
    TraceBuilder b(QStringLiteral("cap"));
    for (std::uint32_t id = 0; id < kCap; ++id) {
        GpuInfo g;
        g.id = id;
        b.addGpu(g);
        b.addGpu(g); // the same one twice counts once
    }
    const auto t = b.finish();
    EXPECT_EQ(t->gpus().size(), kCap);
    EXPECT_EQ(warningOf(*t, QStringLiteral("too-many-gpus")), nullptr);
}

// 100k devices that each ran one kernel and sampled their memory: every one gets its GPU and
// its memory track, found by a lookup rather than a scan of those before it.
TEST(ManyGpus, AHundredThousandBusyDevicesEachGetTheirGpuAndMemoryTrack) {
    TraceBuilder b(QStringLiteral("busy"));
    KernelConfig c;
    c.shortName = c.demangledName = b.intern("k");
    const std::uint32_t config = b.kernelConfig(c);
    for (std::uint32_t d = 0; d < kDevices; ++d) {
        b.addKernel(1, d, 1, 7, TimeNs(d) * 10, TimeNs(d) * 10 + 5, config, d + 1, std::nullopt);
        b.addGpuMemorySample(d, {TimeNs(d), d, std::nullopt});
        b.addGpuMemorySample(d, {TimeNs(d) + 1, d + 1, std::nullopt});
    }
    const auto t = b.finish();
    ASSERT_EQ(t->gpus().size(), kDevices);
    EXPECT_EQ(t->gpus().back().id, kDevices - 1);
    EXPECT_EQ(warningOf(*t, QStringLiteral("too-many-gpus")), nullptr); // none was described
    // Looked up by bisection (a scan per lookup made strobe-cli info's per-GPU lines quadratic).
    for (std::uint32_t d = 0; d < kDevices; d += 997) {
        const GpuInfo* g = t->gpuById(d);
        ASSERT_NE(g, nullptr) << d;
        EXPECT_EQ(g->id, d);
    }
    EXPECT_EQ(t->gpuById(kDevices), nullptr);
    ASSERT_EQ(t->gpuMemory().size(), kDevices);
    EXPECT_EQ(t->gpuMemory().back().deviceId, kDevices - 1);
    ASSERT_EQ(t->gpuMemory().back().samples.size(), 2u);
    EXPECT_EQ(t->gpuMemory().back().samples[1].allocated, kDevices);
}
