// SPDX-License-Identifier: MIT
// The Overview panel on the sample trace: what it says, its bars, links, the iteration table and
// the selected range; on the two-GPU H100 export, one bar and one set of answers per GPU.
#include "model/itemmodels/iterationtablemodel.h"
#include "model/itemmodels/tableroles.h"
#include "model/reports/findingtext.h"
#include "model/reports/gapsummarytext.h"
#include "model/reports/overviewtext.h"
#include "model/timeformat.h"
#include "tests/model/analysis/gaptestdata.h"
#include "tests/widgets/panels/paneltesthelpers.h"
#include "widgets/findinganalysis.h"
#include "widgets/panels/breakdownbars.h"
#include "widgets/panels/overviewpanel.h"
#include "widgets/panels/stepbreakdownchart.h"

#include <QAbstractItemModelTester>
#include <QHeaderView>
#include <QSignalSpy>
#include <QTableView>
#include <gtest/gtest.h>
#include <map>

using namespace strobe;

namespace {

class OverviewPanelTest : public ::testing::Test {
protected:
    void SetUp() override {
        trace = test::sampleTrace();
        ASSERT_TRUE(trace);
        state.setTrace(trace);
    }
    std::shared_ptr<const Trace> trace;
    ViewState state;
};

TEST_F(OverviewPanelTest, SaysTheDataLoaderStarvesTheGpu) {
    OverviewPanel panel(&state);
    ASSERT_TRUE(test::waitUntilReady(panel));
    const QString text = panel.text();
    // The gaps, computed independently: their count and share of the GPU's span.
    const auto gaps = test::bruteForceGaps(*trace, state.idleThresholdNs()).at(0);
    const GpuBreakdown& b = panel.overview().gpus.at(0);
    // The span's idle share, then the GPU Gaps panel's own words for its gaps (issue 44).
    const GapAnalysis a = findGaps(*trace, state.idleThresholdNs());
    ASSERT_EQ(a.devices.at(0).gapCount, gaps.size());
    const QString line = gpuWorkLine(a.devices.at(0), a.busy, a.threshold);
    EXPECT_TRUE(
        text.contains(QStringLiteral("GPU 0 idle %1, %2 of its span: %3")
                          .arg(formatDuration(b.idle), percentText(b.idle, b.span.duration()),
                               line.mid(line.indexOf(QStringLiteral("idle ")) + 5))))
        << text.toStdString() << '\n'
        << line.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("Top cause: the range \"Data Load\"")));
    EXPECT_TRUE(
        text.contains(QStringLiteral("The host starves the GPU: while \"Data Load\" runs")));
    EXPECT_GT(100 * b.idle, 25 * b.span.duration()); // the sample's story: ~27 % idle
    // The kernel with the most SM time left idle: the sample's softmax, 4 blocks for 8 % of the
    // compute (the small_grid finding's kernel too).
    EXPECT_TRUE(text.contains(QStringLiteral("softmax_warp_forward: 4 blocks on 132 SMs")))
        << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("128 SMs sit idle while it runs.")));
    EXPECT_TRUE(text.contains(QStringLiteral("GPU 0 runs no communication (NCCL) kernels.")));
    EXPECT_TRUE(text.contains(QStringLiteral("--cuda-memory-usage=true")));
    EXPECT_TRUE(text.startsWith(QStringLiteral("Whole trace")));
}

TEST_F(OverviewPanelTest, BarsAddUpToTheSpan) {
    OverviewPanel panel(&state);
    ASSERT_TRUE(test::waitUntilReady(panel));
    const GpuBreakdown& b = panel.overview().gpus.at(0);
    TimeNs sum = 0;
    for (const auto& s : panel.bars()->segments(b))
        sum += s.ns;
    EXPECT_EQ(sum, b.span.duration());
    EXPECT_GT(b.classTime(KernelClass::Convolution), b.classTime(KernelClass::Gemm));
}

// Item 14 of issue 44: the legend had no swatches and dropped segments under 1 %, so its shares
// added up to 99 %. GEMM here is 0.04 % of the span, memory 0.96 %: both are in the legend.
TEST(BreakdownBarsLegend, EverySegmentWithTimeHasASwatchAndTheSharesAddUp) {
    GpuBreakdown b;
    b.span = {0, 100'000};
    b.classes[std::size_t(KernelClass::Gemm)] = 40;
    b.classes[std::size_t(KernelClass::Convolution)] = 30'000;
    b.classes[std::size_t(KernelClass::Other)] = 20'000;
    b.compute = 50'040;
    b.memory = b.memoryOnly = 960;
    b.idle = 49'000;
    BreakdownBars bars;
    bars.setBreakdown({b});
    std::map<QString, QColor> colors;
    for (const BreakdownBars::Segment& s : bars.segments(b))
        colors[s.label] = s.color;
    const auto items = bars.legend(b, 4000);
    QStringList texts;
    for (const auto& item : items) {
        texts << item.text;
        const QString label = item.text.left(item.text.lastIndexOf(u' ', -3));
        EXPECT_EQ(item.color, colors.at(label)) << item.text.toStdString();
        EXPECT_GT(item.swatch.width(), 0);
        EXPECT_EQ(item.swatch.width(), item.swatch.height());
        EXPECT_LT(item.swatch.right(), item.label.left());
        EXPECT_GE(item.label.width(), bars.fontMetrics().horizontalAdvance(item.text));
    }
    // In bar order; 30.0 + 20.0 + 1.0 + 49.0 = 100.0, the GEMM sliver "<0.1 %".
    EXPECT_EQ(texts,
              (QStringList{kernelClassLabel(KernelClass::Gemm) + QStringLiteral(" <0.1 %"),
                           kernelClassLabel(KernelClass::Convolution) + QStringLiteral(" 30.0 %"),
                           kernelClassLabel(KernelClass::Other) + QStringLiteral(" 20.0 %"),
                           QStringLiteral("Memory 1.0 %"), QStringLiteral("Idle 49.0 %")}));
    // One line when wide; narrow, the items wrap onto more lines and the widget grows, each
    // label still whole.
    for (const auto& item : items)
        EXPECT_EQ(item.label.top(), 0);
    const int narrow = bars.fontMetrics().horizontalAdvance(texts[1]) * 2;
    const auto wrapped = bars.legend(b, narrow);
    EXPECT_GT(wrapped.back().label.top(), 0);
    for (const auto& item : wrapped) {
        EXPECT_LE(item.label.right(), narrow) << item.text.toStdString();
        EXPECT_GE(item.label.width(), bars.fontMetrics().horizontalAdvance(item.text));
    }
    EXPECT_TRUE(bars.hasHeightForWidth());
    EXPECT_GT(bars.heightForWidth(narrow + 100), bars.heightForWidth(4000));
}

TEST_F(OverviewPanelTest, LinksLeadToTheEvidence) {
    OverviewPanel panel(&state);
    ASSERT_TRUE(test::waitUntilReady(panel));
    QSignalSpy gaps(&panel, &OverviewPanel::gapsRequested);
    QSignalSpy reveal(&state, &ViewState::revealRequested);
    const auto& f = panel.overview().findings;
    for (int i = 0; i < int(f.size()); ++i)
        panel.openFinding(i);
    EXPECT_EQ(gaps.count(), 1);
    ASSERT_EQ(reveal.count(), 1);
    const auto ref = reveal.front().front().value<EventRef>();
    const auto k = trace->kernelIndexOf(ref);
    ASSERT_TRUE(k);
    EXPECT_EQ(trace->string(trace->kernelAt(*k).config->shortName),
              QStringLiteral("softmax_warp_forward"));
    panel.openFinding(99); // out of range: nothing
    EXPECT_EQ(gaps.count(), 1);
}

TEST_F(OverviewPanelTest, IterationTableZoomsAndTheBreakdownFollowsTheSelection) {
    OverviewPanel panel(&state);
    ASSERT_TRUE(test::waitUntilReady(panel));
    QAbstractItemModelTester tester(panel.iterationModel(),
                                    QAbstractItemModelTester::FailureReportingMode::Fatal);
    QAbstractItemModelTester sorted(panel.iterationView()->model(),
                                    QAbstractItemModelTester::FailureReportingMode::Fatal);
    ASSERT_EQ(panel.iterationModel()->rowCount(), 20);
    const QAbstractItemModel* view = panel.iterationView()->model();
    EXPECT_EQ(view->index(0, IterationTableModel::Iteration).data().toString(),
              QStringLiteral("Iteration #0"));
    // Sorted by idle share, descending: the first row is the most starved iteration.
    panel.iterationView()->sortByColumn(IterationTableModel::Idle, Qt::DescendingOrder);
    for (int r = 1; r < 20; ++r)
        EXPECT_GE(view->index(r - 1, IterationTableModel::Idle).data(SortRole).toDouble(),
                  view->index(r, IterationTableModel::Idle).data(SortRole).toDouble());
    const auto index = view->index(3, IterationTableModel::Iteration).data(SortRole).toULongLong();
    // Copies: the overview is replaced when the selection changes.
    const IterationBreakdown it = panel.overview().iterations.at(index);
    panel.activateIteration(3);
    ASSERT_TRUE(state.selectedRange());
    EXPECT_EQ(*state.selectedRange(), it.range);
    EXPECT_LE(state.visibleRange().start, it.range.start);
    EXPECT_GE(state.visibleRange().end, it.range.end);
    // The selection changed: the bars are now the iteration's.
    ASSERT_TRUE(test::waitUntilReady(panel));
    ASSERT_TRUE(panel.overview().window);
    EXPECT_EQ(panel.overview().gpus.at(0).span, it.range);
    EXPECT_EQ(panel.overview().gpus.at(0).compute, it.gpus.at(0).compute);
    EXPECT_TRUE(panel.text().startsWith(QStringLiteral("Selected range")));
    state.setSelectedRange(std::nullopt);
    ASSERT_TRUE(test::waitUntilReady(panel));
    EXPECT_FALSE(panel.overview().window);
}

// Item 14 of issue 44: the last (numeric) column took all the spare width while the iteration
// names could be cut. Every column is as wide as its widest text or its header, no wider.
TEST_F(OverviewPanelTest, IterationColumnsFitTheirTexts) {
    OverviewPanel panel(&state);
    panel.resize(1400, 900);
    panel.show();
    ASSERT_TRUE(test::waitUntilReady(panel));
    QTableView* view = panel.iterationView();
    const QAbstractItemModel* model = view->model();
    ASSERT_GT(model->rowCount(), 0);
    QHeaderView* header = view->horizontalHeader();
    int widest = 0;
    for (int r = 0; r < model->rowCount(); ++r)
        widest = std::max(widest,
                          view->fontMetrics().horizontalAdvance(
                              model->index(r, IterationTableModel::Iteration).data().toString()));
    EXPECT_GT(view->columnWidth(IterationTableModel::Iteration), widest);
    int total = 0;
    for (int c = 0; c < model->columnCount(); ++c) {
        const int fitted = std::max(static_cast<QAbstractItemView*>(view)->sizeHintForColumn(c),
                                    header->sectionSizeHint(c));
        EXPECT_LE(view->columnWidth(c), fitted + 2) << "column " << c;
        total += view->columnWidth(c);
    }
    EXPECT_LT(total, view->viewport()->width()) << "the spare width stays spare";
}

TEST_F(OverviewPanelTest, StepChartShowsStepsAndForwardsTheClick) {
    OverviewPanel panel(&state);
    ASSERT_TRUE(test::waitUntilReady(panel));
    EXPECT_TRUE(panel.stepChart()->isHidden()); // nothing given yet
    StepBreakdown b;
    b.source = StepSource::ProfilerSteps;
    b.family = QStringLiteral("ProfilerStep");
    StepTimes s;
    s.name = QStringLiteral("7");
    s.event = EventRef{2, 9};
    s.host = s.range = {100, 300};
    s.time[std::size_t(StepCategory::Kernel)] = 200;
    b.steps = {s};
    b.average[std::size_t(StepCategory::Kernel)] = 200;
    b.averageTotal = 200;
    panel.setStepBreakdown(b);
    EXPECT_FALSE(panel.stepChart()->isHidden());
    EXPECT_EQ(panel.stepChart()->barLabel(0), QStringLiteral("#7"));
    QSignalSpy spy(&panel, &OverviewPanel::stepActivated);
    panel.stepChart()->activateBar(0);
    ASSERT_EQ(spy.count(), 1);
    EXPECT_EQ(spy.front().at(0).value<TimeRange>(), (TimeRange{100, 300}));
    EXPECT_EQ(spy.front().at(1).value<EventRef>(), (EventRef{2, 9}));
    // No steps and nothing on the CPU side (an nsys trace without NVTX): hidden.
    b.source = StepSource::WholeTrace;
    b.family.clear();
    panel.setStepBreakdown(b);
    EXPECT_TRUE(panel.stepChart()->isHidden());
    // With CPU work in the whole-trace step it shows.
    b.steps[0].time[std::size_t(StepCategory::CpuExec)] = 50;
    panel.setStepBreakdown(b);
    EXPECT_FALSE(panel.stepChart()->isHidden());
    // Another trace: hidden until its breakdown comes.
    state.setTrace(test::h100());
    EXPECT_TRUE(panel.stepChart()->isHidden());
    EXPECT_EQ(panel.stepChart()->barCount(), 0);
}

TEST(OverviewPanelH100, OneAnswerPerGpu) {
    LoadResult r =
        loadTrace(QStringLiteral(STROBE_FIXTURES_DIR "/nsys/nsys2026.2-h100-2gpu-nvtx.sqlite"));
    ASSERT_TRUE(r.ok());
    ViewState state;
    state.setTrace(std::shared_ptr<const Trace>(std::move(r.trace)));
    OverviewPanel panel(&state);
    ASSERT_TRUE(test::waitUntilReady(panel));
    ASSERT_EQ(panel.overview().gpus.size(), 2u);
    EXPECT_TRUE(panel.text().contains(QStringLiteral("GPU 0 idle")));
    EXPECT_TRUE(panel.text().contains(QStringLiteral("GPU 1 idle")));
    state.setTrace(nullptr);
    ASSERT_TRUE(test::waitUntilReady(panel));
    EXPECT_EQ(panel.text().trimmed(), QStringLiteral("No trace loaded."));
}

} // namespace

// A preview holds no CPU side: answers about what starves the GPU would blame "no CPU activity".
TEST(OverviewPanelPreview, APreviewGetsNoAnswersUntilTheWholeTraceIsRead) {
    const std::shared_ptr<const Trace> preview = test::h100GpuSidePreview();
    ASSERT_TRUE(preview);
    ASSERT_EQ(preview->metadata().stage, TraceStage::GpuSide);
    ViewState state;
    state.setTrace(preview);
    OverviewPanel panel(&state);
    ASSERT_TRUE(test::waitUntilReady(panel));
    EXPECT_TRUE(panel.text().startsWith(QStringLiteral("Reading the trace")))
        << panel.text().toStdString();
    EXPECT_TRUE(panel.overview().gpus.empty());
    EXPECT_FALSE(panel.text().contains(QStringLiteral("idle")));
    EXPECT_TRUE(panel.bars()->isHidden()) << "no 'No GPU work' while the trace is read";
    EXPECT_TRUE(panel.iterationView()->isHidden());
    // The whole trace follows: the answers come.
    state.setTrace(test::h100());
    ASSERT_TRUE(test::waitUntilReady(panel));
    EXPECT_FALSE(panel.bars()->isHidden());
    EXPECT_EQ(panel.overview().gpus.size(), 2u);
    EXPECT_TRUE(panel.text().startsWith(QStringLiteral("Whole trace")));
}

namespace {

Finding rankedFinding(FindingRule rule, TimeNs ns, ShareBase base) {
    Finding f;
    f.rule = rule;
    f.timeNs = ns;
    f.base = base;
    f.baseNs = 1'000'000'000;
    f.sharePercent = 100.0 * double(ns) / 1e9;
    f.deviceId = 0;
    f.count = 3;
    return f;
}

} // namespace

// The findings' top three come first, each linking to the Findings panel; a question links to
// the highest ranked finding of the rules it concerns (data_loading before gpu_gaps for Starved).
TEST_F(OverviewPanelTest, ShowsTheTopFindingsAndLinksTheQuestionsToThem) {
    OverviewPanel panel(&state);
    ASSERT_TRUE(test::waitUntilReady(panel));
    EXPECT_EQ(panel.topFindingsText(), QString()) << "no findings yet";
    EXPECT_EQ(panel.findingForQuestion(FindingQuestion::Starved), -1);
    const QString before = panel.text();

    auto a = std::make_shared<FindingAnalysis>();
    a->operators = analyzeOperators(trace);
    Finding sync = rankedFinding(FindingRule::CudaApiSync, 900'000'000, ShareBase::Span);
    sync.subject = QStringLiteral("cudaDeviceSynchronize");
    a->findings.findings = {
        sync, rankedFinding(FindingRule::DataLoading, 800'000'000, ShareBase::Step),
        rankedFinding(FindingRule::SmallGrid, 700'000'000, ShareBase::GpuTime),
        rankedFinding(FindingRule::ExposedCommunication, 600'000'000, ShareBase::Step),
        rankedFinding(FindingRule::GpuGaps, 500'000'000, ShareBase::Span)};
    panel.setFindings(a);
    const QString top = panel.topFindingsText();
    const qsizetype first =
        top.indexOf(QStringLiteral("1. ") % findingRuleTitle(FindingRule::CudaApiSync));
    const qsizetype second =
        top.indexOf(QStringLiteral("2. ") % findingRuleTitle(FindingRule::DataLoading));
    const qsizetype third =
        top.indexOf(QStringLiteral("3. ") % findingRuleTitle(FindingRule::SmallGrid));
    EXPECT_TRUE(first >= 0 && first < second && second < third) << top.toStdString();
    EXPECT_FALSE(top.contains(QStringLiteral("4. "))) << top.toStdString();
    EXPECT_TRUE(top.contains(QStringLiteral("2 more in the Findings tab.")));
    EXPECT_TRUE(top.contains(findingWords(*trace, sync).finding));

    EXPECT_EQ(panel.findingForQuestion(FindingQuestion::Starved), 1);
    EXPECT_EQ(panel.findingForQuestion(FindingQuestion::Fill), 2);
    EXPECT_EQ(panel.findingForQuestion(FindingQuestion::Communication), 3);
    EXPECT_EQ(panel.findingForQuestion(FindingQuestion::Memory), -1);
    // The answers stay, their questions link to the findings.
    const QString text = panel.text();
    EXPECT_TRUE(
        text.contains(QStringLiteral("finding 2: ") % findingRuleTitle(FindingRule::DataLoading)))
        << text.toStdString();
    EXPECT_TRUE(
        text.contains(QStringLiteral("finding 3: ") % findingRuleTitle(FindingRule::SmallGrid)));
    QStringList questions;
    for (FindingQuestion q : {FindingQuestion::Starved, FindingQuestion::Fill,
                              FindingQuestion::Communication, FindingQuestion::Memory})
        questions << findingQuestionText(q);
    for (const QString& line : before.split(u'\n', Qt::SkipEmptyParts))
        EXPECT_TRUE(questions.contains(line) || text.contains(line)) // a question gains its link
            << line.toStdString();

    std::vector<int> requested;
    QObject::connect(&panel, &OverviewPanel::findingRequested,
                     [&](int i) { requested.push_back(i); });
    panel.openLink(QStringLiteral("finding:2"));
    panel.openLink(QStringLiteral("finding:5")); // past the end: nothing
    panel.openLink(QStringLiteral("finding:x"));
    EXPECT_EQ(requested, std::vector<int>{2});

    // Another trace: the findings of this one go.
    state.setTrace(nullptr);
    EXPECT_EQ(panel.topFindingsText(), QString());
    EXPECT_EQ(panel.findingForQuestion(FindingQuestion::Starved), -1);
}
