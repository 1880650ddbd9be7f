// SPDX-License-Identifier: MIT
// The reduced read a job's summaries ask for (kRankSummaryParts: no operators, Python functions,
// syncs or memory samples) against the full read: the same summary to the last field on every
// Kineto fixture, on synthetic jobs and on a trace written here whose steps are operators (as
// PyTorch 1.x wrote them) and whose bad events are counted; and the trace says what it lacks.
#include "formats/kineto/synth/kinetosynth.h"
#include "formats/open.h"
#include "model/job/jobopen.h"
#include "tests/support/kinetoscan.h"

#include <QFile>
#include <QTemporaryDir>
#include <gtest/gtest.h>

using namespace strobe;

namespace {

// `threads`: LoadOptions::threads (1: the events mapped on the parsing thread, as openJob's
// loaders read).
std::unique_ptr<Trace> load(const QString& path, TraceParts parts, int threads = 3) {
    LoadOptions options;
    options.parts = parts;
    options.threads = threads;
    LoadResult r = loadTrace(path, options);
    EXPECT_TRUE(r.ok()) << r.error.toStdString();
    return std::move(r.trace);
}

// The events of the CPU operator and Python lanes, and how many of them are not steps.
struct OperatorCount {
    std::size_t all = 0, notSteps = 0;
};

OperatorCount operatorsOf(const Trace& t) {
    OperatorCount n;
    for (const Lane& lane : t.lanes()) {
        if (lane.kind() != LaneKind::CpuOps && lane.kind() != LaneKind::Python)
            continue;
        for (std::uint32_t i = 0; i < lane.size(); ++i) {
            ++n.all;
            n.notSteps += !t.strings().view(lane.nameId(i)).starts_with("ProfilerStep#");
        }
    }
    return n;
}

// Field by field first, so that a failure names the field; then the whole (operator==).
void expectSameSummaries(const std::vector<RankSummary>& full,
                         const std::vector<RankSummary>& reduced) {
    ASSERT_EQ(full.size(), reduced.size());
    for (std::size_t i = 0; i < full.size(); ++i) {
        const RankSummary &a = full[i], &b = reduced[i];
        EXPECT_EQ(a.rank, b.rank);
        EXPECT_EQ(a.worldSize, b.worldSize);
        EXPECT_EQ(a.clockOriginNs, b.clockOriginNs);
        EXPECT_EQ(a.deviceId, b.deviceId);
        EXPECT_EQ(a.gpu, b.gpu);
        EXPECT_EQ(a.gpuSpan, b.gpuSpan);
        EXPECT_EQ(a.whole, b.whole);
        EXPECT_EQ(a.htaWindow, b.htaWindow);
        EXPECT_EQ(a.steps, b.steps);
        EXPECT_EQ(a.collectives, b.collectives);
        EXPECT_EQ(a.busy, b.busy);
        EXPECT_EQ(a.warnings, b.warnings);
        EXPECT_TRUE(a == b);
    }
}

constexpr TraceParts kLeftOut = TracePart::CpuOps | TracePart::Syncs | TracePart::GpuMemory;

TEST(SummaryRead, EveryKinetoFixtureGivesTheFullReadsSummary) {
    const auto& table = KernelClassTable::defaults();
    std::size_t withSteps = 0, withCollectives = 0;
    // Twice over: the second round reads with the parser the first one kept (any size order),
    // on one thread as a job's loaders read.
    for (int round = 0; round < 2; ++round) {
        for (const std::string& name : test::kinetoFixtures()) {
            SCOPED_TRACE(name);
            const QString path = QString::fromStdString(test::kinetoFixturePath(name));
            const auto full = load(path, kAllTraceParts);
            const auto reduced = load(path, kRankSummaryParts, round == 0 ? 3 : 1);
            ASSERT_TRUE(full && reduced);
            EXPECT_EQ(full->metadata().loadedParts, kAllTraceParts);
            EXPECT_EQ(reduced->metadata().loadedParts, kAllTraceParts & ~kLeftOut);
            EXPECT_EQ(operatorsOf(*reduced).notSteps, 0u);
            EXPECT_EQ(reduced->syncs().size(), 0u);
            // What the summary reads is all there.
            EXPECT_EQ(reduced->kernelCount(), full->kernelCount());
            EXPECT_EQ(reduced->memcpys().size(), full->memcpys().size());
            EXPECT_EQ(reduced->memsets().size(), full->memsets().size());
            const auto a = summarizeTrace(*full, table);
            const auto b = summarizeTrace(*reduced, table);
            expectSameSummaries(a, b);
            withSteps += !a.empty() && a.front().steps.size() >= 2;
            withCollectives += !a.empty() && !a.front().collectives.empty();
        }
    }
    // The comparison is not vacuous: the fixtures hold steps and NCCL kernels.
    EXPECT_GE(withSteps, 2u);
    EXPECT_GE(withCollectives, 2u);
}

TEST(SummaryRead, SyntheticJobsGiveTheFullReadsSummaries) {
    for (const std::uint32_t ranks : {2u, 5u}) {
        SCOPED_TRACE(ranks);
        QTemporaryDir dir;
        kinetosynth::KinetoJobOptions o;
        o.ranks = ranks;
        o.events = 6'000;
        o.straggler = ranks - 1;
        o.delayNs = 3'000'000;
        o.clockSkewNs = 1'500;
        std::string error;
        ASSERT_TRUE(kinetosynth::writeKinetoJob(dir.path().toStdString(), o, &error)) << error;
        const auto loaderOf = [](const LoadOptions& options) -> TraceLoader {
            return [options](const QString& path, QString* error) {
                LoadResult r = loadTrace(path, options);
                if (!r.ok())
                    *error = r.error;
                return std::move(r.trace);
            };
        };
        const QStringList files = findJobFiles(dir.path());
        const auto& table = KernelClassTable::defaults();
        // Two threads, several files each: the kept parser is reused between them.
        const Job full = openJob(files, loaderOf(LoadOptions{}), table, 2);
        const Job reduced = openJob(files, loaderOf(rankSummaryLoadOptions()), table, 2);
        ASSERT_EQ(full.ranks.size(), ranks);
        expectSameSummaries(full.ranks, reduced.ranks);
        EXPECT_EQ(full.warnings, reduced.warnings);
        for (const RankSummary& s : reduced.ranks) {
            EXPECT_GE(s.steps.size(), 2u);
            ASSERT_TRUE(s.htaWindow.has_value());
            EXPECT_GT(s.htaWindow->compute, 0);
            EXPECT_LT(s.htaWindow->compute, s.whole.compute); // the last step's work left out
            ASSERT_FALSE(s.collectives.empty());
            EXPECT_TRUE(s.collectives.front().processGroup.has_value());
            EXPECT_TRUE(s.collectives.front().bytes.has_value());
        }
    }
}

// A PyTorch 1.x-style trace: ProfilerStep#N are operators; an operator with Input Dims, a Python
// function, a sync, a memory sample; bad events of every kind the reader counts. Times in us.
const char* const kOldStyleTrace = R"json({
  "schemaVersion": 1, "baseTimeNanoseconds": 1700000000000000000,
  "distributedInfo": {"backend": "nccl", "rank": 3, "world_size": 4},
  "deviceProperties": [{"id": 0, "name": "NVIDIA H100", "numSms": 132}],
  "traceEvents": [
  {"ph": "X", "cat": "cpu_op", "name": "ProfilerStep#7", "pid": 10, "tid": 10, "ts": 100, "dur": 100, "args": {"External id": 1}},
  {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 10, "tid": 10, "ts": 110, "dur": 20, "args": {"External id": 2, "Input Dims": [[8, 8], [8, 8]]}},
  {"ph": "X", "cat": "python_function", "name": "train.py(3): step", "pid": 10, "tid": 10, "ts": 105, "dur": 80},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 10, "tid": 10, "ts": 112, "dur": 5, "args": {"correlation": 1}},
  {"ph": "X", "cat": "kernel", "name": "gemm_kernel", "pid": 0, "tid": 7, "ts": 120, "dur": 30, "args": {"device": 0, "stream": 7, "correlation": 1, "grid": [1, 1, 1], "block": [128, 1, 1]}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 10, "tid": 10, "ts": 150, "dur": 5, "args": {"correlation": 2}},
  {"ph": "X", "cat": "kernel", "name": "ncclDevKernel_AllReduce_Sum_f32_RING_LL", "pid": 0, "tid": 9, "ts": 160, "dur": 50, "args": {"device": 0, "stream": 9, "correlation": 2, "Process Group Name": "7", "In msg nelems": 1024, "dtype": "BFloat16"}},
  {"ph": "X", "cat": "cuda_sync", "name": "Device Synchronize", "pid": 0, "tid": 7, "ts": 190, "dur": 2, "args": {"device": 0, "stream": -1, "correlation": 3}},
  {"ph": "i", "s": "t", "name": "[memory]", "pid": 10, "tid": 10, "ts": 195, "args": {"Device Type": 1, "Device Id": 0, "Total Allocated": 4096, "Total Reserved": 8192}},
  {"ph": "X", "cat": "cpu_op", "name": "ProfilerStep#8", "pid": 10, "tid": 10, "ts": 200, "dur": 100, "args": {"External id": 3}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaMemcpyAsync", "pid": 10, "tid": 10, "ts": 210, "dur": 5, "args": {"correlation": 4}},
  {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD (Pinned -> Device)", "pid": 0, "tid": 7, "ts": 220, "dur": 40, "args": {"device": 0, "stream": 7, "correlation": 4, "bytes": 4096}},
  {"ph": "X", "cat": "cpu_op", "name": "aten::add", "pid": 10, "tid": 10, "ts": 230, "dur": -5, "args": {"Input Dims": "not a list"}},
  {"ph": "X", "cat": "cpu_op", "name": "aten::bad", "tid": 10, "ts": 240, "dur": 1},
  {"ph": "X", "cat": "python_function", "name": "no duration", "pid": 10, "tid": 10, "ts": 250},
  {"ph": "X", "cat": "cpu_op", "name": "ProfilerStep#9", "pid": 10, "tid": 10, "ts": 300, "dur": 50},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 10, "tid": 10, "ts": 305, "dur": 5, "args": {"correlation": 5}},
  {"ph": "X", "cat": "kernel", "name": "gemm_kernel", "pid": 0, "tid": 7, "ts": 320, "dur": 10, "args": {"device": 0, "stream": 7, "correlation": 5}}
  ]
})json";

TEST(SummaryRead, StepsWrittenAsOperatorsAndBadEventsGiveTheFullReadsSummary) {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("rank-3.pt.trace.json"));
    QFile f(path);
    ASSERT_TRUE(f.open(QIODevice::WriteOnly));
    f.write(kOldStyleTrace);
    f.close();
    const auto full = load(path, kAllTraceParts);
    const auto reduced = load(path, kRankSummaryParts);
    ASSERT_TRUE(full && reduced);
    // The full read: five operators and two Python functions (the operator without a pid is
    // skipped); the reduced read keeps the three steps only, and no sync or memory sample.
    EXPECT_EQ(operatorsOf(*full).all, 7u);
    EXPECT_EQ(operatorsOf(*reduced).all, 3u);
    EXPECT_EQ(operatorsOf(*reduced).notSteps, 0u);
    EXPECT_EQ(full->syncs().size(), 1u);
    EXPECT_EQ(reduced->syncs().size(), 0u);
    EXPECT_EQ(reduced->metadata().loadedParts, kAllTraceParts & ~kLeftOut);
    // The all-reduce's process group and message, as the reduced read keeps them.
    ASSERT_EQ(reduced->kernelCount(), 3u);
    std::size_t collectives = 0;
    for (std::size_t i = 0; i < reduced->kernelCount(); ++i) {
        const KernelRecord k = reduced->kernels()[i];
        if (k.processGroup == kNoString)
            continue;
        ++collectives;
        EXPECT_EQ(reduced->string(k.processGroup), QStringLiteral("7"));
        EXPECT_EQ(k.messageBytes, 2048u);
    }
    EXPECT_EQ(collectives, 1u);
    auto a = summarizeTrace(*full, KernelClassTable::defaults());
    const auto b = summarizeTrace(*reduced, KernelClassTable::defaults());
    ASSERT_EQ(a.size(), 1u);
    ASSERT_EQ(b.size(), 1u);
    // The one difference: operators' Input Dims are not read, so bad ones are not counted.
    const QString inputDims = QStringLiteral("1 operators have Input Dims that are not a list of "
                                             "lists of integers; their input shapes are left out.");
    EXPECT_TRUE(a.front().warnings.contains(inputDims));
    EXPECT_FALSE(b.front().warnings.contains(inputDims));
    a.front().warnings.removeAll(inputDims);
    expectSameSummaries(a, b);
    const RankSummary& s = b.front();
    // Computed from the JSON above by hand.
    EXPECT_EQ(s.rank, 3u);
    EXPECT_EQ(s.rankSource, RankSource::Recorded);
    EXPECT_EQ(s.clockOriginNs, 1'700'000'000'000'000'000);
    ASSERT_EQ(s.steps.size(), 3u);
    EXPECT_EQ(s.steps[0].number, 7u);
    EXPECT_EQ(s.steps[0].host, (TimeRange{100'000, 200'000}));
    EXPECT_EQ(s.steps[2].host, (TimeRange{300'000, 350'000}));
    ASSERT_EQ(s.collectives.size(), 1u);
    EXPECT_TRUE(s.collectives[0].processGroup.has_value());
    EXPECT_EQ(s.collectives[0].bytes, 2048u); // 1024 BFloat16
    EXPECT_EQ(s.collectives[0].gpu, (TimeRange{160'000, 210'000}));
    // HTA's window: the work launched before the last step (300 us): the gemm at 120, the
    // all-reduce and the copy; not the gemm launched at 305.
    ASSERT_TRUE(s.htaWindow.has_value());
    EXPECT_EQ(s.htaWindow->compute, 30'000);
    EXPECT_EQ(s.htaWindow->communication, 50'000);
    EXPECT_EQ(s.htaWindow->memory, 40'000);
    EXPECT_EQ(s.whole.compute, 40'000);
    // The bad events counted alike: a negative and a missing duration, a malformed operator.
    const auto has = [](const QStringList& w, const char* start) {
        for (const QString& x : w) {
            if (x.startsWith(QLatin1String(start)))
                return true;
        }
        return false;
    };
    EXPECT_TRUE(has(s.warnings, "1 events have a negative duration"));
    EXPECT_TRUE(has(s.warnings, "1 complete events have no duration"));
    EXPECT_TRUE(has(s.warnings, "1 events have missing or wrong-typed fields"));
}

} // namespace
