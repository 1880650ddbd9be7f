// SPDX-License-Identifier: MIT
#include "app/gui/mainwindow.h"

#include "app/gui/imageexport.h"
#include "app/gui/nsysexportjob.h"
#include "app/gui/shortcutsdialog.h"
#include "app/gui/theme.h"
#include "app/gui/traceinfodialog.h"
#include "app/gui/traceloadjob.h"
#include "formats/nsys/synth/sampletrace.h"
#include "model/job/jobopen.h"
#include "model/timeformat.h"
#include "widgets/messagebox.h"
#include "widgets/panels/kerneltablewidget.h"
#include "widgets/timeline/comparetimelines.h"
#include "widgets/timeline/timelineview.h"
#include "widgets/timelinelink.h"
#include "widgets/viewstate.h"

#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QStandardPaths>
#include <QStatusBar>
#include <QStringBuilder>
#include <QToolBar>

namespace strobe {

MainWindow::MainWindow(AppSettings* settings, QWidget* parent)
    : QMainWindow(parent)
    , m_settings(settings)
    , m_state(new ViewState(this)) {
    setWindowTitle(QStringLiteral("Strobe"));
    setAcceptDrops(true);
    m_state->setIdleThresholdNs(m_settings->idleThresholdNs());
    buildViews();
    buildMenus();
    buildStatusBar();
    resize(1400, 900);
    restoreGeometry(m_settings->windowGeometry());
    restoreState(m_settings->windowState());
    connect(m_state, &ViewState::cursorTimeChanged, this, &MainWindow::updateStatus);
    connect(m_state, &ViewState::selectedRangeChanged, this, &MainWindow::updateStatus);
    connect(m_state, &ViewState::idleThresholdChanged, this,
            [this](TimeNs t) { m_settings->setIdleThresholdNs(t); });
}

MainWindow::~MainWindow() {
    // QWidget's destructor hides the children after this class's part is gone, and a dock that
    // is hidden emits visibilityChanged: no slot of this window may run then.
    for (QObject* child : findChildren<QObject*>())
        child->disconnect(this);
}

const Trace* MainWindow::trace() const {
    return m_state->trace();
}

bool MainWindow::isLoading() const {
    return (m_job && m_job->isRunning()) || m_export;
}

QDockWidget* MainWindow::addDock(QWidget* panel, const QString& title, const QString& objectName,
                                 Qt::DockWidgetArea area) {
    auto* dock = new QDockWidget(title, this);
    dock->setObjectName(objectName);
    dock->setWidget(panel);
    addDockWidget(area, dock);
    return dock;
}

void MainWindow::buildMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* open = file->addAction(tr("&Open…"), this, [this] {
        const QString path =
            QFileDialog::getOpenFileName(this, tr("Open Trace"), QString(), openFileFilter());
        if (!path.isEmpty())
            openFile(path);
    });
    open->setShortcut(QKeySequence::Open);
    file->addAction(tr("Open &Job…"), this, &MainWindow::chooseJob);
    file->addAction(tr("Open Job &Folder…"), this, &MainWindow::chooseJobFolder);
    file->addAction(tr("Open &Sample Trace"), this, &MainWindow::openSample);
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    rebuildRecentMenu();
    file->addSeparator();
    file->addAction(tr("&Compare With…"), this, [this] {
        if (!trace()) {
            showError(tr("Open the baseline trace first, then compare another one with it."));
            return;
        }
        const QString path =
            QFileDialog::getOpenFileName(this, tr("Compare With"), QFileInfo(m_path).path(),
                                         tr("Trace databases (*.sqlite *.db);;All files (*)"));
        if (!path.isEmpty())
            compareWith(path);
    });
    m_stopComparingAction =
        file->addAction(tr("S&top Comparing"), this, &MainWindow::stopComparing);
    m_stopComparingAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_W));
    m_closeAction = file->addAction(tr("&Close"), this, &MainWindow::closeTrace);
    m_closeAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_W)); // as the F1 list says
    file->addSeparator();
    QAction* info = file->addAction(tr("Trace &Information…"), this, &MainWindow::showTraceInfo);
    info->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_I));
    file->addAction(tr("Export &Image…"), this, &MainWindow::chooseExportImage);
    m_cacheAction = file->addAction(tr("Keep a Reopen &Cache"));
    m_cacheAction->setCheckable(true);
    m_cacheAction->setChecked(false); // setTraceCache says whether this window uses one
    m_cacheAction->setToolTip(tr("Reopen traces opened before from a cache of their model"));
    connect(m_cacheAction, &QAction::toggled, this, [this](bool on) {
        m_settings->setTraceCacheEnabled(on);
        setTraceCache(on ? AppSettings::traceCacheFolder() : QString(),
                      m_settings->traceCacheCapBytes());
    });
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Q)); // as the F1 list says, on every platform

    m_viewMenu = menuBar()->addMenu(tr("&View"));
    QAction* fit = m_viewMenu->addAction(tr("&Fit All"), m_state, &ViewState::fitAll);
    fit->setShortcuts({QKeySequence(Qt::Key_Home), QKeySequence(Qt::Key_F)});
    fit->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    QAction* undo = m_viewMenu->addAction(tr("&Undo Zoom"), m_state, &ViewState::undoZoom);
    undo->setShortcut(QKeySequence(Qt::Key_Backspace));
    undo->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_viewMenu->addAction(tr("Idle-Gap &Threshold…"), this, &MainWindow::chooseIdleThreshold);
    QAction* projected = m_viewMenu->addAction(tr("&NVTX Projected onto GPU"));
    projected->setCheckable(true);
    connect(projected, &QAction::toggled, m_timeline, &TimelineView::setShowProjectedNvtx);
    QMenu* theme = m_viewMenu->addMenu(tr("T&heme"));
    auto* group = new QActionGroup(this);
    const std::pair<Theme, QString> themes[] = {{Theme::System, tr("Follow the &System")},
                                                {Theme::Light, tr("&Light")},
                                                {Theme::Dark, tr("&Dark")}};
    for (const auto& [t, label] : themes) {
        QAction* a = theme->addAction(label);
        a->setCheckable(true);
        a->setChecked(m_settings->theme() == t);
        group->addAction(a);
        connect(a, &QAction::triggered, this, [this, t = t] {
            m_settings->setTheme(t);
            if (auto* app = qobject_cast<QApplication*>(QCoreApplication::instance()))
                applyTheme(*app, t);
        });
    }
    m_viewMenu->addSeparator();
    addJobActions(m_viewMenu);
    m_viewMenu->addSeparator();
    for (QDockWidget* dock : findChildren<QDockWidget*>())
        m_viewMenu->addAction(dock->toggleViewAction());

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    QAction* keys =
        help->addAction(tr("&Keyboard and Mouse…"), this, [this] { ShortcutsDialog(this).exec(); });
    keys->setShortcut(QKeySequence::HelpContents);
    help->addAction(tr("&About Strobe"), this, [this] {
        QMessageBox::about(
            this, tr("About Strobe"),
            tr("<h3>Strobe %1</h3><p>A timeline viewer for GPU profiles: Nsight Systems SQLite "
               "exports and Strobe captures.</p><p>Licensed under the MIT license.</p>")
                .arg(QStringLiteral(STROBE_VERSION)));
    });

    QToolBar* bar = addToolBar(tr("Main"));
    bar->setObjectName(QStringLiteral("mainToolBar"));
    bar->addAction(open);
    bar->addAction(fit);
    bar->addAction(undo);
    bar->addAction(info);
}

void MainWindow::buildStatusBar() {
    m_traceLabel = new QLabel(this);
    m_cursorLabel = new QLabel(this);
    m_rangeLabel = new QLabel(this);
    for (QLabel* l : {m_traceLabel, m_cursorLabel, m_rangeLabel})
        l->setTextFormat(Qt::PlainText); // the trace's name is the file's
    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 1000);
    m_progress->setMaximumWidth(220);
    m_progress->setFormat(tr("Loading %p%"));
    m_progress->hide();
    m_cancelButton = new QPushButton(tr("Cancel"), this);
    m_cancelButton->hide();
    connect(m_cancelButton, &QPushButton::clicked, this, &MainWindow::cancelLoading);
    statusBar()->addWidget(m_traceLabel, 1);
    statusBar()->addPermanentWidget(m_cursorLabel);
    statusBar()->addPermanentWidget(m_rangeLabel);
    statusBar()->addPermanentWidget(m_progress);
    statusBar()->addPermanentWidget(m_cancelButton);
    updateStatus();
}

void MainWindow::updateStatus() {
    const Trace* t = trace();
    if (!t && isShowingJob())
        m_traceLabel->setText(m_jobTitle);
    else if (!t)
        m_traceLabel->setText(tr("No trace open: File > Open, or drop an nsys .sqlite export or a "
                                 "PyTorch .json trace here"));
    else if (isComparing())
        m_traceLabel->setText(tr("A (baseline): %1  \u00b7  B: %2").arg(m_title, m_titleB));
    else
        m_traceLabel->setText(m_title);
    m_closeAction->setEnabled(t || isLoading() || isShowingJob());
    m_stopComparingAction->setEnabled(isComparing() || isLoadingComparison());
    const TimeNs origin = t ? t->timeRange().start : 0;
    const auto cursor = m_state->cursorTime();
    m_cursorLabel->setText(cursor ? tr("Cursor: %1").arg(formatTimestamp(*cursor, origin))
                                  : QString());
    const auto range = m_state->selectedRange();
    m_rangeLabel->setText(range ? tr("Selected: %1").arg(formatDuration(range->duration()))
                                : QString());
}

void MainWindow::rebuildRecentMenu() {
    m_recentMenu->clear();
    const QStringList files = m_settings->recentFiles();
    for (const QString& f : files)
        m_recentMenu->addAction(QFileInfo(f).fileName() % QStringLiteral("  (") %
                                    QFileInfo(f).path() % u')',
                                this, [this, f] { openFile(f); });
    m_recentMenu->setEnabled(!files.isEmpty());
}

void MainWindow::openFile(const QString& path) {
    // A folder of traces is a job: its ranks (one with none is the loader's error, as before).
    if (QFileInfo(path).isDir() && !findJobFiles(path).isEmpty()) {
        openJob({path});
        return;
    }
    if (NsysExportJob::isReport(path) && offerNsysExport(path))
        return;
    startLoad(QFileInfo(path).absoluteFilePath(), QFileInfo(path).fileName(), false);
}

void MainWindow::openSample() {
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::CacheLocation);
    QDir().mkpath(dir);
    const QString path =
        dir % QStringLiteral("/strobe-sample-training-loop-" STROBE_VERSION ".sqlite");
    // Written afresh each time (40 ms; the writer renames a finished file into place, so a
    // window still reading the last one keeps it): a file left by an older build of the same
    // version would show an older sample.
    std::string error;
    if (!sample::writeSampleTrace(path.toStdString(), &error)) {
        showError(QString::fromStdString(error));
        return;
    }
    startLoad(path, tr("Sample: CNN training loop"), true);
}

void MainWindow::setTraceCache(const QString& folder, std::optional<std::uint64_t> capBytes) {
    m_cacheFolder = folder;
    m_cacheCapBytes = capBytes;
    if (m_cacheAction) {
        const QSignalBlocker block(m_cacheAction);
        m_cacheAction->setChecked(!folder.isEmpty());
    }
}

void MainWindow::startLoad(const QString& path, const QString& title, bool isSample) {
    if (m_job)
        m_job->cancel();
    m_job = std::make_unique<TraceLoadJob>(path, m_previewMinRows);
    m_job->setEarlyPreviewAfter(m_earlyPreviewAfter);
    if (!isSample) // the sample is written afresh each time: nothing to reopen
        m_job->setCache(m_cacheFolder, m_cacheCapBytes);
    m_pendingTitle = title;
    m_pendingIsSample = isSample;
    m_previewOfThisLoad = false;
    connect(m_job.get(), &TraceLoadJob::progress, m_progress, &QProgressBar::setValue);
    connect(m_job.get(), &TraceLoadJob::preview, this, &MainWindow::onPreview);
    connect(m_job.get(), &TraceLoadJob::finished, this, &MainWindow::onLoadFinished);
    // A big trace's timeline reads its summaries from its first frame (TraceLoadJob).
    m_job->setLevelOfDetailAfterPreview(m_state->idleThresholdNs());
    connect(m_job.get(), &TraceLoadJob::levelOfDetail, m_timeline,
            &TimelineView::offerLevelOfDetail);
    m_progress->setFormat(tr("Loading %p%"));
    m_progress->setValue(0);
    m_progress->show();
    m_cancelButton->show();
    statusBar()->showMessage(tr("Loading %1…").arg(QFileInfo(path).fileName()));
    m_job->start();
    updateStatus(); // File > Close cancels it
}

void MainWindow::cancelLoading() {
    if (m_export)
        m_export->cancel();
    if (m_job)
        m_job->cancel();
}

// A new trace: a name filter typed for the old one would hide its rows, unnoticed.
void MainWindow::clearNameFilters() {
    m_kernelTable->clearFilters();
    m_statistics->clearNameFilters();
}

void MainWindow::onPreview(std::shared_ptr<const Trace> gpuSide) {
    if (sender() != m_job.get())
        return;
    if (!m_beforePreview) { // the first preview of this load: what it replaces comes back on
                            // failure
        rememberView();
        m_beforePreview = Shown{m_state->sharedTrace(),
                                m_state->visibleRange(),
                                m_title,
                                m_kernelTable->nameFilter(),
                                m_kernelTable->nameFilterIsRegex(),
                                m_statistics->nameFilters()};
        clearNameFilters();
        endComparisonForNewTrace();
    }
    // Where the user went on an earlier preview of this load stays.
    const std::optional<TimeRange> navigated =
        m_previewOfThisLoad && m_preview && m_state->visibleRange() != m_preview->timeRange()
            ? std::optional<TimeRange>(m_state->visibleRange())
            : std::nullopt;
    m_preview = gpuSide;
    m_previewOfThisLoad = true;
    const TraceMetadata& meta = gpuSide->metadata();
    m_title = m_pendingTitle % (meta.stage == TraceStage::GpuSideBegun && meta.gpuSampleStride > 1
                                    ? tr(" (reading 1/%1 of the GPU rows, spread over the whole "
                                         "trace; reading on…)")
                                          .arg(meta.gpuSampleStride)
                                : meta.stage == TraceStage::GpuSideBegun
                                    ? tr(" (the first of the GPU side; reading on…)")
                                : meta.loadedParts.testFlag(TracePart::KernelDetail)
                                    ? tr(" (GPU side; reading the CPU side…)")
                                    : tr(" (GPU side; reading launch details and the CPU side…)"));
    // The status bar says how much of a partial picture is read (the timeline hatches it).
    statusBar()->showMessage(meta.gpuSampleStride > 1 ? tr("Loading %1: 1/%2 of the GPU rows read…")
                                                            .arg(m_pendingTitle)
                                                            .arg(meta.gpuSampleStride)
                                                      : tr("Loading %1…").arg(m_pendingTitle));
    m_state->setTrace(std::move(gpuSide));
    if (navigated)
        m_state->setVisibleRange(*navigated, false);
    setWindowTitle(m_pendingTitle % QStringLiteral(" — Strobe"));
    updateStatus();
}

void MainWindow::onLoadFinished(const std::shared_ptr<const Trace>& trace, const QString& error,
                                bool cancelled) {
    auto* job = qobject_cast<TraceLoadJob*>(sender());
    if (!job || job != m_job.get())
        return; // a superseded load
    const QString path = job->path();
    m_progress->hide();
    m_cancelButton->hide();
    statusBar()->clearMessage();
    // The worker has finished; release it after this slot returns.
    m_job.release()->deleteLater();
    updateStatus(); // (File > Close has no load to cancel now)
    const std::optional<Shown> before = std::exchange(m_beforePreview, std::nullopt);
    const std::shared_ptr<const Trace> preview = std::exchange(m_preview, nullptr);
    if (before && !trace) { // the load failed after its preview: back to what was shown
        m_state->setTrace(before->trace);
        m_state->setVisibleRange(before->view, false);
        m_kernelTable->setNameFilter(before->kernelFilter, before->kernelFilterIsRegex);
        m_statistics->setNameFilters(before->statisticsFilters);
        m_title = before->title;
        updateTitle();
        updateStatus();
    }
    // A preview of this load ended a comparison (endComparisonForNewTrace): say so either way.
    const QString ended = std::exchange(m_comparisonEnded, QString());
    if (cancelled) {
        statusBar()->showMessage(
            ended.isEmpty()
                ? tr("Loading %1 was cancelled.").arg(QFileInfo(path).fileName())
                : tr("Loading %1 was cancelled; %2.").arg(QFileInfo(path).fileName(), ended),
            5000);
        emit loadFinished(false, QString());
        return;
    }
    if (!trace) {
        if (!ended.isEmpty())
            statusBar()->showMessage(
                tr("Loading %1 failed; %2.").arg(QFileInfo(path).fileName(), ended), 8000);
        showError(error);
        emit loadFinished(false, error);
        return;
    }
    if (!preview) {
        rememberView(); // (a preview already saved the previous trace's view)
        endComparisonForNewTrace();
    }
    // Where the user went while the preview was up wins over the last saved view.
    const std::optional<TimeRange> navigated =
        preview && m_state->visibleRange() != preview->timeRange()
            ? std::optional<TimeRange>(m_state->visibleRange())
            : std::nullopt;
    m_path = path;
    m_title = m_pendingTitle;
    m_isSample = m_pendingIsSample;
    if (!preview) // (a preview cleared them, and what was typed since stays)
        clearNameFilters();
    m_state->setTrace(trace);
    if (navigated)
        m_state->setVisibleRange(*navigated, false);
    else if (const auto view = m_settings->lastView(path); view && !m_isSample)
        m_state->setVisibleRange(*view, false);
    if (!m_isSample) {
        m_settings->addRecentFile(path);
        rebuildRecentMenu();
    }
    updateTitle();
    updateStatus();
    QStringList messages;
    if (const QString e = ended.isEmpty() ? std::exchange(m_comparisonEnded, QString()) : ended;
        !e.isEmpty())
        messages << tr("Opened %1: %2.").arg(m_title, e);
    if (!trace->warnings().empty())
        messages << tr("%n data warning(s): see File > Trace Information.", nullptr,
                       int(trace->warnings().size()));
    if (!messages.isEmpty())
        statusBar()->showMessage(messages.join(u' '), 8000);
    emit loadFinished(true, QString());
}

void MainWindow::showError(const QString& message) {
    QMessageBox* box = plainMessageBox(QMessageBox::Critical, tr("Cannot open trace"), message,
                                       QMessageBox::Ok, this);
    box->open(); // not exec(): the window and its event loop stay responsive
}

void MainWindow::rememberView() {
    if (trace() && !m_path.isEmpty() && !m_isSample)
        m_settings->setLastView(m_path, m_state->visibleRange());
}

void MainWindow::showTraceInfo() {
    if (!trace()) {
        showError(tr("No trace is open."));
        return;
    }
    TraceInfoDialog(*trace(), m_title, this).exec();
}

void MainWindow::chooseExportImage() {
    if (!trace()) {
        showError(tr("No trace is open."));
        return;
    }
    QString filter = tr("PNG image (*.png)");
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export Image"), QFileInfo(m_title).completeBaseName() % QStringLiteral(".png"),
        tr("PNG image (*.png);;SVG image (*.svg)"), &filter);
    if (path.isEmpty())
        return;
    ImageSizeDialog sizes(exportImageSize(), this);
    if (sizes.exec() != QDialog::Accepted)
        return;
    QString file = path;
    if (QFileInfo(file).suffix().isEmpty()) // the filter chosen names the format
        file +=
            filter.contains(QLatin1String("svg")) ? QStringLiteral(".svg") : QStringLiteral(".png");
    if (const QString error = exportImage(file, sizes.chosenSize()); !error.isEmpty())
        showError(error);
    else
        statusBar()->showMessage(tr("Saved %1.").arg(QFileInfo(file).fileName()), 5000);
}

std::vector<ExportedPane> MainWindow::exportedPanes() const {
    if (!isComparing())
        return {{m_timeline, QString(), 0}};
    return {{m_timeline, tr("A (baseline): %1").arg(m_title), 0},
            {m_compare->timelineB(), tr("B: %1").arg(m_titleB), m_compare->link()->offset()}};
}

QSize MainWindow::exportImageSize() const {
    return panesPictureSize(exportedPanes());
}

QString MainWindow::exportImage(const QString& path, std::optional<QSize> size) {
    const std::vector<ExportedPane> panes = exportedPanes();
    const QString footer = isComparing() ? m_title % QStringLiteral(" vs ") % m_titleB : m_title;
    return exportPanesImage(panes, footer, path, size.value_or(panesPictureSize(panes)));
}

void MainWindow::chooseIdleThreshold() {
    bool ok = false;
    const double us = QInputDialog::getDouble(
        this, tr("Idle-Gap Threshold"), tr("Mark GPU idle stretches longer than (microseconds):"),
        double(m_state->idleThresholdNs()) / 1000.0, 0.001, 1e9, 3, &ok);
    if (ok)
        m_state->setIdleThresholdNs(TimeNs(us * 1000.0));
}

void MainWindow::closeEvent(QCloseEvent* event) {
    rememberView();
    m_settings->setWindowLayout(saveGeometry(), saveState());
    m_settings->sync();
    if (m_job)
        m_job->cancel();
    if (m_compareJob)
        m_compareJob->cancel();
    QMainWindow::closeEvent(event);
}

QString MainWindow::openFileFilter() {
    return tr("Traces (*.sqlite *.db *.nsys-rep *.qdrep *.json *.json.gz *.pt.trace.json "
              "*.pt.trace.json.gz);;"
              "Nsight Systems SQLite exports and Strobe captures (*.sqlite *.db);;"
              "PyTorch profiler traces (*.json *.json.gz);;All files (*)");
}

// Any local file is taken: loadTrace sniffs the content (SQLite, JSON, gzip) and names what is
// wrong with anything else, so a Kineto trace without its usual name opens too.
void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    if (event->mimeData()->hasUrls() && event->mimeData()->urls().first().isLocalFile())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
    const QList<QUrl> urls = event->mimeData()->urls();
    if (urls.size() > 1) { // several traces dropped together: the ranks of one job
        QStringList paths;
        for (const QUrl& url : urls)
            if (url.isLocalFile())
                paths << url.toLocalFile();
        openJob(paths);
        event->acceptProposedAction();
    } else if (!urls.isEmpty() && urls.first().isLocalFile()) {
        openFile(urls.first().toLocalFile());
        event->acceptProposedAction();
    }
}

} // namespace strobe
