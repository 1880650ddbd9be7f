// SPDX-License-Identifier: MIT
// The views of the main window: the timeline in the centre, the tables and panels in docks.
#include "app/gui/mainwindow.h"

#include "app/gui/bookmarkcontroller.h"
#include "widgets/backgroundtask.h"
#include "widgets/findinganalysis.h"
#include "widgets/operatoranalysis.h"
#include "widgets/panels/bookmarkspanel.h"
#include "widgets/panels/detailpane.h"
#include "widgets/panels/findingspanel.h"
#include "widgets/panels/flamegraphpanel.h"
#include "widgets/panels/gapspanel.h"
#include "widgets/panels/kerneltablewidget.h"
#include "widgets/panels/operatorspanel.h"
#include "widgets/panels/overviewpanel.h"
#include "widgets/panels/statisticswidget.h"
#include "widgets/timeline/timelineview.h"
#include "widgets/viewstate.h"

#include <QDockWidget>
#include <algorithm>

namespace strobe {

void MainWindow::buildViews() {
    m_timeline = new TimelineView(m_state, this);
    buildCompareViews(); // the central widget: A's timeline, and B's below it when comparing
    buildJobViews();     // ...or the job view (mainwindow_job.cpp)

    m_kernelTable = new KernelTableWidget(m_state, this);
    m_statistics = new StatisticsWidget(m_state, this);
    m_details = new DetailPane(m_state, this);
    auto* overviewPanel = new OverviewPanel(m_state, this);
    // First in the bottom tabs, and raised whenever a trace opens: where the time went.
    QDockWidget* overview = addDock(overviewPanel, tr("Overview"), QStringLiteral("overviewDock"),
                                    Qt::BottomDockWidgetArea);
    QDockWidget* kernels = addDock(m_kernelTable, tr("Kernels"), QStringLiteral("kernelsDock"),
                                   Qt::BottomDockWidgetArea);
    tabifyDockWidget(overview, kernels);
    QDockWidget* stats = addDock(m_statistics, tr("Statistics"), QStringLiteral("statisticsDock"),
                                 Qt::BottomDockWidgetArea);
    tabifyDockWidget(kernels, stats);
    QDockWidget* gaps = addDock(new GapsPanel(m_state, this), tr("GPU Gaps"),
                                QStringLiteral("gapsDock"), Qt::BottomDockWidgetArea);
    tabifyDockWidget(kernels, gaps);
    m_operators = new OperatorsPanel(m_state, this);
    QDockWidget* operators = addDock(m_operators, tr("Operators"), QStringLiteral("operatorsDock"),
                                     Qt::BottomDockWidgetArea);
    tabifyDockWidget(kernels, operators);
    auto* flame = new FlameGraphPanel(m_state, this);
    QDockWidget* flameDock = addDock(flame, tr("Flame Graph"), QStringLiteral("flameGraphDock"),
                                     Qt::BottomDockWidgetArea);
    tabifyDockWidget(operators, flameDock);
    auto* marks =
        new BookmarkController(m_state, m_timeline, m_settings->bookmarksDirectory(), this);
    QDockWidget* bookmarks = addDock(marks->panel(), tr("Bookmarks"),
                                     QStringLiteral("bookmarksDock"), Qt::BottomDockWidgetArea);
    tabifyDockWidget(flameDock, bookmarks);
    m_findingsPanel = new FindingsPanel(m_state, this);
    m_findingsDock = addDock(m_findingsPanel, tr("Findings"), QStringLiteral("findingsDock"),
                             Qt::BottomDockWidgetArea);
    tabifyDockWidget(bookmarks, m_findingsDock);
    tabifyDockWidget(kernels, m_comparisonDock); // shown when a comparison opens
    m_comparisonDock->hide();
    overview->raise();
    connect(m_state, &ViewState::traceChanged, overview, [overview] { overview->raise(); });
    connect(overviewPanel, &OverviewPanel::gapsRequested, gaps, [gaps] { gaps->raise(); });
    // An Overview finding's link, or a summary row's double-click, filters the kernel table to
    // that kernel and shows it.
    auto showKernels = [this, kernels](const QString& label,
                                       const std::vector<std::uint32_t>& configs) {
        m_kernelTable->showOnlyConfigs(label, configs);
        kernels->raise();
    };
    connect(overviewPanel, &OverviewPanel::kernelFilterRequested, this, showKernels);
    QDockWidget* details =
        addDock(m_details, tr("Details"), QStringLiteral("detailsDock"), Qt::RightDockWidgetArea);
    // Room for the detail pane's values and ~12 table rows; a saved layout overrides this.
    resizeDocks({details}, {440}, Qt::Horizontal);
    resizeDocks({overview}, {320}, Qt::Vertical);
    connect(m_statistics, &StatisticsWidget::kernelFilterRequested, this, showKernels);

    // The operators are found once per trace, here, and shared by the panels that show them.
    m_operatorTask = new BackgroundTask(this);
    connect(m_state, &ViewState::traceChanged, this, &MainWindow::analyzeOperators);
    connect(this, &MainWindow::operatorAnalysisChanged, m_operators, &OperatorsPanel::setAnalysis);
    connect(this, &MainWindow::operatorAnalysisChanged, m_details,
            &DetailPane::setOperatorAnalysis);
    connect(this, &MainWindow::operatorAnalysisChanged, m_kernelTable,
            &KernelTableWidget::setOperatorAnalysis);
    // The Overview's first chart: the step breakdown, with the GPU metrics over the steps.
    connect(this, &MainWindow::operatorAnalysisChanged, overviewPanel,
            [overviewPanel](const std::shared_ptr<const OperatorAnalysis>& analysis) {
                overviewPanel->setStepBreakdown(analysis ? analysis->steps : StepBreakdown{});
                overviewPanel->setGpuMetrics(analysis ? analysis->gpus
                                                      : std::vector<GpuStepMetrics>{});
            });
    // The findings follow the operator analysis (analyzeFindings), for their panel and the
    // Overview's top three, whose links open the panel on one.
    m_findingTask = new BackgroundTask(this);
    connect(this, &MainWindow::findingsChanged, m_findingsPanel, &FindingsPanel::setAnalysis);
    connect(this, &MainWindow::findingsChanged, overviewPanel, &OverviewPanel::setFindings);
    connect(overviewPanel, &OverviewPanel::findingRequested, this, &MainWindow::showFinding);
    // The selected finding's events are marked on the timeline while the Findings tab is shown.
    // (A tabbed dock behind another stays isVisible(); what it shows of itself says.)
    connect(m_findingsPanel, &FindingsPanel::highlightChanged, this, [this] {
        const bool shown = !m_findingsPanel->visibleRegion().isEmpty();
        m_timeline->setHighlights(shown ? m_findingsPanel->highlight() : nullptr);
    });
    connect(m_findingsDock, &QDockWidget::visibilityChanged, this, [this](bool visible) {
        m_timeline->setHighlights(visible ? m_findingsPanel->highlight() : nullptr);
    });
    // A step picked on the chart is selected on the timeline (the flame graph's "Selected range
    // or step" follows it) and shown with a margin.
    connect(overviewPanel, &OverviewPanel::stepActivated, this,
            [this](TimeRange range, EventRef event) {
                if (!m_state->trace() || range.isEmpty())
                    return;
                m_state->setSelectedRange(range);
                m_state->setVisibleRange(widened(range, 20));
                if (event.isValid())
                    m_state->setSelection(event);
            });
}

void MainWindow::analyzeOperators() {
    std::shared_ptr<const Trace> trace = m_state->sharedTrace();
    if (m_operatorAnalysis && m_operatorAnalysis->trace == trace)
        return; // (a failed load brought the analysed trace back)
    if (m_operatorCancel)
        m_operatorCancel->store(true);
    m_operatorCancel.reset();
    m_operatorTask->cancel();
    m_findingTask->cancel();
    if (m_findingAnalysis) {
        m_findingAnalysis.reset();
        emit findingsChanged(nullptr);
    }
    if (m_operatorAnalysis) {
        m_operatorAnalysis.reset();
        emit operatorAnalysisChanged(nullptr);
    }
    // A preview has no CPU side: no operators to find yet.
    if (!trace || trace->metadata().stage != TraceStage::Complete)
        return;
    auto cancel = m_operatorCancel = std::make_shared<std::atomic<bool>>(false);
    m_operatorTask->start(
        [trace, cancel] {
            return strobe::analyzeOperators(trace, [cancel] { return cancel->load(); });
        },
        [this](std::shared_ptr<const OperatorAnalysis> analysis) {
            if (!analysis)
                return;
            m_operatorAnalysis = std::move(analysis);
            emit operatorAnalysisChanged(m_operatorAnalysis);
            analyzeFindings(m_operatorAnalysis);
        });
}

void MainWindow::analyzeFindings(std::shared_ptr<const OperatorAnalysis> operators) {
    // The same cancel flag as the operators': a newer trace stops both.
    std::shared_ptr<std::atomic<bool>> cancel = m_operatorCancel;
    if (!operators || !cancel)
        return;
    m_findingTask->start(
        [operators = std::move(operators), cancel] {
            return strobe::analyzeFindings(operators, [cancel] { return cancel->load(); });
        },
        [this](std::shared_ptr<const FindingAnalysis> analysis) {
            if (!analysis || !analysis->describes(m_state->trace()))
                return;
            m_findingAnalysis = std::move(analysis);
            emit findingsChanged(m_findingAnalysis);
        });
}

void MainWindow::showFinding(int index) {
    if (!m_findingsDock)
        return;
    m_findingsDock->show();
    m_findingsDock->raise();
    m_findingsPanel->selectFinding(index);
}

} // namespace strobe
