// SPDX-License-Identifier: MIT
#pragma once

#include "model/analysis/gpumetrics.h"

#include "model/analysis/overview.h"

#include <QWidget>
#include <memory>

class QAbstractItemModel;
class QLabel;
class QSortFilterProxyModel;
class QTableView;

namespace strobe {

class BackgroundTask;
class BreakdownBars;
class IterationTableModel;
class StepBreakdownChart;
struct StepBreakdown;
class ViewState;

// The Overview panel, shown first after a trace opens: the step time breakdown (given by
// setStepBreakdown, computed elsewhere), per GPU a stacked bar of where its time
// went (BreakdownSource), the usual questions answered in words with links to the evidence
// (buildOverview), and a table of iterations whose double-click zooms to one. It follows
// ViewState::selectedRange(): with a range selected the bars and answers are for that range.
// Computed on a worker (BackgroundTask).
class OverviewPanel : public QWidget {
    Q_OBJECT
public:
    explicit OverviewPanel(ViewState* state, QWidget* parent = nullptr);
    ~OverviewPanel() override;

    const Overview& overview() const { return m_overview; }
    // What the panel says, as plain text: the scope line, then each answer.
    QString text() const;
    QAbstractItemModel* iterationModel() const;
    QTableView* iterationView() const { return m_iterations; }
    BreakdownBars* bars() const { return m_bars; }
    StepBreakdownChart* stepChart() const { return m_stepChart; }
    // Shows `breakdown` in the step chart, first in the panel; the chart is hidden when the trace
    // has neither steps nor CPU-side ranges (a whole-trace "step" with no DataLoader, CPU Exec
    // or Communication time). A new trace hides it until the next call.
    void setStepBreakdown(const StepBreakdown& breakdown);
    // Per GPU, the metrics over the steps' time, one line each under the step chart (shown with
    // the chart).
    void setGpuMetrics(const std::vector<GpuStepMetrics>& gpus);
    QString gpuMetricsText() const;
    // Follows the link of finding `i`, as a click on it does.
    void openFinding(int i);
    // Zooms to the iteration at view row `row` and selects its range, as a double-click does.
    void activateIteration(int row);
    bool isComputing() const;

signals:
    void ready();
    void gapsRequested();
    // A click on a step's bar in the step chart (StepBreakdownChart::stepActivated).
    void stepActivated(strobe::TimeRange range, strobe::EventRef event);
    // Connect to KernelTableWidget::showOnlyConfigs.
    void kernelFilterRequested(const QString& label, const std::vector<std::uint32_t>& configs);

private:
    void rebuild();
    void showOverview(std::shared_ptr<const Trace> trace, Overview result);

    ViewState* m_state;
    std::shared_ptr<const Trace> m_trace;
    Overview m_overview;
    StepBreakdownChart* m_stepChart;
    QLabel* m_gpuMetrics;
    QLabel* m_scope;
    BreakdownBars* m_bars;
    QLabel* m_findings;
    QLabel* m_iterationTitle;
    IterationTableModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QTableView* m_iterations;
    BackgroundTask* m_task;
};

} // namespace strobe
