// SPDX-License-Identifier: MIT
// The reopen cache's preview (cachePreviewOf): a spread sample of each GPU lane, exactly, against
// a list made here from the whole trace's lanes.
#include "formats/cache/tracepreview.h"
#include "formats/open.h"
#include "model/trace.h"
#include "tests/formats/cache/cachetesthelpers.h"
#include "tests/formats/cache/traceequal.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <string>
#include <tuple>
#include <vector>

namespace strobe {
namespace {

// One GPU event as a reader sees it: where it is drawn (lane kind, device, context, stream),
// its times and name, and the record fields that tell two apart.
using GpuEvent = std::tuple<int, std::uint32_t, std::uint32_t, std::uint32_t, TimeNs, TimeNs,
                            std::string, std::uint64_t>;

GpuEvent eventOf(const Trace& t, const Lane& l, std::uint32_t i) {
    std::uint32_t stream = 0;
    std::uint64_t detail = 0;
    if (l.kind() == LaneKind::Kernels) {
        const KernelRecord k = t.kernels()[l.payload(i)];
        stream = k.stream;
        const KernelConfig& c = t.kernelConfigs()[k.config];
        detail = std::uint64_t(c.grid[0]) * 1'000'003 + std::uint64_t(c.block[0]) +
                 k.correlationId.value_or(0) * 7;
    } else if (l.kind() == LaneKind::Memset) {
        stream = t.memsets()[l.payload(i)].stream;
        detail = t.memsets()[l.payload(i)].bytes;
    } else {
        stream = t.memcpys()[l.payload(i)].stream;
        detail = t.memcpys()[l.payload(i)].bytes;
    }
    const StreamInfo& s = t.streams()[stream];
    return {int(l.kind()),
            s.deviceId,
            s.contextId,
            s.streamId,
            l.start(i),
            l.end(i),
            std::string(t.strings().view(l.nameId(i))),
            detail};
}

// Of each GPU lane, the events whose index i has (i / block) % stride == 0; sorted.
std::vector<GpuEvent> gpuEvents(const Trace& t, std::uint64_t block = 1, std::uint64_t stride = 1) {
    std::vector<GpuEvent> events;
    for (const Lane& l : t.lanes()) {
        for (std::uint32_t i = 0; isGpuLane(l.kind()) && i < l.size(); ++i) {
            if ((i / block) % stride == 0)
                events.push_back(eventOf(t, l, i));
        }
    }
    std::sort(events.begin(), events.end());
    return events;
}

class TracePreview : public testing::TestWithParam<const char*> {};

// Against every stride tried in turn: the first power of two whose sample holds at most `max`.
TEST_P(TracePreview, HoldsOneBlockInEveryStrideOfEachGpuLane) {
    const LoadResult full = loadTrace(kFixtures + u'/' + QLatin1String(GetParam()));
    ASSERT_TRUE(full.ok()) << full.error.toStdString();
    const std::vector<GpuEvent> all = gpuEvents(*full.trace);
    ASSERT_GT(all.size(), 50u);
    int samples = 0;
    for (const std::uint32_t block : {8u, 256u}) {
        for (const std::size_t max : {all.size() / 3, all.size() / 2 + 1, all.size() - 1}) {
            SCOPED_TRACE(testing::Message()
                         << "at most " << max << " of " << all.size() << " in blocks of " << block);
            // Past the longest lane's blocks every stride keeps the first block of each lane.
            const std::uint64_t longest = std::uint64_t(all.size() / block + 1);
            std::uint64_t stride = 1;
            while (stride <= 2 * longest && gpuEvents(*full.trace, block, stride).size() > max)
                stride *= 2;
            const std::unique_ptr<Trace> preview = cachePreviewOf(*full.trace, max, block);
            if (stride > 2 * longest) {
                EXPECT_EQ(preview, nullptr) << "the first blocks alone are too many";
                continue;
            }
            ++samples;
            const std::vector<GpuEvent> expected = gpuEvents(*full.trace, block, stride);
            ASSERT_NE(preview, nullptr);
            EXPECT_GT(stride, 1u);
            EXPECT_EQ(gpuEvents(*preview), expected);
            EXPECT_EQ(laneEventCount(*preview), expected.size()) << "no CPU events";
            EXPECT_EQ(preview->metadata().stage, TraceStage::GpuSideBegun);
            EXPECT_EQ(preview->metadata().gpuSampleStride, stride);
            EXPECT_EQ(preview->timeRange().start, full.trace->timeRange().start);
            EXPECT_EQ(preview->timeRange().end, full.trace->timeRange().end) << "whole extent";
            EXPECT_TRUE(preview->warnings().empty());
            test::exerciseTrace(*preview);
        }
    }
    EXPECT_GE(samples, 3) << "blocks of 8 always leave a sample";
    // Room for every GPU event: the whole GPU side.
    const std::unique_ptr<Trace> whole = cachePreviewOf(*full.trace, all.size());
    ASSERT_NE(whole, nullptr);
    EXPECT_EQ(gpuEvents(*whole), all);
    EXPECT_EQ(whole->metadata().stage, TraceStage::GpuSide);
    EXPECT_EQ(whole->metadata().gpuSampleStride, 1u);
    EXPECT_EQ(cachePreviewOf(*full.trace, 0), nullptr) << "no room: no preview";
}

INSTANTIATE_TEST_SUITE_P(Fixtures, TracePreview,
                         testing::Values("nsys/nsys2026.2-h100-2gpu-nvtx.sqlite",
                                         "nsys/nsys2023.3-openmp-offload.sqlite",
                                         "nsys/nsys2024.5-cloverleaf.sqlite",
                                         "kineto/hta-v100-memory-events.json.gz"));

TEST(TracePreview, ATraceWithoutGpuEventsHasNone) {
    LoadOptions cpuOnly;
    cpuOnly.parts = TracePart::CudaApi;
    const LoadResult cpu = loadTrace(kSmallNsys, cpuOnly);
    ASSERT_TRUE(cpu.ok());
    ASSERT_TRUE(gpuEvents(*cpu.trace).empty());
    EXPECT_EQ(cachePreviewOf(*cpu.trace, 1000), nullptr);
}

} // namespace
} // namespace strobe
