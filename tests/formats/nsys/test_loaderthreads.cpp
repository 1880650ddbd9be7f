// SPDX-License-Identifier: MIT
// The threaded loads (one worker steps SQLite while the loader builds lanes; or two workers read
// each table in rowid stripes) must give exactly the trace the one-thread load gives: same lanes,
// same events in the same order, same records.
#include "formats/open.h"
#include "tests/support/synthexport.h"

#include <QTemporaryDir>
#include <gtest/gtest.h>

#include <algorithm>

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

// Every lane of `a` equals the one of `b` at its index, event by event (times, names, payloads,
// rows); returns the events compared.
std::uint64_t expectSameLanes(const Trace& a, const Trace& b) {
    EXPECT_EQ(a.lanes().size(), b.lanes().size());
    std::uint64_t events = 0;
    for (std::uint32_t li = 0; li < std::min(a.lanes().size(), b.lanes().size()); ++li) {
        const Lane& x = a.lane(li);
        const Lane& y = b.lane(li);
        EXPECT_EQ(x.kind(), y.kind());
        EXPECT_EQ(x.owner(), y.owner());
        EXPECT_EQ(x.domain(), y.domain());
        EXPECT_EQ(x.rowCount(), y.rowCount());
        EXPECT_EQ(x.timeRange(), y.timeRange());
        if (x.size() != y.size()) {
            ADD_FAILURE() << "lane " << li << ": " << x.size() << " events against " << y.size();
            continue;
        }
        for (std::uint32_t i = 0; i < x.size(); ++i) {
            if (x.start(i) != y.start(i) || x.end(i) != y.end(i) || x.nameId(i) != y.nameId(i) ||
                x.payload(i) != y.payload(i) || x.row(i) != y.row(i)) {
                ADD_FAILURE() << "lane " << li << " event " << i << " differs";
                break;
            }
        }
        events += x.size();
    }
    return events;
}

} // namespace

class LoaderThreads : public ::testing::TestWithParam<int> {};

TEST_P(LoaderThreads, GiveTheTraceOfTheOneThreadLoad) {
    QTemporaryDir dir;
    const QString path = test::writeSynth(dir, 60'000, 3);
    const auto one = load(path, 1);
    const auto two = load(path, GetParam());
    ASSERT_TRUE(one && two);
    EXPECT_EQ(one->timeRange(), two->timeRange());
    ASSERT_EQ(one->strings().size(), two->strings().size());
    for (StringId s = 0; s < one->strings().size(); ++s)
        ASSERT_EQ(one->strings().view(s), two->strings().view(s));
    ASSERT_EQ(one->threads().size(), two->threads().size());
    EXPECT_GT(expectSameLanes(*one, *two), 50'000u);
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
    const QString path = test::writeSynth(dir, 60'000, 5);
    const TraceParts gpu = TracePart::Kernels | TracePart::Memcpys | TracePart::Memsets;
    const auto one = load(path, 1, gpu);
    const auto many = load(path, GetParam(), gpu);
    ASSERT_TRUE(one && many);
    expectSameLanes(*one, *many);
    int kernelLanes = 0;
    for (const Lane& l : one->lanes())
        kernelLanes += l.kind() == LaneKind::Kernels ? 1 : 0;
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
    const QString path = test::writeSynth(dir, 40'000, 1);
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
