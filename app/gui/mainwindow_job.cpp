// SPDX-License-Identifier: MIT
// Opening a distributed job in the main window (issue 42, docs/JOBS.md): every rank is
// summarised on a worker (model/job/jobopen on all cores, no trace kept), then the job view
// replaces the timeline in the centre and the Ranks panel shows the tables. Choosing another
// alignment analyses the summaries again on a worker.
#include "app/gui/mainwindow.h"

#include "app/gui/traceloadjob.h"
#include "formats/kineto/kinetoreader.h"

#include "model/job/jobfindings.h"
#include "model/job/jobopen.h"
#include "model/trace.h"
#include "widgets/backgroundtask.h"
#include "widgets/panels/findingspanel.h"
#include "widgets/panels/overviewpanel.h"
#include "widgets/panels/rankspanel.h"
#include "widgets/timeline/jobview.h"
#include "widgets/viewstate.h"

#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QProgressBar>
#include <QStackedWidget>
#include <QStatusBar>
#include <QStringBuilder>
#include <QTableView>
#include <QThread>
#include <QTimer>

namespace strobe {

namespace {

// analyseJob's steps (model/job/job.h) with offsets set by hand instead of an alignment's.
JobAnalysis analyseJobWithOffsets(const Job& job, const std::vector<TimeNs>& offsets) {
    JobAnalysis a;
    a.match = matchCollectives(job);
    a.offsets = offsets;
    a.offsets.resize(job.ranks.size(), 0);
    a.timings = timeCollectives(job, a.match, a.offsets);
    a.waits = rankWaits(job, a.match, a.timings);
    a.stragglers = findStragglers(job, a.match, a.timings);
    return a;
}

struct OpenedJob {
    std::shared_ptr<const Job> job;
    std::shared_ptr<const JobAnalysis> analysis;
    std::shared_ptr<const Findings> findings;
};

// Full traces loaded at once for Expand All: each takes a worker and its memory while read.
constexpr std::size_t kParallelRankLoads = 2;

} // namespace

void MainWindow::buildJobViews() {
    // The centre holds the timeline (and B's when comparing) or the job view.
    QWidget* timelines = takeCentralWidget();
    m_central = new QStackedWidget(this);
    m_central->addWidget(timelines);
    m_jobView = new JobView(m_central);
    m_central->addWidget(m_jobView);
    setCentralWidget(m_central);
    m_ranksPanel = new RanksPanel(this);
    m_ranksDock =
        addDock(m_ranksPanel, tr("Ranks"), QStringLiteral("ranksDock"), Qt::BottomDockWidgetArea);
    m_ranksDock->hide();
    m_jobTask = new BackgroundTask(this);
    m_jobAnalysisTask = new BackgroundTask(this);
    m_jobProgressTimer = new QTimer(this);
    m_jobProgressTimer->setInterval(100);
    connect(m_ranksPanel, &RanksPanel::alignmentChanged, this, &MainWindow::analyseJobAgain);
    connect(m_ranksPanel, &RanksPanel::offsetsEdited, this, &MainWindow::analyseJobAgain);
    connect(m_jobView, &JobView::expandRequested, this, &MainWindow::expandRank);
    connect(m_jobView, &JobView::expandAllRequested, this, &MainWindow::expandAllRanks);
    connect(m_jobView, &JobView::collapseAllRequested, this, &MainWindow::collapseAllRanks);
    // A trace opened in the timeline ends the job view.
    connect(m_state, &ViewState::traceChanged, this, [this] {
        if (m_state->trace())
            closeJob();
    });
}

bool MainWindow::isOpeningJob() const {
    return m_jobTask && m_jobTask->isRunning();
}

void MainWindow::chooseJob() {
    const QStringList files = QFileDialog::getOpenFileNames(
        this, tr("Open Job: the traces (or rank summaries) of its ranks"), QString(),
        openFileFilter() % QStringLiteral(";;") % tr("Rank summaries (*.summary.json)"));
    if (!files.isEmpty())
        openJob(files);
}

void MainWindow::chooseJobFolder() {
    const QString folder =
        QFileDialog::getExistingDirectory(this, tr("Open Job: the folder of its ranks' traces"));
    if (!folder.isEmpty())
        openJob({folder});
}

void MainWindow::openJob(const QStringList& paths) {
    QStringList files;
    for (const QString& p : paths) {
        if (QFileInfo(p).isDir())
            files << findJobFiles(p);
        else
            files << QFileInfo(p).absoluteFilePath();
    }
    if (files.isEmpty()) {
        const QString error = tr("%1 holds no trace or rank summary.")
                                  .arg(QDir::toNativeSeparators(paths.join(QStringLiteral(", "))));
        showError(error);
        emit jobLoadFinished(false, error);
        return;
    }
    const QString title = paths.size() == 1 && QFileInfo(paths.front()).isDir()
                              ? QFileInfo(paths.front()).fileName()
                              : tr("%n trace(s)", nullptr, int(files.size()));

    auto done = std::make_shared<std::atomic<int>>(0);
    const QString cache = m_cacheFolder;
    const std::optional<std::uint64_t> cap = m_cacheCapBytes;
    TraceLoader load = [done, cache, cap](const QString& path,
                                          QString* error) -> std::unique_ptr<Trace> {
        LoadOptions options = rankSummaryLoadOptions();
        options.cacheFolder = cache;
        options.cacheCapBytes = cap;
        LoadResult r = loadTrace(path, options);
        ++*done;
        if (!r.ok())
            *error = r.error;
        return std::move(r.trace);
    };
    const int total = int(files.size());
    m_progress->setValue(0);
    m_progress->show();
    statusBar()->showMessage(
        tr("Summarising the %n rank file(s) of %1…", nullptr, total).arg(title));
    disconnect(m_jobProgressTimer, &QTimer::timeout, nullptr, nullptr);
    connect(m_jobProgressTimer, &QTimer::timeout, this, [this, done, total] {
        m_progress->setValue(std::min(1000, done->load() * 1000 / std::max(1, total)));
    });
    m_jobProgressTimer->start();
    const KernelClassTable table = KernelClassTable::active();
    const int threads = std::max(1, QThread::idealThreadCount());
    m_jobTask->start(
        [files, load, table, threads] {
            auto job = std::make_shared<Job>(strobe::openJob(files, load, table, threads));
            KinetoJsonLoader::releaseKeptParser(); // the pool's thread lives on
            auto analysis = std::make_shared<JobAnalysis>(analyseJob(*job, Alignment{}));
            auto findings = std::make_shared<const Findings>(jobFindings(*job, *analysis));
            return OpenedJob{std::move(job), std::move(analysis), std::move(findings)};
        },
        [this, title](OpenedJob opened) {
            onJobOpened(std::move(opened.job), std::move(opened.analysis),
                        std::move(opened.findings), title);
        });
}

void MainWindow::onJobOpened(std::shared_ptr<const Job> job,
                             std::shared_ptr<const JobAnalysis> analysis,
                             std::shared_ptr<const Findings> findings, const QString& title) {
    m_jobProgressTimer->stop();
    if (!isLoading())
        m_progress->hide();
    statusBar()->clearMessage();
    if (job->ranks.empty()) {
        const QString error =
            tr("No rank of %1 could be read.").arg(title) % u' ' % job->warnings.join(u' ');
        showError(error);
        emit jobLoadFinished(false, error);
        return;
    }
    closeTrace(); // the job replaces whatever was open (it clears the job view too)
    m_jobData = std::move(job);
    m_jobAnalysis = std::move(analysis);
    m_jobFindings = std::move(findings);
    m_jobTitle = tr("Job: %1 (%n rank(s))", nullptr, int(m_jobData->ranks.size())).arg(title);
    m_ranksPanel->setAlignment(Alignment{}); // (no job yet: no analysis is started)
    m_jobView->setJob(m_jobData, m_jobAnalysis);
    m_ranksPanel->setJob(m_jobData, m_jobAnalysis);
    showJobFindings();
    m_central->setCurrentWidget(m_jobView);
    m_ranksDock->show();
    // With the Overview, where a trace's first answers are, unless the user moved it elsewhere.
    auto* overview = findChild<QDockWidget*>(QStringLiteral("overviewDock"));
    if (overview && !overview->isFloating() && !m_ranksDock->isFloating() &&
        !tabifiedDockWidgets(overview).contains(m_ranksDock) &&
        dockWidgetArea(overview) == dockWidgetArea(m_ranksDock))
        tabifyDockWidget(overview, m_ranksDock);
    m_ranksDock->raise();
    setWindowTitle(m_jobTitle % QStringLiteral(" — Strobe"));
    updateStatus();
    if (const auto n = m_jobData->warnings.size(); n > 0)
        statusBar()->showMessage(tr("%n warning(s), all in the Ranks panel: %1", nullptr, int(n))
                                     .arg(m_jobData->warnings.front()));
    emit jobLoadFinished(true, QString());
}

void MainWindow::analyseJobAgain() {
    if (!m_jobData)
        return;
    const Alignment alignment = m_ranksPanel->alignment();
    const std::optional<std::vector<TimeNs>> manual = m_ranksPanel->manualOffsets();
    std::shared_ptr<const Job> job = m_jobData;
    m_jobAnalysisTask->start(
        [job, alignment, manual] {
            auto analysis = std::make_shared<const JobAnalysis>(
                manual ? analyseJobWithOffsets(*job, *manual) : analyseJob(*job, alignment));
            auto findings = std::make_shared<const Findings>(jobFindings(*job, *analysis));
            return OpenedJob{job, std::move(analysis), std::move(findings)};
        },
        [this, job](OpenedJob again) {
            if (job != m_jobData)
                return; // another job replaced it meanwhile
            m_jobAnalysis = std::move(again.analysis);
            m_jobFindings = std::move(again.findings);
            m_jobView->setJob(m_jobData, m_jobAnalysis, false);
            m_ranksPanel->setJob(m_jobData, m_jobAnalysis);
            showJobFindings();
        });
}

void MainWindow::expandRank(std::size_t rank) {
    if (!m_jobData || rank >= m_jobData->ranks.size() || m_rankLoads.contains(rank))
        return;
    QString path = m_jobData->ranks[rank].file;
    // A gathered summary stands for its trace: `X.summary.json` beside `X`.
    if (isRankSummaryName(path))
        path.chop(int(QStringLiteral(".summary.json").size()));
    if (!QFileInfo(path).isFile()) {
        statusBar()->showMessage(
            tr("Rank %1's trace %2 is not at hand: its summary is all there is.")
                .arg(m_jobData->ranks[rank].rank)
                .arg(QDir::toNativeSeparators(path)));
        return;
    }
    auto load = std::make_unique<TraceLoadJob>(path, std::numeric_limits<std::uint64_t>::max());
    load->setCache(m_cacheFolder, m_cacheCapBytes);
    std::shared_ptr<const Job> job = m_jobData;
    connect(load.get(), &TraceLoadJob::finished, this,
            [this, rank, job](std::shared_ptr<const Trace> trace, const QString& error,
                              bool cancelled) {
                const auto it = m_rankLoads.find(rank);
                if (it != m_rankLoads.end())
                    it->second.release()->deleteLater();
                m_rankLoads.erase(rank);
                statusBar()->clearMessage();
                if (cancelled || job != m_jobData)
                    return; // the job was closed or replaced meanwhile
                if (m_rankQueueTotal > 0)
                    ++m_rankQueueDone;
                if (!trace) {
                    if (m_rankQueueTotal > 0) // one of many: said, and the others go on
                        m_rankQueueErrors << error;
                    else
                        showError(error);
                } else {
                    m_jobView->showRankTrace(rank, std::move(trace), m_rankQueueTotal == 0);
                }
                loadQueuedRanks();
            });
    statusBar()->showMessage(
        tr("Loading rank %1's trace for its full lanes…").arg(m_jobData->ranks[rank].rank));
    load->start();
    m_rankLoads[rank] = std::move(load);
}

void MainWindow::expandAllRanks() {
    if (!m_jobData)
        return;
    m_rankQueue.clear();
    m_rankQueueErrors.clear();
    for (std::size_t r = 0; r < m_jobData->ranks.size(); ++r)
        if (!m_jobView->rankTimeline(r) && !m_rankLoads.contains(r))
            m_rankQueue.push_back(r);
    m_rankQueueTotal = m_rankQueue.size() + m_rankLoads.size();
    m_rankQueueDone = 0;
    if (m_rankQueue.empty()) {
        m_rankQueueTotal = 0;
        return;
    }
    m_progress->setValue(0);
    m_progress->show();
    loadQueuedRanks();
}

void MainWindow::loadQueuedRanks() {
    while (!m_rankQueue.empty() && m_rankLoads.size() < kParallelRankLoads) {
        const std::size_t rank = m_rankQueue.front();
        m_rankQueue.pop_front();
        const std::size_t before = m_rankLoads.size();
        expandRank(rank);
        if (m_rankLoads.size() == before && m_rankQueueTotal > 0)
            ++m_rankQueueDone; // its trace is not at hand: the summary is all there is
    }
    if (m_rankQueueTotal == 0)
        return;
    if (m_rankQueue.empty() && m_rankLoads.empty()) {
        const std::size_t shown = m_rankQueueTotal;
        m_rankQueueTotal = 0;
        if (!isLoading())
            m_progress->hide();
        if (!m_rankQueueErrors.isEmpty())
            showError(m_rankQueueErrors.join(u'\n'));
        else
            statusBar()->showMessage(
                tr("Every rank's full lanes are shown (%n loaded).", nullptr, int(shown)), 5000);
        m_rankQueueErrors.clear();
        return;
    }
    m_progress->setValue(int(m_rankQueueDone * 1000 / std::max<std::size_t>(1, m_rankQueueTotal)));
    statusBar()->showMessage(tr("Loading the ranks' traces for their full lanes: %1 of %2 done…")
                                 .arg(m_rankQueueDone)
                                 .arg(m_rankQueueTotal));
}

void MainWindow::collapseAllRanks() {
    m_rankQueue.clear();
    m_rankQueueErrors.clear();
    const bool loading = m_rankQueueTotal > 0;
    m_rankQueueTotal = 0;
    m_rankLoads.clear(); // (each cancels and waits for its worker)
    if (loading && !isLoading())
        m_progress->hide();
    statusBar()->clearMessage();
    if (m_jobView)
        m_jobView->collapseAll();
}

void MainWindow::addJobActions(QMenu* view) {
    m_expandAllAction = view->addAction(tr("E&xpand All Ranks"), this, &MainWindow::expandAllRanks);
    m_collapseAllAction =
        view->addAction(tr("C&ollapse All Ranks"), this, &MainWindow::collapseAllRanks);
    m_expandAllAction->setEnabled(false); // until a job is on screen
    m_collapseAllAction->setEnabled(false);
    // The Overview and Findings panels are built after the job view: their job links here.
    if (auto* overview = findChild<OverviewPanel*>())
        connect(overview, &OverviewPanel::rankRequested, this, &MainWindow::showRankInPanel);
    if (m_findingsPanel)
        connect(m_findingsPanel, &FindingsPanel::jobEvidenceActivated, this, [this](TimeRange r) {
            m_central->setCurrentWidget(m_jobView);
            m_jobView->canvas()->setView(widened(r, 4));
        });
}

void MainWindow::showJobFindings() {
    const std::shared_ptr<const Findings> findings = m_jobData ? m_jobFindings : nullptr;
    if (auto* overview = findChild<OverviewPanel*>())
        overview->setJob(m_jobData, m_jobAnalysis, findings);
    if (m_findingsPanel)
        m_findingsPanel->setJobFindings(findings, m_jobView->canvas()->jobRange().start);
    for (QAction* a : {m_expandAllAction, m_collapseAllAction})
        if (a)
            a->setEnabled(m_jobData != nullptr);
}

void MainWindow::showRankInPanel(std::optional<std::size_t> rank) {
    if (!m_jobData)
        return;
    m_ranksDock->show();
    m_ranksDock->raise();
    if (!rank || *rank >= m_jobData->ranks.size())
        return;
    // The Ranks table's row of that rank: its first column is the rank number.
    for (int t = 0; t < m_ranksPanel->tabs()->count(); ++t) {
        auto* view = qobject_cast<QTableView*>(m_ranksPanel->tabs()->widget(t));
        if (!view || !view->model())
            continue;
        QAbstractItemModel* model = view->model();
        const QString wanted = QString::number(m_jobData->ranks[*rank].rank);
        if (model->headerData(0, Qt::Horizontal)
                .toString()
                .compare(QStringLiteral("rank"), Qt::CaseInsensitive) != 0)
            continue;
        for (int row = 0; row < model->rowCount(); ++row) {
            const QModelIndex i = model->index(row, 0);
            if (i.data().toString() != wanted)
                continue;
            m_ranksPanel->tabs()->setCurrentIndex(t);
            view->setFocus();
            view->selectRow(row);
            view->scrollTo(i);
            return;
        }
    }
}

void MainWindow::closeJob() {
    m_rankQueue.clear();
    m_rankQueueTotal = 0;
    m_rankLoads.clear(); // (each cancels and waits for its worker)
    if (!m_jobData)
        return;
    m_jobAnalysisTask->cancel();
    m_jobData.reset();
    m_jobAnalysis.reset();
    m_jobTitle.clear();
    m_jobView->setJob(nullptr, nullptr);
    m_ranksPanel->setJob(nullptr, nullptr);
    m_jobFindings.reset();
    showJobFindings();
    m_ranksDock->hide();
    m_central->setCurrentIndex(0);
    updateTitle();
    updateStatus();
}

} // namespace strobe
