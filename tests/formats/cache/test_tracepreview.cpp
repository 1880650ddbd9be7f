// SPDX-License-Identifier: MIT
// The reopen cache's preview (cachePreviewOf): the GPU events that start before a cut, exactly,
// against a list made here from the whole trace's lanes.
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

std::vector<GpuEvent> gpuEvents(const Trace& t) {
    std::vector<GpuEvent> events;
    for (std::uint32_t li = 0; li < t.lanes().size(); ++li) {
        const Lane& l = t.lane(li);
        if (!isGpuLane(l.kind()))
            continue;
        for (std::uint32_t i = 0; i < l.size(); ++i) {
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
            events.emplace_back(int(l.kind()), s.deviceId, s.contextId, s.streamId, l.start(i),
                                l.end(i), std::string(t.strings().view(l.nameId(i))), detail);
        }
    }
    std::sort(events.begin(), events.end());
    return events;
}

// The events a preview of at most `max` must hold: those that start before the latest moment
// with at most `max` starting before it.
std::vector<GpuEvent> expectedPreview(const std::vector<GpuEvent>& all, std::size_t max) {
    std::vector<TimeNs> starts;
    for (const GpuEvent& e : all)
        starts.push_back(std::get<4>(e));
    std::sort(starts.begin(), starts.end());
    if (starts.size() <= max)
        return all;
    std::size_t k = max; // back to a place between two different starts
    while (k > 0 && starts[k - 1] == starts[k])
        --k;
    std::vector<GpuEvent> kept;
    for (const GpuEvent& e : all) {
        if (std::get<4>(e) < starts[k])
            kept.push_back(e);
    }
    return kept;
}

class TracePreview : public testing::TestWithParam<const char*> {};

TEST_P(TracePreview, HoldsTheGpuEventsBeforeTheCut) {
    const LoadResult full = loadTrace(kFixtures + u'/' + QLatin1String(GetParam()));
    ASSERT_TRUE(full.ok()) << full.error.toStdString();
    const std::vector<GpuEvent> all = gpuEvents(*full.trace);
    ASSERT_GT(all.size(), 50u);
    for (const std::size_t max : {all.size() / 3, all.size() / 2 + 1, all.size() - 1}) {
        SCOPED_TRACE(testing::Message() << "at most " << max << " of " << all.size());
        const std::unique_ptr<Trace> preview = cachePreviewOf(*full.trace, max);
        ASSERT_NE(preview, nullptr);
        const std::vector<GpuEvent> expected = expectedPreview(all, max);
        ASSERT_GT(expected.size(), 0u);
        EXPECT_LT(expected.size(), all.size());
        EXPECT_EQ(gpuEvents(*preview), expected);
        EXPECT_EQ(laneEventCount(*preview), expected.size()) << "no CPU events";
        EXPECT_EQ(preview->metadata().stage, TraceStage::GpuSideBegun);
        EXPECT_EQ(preview->timeRange().start, full.trace->timeRange().start);
        EXPECT_EQ(preview->timeRange().end, full.trace->timeRange().end) << "the whole extent";
        EXPECT_TRUE(preview->warnings().empty());
        test::exerciseTrace(*preview);
    }
    // Room for every GPU event: the whole GPU side.
    const std::unique_ptr<Trace> whole = cachePreviewOf(*full.trace, all.size());
    ASSERT_NE(whole, nullptr);
    EXPECT_EQ(gpuEvents(*whole), all);
    EXPECT_EQ(whole->metadata().stage, TraceStage::GpuSide);
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
