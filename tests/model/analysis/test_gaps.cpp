// SPDX-License-Identifier: MIT
// findGaps: the gap list against a brute-force union on every real fixture, each cause on a
// trace built to show it, and the sample's data-loading gaps.
#include "model/analysis/gaps.h"
#include "model/analysis/nvtxstats.h"
#include "model/reports/gaptext.h"
#include "model/tracebuilder.h"
#include "tests/model/analysis/gaptestdata.h"

#include <QDir>
#include <QStringBuilder>
#include <gtest/gtest.h>
#include <limits>

using namespace strobe;

namespace {

std::vector<TimeRange> gapsOf(const GapAnalysis& a, std::uint32_t device) {
    std::vector<TimeRange> out;
    for (const GpuGap& g : a.gaps) {
        if (g.deviceId == device)
            out.push_back(g.range);
    }
    return out;
}

class FixtureGaps : public ::testing::TestWithParam<QString> {};

TEST_P(FixtureGaps, EqualBruteForceUnion) {
    LoadResult r = loadTrace(QStringLiteral(STROBE_FIXTURES_DIR "/nsys/") + GetParam());
    ASSERT_TRUE(r.ok()) << r.error.toStdString();
    for (TimeNs threshold : {TimeNs(1), TimeNs(10'000), TimeNs(100'000), TimeNs(5'000'000)}) {
        const GapAnalysis a = findGaps(*r.trace, threshold);
        const auto expected = test::bruteForceGaps(*r.trace, threshold);
        std::size_t total = 0;
        for (const auto& [device, gaps] : expected) {
            EXPECT_EQ(gapsOf(a, device), gaps) << "device " << device << " >= " << threshold;
            total += gaps.size();
        }
        EXPECT_EQ(a.gaps.size(), total);
        // Ordered by device, then start; every gap explained with a sentence.
        for (std::size_t i = 1; i < a.gaps.size(); ++i) {
            const GpuGap &p = a.gaps[i - 1], &g = a.gaps[i];
            EXPECT_TRUE(p.deviceId < g.deviceId ||
                        (p.deviceId == g.deviceId && p.range.start < g.range.start));
        }
        for (const GpuGap& g : a.gaps) {
            EXPECT_GE(g.duration(), threshold);
            EXPECT_FALSE(gapDetailText(*r.trace, g).isEmpty());
            EXPECT_TRUE(g.after.isValid());
            EXPECT_TRUE(g.before.isValid());
        }
    }
}

INSTANTIATE_TEST_SUITE_P(AllFixtures, FixtureGaps,
                         ::testing::ValuesIn(QDir(QStringLiteral(STROBE_FIXTURES_DIR "/nsys"))
                                                 .entryList({QStringLiteral("*.sqlite")},
                                                            QDir::Files, QDir::Name)),
                         [](const auto& info) {
                             std::string n = info.param.toStdString();
                             for (char& c : n)
                                 c = std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
                             return n;
                         });

// Two kernels on GPU 0 with a 490 us gap [10 us, 500 us); thread 101 ("Main") of pid 100.
// K1's launch call is at [-2 us, -1 us); K2's is given by each test.
class GapTrace {
public:
    static constexpr TimeNs kGapStart = 10'000, kGapEnd = 500'000;
    GapTrace()
        : b(QStringLiteral("gaps")) {
        GpuInfo g;
        g.id = 0;
        b.addGpu(g);
        b.setThreadName(100, 101, b.intern("Main"));
        launch(-2000, -1000, 0, kGapStart);
    }
    void launch(TimeNs apiStart, TimeNs apiEnd, TimeNs kStart, TimeNs kEnd,
                std::uint32_t tid = 101) {
        ApiCallRecord a;
        a.correlationId = ++corr;
        b.addApiCall(100, tid, apiStart, apiEnd, b.intern("cudaLaunchKernel_v7000"), a);
        KernelConfig c;
        c.shortName = b.intern("k" + std::to_string(corr));
        b.addKernel(100, 0, 1, 7, kStart, kEnd, c, corr, std::nullopt);
    }
    void api(const char* name, TimeNs s, TimeNs e, std::uint32_t tid = 101) {
        ApiCallRecord a;
        a.correlationId = ++corr;
        b.addApiCall(100, tid, s, e, b.intern(name), a);
    }
    void nvtx(const char* name, TimeNs s, TimeNs e, std::uint16_t depth = 0) {
        NvtxRecord r;
        r.depth = depth;
        b.addNvtx(100, 101, kNoString, s, e, b.intern(name), r, std::nullopt);
    }
    void osrt(const char* name, TimeNs s, TimeNs e) {
        b.addOsrtCall(100, 101, s, e, b.intern(name), OsrtRecord{});
    }
    // Finishes with K2 launched by a call at [apiStart, apiStart + 3 us) and analyses.
    GpuGap finish(TimeNs apiStart = kGapEnd - 8000) {
        launch(apiStart, apiStart + 3000, kGapEnd, kGapEnd + 10'000);
        trace = b.finish();
        const GapAnalysis a = findGaps(*trace, 100'000);
        EXPECT_EQ(a.gaps.size(), 1u);
        return a.gaps.empty() ? GpuGap{} : a.gaps.front();
    }
    QString eventName(EventRef r) const {
        return trace->string(trace->lane(r.lane).nameId(r.index));
    }

    TraceBuilder b;
    std::unique_ptr<Trace> trace;
    std::uint32_t corr = 0;
};

TEST(GapCauses, LaunchOverhead) {
    GapTrace t;
    const GpuGap g = t.finish(20'000); // the launch call starts 10 us into the gap
    EXPECT_EQ(g.range, (TimeRange{GapTrace::kGapStart, GapTrace::kGapEnd}));
    EXPECT_EQ(g.cause, GapCause::LaunchOverhead);
    EXPECT_EQ(gapCauseKey(g.cause), QStringLiteral("launch-overhead"));
    EXPECT_EQ(t.eventName(g.event), QStringLiteral("cudaLaunchKernel_v7000"));
    EXPECT_EQ(t.trace->partnerOf(g.event), g.after);
    ASSERT_TRUE(g.thread);
    EXPECT_EQ(t.trace->threads()[*g.thread].tid, 101u);
    EXPECT_TRUE(gapDetailText(*t.trace, g).contains(QStringLiteral("Main [101]")))
        << gapDetailText(*t.trace, g).toStdString();
    EXPECT_TRUE(gapDetailText(*t.trace, g).contains(QStringLiteral("cudaLaunchKernel")))
        << gapDetailText(*t.trace, g).toStdString();
}

TEST(GapCauses, SyncWait) {
    GapTrace t;
    t.api("cudaStreamSynchronize_v3020", 15'000, 480'000);
    t.nvtx("Outer", 12'000, 490'000); // the sync outranks CPU-busy
    const GpuGap g = t.finish();
    EXPECT_EQ(g.cause, GapCause::Sync);
    EXPECT_EQ(gapCauseKey(g.cause), QStringLiteral("sync"));
    EXPECT_EQ(t.eventName(g.event), QStringLiteral("cudaStreamSynchronize_v3020"));
    EXPECT_TRUE(gapDetailText(*t.trace, g).contains(QStringLiteral("cudaStreamSynchronize")));
}

TEST(GapCauses, SyncRecordMarksAnyCallAsSync) {
    GapTrace t;
    t.api("cudaUnusualWait", 15'000, 480'000);
    SyncRecord s;
    s.start = 16'000;
    s.end = 479'000;
    s.contextId = 1;
    s.correlationId = t.corr; // the call just added
    s.pid = 100;
    t.b.addSync(s);
    const GpuGap g = t.finish();
    EXPECT_EQ(g.cause, GapCause::Sync);
    EXPECT_EQ(t.eventName(g.event), QStringLiteral("cudaUnusualWait"));
}

TEST(GapCauses, SyncDrainedThenUnrecordedWork) {
    GapTrace t;
    t.nvtx("Iteration", -5000, 1'000'000); // encloses the sync: context, not the cause
    t.api("cudaDeviceSynchronize_v3020", 5000, 12'000);
    const GpuGap g = t.finish();
    EXPECT_EQ(g.cause, GapCause::Sync);
    EXPECT_EQ(t.eventName(g.event), QStringLiteral("cudaDeviceSynchronize_v3020"));
    EXPECT_TRUE(gapDetailText(*t.trace, g).contains(QStringLiteral("drained")))
        << gapDetailText(*t.trace, g).toStdString();
    EXPECT_EQ(t.eventName(g.enclosingNvtx), QStringLiteral("Iteration"));
}

TEST(GapCauses, CpuBusyInNvtxRangeAndOsrtCall) {
    GapTrace t;
    t.nvtx("Iteration", -5000, 1'000'000, 0);
    t.api("cudaDeviceSynchronize_v3020", 5000, 12'000); // drains, then the thread loads data
    t.nvtx("Data Load", 14'000, 485'000, 1);
    t.osrt("write", 20'000, 400'000);
    const GpuGap g = t.finish();
    EXPECT_EQ(g.cause, GapCause::CpuBusy);
    EXPECT_EQ(gapCauseKey(g.cause), QStringLiteral("cpu-busy"));
    EXPECT_EQ(t.eventName(g.event), QStringLiteral("Data Load"));
    EXPECT_EQ(t.eventName(g.enclosingNvtx), QStringLiteral("Data Load"));
    EXPECT_TRUE(gapDetailText(*t.trace, g).contains(QStringLiteral("\"Data Load\"")))
        << gapDetailText(*t.trace, g).toStdString();
    EXPECT_TRUE(gapDetailText(*t.trace, g).contains(QStringLiteral("write")))
        << gapDetailText(*t.trace, g).toStdString();
}

TEST(GapCauses, CpuBusyInOsrtCallOnly) {
    GapTrace t;
    t.osrt("write", 20'000, 400'000);
    const GpuGap g = t.finish();
    EXPECT_EQ(g.cause, GapCause::CpuBusy);
    EXPECT_EQ(t.eventName(g.event), QStringLiteral("write"));
    EXPECT_FALSE(g.enclosingNvtx.isValid());
}

TEST(GapCauses, CpuWaitWhenTheCoveringOsrtCallBlocks) {
    for (const char* call : {"pthread_cond_wait", "futex", "poll", "read", "epoll_wait",
                             "nanosleep", "__poll", "sem_timedwait"}) {
        GapTrace t;
        t.osrt(call, 20'000, 400'000); // 380 of 490 us: 78 %
        const GpuGap g = t.finish();
        EXPECT_EQ(g.cause, GapCause::CpuWait) << call;
        EXPECT_EQ(gapCauseKey(g.cause), QStringLiteral("cpu-wait"));
        EXPECT_EQ(gapCauseLabel(g.cause), QStringLiteral("CPU waiting"));
        EXPECT_EQ(t.eventName(g.event), QString::fromLatin1(call));
        EXPECT_EQ(gapDetailText(*t.trace, g),
                  QStringLiteral("CPU waiting in ") % QString::fromLatin1(call) %
                      QStringLiteral(": Main [101] was in it for 78% of the gap, "
                                     "launching no GPU work for 490.0 \u00b5s."))
            << gapDetailText(*t.trace, g).toStdString();
    }
}

TEST(GapCauses, CpuWaitNamesTheRangeAsContext) {
    GapTrace t;
    t.nvtx("Data Load", 14'000, 485'000);
    t.osrt("pthread_cond_wait", 15'000, 480'000);
    t.osrt("write", 480'000, 482'000); // covers little: the wait covers most
    const GpuGap g = t.finish();
    EXPECT_EQ(g.cause, GapCause::CpuWait);
    EXPECT_EQ(t.eventName(g.event), QStringLiteral("pthread_cond_wait"));
    EXPECT_EQ(t.eventName(g.enclosingNvtx), QStringLiteral("Data Load"));
    EXPECT_TRUE(
        gapDetailText(*t.trace, g).startsWith(QStringLiteral("CPU waiting in pthread_cond_wait: ")))
        << gapDetailText(*t.trace, g).toStdString();
    EXPECT_TRUE(
        gapDetailText(*t.trace, g).contains(QStringLiteral("in NVTX range \"Data Load\" for 96%")))
        << gapDetailText(*t.trace, g).toStdString();
}

TEST(GapCauses, ABusyCallCoveringMoreThanAWaitIsCpuBusy) {
    GapTrace t;
    t.osrt("poll", 15'000, 260'000);   // 50 %
    t.osrt("write", 260'000, 499'000); // 49 %: less than half, so the poll decides
    EXPECT_EQ(t.finish().cause, GapCause::CpuWait);
    GapTrace u;
    u.osrt("poll", 15'000, 100'000);
    u.osrt("write", 100'000, 499'000); // the write covers most
    EXPECT_EQ(u.finish().cause, GapCause::CpuBusy);
}

TEST(GapCauses, AWaitOnAnotherThreadIsNotTheLaunchingThreadsWait) {
    GapTrace t;
    t.b.addOsrtCall(100, 102, 15'000, 480'000, t.b.intern("pthread_cond_wait"), OsrtRecord{});
    EXPECT_EQ(t.finish().cause, GapCause::NoCpuActivity);
}

TEST(GapCauses, NoCpuActivity) {
    GapTrace t;
    t.nvtx("Short", 20'000, 30'000); // covers far less than half: no cause
    const GpuGap g = t.finish();
    EXPECT_EQ(g.cause, GapCause::NoCpuActivity);
    EXPECT_EQ(gapCauseKey(g.cause), QStringLiteral("no-cpu-activity"));
    EXPECT_EQ(t.trace->partnerOf(g.event), g.after); // the launch of the next work
}

TEST(GapCauses, Unknown) {
    GapTrace t;
    t.api("cudaMalloc_v3020", 100'000, 120'000); // a CUDA call, but too short to explain it
    const GpuGap g = t.finish();
    EXPECT_EQ(g.cause, GapCause::Unknown);
    EXPECT_EQ(gapCauseKey(g.cause), QStringLiteral("unknown"));
    EXPECT_TRUE(gapDetailText(*t.trace, g).startsWith(QStringLiteral("1 CUDA API call")))
        << gapDetailText(*t.trace, g).toStdString();
}

TEST(GapCauses, LongCudaCallIsCpuBusy) {
    GapTrace t;
    t.api("cudaMalloc_v3020", 20'000, 450'000);
    const GpuGap g = t.finish();
    EXPECT_EQ(g.cause, GapCause::CpuBusy);
    EXPECT_EQ(t.eventName(g.event), QStringLiteral("cudaMalloc_v3020"));
}

TEST(Gaps, ThresholdIsInclusive) {
    for (TimeNs threshold : {TimeNs(489'999), TimeNs(490'000), TimeNs(490'001)}) {
        GapTrace t;
        t.finish();
        const GapAnalysis a = findGaps(*t.trace, threshold);
        EXPECT_EQ(a.gaps.size(), threshold <= 490'000 ? 1u : 0u) << threshold;
        ASSERT_EQ(a.devices.size(), 1u);
        EXPECT_EQ(a.devices[0].idleNs, threshold <= 490'000 ? 490'000 : 0);
    }
}

TEST(SampleGaps, DataLoadStarvesTheGpu) {
    const auto trace = test::sampleTrace();
    ASSERT_TRUE(trace);
    const GapAnalysis a = findGaps(*trace, 100'000);
    EXPECT_EQ(gapsOf(a, 0), test::bruteForceGaps(*trace, 100'000)[0]);
    int dataLoad = 0;
    for (const GpuGap& g : a.gaps) {
        if (g.duration() < 5'000'000)
            continue;
        // MainThread waits in pthread_cond_wait for the DataLoader inside "Data Load".
        const Lane& l = trace->lane(g.event.lane);
        EXPECT_EQ(g.cause, GapCause::CpuWait) << gapDetailText(*trace, g).toStdString();
        EXPECT_EQ(trace->string(l.nameId(g.event.index)), QStringLiteral("pthread_cond_wait"));
        EXPECT_EQ(l.kind(), LaneKind::Osrt);
        EXPECT_EQ(trace->string(trace->lane(g.enclosingNvtx.lane).nameId(g.enclosingNvtx.index)),
                  QStringLiteral("Data Load"));
        EXPECT_TRUE(
            gapDetailText(*trace, g).startsWith(QStringLiteral("CPU waiting in pthread_cond_wait: "
                                                               "MainThread")))
            << gapDetailText(*trace, g).toStdString();
        ++dataLoad;
    }
    // 20 iterations; the first loads data before the GPU's first work.
    EXPECT_EQ(dataLoad, 19);
    ASSERT_EQ(a.devices.size(), 1u);
    // The idle share from the brute-force gaps; docs/GAPS.md: 299 ms, 26 % of the trace.
    TimeNs idle = 0;
    const auto bruteForce = test::bruteForceGaps(*trace, 100'000);
    for (const TimeRange& g : bruteForce.at(0))
        idle += g.duration();
    EXPECT_EQ(a.devices[0].idleNs, idle);
    EXPECT_DOUBLE_EQ(a.devices[0].tracePercent,
                     100.0 * double(idle) / double(trace->timeRange().duration()));
    EXPECT_NEAR(double(idle), 299e6, 0.5e6);
    EXPECT_NEAR(a.devices[0].tracePercent, 26.0, 0.5);
}

// Union of [start, max(end, start + 1)) of the record tables' operations of `device`, by kind:
// independent of busyIntervals.
struct WorkByHand {
    TimeNs kernels = 0, copies = 0, all = 0;
    std::optional<TimeRange> span;
};
WorkByHand workByHand(const Trace& t, std::uint32_t device) {
    std::vector<TimeRange> k, c;
    auto add = [&](std::vector<TimeRange>& out, EventRef self, std::uint32_t stream) {
        const Lane& l = t.lane(self.lane);
        if (l.kind() == LaneKind::Uvm || t.streams()[stream].deviceId != device)
            return;
        const TimeNs s = l.start(self.index);
        out.push_back({s, std::max(l.end(self.index), s + 1)});
    };
    for (const KernelRecord& r : t.kernels())
        add(k, r.self, r.stream);
    for (const MemcpyRecord& r : t.memcpys())
        add(c, r.self, r.stream);
    for (const MemsetRecord& r : t.memsets())
        add(c, r.self, r.stream);
    auto unionOf = [](std::vector<TimeRange> v, std::optional<TimeRange>* span) {
        std::sort(v.begin(), v.end(), [](auto& a, auto& b) { return a.start < b.start; });
        TimeNs sum = 0, reach = std::numeric_limits<TimeNs>::min();
        for (const TimeRange& r : v) {
            const TimeNs from = std::max(r.start, reach);
            sum += std::max<TimeNs>(0, r.end - from);
            reach = std::max(reach, r.end);
        }
        if (span && !v.empty())
            *span = TimeRange{v.front().start, reach};
        return sum;
    };
    WorkByHand w;
    w.kernels = unionOf(k, nullptr);
    w.copies = unionOf(c, nullptr);
    k.insert(k.end(), c.begin(), c.end());
    w.all = unionOf(k, &w.span);
    return w;
}

TEST(GapSummary, SampleSplitsKernelAndCopyTimeAndReportsTheEnds) {
    const auto trace = test::sampleTrace();
    ASSERT_TRUE(trace);
    const GapAnalysis a = findGaps(*trace, 100'000);
    ASSERT_EQ(a.devices.size(), 1u);
    const DeviceIdleSummary& d = a.devices[0];
    const WorkByHand w = workByHand(*trace, 0);
    ASSERT_TRUE(w.span);
    EXPECT_GT(w.kernels, 0);
    EXPECT_GT(w.copies, 0);
    EXPECT_TRUE(d.hasWork());
    EXPECT_EQ(d.kernelNs, w.kernels);
    EXPECT_EQ(d.copyNs, w.copies);
    EXPECT_EQ(d.busyNs, w.all);
    EXPECT_EQ(d.busySpan, w.span);
    EXPECT_EQ(d.idleBeforeNs, w.span->start - trace->timeRange().start);
    EXPECT_EQ(d.idleAfterNs, trace->timeRange().end - w.span->end);
    // The first iteration loads data before any GPU work: idle, but not a gap.
    EXPECT_GT(d.idleBeforeNs, 5'000'000);
    for (const GpuGap& g : a.gaps)
        EXPECT_GE(g.range.start, w.span->start);
}

TEST(GapSummary, BusyKernelsTreatsCopiesAsIdle) {
    // GPU 0: kernel [0, 100 us), memcpy [100 us, 900 us), kernel [900 us, 1 ms).
    TraceBuilder b(QStringLiteral("copies"));
    KernelConfig c;
    c.shortName = b.intern("k");
    b.addKernel(1, 0, 1, 7, 0, 100'000, c, 1u, std::nullopt);
    MemcpyRecord m;
    m.copyKind = MemcpyKind::HtoD;
    b.addMemcpy(1, 0, 1, 8, 100'000, 900'000, b.intern("[CUDA memcpy Host-to-Device]"), m);
    b.addKernel(1, 0, 1, 7, 900'000, 1'000'000, c, 2u, std::nullopt);
    const auto t = b.finish();

    const GapAnalysis all = findGaps(*t, 100'000);
    EXPECT_EQ(all.busy, BusyWork::All);
    EXPECT_TRUE(all.gaps.empty());
    ASSERT_EQ(all.devices.size(), 1u);
    EXPECT_EQ(all.devices[0].kernelNs, 200'000);
    EXPECT_EQ(all.devices[0].copyNs, 800'000);
    EXPECT_EQ(all.devices[0].busyNs, 1'000'000);

    const GapAnalysis kernels = findGaps(*t, 100'000, BusyWork::Kernels);
    EXPECT_EQ(kernels.busy, BusyWork::Kernels);
    ASSERT_EQ(kernels.gaps.size(), 1u);
    EXPECT_EQ(kernels.gaps[0].range, (TimeRange{100'000, 900'000}));
    // The gap's neighbours are kernels, never the copy.
    EXPECT_EQ(t->lane(kernels.gaps[0].after.lane).kind(), LaneKind::Kernels);
    EXPECT_EQ(t->lane(kernels.gaps[0].before.lane).kind(), LaneKind::Kernels);
    EXPECT_TRUE(gapDetailText(*t, kernels.gaps[0])
                    .endsWith(QStringLiteral(" Copies ran for 100% of the gap.")))
        << gapDetailText(*t, kernels.gaps[0]).toStdString();
    EXPECT_EQ(kernels.devices[0].idleNs, 800'000);
    EXPECT_EQ(kernels.devices[0].busyNs, 200'000);
    EXPECT_EQ(kernels.devices[0].kernelNs, 200'000);
    EXPECT_EQ(kernels.devices[0].copyNs, 800'000);
    EXPECT_EQ(busyWorkKey(BusyWork::Kernels), QStringLiteral("kernels"));
    EXPECT_EQ(busyWorkFromKey(u"all"), BusyWork::All);
    EXPECT_EQ(busyWorkFromKey(u"kernels"), BusyWork::Kernels);
    EXPECT_EQ(busyWorkFromKey(u"copies"), BusyWork::Copies);
    EXPECT_EQ(busyWorkFromKey(u"Kernels"), std::nullopt);
}

TEST(GapSummary, AGpuThatRanNothingHasNoWorkAndNoEnds) {
    TraceBuilder b(QStringLiteral("idle gpu"));
    GpuInfo g0, g1;
    g0.id = 0;
    g1.id = 1;
    b.addGpu(g0);
    b.addGpu(g1);
    KernelConfig c;
    c.shortName = b.intern("k");
    b.addKernel(1, 0, 1, 7, 1'000, 2'000, c, 1u, std::nullopt);
    b.addApiCall(1, 2, 0, 5'000, b.intern("cudaFree"), ApiCallRecord{});
    const auto t = b.finish();
    const GapAnalysis a = findGaps(*t, 100);
    ASSERT_EQ(a.devices.size(), 2u);
    EXPECT_TRUE(a.devices[0].hasWork());
    EXPECT_EQ(a.devices[0].idleBeforeNs, 1'000);
    EXPECT_EQ(a.devices[0].idleAfterNs, 3'000);
    EXPECT_FALSE(a.devices[1].hasWork());
    EXPECT_FALSE(a.devices[1].busySpan);
    EXPECT_EQ(a.devices[1].idleBeforeNs, 0);
    EXPECT_EQ(a.devices[1].idleAfterNs, 0);
    // A kernels-only analysis of a GPU that only copies: work, but nothing busy.
    const GapAnalysis k = findGaps(*t, 100, BusyWork::Copies);
    EXPECT_TRUE(k.devices[0].hasWork());
    EXPECT_FALSE(k.devices[0].busySpan);
}

TEST(GapSummary, ExplainGapGivesWhatFindGapsGives) {
    GapTrace t;
    t.osrt("poll", 20'000, 400'000);
    const GpuGap found = t.finish();
    const GpuGap explained = explainGap(*t.trace, 0, found.range);
    EXPECT_EQ(explained.cause, found.cause);
    EXPECT_EQ(gapDetailText(*t.trace, explained), gapDetailText(*t.trace, found));
    EXPECT_EQ(explained.event, found.event);
    // An empty range is not explained, and does not crash.
    const GpuGap none = explainGap(*t.trace, 0, {5, 5});
    EXPECT_EQ(none.cause, GapCause::Unknown);
    EXPECT_EQ(none.evidence.rule, GapRule::None);
    EXPECT_TRUE(gapDetailText(*t.trace, none).isEmpty());
    // A device without work: no neighbours, cause from the CPU side only.
    EXPECT_FALSE(explainGap(*t.trace, 9, {0, 1000}).after.isValid());
}

} // namespace

namespace {
// A device's work by hand, from the records (not the lanes): each event's [start, end) (1 ns
// when empty), migrations left out, sorted and merged; and the summary's figures from that.
struct HandSummary {
    TimeNs kernelNs = 0, copyNs = 0, busyNs = 0, idleNs = 0;
    std::uint64_t gapCount = 0;
    std::optional<TimeRange> span;
};
std::vector<TimeRange> unionByHand(std::vector<TimeRange> ev) {
    std::sort(ev.begin(), ev.end(), [](auto& a, auto& b) { return a.start < b.start; });
    std::vector<TimeRange> out;
    for (const TimeRange& r : ev) {
        if (!out.empty() && r.start <= out.back().end)
            out.back().end = std::max(out.back().end, r.end);
        else
            out.push_back(r);
    }
    return out;
}
TimeNs lengthByHand(const std::vector<TimeRange>& u) {
    TimeNs sum = 0;
    for (const TimeRange& r : u)
        sum += r.duration();
    return sum;
}
std::map<std::uint32_t, HandSummary> summaryByHand(const Trace& t, BusyWork busy, TimeNs minNs) {
    std::map<std::uint32_t, std::pair<std::vector<TimeRange>, std::vector<TimeRange>>> work;
    auto add = [&](EventRef self, std::uint32_t stream, bool kernel) {
        const Lane& l = t.lane(self.lane);
        if (l.kind() == LaneKind::Uvm)
            return;
        const TimeNs s = l.start(self.index);
        auto& [kernels, copies] = work[t.streams()[stream].deviceId];
        (kernel ? kernels : copies).push_back({s, std::max(l.end(self.index), s + 1)});
    };
    for (const KernelRecord& k : t.kernels())
        add(k.self, k.stream, true);
    for (const MemcpyRecord& m : t.memcpys())
        add(m.self, m.stream, false);
    for (const MemsetRecord& m : t.memsets())
        add(m.self, m.stream, false);
    std::map<std::uint32_t, HandSummary> out;
    for (const auto& [device, w] : work) {
        HandSummary& h = out[device];
        h.kernelNs = lengthByHand(unionByHand(w.first));
        h.copyNs = lengthByHand(unionByHand(w.second));
        std::vector<TimeRange> all;
        if (busy != BusyWork::Copies)
            all.insert(all.end(), w.first.begin(), w.first.end());
        if (busy != BusyWork::Kernels)
            all.insert(all.end(), w.second.begin(), w.second.end());
        const std::vector<TimeRange> u = unionByHand(all);
        h.busyNs = lengthByHand(u);
        if (!u.empty())
            h.span = TimeRange{u.front().start, u.back().end};
        for (std::size_t i = 1; i < u.size(); ++i) {
            const TimeNs gap = u[i].start - u[i - 1].end;
            if (gap >= minNs) {
                ++h.gapCount;
                h.idleNs += gap;
            }
        }
    }
    return out;
}
} // namespace

// summarizeGpus walks the union of a device's kernels and copies without building it (strobe-cli
// info's peak): its figures equal a sort and merge of the records by hand, on every fixture, for
// each kind of busy work and two thresholds, and findGaps' summaries (which keep the union) too.
TEST_P(FixtureGaps, SummariesEqualUnionByHand) {
    LoadResult r = loadTrace(QStringLiteral(STROBE_FIXTURES_DIR "/nsys/") + GetParam());
    ASSERT_TRUE(r.ok()) << r.error.toStdString();
    for (BusyWork busy : {BusyWork::All, BusyWork::Kernels, BusyWork::Copies}) {
        for (TimeNs threshold : {TimeNs(1), TimeNs(100'000)}) {
            const auto hand = summaryByHand(*r.trace, busy, threshold);
            const std::vector<DeviceIdleSummary> sums = summarizeGpus(*r.trace, threshold, busy);
            const GapAnalysis gaps = findGaps(*r.trace, threshold, busy);
            ASSERT_EQ(gaps.devices.size(), sums.size());
            std::size_t withWork = 0;
            for (std::size_t i = 0; i < sums.size(); ++i) {
                const DeviceIdleSummary& s = sums[i];
                const std::string where = "device " + std::to_string(s.deviceId) + ", busy " +
                                          std::to_string(int(busy)) +
                                          ", >= " + std::to_string(threshold);
                const auto it = hand.find(s.deviceId);
                const HandSummary h = it == hand.end() ? HandSummary{} : it->second;
                withWork += it != hand.end();
                EXPECT_EQ(s.kernelNs, h.kernelNs) << where;
                EXPECT_EQ(s.copyNs, h.copyNs) << where;
                EXPECT_EQ(s.busyNs, h.busyNs) << where;
                EXPECT_EQ(s.gapCount, h.gapCount) << where;
                EXPECT_EQ(s.idleNs, h.idleNs) << where;
                EXPECT_EQ(s.busySpan, h.span) << where;
                const DeviceIdleSummary& g = gaps.devices[i];
                EXPECT_EQ(g.deviceId, s.deviceId) << where;
                EXPECT_EQ(g.busyNs, s.busyNs) << where;
                EXPECT_EQ(g.gapCount, s.gapCount) << where;
                EXPECT_EQ(g.idleNs, s.idleNs) << where;
                EXPECT_EQ(g.idleBeforeNs, s.idleBeforeNs) << where;
                EXPECT_EQ(g.idleAfterNs, s.idleAfterNs) << where;
            }
            EXPECT_EQ(withWork, hand.size());
        }
    }
}
