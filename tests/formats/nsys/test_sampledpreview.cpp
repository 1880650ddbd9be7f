// SPDX-License-Identifier: MIT
// The GPU picture of a big trace arrives in sampled passes (issue 45): each partial preview
// holds only events of the file, spread over the whole time range, and the last one and the full
// trace are what a read in one go gives.
#include "formats/nsys/writer/nsyswriter.h"
#include "formats/open.h"
#include "tests/support/sqlitequery.h"
#include "tests/support/synthexport.h"

#include <QTemporaryDir>
#include <algorithm>
#include <atomic>
#include <string>
#include <vector>

#include <gtest/gtest.h>

using namespace strobe;

namespace {

// One line per event of every lane (GPU lanes alone with `gpuOnly`): its lane's kind and label,
// times, name, row (with `rows`; a partial picture puts fewer events in the rows) and the
// fields of its record; sorted, so that two traces compare as multisets of events.
std::vector<std::string> eventLines(const Trace& t, bool gpuOnly, bool rows) {
    std::vector<std::string> out;
    for (std::uint32_t li = 0; li < t.lanes().size(); ++li) {
        const Lane& l = t.lane(li);
        if (gpuOnly && !isGpuLane(l.kind()))
            continue;
        std::string lane = std::to_string(int(l.kind())) + '|' + t.laneLabel(li).toStdString();
        if (isGpuLane(l.kind()) && l.kind() != LaneKind::Uvm && l.owner() < t.streams().size()) {
            const StreamInfo& s = t.streams()[l.owner()];
            lane += '|' + std::to_string(s.pid) + '/' + std::to_string(s.deviceId) + '/' +
                    std::to_string(s.contextId) + '/' + std::to_string(s.streamId);
        }
        for (std::uint32_t i = 0; i < l.size(); ++i) {
            std::string e = lane + '|' + std::to_string(l.start(i)) + '|' +
                            std::to_string(l.end(i)) + '|' + t.string(l.nameId(i)).toStdString();
            if (rows)
                e += "|row " + std::to_string(l.row(i));
            const std::uint32_t p = l.payload(i);
            if (l.kind() == LaneKind::Kernels) {
                const KernelConfig& c = t.kernelConfigs()[t.kernelConfigIndex(p)];
                // The quick pass reads the mangled name only where it is the only name.
                e += '|' + t.string(c.shortName).toStdString() + '|' +
                     t.string(c.demangledName).toStdString();
            } else if (l.kind() == LaneKind::Memcpy) {
                const MemcpyRecord& m = t.memcpys()[p];
                e += '|' + std::to_string(m.bytes) + '|' + std::to_string(int(m.copyKind)) + '|' +
                     std::to_string(int(m.srcKind)) + '|' + std::to_string(int(m.dstKind));
            } else if (l.kind() == LaneKind::Memset) {
                const MemsetRecord& m = t.memsets()[p];
                e += '|' + std::to_string(m.bytes) + '|' + std::to_string(m.value) + '|' +
                     std::to_string(int(m.memKind));
            }
            out.push_back(std::move(e));
        }
    }
    std::sort(out.begin(), out.end());
    return out;
}

// The same lines, or the first that differs (gtest would print every line of both).
::testing::AssertionResult sameLines(const std::vector<std::string>& a,
                                     const std::vector<std::string>& b) {
    const auto [ia, ib] = std::mismatch(a.begin(), a.end(), b.begin(), b.end());
    if (ia == a.end() && ib == b.end())
        return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure()
           << a.size() << " vs " << b.size()
           << " events; first difference: " << (ia != a.end() ? *ia : std::string("(none)"))
           << " vs " << (ib != b.end() ? *ib : std::string("(none)"));
}

struct Load {
    std::vector<std::unique_ptr<Trace>> previews;
    LoadResult result;
};

// Loads `path` with every preview collected; `sampleMinRows` as LoadOptions::gpuSampleMinRows.
Load loadWithPreviews(const QString& path, int threads, std::uint64_t sampleMinRows,
                      const std::atomic<bool>* cancel = nullptr) {
    Load l;
    LoadOptions o;
    o.threads = threads;
    o.previewMinRows = 0;
    o.gpuSampleMinRows = sampleMinRows;
    o.gpuSampleInterval = std::chrono::milliseconds(0); // a picture after every pass
    o.earlyPreviewAfter = std::chrono::hours(1);
    o.cancel = cancel;
    o.preview = [&](std::unique_ptr<Trace> t) { l.previews.push_back(std::move(t)); };
    l.result = loadTrace(path, o);
    return l;
}

constexpr std::uint64_t kNeverSampled = std::uint64_t(1) << 62;

// The checks of every sampled load: partial previews of halving stride, each a subset of the
// next and of the file's GPU events; the last preview the GPU side of a load in one go; the full
// trace that of a load without previews. Returns the partial previews' count.
std::size_t expectSampledLoadIsExact(const QString& path, int threads) {
    SCOPED_TRACE(path.toStdString() + ", " + std::to_string(threads) + " threads");
    const Load sampled = loadWithPreviews(path, threads, 0);
    const Load oneGo = loadWithPreviews(path, threads, kNeverSampled);
    LoadOptions plainOptions;
    plainOptions.threads = threads;
    const LoadResult plain = loadTrace(path, plainOptions);
    EXPECT_TRUE(sampled.result.ok() && oneGo.result.ok() && plain.ok());
    if (!sampled.result.ok() || !oneGo.result.ok() || !plain.ok() || sampled.previews.empty() ||
        oneGo.previews.empty())
        return 0;
    const Trace& whole = *plain.trace;
    const std::vector<std::string> fileGpu = eventLines(whole, true, true);
    const std::vector<std::string> fileGpuNoRows = eventLines(whole, true, false);

    // The last preview: every GPU row, as the quick pass in one go and as the full read has them.
    const Trace& last = *sampled.previews.back();
    EXPECT_EQ(last.metadata().stage, TraceStage::GpuSide);
    EXPECT_EQ(last.metadata().gpuSampleStride, 1u);
    const Trace& lastOneGo = *oneGo.previews.back();
    EXPECT_EQ(lastOneGo.metadata().stage, TraceStage::GpuSide);
    EXPECT_TRUE(sameLines(eventLines(last, true, true), eventLines(lastOneGo, true, true)));
    EXPECT_TRUE(sameLines(eventLines(last, true, true), fileGpu));
    EXPECT_EQ(last.timeRange(), lastOneGo.timeRange());
    EXPECT_EQ(last.kernelCount(), whole.kernelCount());
    EXPECT_EQ(last.counts().memcpys, whole.counts().memcpys);
    EXPECT_EQ(last.counts().memsets, whole.counts().memsets);
    EXPECT_EQ(last.lanes().size(), lastOneGo.lanes().size());
    for (std::uint32_t i = 0; i < std::min(last.lanes().size(), lastOneGo.lanes().size()); ++i)
        EXPECT_EQ(last.laneLabel(i), lastOneGo.laneLabel(i)) << i;

    // The partial ones: halving strides, growing, each a subset of the file's GPU events.
    std::uint32_t stride = 0;
    std::vector<std::string> before;
    for (std::size_t k = 0; k + 1 < sampled.previews.size(); ++k) {
        const Trace& p = *sampled.previews[k];
        EXPECT_EQ(p.metadata().stage, TraceStage::GpuSideBegun) << k;
        const std::uint32_t s = p.metadata().gpuSampleStride;
        EXPECT_GT(s, 1u) << k;
        EXPECT_EQ(s & (s - 1), 0u) << "a power of two: " << s;
        if (k > 0) {
            EXPECT_LT(s, stride) << k;
        }
        stride = s;
        EXPECT_LE(p.timeRange().start, whole.timeRange().start);
        const std::vector<std::string> events = eventLines(p, true, false);
        EXPECT_LT(events.size(), fileGpuNoRows.size()) << k;
        EXPECT_TRUE(
            std::includes(fileGpuNoRows.begin(), fileGpuNoRows.end(), events.begin(), events.end()))
            << "preview " << k << " draws an event that is not in the file";
        EXPECT_TRUE(std::includes(events.begin(), events.end(), before.begin(), before.end()))
            << "preview " << k << " lost events of the one before";
        EXPECT_GT(events.size(), before.size()) << k;
        before = events;
    }

    // The full trace is the one a load without previews gives, event for event.
    EXPECT_TRUE(
        sameLines(eventLines(*sampled.result.trace, false, true), eventLines(whole, false, true)));
    EXPECT_TRUE(
        sameLines(eventLines(*oneGo.result.trace, false, true), eventLines(whole, false, true)));
    EXPECT_EQ(sampled.result.trace->warnings().size(), whole.warnings().size());
    EXPECT_EQ(sampled.result.trace->timeRange(), whole.timeRange());
    return sampled.previews.size() - 1;
}

} // namespace

TEST(SampledPreview, EveryFixtureEndsWithTheExactGpuSideAndTrace) {
    std::size_t partial = 0;
    for (const std::string& f : test::nsysFixtures())
        partial += expectSampledLoadIsExact(QString::fromStdString(test::fixturePath(f)), 3);
    // Blocks of 1024 rowids: the fixtures with a few thousand GPU rows get partial pictures.
    EXPECT_GT(partial, 0u);
}

TEST(SampledPreview, SyntheticTracesEndExactWithAnyThreadCount) {
    QTemporaryDir dir;
    for (const std::uint64_t seed : {1u, 7u}) {
        const QString path =
            test::writeSynth(dir, 150'000, seed, QStringLiteral("s%1.sqlite").arg(seed));
        ASSERT_FALSE(path.isEmpty());
        for (const int threads : {1, 2, 3})
            EXPECT_EQ(expectSampledLoadIsExact(path, threads), 3u) << "strides 16, 8, 4";
    }
}

TEST(SampledPreview, TiesAcrossBlocksEndAsInOneGo) {
    // Kernels of one stream in threes that start and end together, and memsets in pairs: the
    // blocks of 16 rowids that the passes read cut through them, and their rows (first fit, in
    // the table's order) say whether the passes' rows were put back in that order.
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("ties.sqlite")).toStdString();
    std::string error;
    auto w = nsys::Writer::create(path, nsys::SchemaFlavor::V3_13, &error);
    ASSERT_TRUE(w) << error;
    w->setMetadata(nsys::Metadata{});
    nsys::GpuRow gpu;
    gpu.name = "NVIDIA H100";
    w->addGpu(gpu);
    nsys::StreamRow stream;
    stream.pid = 1;
    stream.contextId = 1;
    stream.streamId = 7;
    w->addStream(stream);
    for (std::int64_t i = 0; i < 6000; ++i) {
        nsys::KernelRow k;
        k.start = 1000 * (i / 3);
        k.end = k.start + 900;
        k.pid = 1;
        k.contextId = 1;
        k.streamId = 7;
        k.shortName = "k" + std::to_string(i % 3);
        w->addKernel(k);
    }
    for (std::int64_t i = 0; i < 600; ++i) {
        nsys::MemsetRow m;
        m.start = 10'000 * (i / 2);
        m.end = m.start + 500;
        m.pid = 1;
        m.contextId = 1;
        m.streamId = 7;
        m.bytes = std::uint64_t(i);
        w->addMemset(m);
    }
    ASSERT_TRUE(w->commit(&error)) << error;
    for (const int threads : {1, 3})
        EXPECT_GT(expectSampledLoadIsExact(QString::fromStdString(path), threads), 0u);
}

TEST(SampledPreview, TheFirstPictureCoversTheWholeTimeRange) {
    QTemporaryDir dir;
    const QString path = test::writeSynth(dir, 200'000, 3);
    ASSERT_FALSE(path.isEmpty());
    const Load l = loadWithPreviews(path, 3, 0);
    ASSERT_TRUE(l.result.ok());
    ASSERT_GE(l.previews.size(), 2u);
    const Trace &first = *l.previews.front(), &t = *l.result.trace;
    EXPECT_EQ(first.metadata().gpuSampleStride, 16u);
    // About a sixteenth of the kernels (blocks of 1024 rowids, one in 16)...
    const double share = double(first.kernelCount()) / double(t.kernelCount());
    EXPECT_GT(share, 1.0 / 32);
    EXPECT_LT(share, 1.0 / 8);
    // ... from every tenth of the time the kernels span (a read of the first rows would hold
    // only the first tenth).
    TimeNs lo = t.kernelAt(0).start, hi = lo;
    for (std::size_t i = 0; i < t.kernelCount(); ++i)
        hi = std::max(hi, t.kernelAt(i).end);
    std::vector<int> perTenth(10, 0);
    for (std::size_t i = 0; i < first.kernelCount(); ++i) {
        const TimeNs s = first.kernelAt(i).start;
        ++perTenth[std::size_t(std::min<TimeNs>(9, (s - lo) * 10 / std::max<TimeNs>(1, hi - lo)))];
    }
    for (int k = 0; k < 10; ++k)
        EXPECT_GT(perTenth[std::size_t(k)], 0) << "tenth " << k;
}

TEST(SampledPreview, LaterPicturesWaitForTheirInterval) {
    // With an hour between pictures only the first pass's comes; the GPU side is still exact.
    QTemporaryDir dir;
    const QString path = test::writeSynth(dir, 150'000, 11);
    ASSERT_FALSE(path.isEmpty());
    std::vector<std::uint32_t> strides;
    LoadOptions o;
    o.previewMinRows = 0;
    o.gpuSampleMinRows = 0;
    o.gpuSampleInterval = std::chrono::hours(1);
    o.preview = [&](std::unique_ptr<Trace> t) { strides.push_back(t->metadata().gpuSampleStride); };
    const LoadResult r = loadTrace(path, o);
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(strides, (std::vector<std::uint32_t>{16, 1}));
}

TEST(SampledPreview, SmallGpuTablesAreReadInOneGo) {
    // Under the default threshold (2^18 rows) the fixture's quick pass sends its GpuSide alone.
    LoadOptions o;
    o.previewMinRows = 0;
    o.earlyPreviewAfter = std::chrono::hours(1);
    std::vector<TraceStage> stages;
    o.preview = [&](std::unique_ptr<Trace> t) { stages.push_back(t->metadata().stage); };
    ASSERT_TRUE(
        loadTrace(QString::fromStdString(test::fixturePath("nsys2026.2-h100-2gpu-nvtx.sqlite")), o)
            .ok());
    EXPECT_EQ(stages, std::vector<TraceStage>{TraceStage::GpuSide});
}

TEST(SampledPreview, ACancelBetweenPassesCancelsTheLoad) {
    QTemporaryDir dir;
    const QString path = test::writeSynth(dir, 200'000, 5);
    ASSERT_FALSE(path.isEmpty());
    for (const int threads : {1, 3}) {
        std::atomic<bool> cancel{false};
        LoadOptions o;
        o.threads = threads;
        o.previewMinRows = 0;
        o.gpuSampleMinRows = 0;
        o.cancel = &cancel;
        int previews = 0;
        o.preview = [&](std::unique_ptr<Trace>) {
            ++previews;
            cancel = true;
        };
        const LoadResult r = loadTrace(path, o);
        EXPECT_TRUE(r.cancelled) << threads;
        EXPECT_FALSE(r.ok());
        EXPECT_EQ(previews, 1) << "no pass after the cancel sends a picture";
    }
}
