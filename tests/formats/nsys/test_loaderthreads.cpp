// SPDX-License-Identifier: MIT
// The threaded loads (one worker steps SQLite while the loader builds lanes; or two workers read
// each table in rowid stripes) must give exactly the trace the one-thread load gives: same lanes,
// same events in the same order, same records.
#include "formats/nsys/synth/synthtrace.h"
#include "formats/open.h"

#include <QTemporaryDir>
#include <gtest/gtest.h>

using namespace strobe;

namespace {

std::unique_ptr<Trace> load(const QString& path, int threads, TraceParts parts = kAllTraceParts) {
    LoadOptions o;
    o.threads = threads;
    o.parts = parts;
    LoadResult r = loadTrace(path, o);
    EXPECT_TRUE(r.ok()) << r.error.toStdString();
    return std::move(r.trace);
}

bool sameEvent(const EventRef& a, const EventRef& b) {
    return a == b;
}

} // namespace

class LoaderThreads : public ::testing::TestWithParam<int> {};

TEST_P(LoaderThreads, GiveTheTraceOfTheOneThreadLoad) {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("synth.sqlite"));
    synth::SynthOptions so;
    so.events = 60'000; // several chunks of the row stream per table
    so.seed = 3;
    std::string error;
    ASSERT_TRUE(synth::writeSynthTrace(path.toStdString(), so, &error)) << error;

    const auto one = load(path, 1);
    const auto two = load(path, GetParam());
    ASSERT_TRUE(one && two);
    EXPECT_EQ(one->timeRange(), two->timeRange());
    ASSERT_EQ(one->strings().size(), two->strings().size());
    for (StringId s = 0; s < one->strings().size(); ++s)
        ASSERT_EQ(one->strings().view(s), two->strings().view(s));
    ASSERT_EQ(one->threads().size(), two->threads().size());
    ASSERT_EQ(one->lanes().size(), two->lanes().size());
    std::uint64_t events = 0;
    for (std::uint32_t li = 0; li < one->lanes().size(); ++li) {
        const Lane& a = one->lane(li);
        const Lane& b = two->lane(li);
        ASSERT_EQ(a.kind(), b.kind());
        ASSERT_EQ(a.owner(), b.owner());
        ASSERT_EQ(a.domain(), b.domain());
        ASSERT_EQ(a.size(), b.size());
        ASSERT_EQ(a.rowCount(), b.rowCount());
        for (std::uint32_t i = 0; i < a.size(); ++i) {
            ASSERT_EQ(a.start(i), b.start(i)) << "lane " << li << " event " << i;
            ASSERT_EQ(a.end(i), b.end(i));
            ASSERT_EQ(a.nameId(i), b.nameId(i));
            ASSERT_EQ(a.payload(i), b.payload(i));
        }
        events += a.size();
    }
    EXPECT_GT(events, 50'000u);
    ASSERT_EQ(one->kernels().size(), two->kernels().size());
    for (std::size_t i = 0; i < one->kernels().size(); ++i) {
        const KernelRecord& a = one->kernels()[i];
        const KernelRecord& b = two->kernels()[i];
        ASSERT_TRUE(sameEvent(a.self, b.self) && sameEvent(a.api, b.api));
        ASSERT_EQ(a.config, b.config);
        ASSERT_EQ(a.correlationId, b.correlationId);
    }
    EXPECT_EQ(one->kernelConfigs(), two->kernelConfigs());
    ASSERT_EQ(one->apiCalls().size(), two->apiCalls().size());
    for (std::size_t i = 0; i < one->apiCalls().size(); ++i)
        ASSERT_EQ(one->apiCalls()[i].gpuOp, two->apiCalls()[i].gpuOp);
    ASSERT_EQ(one->nvtx().size(), two->nvtx().size());
    for (std::size_t i = 0; i < one->nvtx().size(); ++i) {
        ASSERT_EQ(one->nvtx()[i].depth, two->nvtx()[i].depth);
        ASSERT_EQ(one->nvtx()[i].color, two->nvtx()[i].color);
    }
    EXPECT_EQ(one->memcpys().size(), two->memcpys().size());
    EXPECT_EQ(one->syncs().size(), two->syncs().size());
    EXPECT_EQ(one->counts().kernels, two->counts().kernels);
    EXPECT_EQ(one->counts().nvtxRanges, two->counts().nvtxRanges);
    EXPECT_EQ(one->warnings().size(), two->warnings().size());
}

// A load of the GPU side alone sorts its lanes on every thread of the load (TraceBuilder::finish),
// biggest first: the same lanes, rows and kernel order as one thread sorting them in turn.
TEST_P(LoaderThreads, GiveTheGpuSideOfTheOneThreadLoad) {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("synth.sqlite"));
    synth::SynthOptions so;
    so.events = 60'000;
    so.seed = 5;
    std::string error;
    ASSERT_TRUE(synth::writeSynthTrace(path.toStdString(), so, &error)) << error;
    const TraceParts gpu = TracePart::Kernels | TracePart::Memcpys | TracePart::Memsets;
    const auto one = load(path, 1, gpu);
    const auto many = load(path, GetParam(), gpu);
    ASSERT_TRUE(one && many);
    ASSERT_EQ(one->lanes().size(), many->lanes().size());
    int kernelLanes = 0;
    for (std::uint32_t li = 0; li < one->lanes().size(); ++li) {
        const Lane& a = one->lane(li);
        const Lane& b = many->lane(li);
        ASSERT_EQ(a.kind(), b.kind());
        ASSERT_EQ(a.owner(), b.owner());
        ASSERT_EQ(a.size(), b.size());
        ASSERT_EQ(a.rowCount(), b.rowCount());
        ASSERT_EQ(a.timeRange(), b.timeRange());
        for (std::uint32_t i = 0; i < a.size(); ++i) {
            ASSERT_EQ(a.start(i), b.start(i)) << "lane " << li << " event " << i;
            ASSERT_EQ(a.end(i), b.end(i));
            ASSERT_EQ(a.nameId(i), b.nameId(i));
            ASSERT_EQ(a.payload(i), b.payload(i));
            ASSERT_EQ(a.row(i), b.row(i));
        }
        kernelLanes += a.kind() == LaneKind::Kernels ? 1 : 0;
    }
    EXPECT_GT(kernelLanes, 1); // lanes to share between the threads
    ASSERT_GT(one->kernels().size(), 10'000u);
    ASSERT_EQ(one->kernels().size(), many->kernels().size());
    for (std::size_t i = 0; i < one->kernels().size(); ++i) {
        ASSERT_EQ(one->kernels()[i].self, many->kernels()[i].self) << "kernel " << i;
        ASSERT_EQ(one->kernels()[i].config, many->kernels()[i].config);
        ASSERT_EQ(one->kernels()[i].correlationId, many->kernels()[i].correlationId);
    }
    for (std::size_t i = 1; i < many->kernels().size(); ++i) // kernels in start order
        ASSERT_LE(
            many->lane(many->kernels()[i - 1].self.lane).start(many->kernels()[i - 1].self.index),
            many->lane(many->kernels()[i].self.lane).start(many->kernels()[i].self.index));
    EXPECT_EQ(one->memcpys().size(), many->memcpys().size());
    EXPECT_EQ(one->memsets().size(), many->memsets().size());
    EXPECT_EQ(one->warnings().size(), many->warnings().size());
}

INSTANTIATE_TEST_SUITE_P(WorkersStepping, LoaderThreads, ::testing::Values(2, 3));

TEST_P(LoaderThreads, CancelStopsTheLoad) {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("synth.sqlite"));
    synth::SynthOptions so;
    so.events = 40'000;
    std::string error;
    ASSERT_TRUE(synth::writeSynthTrace(path.toStdString(), so, &error)) << error;
    std::atomic<bool> cancel{false};
    LoadOptions o;
    o.threads = GetParam();
    o.cancel = &cancel;
    o.progress = [&](int permille) {
        if (permille > 100)
            cancel = true;
    };
    const LoadResult r = loadTrace(path, o);
    EXPECT_TRUE(r.cancelled);
    EXPECT_FALSE(r.ok());
}
