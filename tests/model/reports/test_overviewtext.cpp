// SPDX-License-Identifier: MIT
// findingText, findingQuestionText, percentText and roundedShareTexts: each answer of the
// Overview becomes the sentence the panel shows, word for word, from findings made by hand; on a
// built trace, its gap figures are the GPU Gaps panel's.
#include "model/reports/overviewtext.h"

#include "model/reports/gapsummarytext.h"
#include "model/timeformat.h"
#include "model/trace.h"
#include "model/tracebuilder.h"
#include "tests/support/qtprinters.h"

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
        b.addKernel(100, 0, 1, 7, 0, 1'000'000, c, 1, std::nullopt);
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

// Item 2 of issue 44: the Overview said "idle 8.7 % of its span (41 gaps >= 100 us)" beside the
// GPU Gaps panel's "15.82 ms in 41 gaps (5.3 % of the trace)". Now it says its span's idle time
// and then the panel's gap figures word for word, each share naming what it is of.
TEST_F(OverviewTextTest, StarvedNamesTheLargestRange) {
    gpu.idle = 400'000;
    OverviewFinding f = finding(FindingQuestion::Starved, FindingAnswer::HostStarves);
    f.gapCount = 3;
    f.gapThreshold = 100'000;
    f.gapTotal = 300'000;
    f.idleShares = {{QStringLiteral("Data Load"), GapCause::Unknown, 200'000},
                    {std::nullopt, GapCause::Sync, 100'000}};
    EXPECT_EQ(findingText(*trace, f),
              QStringLiteral("GPU 3 idle ") % formatDuration(400'000) %
                  QStringLiteral(", 40.0 % of its span: ") % formatDuration(300'000) %
                  QStringLiteral(" in 3 gaps of at least ") % formatDuration(100'000) %
                  QStringLiteral(" (30.0 % of the trace), the rest in shorter stretches. Top "
                                 "cause: the range \"Data Load\", 66.7 % of the gap time. The "
                                 "host starves the GPU: while \"Data Load\" runs, no work "
                                 "reaches it."));
}

// Item 3 of issue 44: 'while "Launch overhead" runs' quoted a cause as if it were a range.
TEST_F(OverviewTextTest, StarvedByACauseSaysWhatTheHostDoes) {
    gpu.idle = 300'000;
    OverviewFinding f = finding(FindingQuestion::Starved, FindingAnswer::HostStarves);
    f.gapCount = 1;
    f.gapThreshold = 100'000;
    f.gapTotal = 300'000;
    const std::pair<GapCause, const char*> causes[] = {
        {GapCause::LaunchOverhead,
         "Top cause: Launch overhead, 100.0 % of the gap time. The host starves the GPU: "
         "launching its work takes longer than the work runs."},
        {GapCause::Sync, "Top cause: Synchronisation, 100.0 % of the gap time. The host starves "
                         "the GPU: the host waits in synchronisation calls that drain it."},
        {GapCause::CpuBusy,
         "Top cause: CPU busy, 100.0 % of the gap time. The host starves the GPU: the thread "
         "that launches its work is busy elsewhere (NVTX ranges, OS runtime or other CUDA "
         "calls)."},
        {GapCause::CpuWait, "Top cause: CPU waiting, 100.0 % of the gap time. The host starves "
                            "the GPU: the thread that launches its work waits in blocking OS "
                            "calls."},
        {GapCause::NoCpuActivity,
         "Top cause: No CPU activity, 100.0 % of the gap time. The host starves the GPU: its "
         "processes make no CUDA call during the gaps."},
        {GapCause::Unknown, "Top cause: Unknown, 100.0 % of the gap time. The host starves the "
                            "GPU: CUDA calls run during the gaps but none explains them."},
    };
    for (const auto& [cause, expected] : causes) {
        f.idleShares = {{std::nullopt, cause, 300'000}};
        const QString text = findingText(*trace, f);
        EXPECT_TRUE(text.endsWith(QLatin1String(expected))) << text.toStdString();
        EXPECT_FALSE(text.contains(QStringLiteral("while"))) << text.toStdString();
        EXPECT_TRUE(text.contains(QStringLiteral(" in 1 gap of at least "))) << text.toStdString();
    }
}

TEST_F(OverviewTextTest, StarvedTiesGoToTheFirstAndRangesStayApartFromCauses) {
    gpu.idle = 50'000;
    OverviewFinding f = finding(FindingQuestion::Starved, FindingAnswer::KeptBusy);
    f.gapCount = 3;
    f.gapThreshold = 1000;
    f.gapTotal = 30'000;
    // Ranges come before causes: a tie names the range.
    f.idleShares = {{QStringLiteral("Data Load"), GapCause::Unknown, 10'000},
                    {std::nullopt, GapCause::CpuBusy, 10'000}};
    const QString tie = findingText(*trace, f);
    EXPECT_TRUE(tie.contains(
        QStringLiteral(" Top cause: the range \"Data Load\", 33.3 % of the gap time.")))
        << tie.toStdString();
    EXPECT_TRUE(
        tie.endsWith(QStringLiteral(". The GPU is kept busy: the host is not what limits it.")))
        << tie.toStdString();
    // A range named like a cause's label is still a range, not that cause.
    f.idleShares = {{QStringLiteral("Data Load"), GapCause::Unknown, 12'000},
                    {QStringLiteral("CPU busy"), GapCause::Unknown, 6'000},
                    {std::nullopt, GapCause::CpuBusy, 9'000}};
    const QString apart = findingText(*trace, f);
    EXPECT_TRUE(apart.contains(QStringLiteral(" Top cause: the range \"Data Load\", 40.0 %")))
        << apart.toStdString();
}

TEST_F(OverviewTextTest, IdleWithoutGapsIsInShorterStretches) {
    gpu.idle = 500'000;
    OverviewFinding f = finding(FindingQuestion::Starved, FindingAnswer::IdleOutsideGaps);
    f.gapThreshold = 100'000;
    EXPECT_EQ(findingText(*trace, f),
              QStringLiteral("GPU 3 idle ") % formatDuration(500'000) %
                  QStringLiteral(", 50.0 % of its span: 0 ns in 0 gaps of at least ") %
                  formatDuration(100'000) %
                  QStringLiteral(" (0.0 % of the trace), the rest in shorter stretches. The "
                                 "idle time is in stretches shorter than ") %
                  formatDuration(100'000) % QStringLiteral("."));
}

// Over a selected range, both shares are of the selection.
TEST_F(OverviewTextTest, StarvedOverASelectionSharesOfIt) {
    gpu.span = {0, 500'000};
    gpu.idle = 100'000;
    OverviewFinding f = finding(FindingQuestion::Starved, FindingAnswer::KeptBusy);
    f.window = gpu.span;
    f.gapCount = 1;
    f.gapThreshold = 100'000;
    f.gapTotal = 100'000;
    f.idleShares = {{std::nullopt, GapCause::Sync, 100'000}};
    EXPECT_TRUE(findingText(*trace, f).startsWith(
        QStringLiteral("GPU 3 idle ") % formatDuration(100'000) %
        QStringLiteral(", 20.0 % of the selection: ") % formatDuration(100'000) %
        QStringLiteral(" in 1 gap of at least ") % formatDuration(100'000) %
        QStringLiteral(" (20.0 % of the selection). Top cause:")))
        << findingText(*trace, f).toStdString();
}

// The Overview and the GPU Gaps panel on the same trace and threshold: the Overview's sentence
// holds the panel's gap figures exactly ("idle 200.0 µs in 1 gap of at least 100.0 µs (50.0 %
// of the trace)"), where it used to give only a share of the span beside the same count.
TEST(OverviewAndGaps, SayTheSameGapFigures) {
    TraceBuilder b(QStringLiteral("agree"));
    KernelConfig c;
    c.shortName = b.intern("gemm");
    c.grid = {1000, 1, 1};
    for (const auto& [s, e] :
         {std::pair<TimeNs, TimeNs>{0, 1000}, {1050, 2000}, {202'000, 203'000}, {203'040, 400'000}})
        b.addKernel(1, 0, 1, 7, s, e, c, std::nullopt, std::nullopt);
    const auto trace = b.finish();
    const Overview o = buildOverview(*trace, KernelClassTable::defaults(), std::nullopt, 100'000);
    const QString overview = findingText(*trace, o.findings.at(0));
    const GapAnalysis gaps = findGaps(*trace, 100'000);
    const QString panel = gpuWorkLine(gaps.devices.at(0), gaps.busy, gaps.threshold);
    const QString figures = QStringLiteral("idle ") % formatDuration(200'000) %
                            QStringLiteral(" in 1 gap of at least ") % formatDuration(100'000) %
                            QStringLiteral(" (50.0 % of the trace)");
    EXPECT_TRUE(panel.endsWith(figures)) << panel.toStdString();
    EXPECT_TRUE(overview.startsWith(QStringLiteral("GPU 0 idle ") % formatDuration(200'090) %
                                    QStringLiteral(", 50.0 % of its span: ") % figures.mid(5) %
                                    QStringLiteral(", the rest in shorter stretches.")))
        << overview.toStdString();
}

// Item 14 of issue 44: the legend dropped shares under 1 % and its labels added up to 99 %.
TEST(RoundedShareTexts, AddUpToAHundredAndNameTheTinyOnes) {
    // 1/3 each: 33.3 + 33.3 + 33.4 (the largest remainder takes the spare tenth).
    EXPECT_EQ(roundedShareTexts({1, 1, 1}),
              (QStringList{QStringLiteral("33.4 %"), QStringLiteral("33.3 %"),
                           QStringLiteral("33.3 %")}));
    // 0.04 % is not nothing: "<0.1 %"; zero is "0.0 %"; the rest still add up to 100.0.
    EXPECT_EQ(roundedShareTexts({4, 0, 2'996, 7'000}),
              (QStringList{QStringLiteral("<0.1 %"), QStringLiteral("0.0 %"),
                           QStringLiteral("30.0 %"), QStringLiteral("70.0 %")}));
    // Nine parts of 0.6 % and the rest: each 0.6, not 1 % (which would add up to 104).
    std::vector<TimeNs> parts(9, 6);
    parts.push_back(946);
    const QStringList t = roundedShareTexts(parts);
    EXPECT_EQ(t.front(), QStringLiteral("0.6 %"));
    EXPECT_EQ(t.back(), QStringLiteral("94.6 %"));
    EXPECT_TRUE(roundedShareTexts({}).isEmpty());
    EXPECT_EQ(roundedShareTexts({0, 0}),
              (QStringList{QStringLiteral("0.0 %"), QStringLiteral("0.0 %")}));
}

TEST_F(OverviewTextTest, FillAnswers) {
    // Item 4 of issue 44: without an SM count, say where the limits come from as info does.
    OverviewFinding none = finding(FindingQuestion::Fill, FindingAnswer::NoSmCount);
    none.limits.source = GpuLimitsSource::ArchitectureTable;
    none.limits.basis = GpuLimitsBasis::CapabilityOfName;
    none.limits.capability = {9, 0};
    none.limits.name = QStringLiteral("NVIDIA H100 PCIe");
    EXPECT_EQ(findingText(*trace, none),
              QStringLiteral("GPU 3: the trace does not record the SM count, and the "
                             "architecture table cannot give it (products of one architecture "
                             "differ); occupancy limits from the architecture table (compute "
                             "capability 9.0, from the name 'NVIDIA H100 PCIe')."));
    none.limits = {};
    none.limits.source = GpuLimitsSource::Unknown;
    none.limits.basis = GpuLimitsBasis::NothingRecorded;
    EXPECT_EQ(findingText(*trace, none),
              QStringLiteral("GPU 3: the trace does not record the SM count, and the "
                             "architecture table cannot give it (products of one architecture "
                             "differ); occupancy limits unknown: the trace records no limits, "
                             "compute capability or name for this GPU."));
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
                  QStringLiteral(" (25.0 % of compute on GPU 3): 128 SMs sit idle while it "
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
    // Item 5 of issue 44: a full unified-memory lane beside "copies and memsets take 0.0 %".
    OverviewFinding uvm = finding(FindingQuestion::Memory, FindingAnswer::NoMemoryRecord);
    uvm.migrations = 4608;
    uvm.migrationNs = 389'000;
    EXPECT_TRUE(findingText(*trace, uvm)
                    .startsWith(QStringLiteral("GPU 3: copies and memsets take 10.0 % of the span "
                                               "(2.0 % under no kernel); unified-memory "
                                               "migrations take 38.9 % (") %
                                formatDuration(389'000) %
                                QStringLiteral(" in 4608 migrations), not in the bar: they are "
                                               "not stream work. The trace records no GPU "
                                               "memory use")))
        << findingText(*trace, uvm).toStdString();
    // The lane's others, after the last stream work, are counted too, not silently left out.
    uvm.migrationsOutside = 1536;
    EXPECT_TRUE(findingText(*trace, uvm)
                    .contains(QStringLiteral(" in 4608 migrations), not in the bar: they are not "
                                             "stream work (1536 more outside the span). The")))
        << findingText(*trace, uvm).toStdString();
    uvm.migrations = 0;
    uvm.migrationNs = 0;
    EXPECT_TRUE(findingText(*trace, uvm)
                    .contains(QStringLiteral("(2.0 % under no kernel); 1536 unified-memory "
                                             "migrations, all outside the span. The")))
        << findingText(*trace, uvm).toStdString();
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
