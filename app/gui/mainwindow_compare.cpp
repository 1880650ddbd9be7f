// SPDX-License-Identifier: MIT
// Comparing two traces in the main window: B loads in the background like A, the timelines
// stack with a linked time axis, and the Comparison panel shows the B - A tables.
#include "app/gui/mainwindow.h"

#include "app/gui/nsysexportjob.h"
#include "app/gui/traceloadjob.h"
#include "widgets/panels/comparisonpanel.h"
#include "widgets/timeline/comparetimelines.h"
#include "widgets/timeline/timelineview.h"
#include "widgets/viewstate.h"

#include <QDockWidget>
#include <QFileInfo>
#include <QProgressBar>
#include <QPushButton>
#include <QStatusBar>
#include <QStringBuilder>

namespace strobe {

void MainWindow::buildCompareViews() {
    m_stateB = new ViewState(this);
    m_stateB->setIdleThresholdNs(m_state->idleThresholdNs());
    connect(m_state, &ViewState::idleThresholdChanged, m_stateB, &ViewState::setIdleThresholdNs);
    m_compare = new CompareTimelines(m_timeline, m_stateB, this);
    setCentralWidget(m_compare);
    m_comparison = new ComparisonPanel(m_state, m_stateB, this);
    m_comparisonDock = addDock(m_comparison, tr("Comparison"), QStringLiteral("comparisonDock"),
                               Qt::BottomDockWidgetArea);
    m_comparisonDock->hide();
    connect(m_comparison, &ComparisonPanel::kernelInstancesRequested, m_compare,
            &CompareTimelines::showPair);
    // The instances the stacked timelines can align on come with each comparison.
    connect(m_comparison, &ComparisonPanel::ready, this, [this] {
        const auto c = m_comparison->comparison();
        std::vector<TimeNs> a, b;
        if (c && c->a.range)
            for (const TimeRange& r : c->a.range->instances)
                a.push_back(r.start);
        if (c && c->b.range)
            for (const TimeRange& r : c->b.range->instances)
                b.push_back(r.start);
        m_compare->setIterations(c ? c->rangeName : QString(), std::move(a), std::move(b));
    });
}

const Trace* MainWindow::traceB() const {
    return m_stateB->trace();
}

bool MainWindow::isComparing() const {
    return m_stateB->trace() != nullptr;
}

bool MainWindow::isLoadingComparison() const {
    return m_compareJob && m_compareJob->isRunning();
}

void MainWindow::compareWith(const QString& path) {
    if (m_compareJob)
        m_compareJob->cancel();
    // No preview for B: the comparison needs the whole trace.
    m_compareJob = std::make_unique<TraceLoadJob>(QFileInfo(path).absoluteFilePath(),
                                                  std::numeric_limits<std::uint64_t>::max());
    m_compareJob->setCache(m_cacheFolder, m_cacheCapBytes);
    connect(m_compareJob.get(), &TraceLoadJob::progress, m_progress, &QProgressBar::setValue);
    connect(m_compareJob.get(), &TraceLoadJob::finished, this, &MainWindow::onCompareLoaded);
    m_progress->setValue(0);
    m_progress->show();
    statusBar()->showMessage(tr("Loading %1 to compare…").arg(QFileInfo(path).fileName()));
    m_compareJob->start();
    updateStatus(); // Stop Comparing cancels it
}

void MainWindow::onCompareLoaded(std::shared_ptr<const Trace> trace, const QString& error,
                                 bool cancelled) {
    auto* job = qobject_cast<TraceLoadJob*>(sender());
    if (!job || job != m_compareJob.get())
        return; // a superseded load
    const QString path = job->path();
    if (!isLoading())
        m_progress->hide();
    statusBar()->clearMessage();
    m_compareJob.release()->deleteLater();
    updateStatus(); // (Stop Comparing has no load to cancel now)
    if (cancelled) {
        emit compareLoadFinished(false, QString());
        return;
    }
    if (!trace) {
        showError(error);
        emit compareLoadFinished(false, error);
        return;
    }
    m_titleB = QFileInfo(path).fileName();
    m_stateB->setTrace(std::move(trace));
    m_compare->setComparing(true, m_title, m_titleB);
    m_comparisonDock->show();
    m_comparisonDock->raise();
    updateTitle();
    updateStatus();
    emit compareLoadFinished(true, QString());
}

void MainWindow::stopComparing() {
    if (m_compareJob)
        m_compareJob->cancel();
    m_stateB->setTrace(nullptr);
    m_titleB.clear();
    m_compare->setComparing(false);
    m_comparisonDock->hide();
    updateTitle();
    updateStatus();
}

void MainWindow::endComparisonForNewTrace() {
    if (isComparing())
        m_comparisonEnded = tr("the comparison with %1 ended").arg(m_titleB);
    else if (isLoadingComparison())
        m_comparisonEnded = tr("loading %1 to compare was cancelled")
                                .arg(QFileInfo(m_compareJob->path()).fileName());
    else
        return;
    stopComparing();
}

void MainWindow::closeTrace() {
    if (m_export)
        m_export->cancel();
    if (m_job) { // a load in flight goes too, its preview with it
        m_job->cancel();
        m_job.reset();
    }
    if (!m_preview) // (a preview on screen is not m_path's trace)
        rememberView();
    m_beforePreview.reset();
    m_preview.reset();
    m_comparisonEnded.clear();
    m_progress->hide();
    m_cancelButton->hide();
    stopComparing();
    closeJob();
    clearNameFilters();
    m_state->setTrace(nullptr);
    m_path.clear();
    m_title.clear();
    m_isSample = false;
    updateTitle();
    updateStatus();
}

void MainWindow::updateTitle() {
    if (m_title.isEmpty())
        setWindowTitle(QStringLiteral("Strobe"));
    else if (isComparing())
        setWindowTitle(tr("A (baseline): %1 vs B: %2").arg(m_title, m_titleB) %
                       QStringLiteral(" — Strobe"));
    else
        setWindowTitle(m_title % QStringLiteral(" — Strobe"));
    if (isComparing())
        m_compare->setComparing(true, m_title, m_titleB);
}

} // namespace strobe
