// SPDX-License-Identifier: MIT
// The Findings panel: hand-built findings shown in their rank, the selected finding's words and
// evidence, the jump from an evidence row (an event, or a stretch of time), the skipped rules and
// the empty state; and the findings computeFindings makes of a real PyTorch profiler trace.
#include "formats/open.h"
#include "model/analysis/eventsearch.h"
#include "model/itemmodels/findingtablemodel.h"
#include "model/itemmodels/reporttablemodel.h"
#include "model/itemmodels/tableroles.h"
#include "model/reports/findingtext.h"
#include "tests/model/analysis/launchchaintestdata.h"
#include "tests/widgets/panels/paneltesthelpers.h"
#include "widgets/panels/findingspanel.h"

#include <QAbstractItemModelTester>
#include <QClipboard>
#include <QGuiApplication>
#include <QTableView>
#include <gtest/gtest.h>

using namespace strobe;
using namespace strobe::test;

namespace {

// Three findings of the launch-chain trace (launchchaintestdata.h), ranked as computeFindings
// ranks them: the GPU idle between its kernels, the small grids of implicit_gemm (kernels 0 and
// 3), and data loading without evidence; two rules skipped.
std::shared_ptr<const FindingAnalysis> handBuilt(const std::shared_ptr<const Trace>& trace) {
    auto a = std::make_shared<FindingAnalysis>();
    a->operators = analyzeOperators(trace);
    // (Field by field: the evidence struct may gain fields.)
    const auto stretch = [](TimeRange r) {
        FindingEvidence e;
        e.range = r;
        e.deviceId = 0;
        return e;
    };
    const auto launch = [](EventRef ref, TimeRange r) {
        FindingEvidence e;
        e.event = ref;
        e.range = r;
        e.deviceId = 0;
        e.value = 4; // blocks
        return e;
    };
    Finding gaps;
    gaps.rule = FindingRule::GpuGaps;
    gaps.timeNs = 3800 + 1900;
    gaps.sharePercent = 61.96;
    gaps.baseNs = 9200;
    gaps.deviceId = 0;
    gaps.count = 2;
    gaps.measured = 3800;
    gaps.threshold = 1000;
    gaps.evidence = {stretch({3200, 7000}), stretch({7100, 9000})};
    Finding grid;
    grid.rule = FindingRule::SmallGrid;
    grid.timeNs = 2500;
    grid.sharePercent = 86.2;
    grid.base = ShareBase::GpuTime;
    grid.baseNs = 2900;
    grid.deviceId = 0;
    grid.subject = QStringLiteral("implicit_gemm");
    grid.count = 2;
    grid.blocks = 4;
    grid.smCount = 132;
    grid.evidence = {launch(trace->kernelRef(0), {2000, 3000}),
                     launch(trace->kernelRef(3), {9000, 10500})};
    Finding loading;
    loading.rule = FindingRule::DataLoading;
    loading.timeNs = 1000;
    loading.sharePercent = 8.3;
    loading.base = ShareBase::Step;
    loading.baseNs = 12000;
    loading.measured = 8.3;
    loading.threshold = 5;
    a->findings.findings = {gaps, grid, loading};
    a->findings.skipped = {{FindingRule::MemoryPeak, MissingData::MemoryRecord},
                           {FindingRule::Straggler, MissingData::Job}};
    a->findings.span = trace->timeRange();
    return a;
}

TEST(FindingsPanel, ShowsTheFindingsInTheirRankWithTheSelectedOnesEvidence) {
    const std::shared_ptr<const Trace> trace = launchChainTrace();
    ViewState state;
    state.setTrace(trace);
    FindingsPanel panel(&state);
    QAbstractItemModelTester tester(panel.model(),
                                    QAbstractItemModelTester::FailureReportingMode::Fatal);
    EXPECT_TRUE(panel.isComputing()) << "a complete trace without its findings yet";
    EXPECT_EQ(panel.message(), QStringLiteral("Looking for findings…"));

    const std::shared_ptr<const FindingAnalysis> analysis = handBuilt(trace);
    panel.setAnalysis(analysis);
    ASSERT_TRUE(waitUntilReady(panel));
    EXPECT_EQ(panel.message(), QString());
    const QAbstractItemModel* view = panel.view()->model();
    ASSERT_EQ(view->rowCount(), 3);
    ASSERT_EQ(view->columnCount(), FindingTableModel::ColumnCount);
    const std::vector<Finding>& f = analysis->findings.findings;
    const std::array<TimeNs, 3> times = {5700, 2500, 1000};
    for (int r = 0; r < 3; ++r) {
        EXPECT_EQ(panel.findingAtRow(r), r);
        EXPECT_EQ(view->index(r, FindingTableModel::Position).data().toString(),
                  QString::number(r + 1));
        EXPECT_EQ(view->index(r, FindingTableModel::Rule).data().toString(),
                  findingRuleTitle(f[std::size_t(r)].rule));
        EXPECT_EQ(view->index(r, FindingTableModel::Time).data(SortRole).toLongLong(),
                  times[std::size_t(r)]);
        EXPECT_EQ(view->index(r, FindingTableModel::Sentence).data().toString(),
                  findingWords(*trace, f[std::size_t(r)]).finding);
    }
    EXPECT_EQ(view->index(0, FindingTableModel::Time).data().toString(),
              QStringLiteral("5.700 \u00b5s"));
    EXPECT_EQ(view->index(1, FindingTableModel::Share).data().toString(), QStringLiteral("86.2 %"));
    EXPECT_EQ(view->index(0, FindingTableModel::Rule).data(ExportRole).toString(),
              QStringLiteral("gpu_gaps"));
    EXPECT_EQ(panel.skippedLines(),
              (QStringList{skippedRuleText({FindingRule::MemoryPeak, MissingData::MemoryRecord}),
                           skippedRuleText({FindingRule::Straggler, MissingData::Job})}));

    // The top finding is selected: its words and its two gaps.
    EXPECT_EQ(panel.selectedFinding(), 0);
    EXPECT_TRUE(panel.detailsText().startsWith(findingRuleTitle(FindingRule::GpuGaps)))
        << panel.detailsText().toStdString();
    EXPECT_TRUE(panel.detailsText().contains(QStringLiteral("2 pieces of evidence")));
    EXPECT_EQ(panel.evidenceModel()->rowCount(), 2);
    EXPECT_EQ(panel.evidenceModel()->table().columns, evidenceColumns(FindingRule::GpuGaps));

    // A gap has no event: its row zooms to it with a twentieth on each side and selects it.
    std::vector<std::pair<EventRef, TimeRange>> jumps;
    QObject::connect(&panel, &FindingsPanel::evidenceActivated,
                     [&](EventRef e, TimeRange r) { jumps.emplace_back(e, r); });
    std::vector<EventRef> revealed;
    QObject::connect(&state, &ViewState::revealRequested,
                     [&](EventRef e) { revealed.push_back(e); });
    panel.activateEvidenceRow(0);
    ASSERT_EQ(jumps.size(), 1u);
    EXPECT_FALSE(jumps[0].first.isValid());
    EXPECT_EQ(jumps[0].second, (TimeRange{3200, 7000}));
    EXPECT_EQ(state.visibleRange(), (TimeRange{3200 - 190, 7000 + 190}));
    EXPECT_EQ(state.selectedRange(), std::optional<TimeRange>(TimeRange{3200, 7000}));
    EXPECT_TRUE(revealed.empty());
    EXPECT_EQ(panel.highlight(), nullptr) << "gaps are no events to mark";
    int highlightChanges = 0;
    QObject::connect(&panel, &FindingsPanel::highlightChanged, [&] { ++highlightChanges; });

    // The small grids: their second row is kernel 3's launch, shown and selected.
    panel.selectFinding(1);
    ASSERT_TRUE(waitUntilReady(panel));
    EXPECT_EQ(panel.selectedFinding(), 1);
    EXPECT_EQ(panel.evidenceModel()->rowCount(), 2);
    // Its two launches are marked on the timeline.
    ASSERT_NE(panel.highlight(), nullptr);
    EXPECT_EQ(highlightChanges, 1);
    EXPECT_EQ(panel.highlight()->inTimeOrder(),
              (std::vector<EventRef>{trace->kernelRef(0), trace->kernelRef(3)}));
    panel.activateEvidenceRow(1);
    ASSERT_EQ(jumps.size(), 2u);
    EXPECT_EQ(jumps[1].first, trace->kernelRef(3));
    EXPECT_EQ(jumps[1].second, (TimeRange{9000, 10500}));
    ASSERT_EQ(revealed.size(), 1u);
    EXPECT_EQ(revealed[0], trace->kernelRef(3));
    EXPECT_EQ(state.selection(), trace->kernelRef(3));
    panel.activateEvidenceRow(2); // past the end: nothing
    EXPECT_EQ(jumps.size(), 2u);

    // Data loading has no evidence rows: the table goes, the words stay.
    panel.selectFinding(2);
    ASSERT_TRUE(waitUntilReady(panel));
    EXPECT_EQ(panel.evidenceModel()->rowCount(), 0);
    EXPECT_TRUE(panel.evidenceView()->isHidden());
    EXPECT_EQ(panel.highlight(), nullptr);
    EXPECT_EQ(highlightChanges, 2);
    EXPECT_TRUE(panel.detailsText().startsWith(findingRuleTitle(FindingRule::DataLoading)));

    // Ctrl+C on the findings copies the selected one as CSV, with the rule's id and the time in ns.
    panel.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&panel));
    panel.view()->setFocus();
    QTest::keySequence(panel.view(), QKeySequence::Copy);
    const QString copied = QGuiApplication::clipboard()->text();
    EXPECT_TRUE(copied.startsWith(QStringLiteral("#,Rule,Time at stake,Share,Finding")))
        << copied.toStdString();
    EXPECT_TRUE(copied.contains(QStringLiteral("\r\n3,data_loading,1000,8.3,")))
        << copied.toStdString();

    // Sorted by share, ascending: data loading first, and it stays finding 2.
    panel.view()->sortByColumn(FindingTableModel::Share, Qt::AscendingOrder);
    EXPECT_EQ(panel.findingAtRow(0), 2);
    EXPECT_EQ(panel.findingAtRow(2), 1);
}

TEST(FindingsPanel, SaysWhenNoRuleFoundAnythingAndListsTheSkippedRules) {
    const std::shared_ptr<const Trace> trace = launchChainTrace();
    ViewState state;
    state.setTrace(trace);
    FindingsPanel panel(&state);
    auto a = std::make_shared<FindingAnalysis>();
    a->operators = analyzeOperators(trace);
    a->findings.skipped = {{FindingRule::SmallGrid, MissingData::SmCount}};
    panel.setAnalysis(a);
    ASSERT_TRUE(waitUntilReady(panel));
    EXPECT_EQ(panel.message(), QStringLiteral("No findings: no rule found anything to report."));
    EXPECT_EQ(panel.model()->rowCount(), 0);
    EXPECT_TRUE(panel.view()->isHidden());
    EXPECT_EQ(panel.skippedLines(),
              QStringList{skippedRuleText({FindingRule::SmallGrid, MissingData::SmCount})});

    // Another trace: the analysis no longer describes it.
    state.setTrace(nullptr);
    EXPECT_EQ(panel.message(), QStringLiteral("No trace loaded."));
    EXPECT_TRUE(panel.skippedLines().isEmpty());
    EXPECT_FALSE(panel.isComputing());
}

// The findings of the ResNet-50 profiler trace as computeFindings makes them, with the GUI's
// inputs: one row each in their rank, and every evidence row of each finding.
TEST(FindingsPanel, ShowsComputedFindingsOfARealTrace) {
    LoadResult r = loadTrace(
        QStringLiteral(STROBE_FIXTURES_DIR "/kineto/resnet50-kineto-2021.pt.trace.json.gz"));
    ASSERT_TRUE(r.trace) << r.error.toStdString();
    const std::shared_ptr<const Trace> trace(std::move(r.trace));
    ViewState state;
    state.setTrace(trace);
    FindingsPanel panel(&state);
    const std::shared_ptr<const FindingAnalysis> analysis =
        analyzeFindings(analyzeOperators(trace));
    ASSERT_TRUE(analysis);
    const Findings expected = computeFindings(*trace);
    ASSERT_EQ(analysis->findings.findings.size(), expected.findings.size());
    panel.setAnalysis(analysis);
    ASSERT_TRUE(waitUntilReady(panel));
    const QAbstractItemModel* view = panel.view()->model();
    ASSERT_EQ(view->rowCount(), int(expected.findings.size()));
    for (std::size_t i = 0; i < expected.findings.size(); ++i) {
        const Finding& e = expected.findings[i];
        EXPECT_EQ(view->index(int(i), FindingTableModel::Rule).data(ExportRole).toString(),
                  findingRuleId(e.rule));
        EXPECT_EQ(view->index(int(i), FindingTableModel::Time).data(SortRole).toLongLong(),
                  e.timeNs);
        panel.selectFinding(int(i));
        ASSERT_TRUE(waitUntilReady(panel));
        EXPECT_EQ(panel.evidenceModel()->rowCount(), int(e.evidence.size()))
            << findingRuleId(e.rule).toStdString();
    }
    EXPECT_EQ(panel.skippedLines().size(), qsizetype(expected.skipped.size()));
    EXPECT_EQ(panel.message(),
              expected.findings.empty()
                  ? QStringLiteral("No findings: no rule found anything to report.")
                  : QString());
}

} // namespace
