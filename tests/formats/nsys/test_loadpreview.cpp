// SPDX-License-Identifier: MIT
// A big trace's GPU side can be shown before its CPU side is read (LoadOptions::preview).
#include "formats/open.h"
#include "tests/support/sqlitequery.h"
#include "tests/support/synthexport.h"

#include <QTemporaryDir>
#include <algorithm>

#include <gtest/gtest.h>

using namespace strobe;

namespace {
QString h100() {
    return QString::fromStdString(test::fixturePath("nsys2026.2-h100-2gpu-nvtx.sqlite"));
}

// A reduced export: the kernel table without `column`.
void dropKernelColumn(const QString& path, const char* column) {
    test::exec(path.toStdString(),
               std::string("ALTER TABLE CUPTI_ACTIVITY_KIND_KERNEL DROP COLUMN ") + column);
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
    EXPECT_EQ(p.metadata().stage, TraceStage::GpuSide);
    EXPECT_EQ(plain.trace->metadata().stage, TraceStage::Complete);
    // Its extent is the whole trace's, estimated from the tables' first and last rows, not the
    // GPU side's own (the CPU side begins 0.1 s before the first kernel here).
    EXPECT_EQ(p.timeRange(), plain.trace->timeRange());
    EXPECT_GT(p.kernelAt(0).start, plain.trace->timeRange().start);
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

TEST(LoadPreview, AnEarlyPreviewShowsTheFirstGpuRowsOverTheWholeExtent) {
    QTemporaryDir dir;
    const QString path = test::writeSynth(
        dir, 300'000, 5); // ~90k kernels: several rows-done steps of 16384 rows into the GPU side
    ASSERT_FALSE(path.isEmpty());
    for (const int threads : {1, 3}) {
        std::vector<std::unique_ptr<Trace>> previews;
        LoadOptions o;
        o.threads = threads;
        o.previewMinRows = 0;
        o.earlyPreviewAfter = std::chrono::milliseconds(0); // at the first step of the GPU side
        o.preview = [&](std::unique_ptr<Trace> t) { previews.push_back(std::move(t)); };
        const LoadResult full = loadTrace(path, o);
        ASSERT_TRUE(full.ok()) << full.error.toStdString();
        ASSERT_EQ(previews.size(), 2u);
        const Trace &early = *previews[0], &gpu = *previews[1], &t = *full.trace;
        EXPECT_EQ(early.metadata().stage, TraceStage::GpuSideBegun);
        EXPECT_EQ(gpu.metadata().stage, TraceStage::GpuSide);
        EXPECT_GT(early.kernelCount(), 0u);
        EXPECT_LT(early.kernelCount(), t.kernelCount() / 2);
        EXPECT_EQ(gpu.kernelCount(), t.kernelCount());
        // The early kernels are kernels of the trace, each as it will be in the full one.
        std::vector<std::pair<TimeNs, TimeNs>> all;
        for (std::size_t i = 0; i < t.kernelCount(); ++i)
            all.emplace_back(t.kernelAt(i).start, t.kernelAt(i).end);
        std::sort(all.begin(), all.end());
        for (std::size_t i = 0; i < early.kernelCount(); ++i)
            ASSERT_TRUE(std::binary_search(
                all.begin(), all.end(), std::pair(early.kernelAt(i).start, early.kernelAt(i).end)))
                << i;
        // Both previews span the whole trace, the early one long before its kernels reach there.
        for (const Trace* p : {&early, &gpu}) {
            EXPECT_LE(p->timeRange().start, t.timeRange().start);
            EXPECT_GE(p->timeRange().end, t.timeRange().end - t.timeRange().duration() / 100);
        }
        EXPECT_LT(early.kernelAt(early.kernelCount() - 1).end, t.timeRange().end / 2);
    }
}

TEST(LoadPreview, NoEarlyPreviewBeforeItsTime) {
    // An hour is longer than this trace's GPU side takes to read.
    int early = 0, all = 0;
    LoadOptions o;
    o.previewMinRows = 0;
    o.earlyPreviewAfter = std::chrono::hours(1);
    o.preview = [&](std::unique_ptr<Trace> t) {
        ++all;
        early += t->metadata().stage == TraceStage::GpuSideBegun;
    };
    ASSERT_TRUE(loadTrace(h100(), o).ok());
    EXPECT_EQ(all, 1);
    EXPECT_EQ(early, 0);
}

// The GPU-side preview comes from a quick pass of its own over the GPU tables: every kernel, copy
// and set, with names and times but none of the launch details (read only by the full pass).
TEST(LoadPreview, TheGpuSidePreviewIsAQuickPassWithoutLaunchDetails) {
    std::vector<std::unique_ptr<Trace>> previews;
    LoadOptions o;
    o.previewMinRows = 0;
    o.earlyPreviewAfter = std::chrono::hours(1);
    o.preview = [&](std::unique_ptr<Trace> t) { previews.push_back(std::move(t)); };
    const LoadResult full = loadTrace(h100(), o);
    ASSERT_TRUE(full.ok());
    ASSERT_EQ(previews.size(), 1u);
    const Trace &p = *previews.front(), &t = *full.trace;
    EXPECT_FALSE(p.metadata().loadedParts.testFlag(TracePart::KernelDetail));
    EXPECT_EQ(t.metadata().loadedParts, kAllTraceParts);
    ASSERT_EQ(p.kernelCount(), t.kernelCount());
    EXPECT_EQ(p.counts().memcpys, t.counts().memcpys);
    EXPECT_EQ(p.counts().memsets, t.counts().memsets);
    for (std::size_t i = 0; i < p.kernelCount(); ++i) {
        const KernelConfig &quick = p.kernelConfigs()[p.kernelConfigIndex(i)],
                           &whole = t.kernelConfigs()[t.kernelConfigIndex(i)];
        ASSERT_EQ(p.kernelAt(i).start, t.kernelAt(i).start) << i;
        ASSERT_EQ(p.strings().view(quick.shortName), t.strings().view(whole.shortName)) << i;
        ASSERT_EQ(quick.detail, LaunchDetail::None) << i;
        ASSERT_EQ(whole.detail, LaunchDetail::Complete) << i;
    }
}

TEST(LoadPreview, ALoadOfTheGpuSideAloneSendsNoGpuSidePreview) {
    // Its GPU-side preview would be its result, frozen twice; an early one may still come.
    QTemporaryDir dir;
    const QString path = test::writeSynth(
        dir, 300'000, 5); // ~90k kernels: several rows-done steps into the GPU side
    ASSERT_FALSE(path.isEmpty());
    for (const auto early : {std::chrono::milliseconds(0), std::chrono::milliseconds(3'600'000)}) {
        std::vector<TraceStage> stages;
        LoadOptions o;
        o.parts = kGpuWorkParts;
        o.previewMinRows = 0;
        o.earlyPreviewAfter = early;
        o.preview = [&](std::unique_ptr<Trace> t) { stages.push_back(t->metadata().stage); };
        ASSERT_TRUE(loadTrace(path, o).ok());
        EXPECT_EQ(std::count(stages.begin(), stages.end(), TraceStage::GpuSide), 0);
        EXPECT_EQ(stages.size(), early.count() == 0 ? 1u : 0u);
    }
}

TEST(LoadPreview, ProgressRisesSteadilyThroughTheQuickPass) {
    std::vector<int> progress;
    std::size_t beforeGpuSide = 0; // progress reports before the GPU-side preview came
    LoadOptions o;
    o.previewMinRows = 0;
    o.earlyPreviewAfter = std::chrono::hours(1);
    o.progress = [&](int permille) { progress.push_back(permille); };
    o.preview = [&](std::unique_ptr<Trace>) { beforeGpuSide = progress.size(); };
    ASSERT_TRUE(loadTrace(h100(), o).ok());
    ASSERT_FALSE(progress.empty());
    EXPECT_EQ(progress.back(), 1000);
    // The quick pass reports its share (up to a tenth) while it reads.
    ASSERT_GE(beforeGpuSide, 2u);
    EXPECT_GT(progress[beforeGpuSide - 1], 0);
    EXPECT_LE(progress[beforeGpuSide - 1], 100);
}

TEST(LoadPreview, AFileTheQuickPassCannotReadFailsWithTheFullReadsSentence) {
    QTemporaryDir dir;
    const QString path = test::writeSynth(dir, 20'000, 3, QStringLiteral("nameless.sqlite"));
    ASSERT_FALSE(path.isEmpty());
    for (const char* column : {"shortName", "demangledName", "mangledName"})
        dropKernelColumn(path, column);
    int previews = 0;
    LoadOptions o;
    o.previewMinRows = 0;
    o.preview = [&](std::unique_ptr<Trace>) { ++previews; };
    const LoadResult r = loadTrace(path, o);
    EXPECT_FALSE(r.ok());
    EXPECT_NE(r.error.indexOf(QStringLiteral("lacks a kernel name column")), -1)
        << r.error.toStdString();
    EXPECT_EQ(previews, 0);
}

TEST(LoadPreview, TheQuickPassNamesKernelsByWhicheverNameColumnTheTableKeeps) {
    // Without the launch details the mangled name is read only where it is the one name left.
    const char* const names[] = {"shortName", "demangledName", "mangledName"};
    for (const char* keep : names) {
        SCOPED_TRACE(keep);
        QTemporaryDir dir;
        const QString path = test::writeSynth(dir, 20'000, 4, QStringLiteral("reduced.sqlite"));
        ASSERT_FALSE(path.isEmpty());
        for (const char* column : names) {
            if (std::string_view(column) != keep)
                dropKernelColumn(path, column);
        }
        LoadOptions quick;
        quick.parts = TracePart::Kernels | TracePart::Memcpys | TracePart::Memsets;
        const LoadResult p = loadTrace(path, quick);
        const LoadResult t = loadTrace(path);
        ASSERT_TRUE(p.ok()) << p.error.toStdString();
        ASSERT_TRUE(t.ok()) << t.error.toStdString();
        ASSERT_GT(p.trace->kernelCount(), 1000u);
        ASSERT_EQ(p.trace->kernelCount(), t.trace->kernelCount());
        for (std::size_t i = 0; i < p.trace->kernelCount(); ++i) {
            const KernelConfig& q = p.trace->kernelConfigs()[p.trace->kernelConfigIndex(i)];
            const KernelConfig& w = t.trace->kernelConfigs()[t.trace->kernelConfigIndex(i)];
            ASSERT_FALSE(p.trace->strings().view(q.shortName).empty()) << i;
            ASSERT_EQ(p.trace->strings().view(q.shortName), t.trace->strings().view(w.shortName))
                << i;
            ASSERT_EQ(p.trace->strings().view(q.demangledName),
                      t.trace->strings().view(w.demangledName))
                << i;
        }
    }
}

TEST(LoadPreview, TheQuickPassLeavesTheMangledNameToTheFullRead) {
    QTemporaryDir dir;
    const QString path = test::writeSynth(dir, 20'000, 6);
    ASSERT_FALSE(path.isEmpty());
    LoadOptions quick;
    quick.parts = TracePart::Kernels | TracePart::Memcpys | TracePart::Memsets;
    const LoadResult p = loadTrace(path, quick);
    const LoadResult t = loadTrace(path);
    ASSERT_TRUE(p.ok() && t.ok());
    ASSERT_GT(p.trace->kernelCount(), 1000u);
    for (std::size_t i = 0; i < p.trace->kernelCount(); ++i) {
        ASSERT_EQ(p.trace->kernelConfigs()[p.trace->kernelConfigIndex(i)].mangledName, kNoString)
            << i;
        ASSERT_NE(t.trace->kernelConfigs()[t.trace->kernelConfigIndex(i)].mangledName, kNoString)
            << i;
    }
    // Nor is its absence a reduced export's warning.
    EXPECT_TRUE(p.trace->warnings().empty());
}
