// SPDX-License-Identifier: MIT
#pragma once

#include "app/gui/appsettings.h"
#include "app/gui/imageexport.h"
#include "formats/open.h"
#include "model/types.h"
#include "widgets/panels/statisticswidget.h"

#include <QMainWindow>
#include <QSize>
#include <atomic>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <vector>

class QLabel;
class QMenu;
class QProgressBar;
class QPushButton;
class QDockWidget;
class QStackedWidget;
class QTimer;

namespace strobe {

class Trace;
class TraceLoadJob;
class NsysExportJob;
class ViewState;
class TimelineView;
class KernelTableWidget;
class DetailPane;
class CompareTimelines;
class ComparisonPanel;
class OperatorsPanel;
class BackgroundTask;
class FindingsPanel;
class JobView;
class RanksPanel;
struct Job;
struct JobAnalysis;
struct Findings;
struct OperatorAnalysis;
struct FindingAnalysis;

// The main window: the timeline in the centre, tables and the detail pane in docks, loading in
// the background with progress and Cancel, errors in a dialog that leaves the open trace open.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(AppSettings* settings, QWidget* parent = nullptr);
    ~MainWindow() override;

    ViewState* viewState() const { return m_state; }
    TimelineView* timeline() const { return m_timeline; }
    KernelTableWidget* kernelTable() const { return m_kernelTable; }
    StatisticsWidget* statistics() const { return m_statistics; }
    DetailPane* details() const { return m_details; }
    OperatorsPanel* operatorsPanel() const { return m_operators; }
    // The operators of the trace on screen (forest, table, steps), computed on a worker after
    // each load; null until then, and for no trace or a preview.
    std::shared_ptr<const OperatorAnalysis> operatorAnalysis() const { return m_operatorAnalysis; }
    FindingsPanel* findingsPanel() const { return m_findingsPanel; }
    // The findings of the trace on screen, computed on a worker once its operator analysis is
    // there (from its steps, GPU metrics and forest); null until then.
    std::shared_ptr<const FindingAnalysis> findingAnalysis() const { return m_findingAnalysis; }
    // Raises the Findings tab with finding `index` (of Findings::findings) selected.
    void showFinding(int index);
    // The trace on screen, or null.
    const Trace* trace() const;
    QString traceTitle() const { return m_title; }
    bool isLoading() const;
    // Comparing: B's view state (its own, linked to A's), the stacked timelines and the panel.
    ViewState* viewStateB() const { return m_stateB; }
    CompareTimelines* compareTimelines() const { return m_compare; }
    ComparisonPanel* comparisonPanel() const { return m_comparison; }
    const Trace* traceB() const;
    bool isComparing() const;
    bool isLoadingComparison() const;
    // The job on screen (mainwindow_job.cpp): its view, its Ranks panel, its summaries and their
    // analysis for the alignment chosen; null when none is open.
    JobView* jobView() const { return m_jobView; }
    RanksPanel* ranksPanel() const { return m_ranksPanel; }
    std::shared_ptr<const Job> job() const { return m_jobData; }
    std::shared_ptr<const JobAnalysis> jobAnalysis() const { return m_jobAnalysis; }
    bool isShowingJob() const { return m_jobData != nullptr; }
    bool isOpeningJob() const;
    // Traces with at least this many event rows show their GPU side while the rest loads.
    void setPreviewMinRows(std::uint64_t rows) { m_previewMinRows = rows; }
    void setEarlyPreviewAfter(std::chrono::milliseconds wait) { m_earlyPreviewAfter = wait; }
    // Where traces opened from now on are cached for reopening (empty: no cache, the default),
    // and the most the cache may hold (nullopt: sized from its disk, LoadOptions::cacheCapBytes).
    void setTraceCache(const QString& folder, std::optional<std::uint64_t> capBytes);

public slots:
    // Starts loading `path` in the background; the current trace stays until it succeeds. An
    // Nsight Systems report is exported first when nsys is on the PATH and the user agrees
    // (mainwindow_nsysexport.cpp).
    void openFile(const QString& path);
    // The File > Open dialog's name filters: nsys SQLite, Strobe captures, Kineto JSON (.gz).
    static QString openFileFilter();
    // Opens the embedded sample trace (a training loop), writing it to the cache if needed.
    void openSample();
    void cancelLoading();
    // Opens the traces and rank summaries of `paths` (files, or folders whose job files
    // findJobFiles finds) as one job: each rank is summarised on a worker (all cores), then the
    // job view and the Ranks panel replace the timeline. A file that fails is a warning; the
    // others open.
    void openJob(const QStringList& paths);
    // Loads `path` in the background as B, to compare with the open trace (the baseline A).
    void compareWith(const QString& path);
    // Back to A alone (File > Stop Comparing); cancels a B still loading.
    void stopComparing();
    // Back to the empty window (File > Close): ends a comparison and cancels a load.
    void closeTrace();
    // Saves the timeline as it is shown (visible lanes, zoom) as a PNG or SVG (by the suffix),
    // `size` big or, without one, at the timeline's size (File > Export Image); while comparing,
    // A's and B's timelines stacked, each named. Returns the error sentence, or an empty string
    // once saved.
    QString exportImage(const QString& path, std::optional<QSize> size = std::nullopt);

signals:
    // After each load attempt: ok, or the error sentence (empty when cancelled).
    void loadFinished(bool ok, const QString& error);
    // After each attempt to open a job: ok (some rank opened), or the error sentence.
    void jobLoadFinished(bool ok, const QString& error);
    // After each load of a trace to compare with, the same way.
    void compareLoadFinished(bool ok, const QString& error);
    // operatorAnalysis() changed: null when a new trace is shown, then its analysis. The
    // panels that show operators take it from here.
    void operatorAnalysisChanged(std::shared_ptr<const strobe::OperatorAnalysis> analysis);
    // findingAnalysis() changed: null when a new trace is shown, then its findings.
    void findingsChanged(std::shared_ptr<const strobe::FindingAnalysis> analysis);

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void buildViews();
    // Drops the analysis of the previous trace and computes the current one's (complete traces).
    void analyzeOperators();
    // Computes the findings of `operators`' trace on a worker (after analyzeOperators).
    void analyzeFindings(std::shared_ptr<const OperatorAnalysis> operators);
    void buildMenus();
    void buildStatusBar();
    void rebuildRecentMenu();
    void startLoad(const QString& path, const QString& title, bool isSample);
    void onPreview(std::shared_ptr<const Trace> gpuSide);
    void onLoadFinished(const std::shared_ptr<const Trace>& trace, const QString& error,
                        bool cancelled);
    void showError(const QString& message);
    // For an .nsys-rep: opens its earlier export, or asks to run nsys; false when nsys is not on
    // the PATH (the loader then says how to export by hand).
    bool offerNsysExport(const QString& report);
    void startExport(const QString& nsys, const QString& report);
    void onExportFinished(const QString& sqlite, const QString& error);
    void rememberView();
    void clearNameFilters();
    void updateStatus();
    void showTraceInfo();
    void chooseIdleThreshold();
    // mainwindow_compare.cpp
    void buildCompareViews();
    void onCompareLoaded(std::shared_ptr<const Trace> trace, const QString& error, bool cancelled);
    // A new A replaces the baseline: ends the comparison (or B's load) and keeps the sentence
    // saying so for the status bar once the load is done.
    void endComparisonForNewTrace();
    void updateTitle();
    // mainwindow_job.cpp
    void buildJobViews();
    void chooseJob();       // File > Open Job...: several files
    void chooseJobFolder(); // File > Open Job Folder...
    void onJobOpened(std::shared_ptr<const Job> job, std::shared_ptr<const JobAnalysis> analysis,
                     std::shared_ptr<const Findings> findings, const QString& title);
    void analyseJobAgain();
    // Loads rank index `rank`'s whole trace in the background for its full lanes in the job view.
    void expandRank(std::size_t rank);
    // Expand All: every collapsed rank's trace, loaded a few at a time (kParallelRankLoads) with
    // the progress in the status bar; Collapse All cancels those loads and drops every trace.
    void expandAllRanks();
    void loadQueuedRanks();
    void collapseAllRanks();
    // View > Expand All Ranks, Collapse All Ranks, and the Overview's and Findings panel's links
    // into the job (those panels are built after the job view).
    void addJobActions(QMenu* view);
    // The job's findings and headline in the Findings panel and the Overview (none: the trace's).
    void showJobFindings();
    // Raises the Ranks panel, at rank index `rank`'s row of its Ranks table when given.
    void showRankInPanel(std::optional<std::size_t> rank);
    // Back to the timeline (a trace opened or the window closed what it showed).
    void closeJob();
    void chooseExportImage();
    // What Export Image draws: A's timeline, and B's below it while comparing.
    std::vector<ExportedPane> exportedPanes() const;
    QSize exportImageSize() const;
    QDockWidget* addDock(QWidget* panel, const QString& title, const QString& objectName,
                         Qt::DockWidgetArea area);

    AppSettings* m_settings;
    ViewState* m_state;
    TimelineView* m_timeline = nullptr;
    KernelTableWidget* m_kernelTable = nullptr;
    StatisticsWidget* m_statistics = nullptr;
    DetailPane* m_details = nullptr;
    OperatorsPanel* m_operators = nullptr;
    BackgroundTask* m_operatorTask = nullptr;
    std::shared_ptr<std::atomic<bool>> m_operatorCancel; // set when a newer trace replaces it
    std::shared_ptr<const OperatorAnalysis> m_operatorAnalysis;
    FindingsPanel* m_findingsPanel = nullptr;
    QDockWidget* m_findingsDock = nullptr;
    BackgroundTask* m_findingTask = nullptr;
    std::shared_ptr<const FindingAnalysis> m_findingAnalysis;
    QMenu* m_recentMenu = nullptr;
    QMenu* m_viewMenu = nullptr;
    QLabel* m_cursorLabel = nullptr;
    QLabel* m_rangeLabel = nullptr;
    QLabel* m_traceLabel = nullptr;
    QProgressBar* m_progress = nullptr;
    QPushButton* m_cancelButton = nullptr;
    std::unique_ptr<TraceLoadJob> m_job;
    std::unique_ptr<NsysExportJob> m_export;
    ViewState* m_stateB = nullptr;
    CompareTimelines* m_compare = nullptr;
    ComparisonPanel* m_comparison = nullptr;
    QDockWidget* m_comparisonDock = nullptr;
    std::unique_ptr<TraceLoadJob> m_compareJob;
    QString m_titleB;
    JobView* m_jobView = nullptr;
    RanksPanel* m_ranksPanel = nullptr;
    QDockWidget* m_ranksDock = nullptr;
    QStackedWidget* m_central = nullptr;
    BackgroundTask* m_jobTask = nullptr;
    BackgroundTask* m_jobAnalysisTask = nullptr;
    std::shared_ptr<const Job> m_jobData;
    std::shared_ptr<const JobAnalysis> m_jobAnalysis;
    QString m_jobTitle;
    QTimer* m_jobProgressTimer = nullptr;
    std::map<std::size_t, std::unique_ptr<TraceLoadJob>> m_rankLoads; // by rank index
    std::shared_ptr<const Findings> m_jobFindings;
    std::deque<std::size_t> m_rankQueue; // Expand All's ranks still to load
    std::size_t m_rankQueueTotal = 0;    // Expand All's ranks (0: none under way)
    std::size_t m_rankQueueDone = 0;
    QStringList m_rankQueueErrors;
    QAction* m_expandAllAction = nullptr;
    QAction* m_collapseAllAction = nullptr;
    // What was on screen before a preview replaced it: restored if the load then fails.
    struct Shown {
        std::shared_ptr<const Trace> trace;
        TimeRange view;
        QString title;
        QString kernelFilter;
        bool kernelFilterIsRegex = false;
        StatisticsWidget::NameFilters statisticsFilters;
    };
    std::optional<Shown> m_beforePreview;
    std::shared_ptr<const Trace> m_preview;
    bool m_previewOfThisLoad = false; // m_preview came from m_job
    std::uint64_t m_previewMinRows = LoadOptions().previewMinRows;
    std::chrono::milliseconds m_earlyPreviewAfter = LoadOptions().earlyPreviewAfter;
    QString m_cacheFolder;
    std::optional<std::uint64_t> m_cacheCapBytes;
    QAction* m_cacheAction = nullptr;
    QAction* m_closeAction = nullptr;
    QAction* m_stopComparingAction = nullptr;
    QString m_comparisonEnded; // "the comparison with B ended", shown once the new A is
    QString m_pendingTitle;
    bool m_pendingIsSample = false;
    QString m_title;
    QString m_path;
    bool m_isSample = false;
};

} // namespace strobe
