// SPDX-License-Identifier: MIT
// A big trace's GPU side can be shown before its CPU side is read (LoadOptions::preview).
#include "formats/open.h"
#include "tests/support/sqlitequery.h"

#include <gtest/gtest.h>

using namespace strobe;

namespace {
QString h100() {
    return QString::fromStdString(test::fixturePath("nsys2026.2-h100-2gpu-nvtx.sqlite"));
}
} // namespace

TEST(LoadPreview, GpuSideArrivesFirstAndTheFullTraceIsUnchanged) {
    std::vector<std::unique_ptr<Trace>> previews;
    LoadOptions withPreview;
    withPreview.previewMinRows = 0;
    withPreview.preview = [&](std::unique_ptr<Trace> t) { previews.push_back(std::move(t)); };
    LoadResult full = loadTrace(h100(), withPreview);
    LoadResult plain = loadTrace(h100());
    ASSERT_TRUE(full.ok() && plain.ok());

    ASSERT_EQ(previews.size(), 1u);
    const Trace& p = *previews.front();
    EXPECT_EQ(p.kernelCount(), 3442u);
    EXPECT_EQ(p.counts().memsets, 22u);
    EXPECT_EQ(p.counts().cudaApiCalls, 0u) << "the CPU side is not read yet";
    EXPECT_TRUE(p.warnings().empty());
    std::size_t gpuLanes = 0;
    for (const Lane& l : plain.trace->lanes())
        gpuLanes += isGpuLane(l.kind());
    ASSERT_EQ(p.lanes().size(), gpuLanes);
    for (const Lane& l : p.lanes())
        EXPECT_TRUE(isGpuLane(l.kind()));
    for (std::size_t i = 0; i < p.kernelCount(); ++i)
        ASSERT_EQ(p.kernelAt(i).start, plain.trace->kernelAt(i).start);

    // The preview changes nothing in the final trace.
    const Trace &a = *full.trace, &b = *plain.trace;
    EXPECT_EQ(a.counts().cudaApiCalls, b.counts().cudaApiCalls);
    EXPECT_EQ(a.warnings().size(), b.warnings().size());
    ASSERT_EQ(a.lanes().size(), b.lanes().size());
    for (std::uint32_t i = 0; i < a.lanes().size(); ++i) {
        EXPECT_EQ(a.laneLabel(i), b.laneLabel(i));
        EXPECT_EQ(a.lane(i).size(), b.lane(i).size());
    }
    for (std::size_t i = 0; i < a.kernelCount(); ++i)
        ASSERT_EQ(a.kernels()[i].api, b.kernels()[i].api);
}

TEST(LoadPreview, SmallTracesGetNoPreview) {
    int calls = 0;
    LoadOptions o; // default threshold: a million rows
    o.preview = [&](std::unique_ptr<Trace>) { ++calls; };
    ASSERT_TRUE(loadTrace(h100(), o).ok());
    EXPECT_EQ(calls, 0);
}

TEST(LoadPreview, ProcessesAndThreadsAreInPidOrder) {
    LoadResult r = loadTrace(h100());
    ASSERT_TRUE(r.ok());
    const Trace& t = *r.trace;
    for (std::size_t i = 1; i < t.processes().size(); ++i)
        EXPECT_LT(t.processes()[i - 1].pid, t.processes()[i].pid);
    for (std::size_t i = 1; i < t.threads().size(); ++i)
        EXPECT_LT(std::tie(t.threads()[i - 1].pid, t.threads()[i - 1].tid),
                  std::tie(t.threads()[i].pid, t.threads()[i].tid));
    for (const ThreadInfo& th : t.threads())
        EXPECT_EQ(t.processes()[th.process].pid, th.pid);
}
