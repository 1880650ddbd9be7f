// SPDX-License-Identifier: MIT
// findingText, findingQuestionText and percentText: each answer of the Overview becomes the
// sentence the panel shows, word for word, from findings made by hand.
#include "model/reports/overviewtext.h"

#include "model/timeformat.h"
#include "model/trace.h"
#include "model/tracebuilder.h"

#include <QStringBuilder>
#include <gtest/gtest.h>

using namespace strobe;

namespace {

class OverviewTextTest : public ::testing::Test {
protected:
    void SetUp() override {
        TraceBuilder b(QStringLiteral("overviewtext"));
        GpuInfo g;
        g.id = 0;
        b.addGpu(g);
        KernelConfig c;
        c.shortName = b.intern("softmax");
        b.addKernel(100, 0, 1, 7, 1000, 2000, c, 1, std::nullopt);
        trace = b.finish();
        gpu.deviceId = 3;
        gpu.span = {0, 1'000'000};
    }
    OverviewFinding finding(FindingQuestion q, FindingAnswer a) const {
        OverviewFinding f;
        f.question = q;
        f.answer = a;
        f.gpu = gpu;
        return f;
    }

    std::unique_ptr<Trace> trace;
    GpuBreakdown gpu;
};

TEST(PercentText, OneDecimalAndNothingOfNothing) {
    EXPECT_EQ(percentText(1, 3), QStringLiteral("33.3 %"));
    EXPECT_EQ(percentText(276, 1000), QStringLiteral("27.6 %"));
    EXPECT_EQ(percentText(5, 0), QStringLiteral("0.0 %"));
}

TEST(FindingQuestionText, OneQuestionEach) {
    EXPECT_EQ(findingQuestionText(FindingQuestion::Starved), QStringLiteral("Is the GPU starved?"));
    EXPECT_EQ(findingQuestionText(FindingQuestion::Fill),
              QStringLiteral("Do the kernels fill the GPU?"));
    EXPECT_EQ(findingQuestionText(FindingQuestion::Communication),
              QStringLiteral("Is communication expensive?"));
    EXPECT_EQ(findingQuestionText(FindingQuestion::Memory),
              QStringLiteral("Is GPU memory the limit?"));
}

TEST_F(OverviewTextTest, StarvedNamesTheLargestShare) {
    gpu.idle = 400'000;
    OverviewFinding f = finding(FindingQuestion::Starved, FindingAnswer::HostStarves);
    f.gapCount = 3;
    f.gapThreshold = 100'000;
    f.gapTotal = 400'000;
    f.idleShares = {{QStringLiteral("Data Load"), GapCause::Unknown, 300'000},
                    {std::nullopt, GapCause::Sync, 100'000}};
    EXPECT_EQ(findingText(*trace, f),
              QStringLiteral("GPU 3 idle 40.0 % of its span (3 gaps of at least ") %
                  formatDuration(100'000) %
                  QStringLiteral("; top cause: Data Load, 75.0 % of the gap time). The host "
                                 "starves the GPU: while \"Data Load\" runs, no work reaches "
                                 "it."));
}

TEST_F(OverviewTextTest, StarvedTiesGoToTheFirstNameAndLabelsMergeWithRanges) {
    gpu.idle = 50'000;
    OverviewFinding f = finding(FindingQuestion::Starved, FindingAnswer::KeptBusy);
    f.gapCount = 3;
    f.gapThreshold = 1000;
    f.gapTotal = 30'000;
    // "CPU busy" < "Data Load": a tie names the first.
    f.idleShares = {{QStringLiteral("Data Load"), GapCause::Unknown, 10'000},
                    {std::nullopt, GapCause::CpuBusy, 10'000}};
    const QString tie = findingText(*trace, f);
    EXPECT_TRUE(tie.contains(QStringLiteral("; top cause: CPU busy, 33.3 % of the gap time)")))
        << tie.toStdString();
    EXPECT_TRUE(
        tie.endsWith(QStringLiteral(". The GPU is kept busy: the host is not what limits it.")))
        << tie.toStdString();
    // Neither "CPU busy" alone beats "Data Load"; together they do.
    f.idleShares = {{QStringLiteral("Data Load"), GapCause::Unknown, 12'000},
                    {QStringLiteral("CPU busy"), GapCause::Unknown, 6'000},
                    {std::nullopt, GapCause::CpuBusy, 9'000}};
    const QString merged = findingText(*trace, f);
    EXPECT_TRUE(merged.contains(QStringLiteral("; top cause: CPU busy, 50.0 %")))
        << merged.toStdString();
}

TEST_F(OverviewTextTest, IdleWithoutGapsIsAtTheEnds) {
    gpu.idle = 500'000;
    OverviewFinding f = finding(FindingQuestion::Starved, FindingAnswer::IdleOutsideGaps);
    f.gapThreshold = 100'000;
    EXPECT_EQ(findingText(*trace, f),
              QStringLiteral("GPU 3 idle 50.0 % of its span (0 gaps of at least ") %
                  formatDuration(100'000) %
                  QStringLiteral("). The idle time is before the first or after the last "
                                 "work."));
}

TEST_F(OverviewTextTest, FillAnswers) {
    EXPECT_EQ(findingText(*trace, finding(FindingQuestion::Fill, FindingAnswer::NoSmCount)),
              QStringLiteral("GPU 3: the trace does not record the SM count."));
    OverviewFinding f = finding(FindingQuestion::Fill, FindingAnswer::EveryKernelFills);
    f.smCount = 132;
    EXPECT_EQ(findingText(*trace, f),
              QStringLiteral("GPU 3: every kernel launches at least one block per SM (132 SMs)."));
    gpu.compute = 800'000;
    f = finding(FindingQuestion::Fill, FindingAnswer::Underfilled);
    f.smCount = 132;
    f.configs = {0};
    f.blocks = 4;
    f.launches = 12;
    f.kernelNs = 200'000;
    f.warpSlotFraction = 0.0132;
    EXPECT_EQ(findingText(*trace, f),
              QStringLiteral("softmax: 4 blocks on 132 SMs (1.3 % of the GPU's warp slots), 12 "
                             "launches, ") %
                  formatDuration(200'000) %
                  QStringLiteral(" (25.0 % of compute on GPU 3): most SMs sit idle while it "
                                 "runs."));
}

TEST_F(OverviewTextTest, CommunicationAnswers) {
    EXPECT_EQ(findingText(*trace,
                          finding(FindingQuestion::Communication, FindingAnswer::NoCommunication)),
              QStringLiteral("GPU 3 runs no communication (NCCL) kernels."));
    gpu.communication = 200'000;
    gpu.exposedCommunication = 50'000;
    EXPECT_EQ(
        findingText(*trace, finding(FindingQuestion::Communication, FindingAnswer::Communication)),
        QStringLiteral("GPU 3: communication 20.0 % of the span, 5.0 % exposed (") %
            QString::number(gpu.overlapPercent(), 'f', 1) %
            QStringLiteral(" % of it hidden under compute)."));
}

TEST_F(OverviewTextTest, MemoryAnswers) {
    gpu.memory = 100'000;
    gpu.memoryOnly = 20'000;
    const QString copies =
        QStringLiteral("copies and memsets take 10.0 % of the span (2.0 % under no kernel).");
    EXPECT_EQ(findingText(*trace, finding(FindingQuestion::Memory, FindingAnswer::NoMemoryRecord)),
              QStringLiteral("GPU 3: ") % copies %
                  QStringLiteral(" The trace records no GPU memory use: profile with nsys "
                                 "--cuda-memory-usage=true or torch.profiler(profile_memory=True) "
                                 "to see the peak."));
    OverviewFinding f = finding(FindingQuestion::Memory, FindingAnswer::MemoryPeak);
    f.time = 1500;
    f.peakAllocated = 1ull << 30;
    const QString at = formatTimestamp(1500, trace->timeRange().start);
    EXPECT_EQ(findingText(*trace, f),
              QStringLiteral("GPU 3: peak GPU memory ") % formatBytes(1ull << 30) %
                  QStringLiteral(" allocated, at ") % at % QStringLiteral("; ") % copies);
    f.totalMemory = 4ull << 30;
    EXPECT_EQ(findingText(*trace, f),
              QStringLiteral("GPU 3: peak GPU memory ") % formatBytes(1ull << 30) %
                  QStringLiteral(" of ") % formatBytes(4ull << 30) %
                  QStringLiteral(" (25.0 %) allocated, at ") % at % QStringLiteral("; ") % copies);
}

} // namespace
