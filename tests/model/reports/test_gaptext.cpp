// SPDX-License-Identifier: MIT
// gapDetailText, gapCauseText and gapCauseLabel: each rule's evidence becomes the sentence the
// CLI, CSV, gaps panel and idle-band tooltip print, word for word.
#include "model/reports/gaptext.h"

#include "model/timeformat.h"
#include "model/trace.h"
#include "model/tracebuilder.h"

#include <QStringBuilder>
#include <gtest/gtest.h>

using namespace strobe;

namespace {

GapEvidence evidence(GapRule rule, EventRef call = {}, TimeNs callCovered = 0) {
    GapEvidence e;
    e.rule = rule;
    e.call = call;
    e.callCoveredNs = callCovered;
    return e;
}

// Thread 101 ("Main") of pid 100 with one CUDA call, one OS runtime call and one NVTX range;
// the gaps below are made by hand over the 490 us [10 us, 500 us).
class GapTextTest : public ::testing::Test {
protected:
    void SetUp() override {
        TraceBuilder b(QStringLiteral("gaptext"));
        b.setThreadName(100, 101, b.intern("Main"));
        ApiCallRecord a;
        a.correlationId = 1;
        b.addApiCall(100, 101, 0, 400'000, b.intern("cudaStreamSynchronize_v3020"), a);
        b.addOsrtCall(100, 101, 0, 490'000, b.intern("poll"), OsrtRecord{});
        b.addNvtx(100, 101, kNoString, 0, 480'000, b.intern("Data Load"), NvtxRecord{},
                  std::nullopt);
        trace = b.finish();
        for (std::uint32_t li = 0; li < trace->lanes().size(); ++li) {
            const LaneKind k = trace->lane(li).kind();
            (k == LaneKind::CudaApi ? api : k == LaneKind::Osrt ? osrt : nvtx) = EventRef{li, 0};
        }
        gap.range = {10'000, 500'000};
        gap.thread = trace->lane(api.lane).owner();
    }
    QString text() const { return gapDetailText(*trace, gap); }

    std::unique_ptr<Trace> trace;
    EventRef api, osrt, nvtx;
    GpuGap gap;
    const QString dur = formatDuration(490'000);
};

TEST_F(GapTextTest, LaunchOverheadSaysHowLongTheCallRan) {
    gap.cause = GapCause::LaunchOverhead;
    gap.evidence = evidence(GapRule::LaunchOverhead, api, 245'000);
    gap.evidence.callStart = 255'000;
    EXPECT_EQ(text(),
              QStringLiteral("Main [101] was in cudaStreamSynchronize for 50% of the gap: ") %
                  formatDuration(245'000) %
                  QStringLiteral(" from the call to the start of the work it launched."));
}

TEST_F(GapTextTest, SyncWaitCapsThePercentAt100) {
    gap.cause = GapCause::Sync;
    gap.evidence = evidence(GapRule::SyncWait, api, 600'000); // more than the gap: still 100%
    EXPECT_EQ(text(), QStringLiteral("Main [101] waited in cudaStreamSynchronize for 100% of the "
                                     "gap (") %
                          dur % QStringLiteral(") while the GPU idled."));
}

TEST_F(GapTextTest, CpuWaitNamesTheWaitThenTheRange) {
    gap.cause = GapCause::CpuWait;
    gap.event = osrt;
    gap.evidence = evidence(GapRule::CpuWait, osrt, 470'400);
    EXPECT_EQ(text(), QStringLiteral("CPU waiting in poll: Main [101] was in it for 96% of the "
                                     "gap, launching no GPU work for ") %
                          dur % u'.');
    gap.evidence.nvtxRange = nvtx;
    gap.evidence.rangeCoveredNs = 392'000;
    EXPECT_EQ(text(), QStringLiteral("CPU waiting in poll: Main [101] was in it for 96% of the "
                                     "gap, in NVTX range \"Data Load\" for 80%, launching no GPU "
                                     "work for ") %
                          dur % u'.');
    EXPECT_EQ(gapCauseLabel(gap.cause), QStringLiteral("CPU waiting"));
    EXPECT_EQ(gapCauseText(*trace, gap), QStringLiteral("CPU waiting in poll"));
}

TEST_F(GapTextTest, CpuBusyNamesTheRangeAndTheCall) {
    gap.cause = GapCause::CpuBusy;
    gap.evidence.rule = GapRule::CpuBusy;
    gap.evidence.nvtxRange = nvtx;
    gap.evidence.rangeCoveredNs = 490'000;
    EXPECT_EQ(text(), QStringLiteral("Main [101] was in NVTX range \"Data Load\" for 100% of the "
                                     "gap, launching no GPU work for ") %
                          dur % u'.');
    gap.evidence.call = api;
    gap.evidence.callCoveredNs = 294'000;
    EXPECT_EQ(text(), QStringLiteral("Main [101] was in NVTX range \"Data Load\" for 100% of the "
                                     "gap, in cudaStreamSynchronize for 60%, launching no GPU work "
                                     "for ") %
                          dur % u'.');
    gap.evidence.nvtxRange = {};
    EXPECT_EQ(text(), QStringLiteral("Main [101] was in cudaStreamSynchronize for 60% of the gap, "
                                     "launching no GPU work for ") %
                          dur % u'.');
    EXPECT_EQ(gapCauseText(*trace, gap), QStringLiteral("CPU busy"));
}

TEST_F(GapTextTest, SyncDrainSaysWhenTheCallReturned) {
    gap.cause = GapCause::Sync;
    gap.evidence = evidence(GapRule::SyncDrain, api);
    gap.evidence.returnedAt = 400'000;
    EXPECT_EQ(text(), QStringLiteral("Main [101] waited in cudaStreamSynchronize until the GPU "
                                     "drained; it returned ") %
                          formatDuration(390'000) %
                          QStringLiteral(" into the gap and the next work started ") %
                          formatDuration(100'000) % QStringLiteral(" later."));
}

TEST_F(GapTextTest, NoCpuActivityAndOtherCallsNameTheNextLaunch) {
    gap.cause = GapCause::NoCpuActivity;
    gap.evidence = evidence(GapRule::NoCpuActivity);
    EXPECT_EQ(text(), QStringLiteral("No CUDA API call on the CPU side for ") % dur %
                          QStringLiteral(". No launch call of the next work was recorded."));
    gap.evidence.call = api;
    EXPECT_EQ(text(), QStringLiteral("No CUDA API call on the CPU side for ") % dur %
                          QStringLiteral(". Main [101] launched the next work with "
                                         "cudaStreamSynchronize."));
    gap.cause = GapCause::Unknown;
    gap.evidence.rule = GapRule::OtherCalls;
    gap.evidence.otherCalls = 1;
    EXPECT_EQ(text(), QStringLiteral("1 CUDA API call during the gap, none of which explains it. "
                                     "Main [101] launched the next work with "
                                     "cudaStreamSynchronize."));
    gap.evidence.otherCalls = 3;
    gap.evidence.call = {};
    EXPECT_EQ(text(), QStringLiteral("3 CUDA API calls during the gap, none of which explains it. "
                                     "No launch call of the next work was recorded."));
    EXPECT_EQ(gapCauseLabel(gap.cause), QStringLiteral("Unknown"));
}

TEST_F(GapTextTest, CopiesOfAKernelsOnlyAnalysisFollowTheSentence) {
    gap.cause = GapCause::NoCpuActivity;
    gap.evidence = evidence(GapRule::NoCpuActivity);
    gap.evidence.copyNs = 49'000;
    EXPECT_EQ(text(), QStringLiteral("No CUDA API call on the CPU side for ") % dur %
                          QStringLiteral(". No launch call of the next work was recorded. Copies "
                                         "ran for 10% of the gap."));
}

TEST_F(GapTextTest, NothingExplainedIsNoSentence) {
    gap.evidence = {};
    gap.evidence.copyNs = 49'000; // not without a rule
    EXPECT_TRUE(text().isEmpty());
    EXPECT_EQ(gapCauseText(*trace, gap), QStringLiteral("Unknown"));
}

TEST(GapCauseLabel, OneLabelPerCause) {
    EXPECT_EQ(gapCauseLabel(GapCause::LaunchOverhead), QStringLiteral("Launch overhead"));
    EXPECT_EQ(gapCauseLabel(GapCause::Sync), QStringLiteral("Synchronisation"));
    EXPECT_EQ(gapCauseLabel(GapCause::CpuBusy), QStringLiteral("CPU busy"));
    EXPECT_EQ(gapCauseLabel(GapCause::NoCpuActivity), QStringLiteral("No CPU activity"));
}

} // namespace
