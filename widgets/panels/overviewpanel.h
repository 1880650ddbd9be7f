// SPDX-License-Identifier: MIT
#pragma once

#include "model/analysis/gpumetrics.h"

#include "model/analysis/overview.h"

#include <QWidget>
#include <memory>
#include <optional>

class QAbstractItemModel;
class QLabel;
class QSortFilterProxyModel;
class QTableView;

namespace strobe {

class BackgroundTask;
class BreakdownBars;
struct FindingAnalysis;
struct Findings;
struct Job;
struct JobAnalysis;
class IterationTableModel;
class StepBreakdownChart;
struct StepBreakdown;
class ViewState;

// The Overview panel, shown first after a trace opens: the step time breakdown (given by
// setStepBreakdown, computed elsewhere), per GPU a stacked bar of where its time
// went (BreakdownSource), the usual questions answered in words with links to the evidence
// (buildOverview), and a table of iterations whose double-click zooms to one. It follows
// ViewState::selectedRange(): with a range selected the bars and answers are for that range.
// Computed on a worker (BackgroundTask). With the trace's findings (setFindings), its top three
// come first, each with a link that opens the Findings panel on it (findingRequested), and a
// question whose answer a finding concerns links to that finding too. While a job is on screen
// (setJob) it speaks of the job instead: its ranks and world size, the straggler verdict, the
// slowest rank's step time and the job's exposed communication, with links to the Ranks panel,
// the late rank's row and the job's findings.
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
    // The findings of the trace on screen (null: none yet); those of another trace are ignored.
    void setFindings(std::shared_ptr<const FindingAnalysis> analysis);
    // The top findings as plain text ("" while there are none to show).
    QString topFindingsText() const;
    // The finding (index into Findings::findings) the answers to `question` link to, or -1: the
    // highest ranked of the rules that question concerns (Starved: gpu_gaps, data_loading,
    // gpu_utilization; Fill: small_grid; Communication: communication, exposed_communication;
    // Memory: memory_peak).
    int findingForQuestion(FindingQuestion question) const;
    // Follows a link of the panel's text: "finding:N" asks for finding N (findingRequested),
    // a number follows the link of answer N (openFinding).
    void openLink(const QString& link);
    // Follows the link of finding `i`, as a click on it does.
    void openFinding(int i);
    // The job on screen (null: none), its analysis and its findings (model/job/jobfindings.h).
    void setJob(std::shared_ptr<const Job> job, std::shared_ptr<const JobAnalysis> analysis,
                std::shared_ptr<const Findings> findings);
    // What the panel says of the job, as plain text ("" without one).
    QString jobText() const;
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
    // A link to finding `index` (of Findings::findings): connect to the Findings panel.
    void findingRequested(int index);
    // A job's link to the Ranks panel: at rank index `rank`'s row (Job::ranks order), or as is.
    void rankRequested(std::optional<std::size_t> rank);

private:
    void rebuild();
    void showOverview(std::shared_ptr<const Trace> trace, Overview result);
    // The answers' text, with the links to the findings the questions concern.
    void showAnswers();
    void showTopFindings();
    void showJob();
    // The findings when they describe the trace on screen, else null.
    const FindingAnalysis* currentFindings() const;

    ViewState* m_state;
    std::shared_ptr<const Trace> m_trace;
    Overview m_overview;
    StepBreakdownChart* m_stepChart;
    QLabel* m_gpuMetrics;
    QLabel* m_scope;
    BreakdownBars* m_bars;
    QLabel* m_findings;
    QLabel* m_topFindings;
    QLabel* m_job;
    std::shared_ptr<const Job> m_jobData;
    std::shared_ptr<const JobAnalysis> m_jobAnalysis;
    std::shared_ptr<const Findings> m_jobFindings;
    std::shared_ptr<const FindingAnalysis> m_findingAnalysis;
    QLabel* m_iterationTitle;
    IterationTableModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QTableView* m_iterations;
    BackgroundTask* m_task;
};

} // namespace strobe
