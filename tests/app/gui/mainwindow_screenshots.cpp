// SPDX-License-Identifier: MIT
// Renders the README's and the user guide's screenshots from the real main window (offscreen
// platform). Not a test: `mainwindow_screenshots OUTDIR TRACE [KINETO_TRACE]`, run by
// scripts/screenshots.sh. On the embedded sample: overview-sample.png, mainwindow.png,
// kernels-by-duration.png, kernel-details.png, findings-panel.png; on TRACE (the two-GPU H100
// fixture): overview-h100.png, findings-h100.png, timeline-h100.png; on KINETO_TRACE (the A100
// PyTorch fixture): kineto-timeline.png and kineto-kernel-details.png; on RESNET_TRACE (the
// ResNet-50 PyTorch profiler trace): findings-resnet50.png, operators-panel.png and
// kernel-operator-chain.png. Every picture waits for the panels' and the timeline's workers, so
// none shows "Computing…".
#include "app/gui/appsettings.h"
#include "app/gui/mainwindow.h"
#include "model/itemmodels/kerneltablemodel.h"
#include "model/itemmodels/operatorkernelsmodel.h"
#include "model/trace.h"
#include "tests/support/waitfinished.h"
#include "widgets/panels/detailpane.h"
#include "widgets/panels/findingspanel.h"
#include "widgets/panels/gapspanel.h"
#include "widgets/panels/kerneltablewidget.h"
#include "widgets/panels/operatorspanel.h"
#include "widgets/panels/overviewpanel.h"
#include "widgets/panels/statisticswidget.h"
#include "widgets/timeline/timelineview.h"
#include "widgets/viewstate.h"

#include <QApplication>
#include <QDockWidget>
#include <QEventLoop>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <cstdio>

using namespace strobe;

namespace {

bool finished(MainWindow& w) {
    if (test::waitUntilFinished<KernelTableWidget, StatisticsWidget, GapsPanel, DetailPane,
                                OverviewPanel, OperatorsPanel, FindingsPanel, TimelineView>(&w))
        return true;
    std::fprintf(stderr, "mainwindow_screenshots: the panels did not finish computing\n");
    return false;
}

bool save(MainWindow& w, const QString& path) {
    const bool ok = finished(w) && w.grab().save(path);
    std::printf("%s %s\n", ok ? "wrote" : "FAILED to write", qPrintable(path));
    return ok;
}

bool openAndWait(MainWindow& w, const QString& path) {
    QEventLoop loop;
    bool ok = false;
    const auto c = QObject::connect(&w, &MainWindow::loadFinished, &loop, [&](bool success) {
        ok = success;
        loop.quit();
    });
    if (path.isEmpty())
        w.openSample();
    else
        w.openFile(path);
    loop.exec();
    QObject::disconnect(c);
    if (!ok)
        std::fprintf(stderr, "mainwindow_screenshots: cannot open %s\n",
                     path.isEmpty() ? "the sample" : qPrintable(path));
    return ok && finished(w);
}

// The Overview tab raised (as after every open) and tall enough to show all of it.
bool saveOverview(MainWindow& w, const QString& path) {
    auto* dock = w.findChild<QDockWidget*>(QStringLiteral("overviewDock"));
    if (!dock)
        return false;
    dock->raise();
    w.resizeDocks({dock}, {620}, Qt::Vertical);
    const bool ok = save(w, path);
    w.resizeDocks({dock}, {320}, Qt::Vertical);
    return ok;
}

// The Findings tab, tall, with the top finding selected and its evidence below it.
bool saveFindings(MainWindow& w, const QString& path) {
    auto* dock = w.findChild<QDockWidget*>(QStringLiteral("findingsDock"));
    if (!dock)
        return false;
    dock->raise();
    w.resizeDocks({dock}, {560}, Qt::Vertical);
    w.findingsPanel()->selectFinding(0);
    const bool ok = finished(w) && dock->grab().save(path);
    std::printf("%s %s\n", ok ? "wrote" : "FAILED to write", qPrintable(path));
    w.resizeDocks({dock}, {320}, Qt::Vertical);
    return ok;
}

void raiseKernels(MainWindow& w) {
    if (auto* dock = w.findChild<QDockWidget*>(QStringLiteral("kernelsDock")))
        dock->raise();
}

// A kernel launched from inside a CPU op, near the middle of the trace, lasting a while, with a
// derived short name: the timeline then shows op, launch call and kernel stacked.
std::optional<std::size_t> kernelUnderACpuOp(const Trace& t) {
    for (std::size_t i = t.kernelCount() / 2; i < t.kernelCount(); ++i) {
        const KernelLaunch k = t.kernelAt(i);
        if (!k.record.api.isValid() || k.duration() < 20'000 || !k.config->shortNameDerived)
            continue;
        const Lane& api = t.lane(k.record.api.lane);
        const TimeNs launch = api.start(k.record.api.index);
        for (const Lane& l : t.lanes()) {
            if (l.kind() == LaneKind::CpuOps && l.owner() == api.owner() &&
                !l.stabbing(launch).empty())
                return i;
        }
    }
    return std::nullopt;
}

bool kinetoShots(MainWindow& w, const QString& trace, const QString& out) {
    if (!openAndWait(w, trace))
        return false;
    const Trace& t = *w.trace();
    const std::optional<std::size_t> k = kernelUnderACpuOp(t);
    if (!k) {
        std::fprintf(stderr, "mainwindow_screenshots: no kernel launched inside a CPU op\n");
        return false;
    }
    const KernelLaunch kl = t.kernelAt(*k);
    const TimeNs launch = t.lane(kl.record.api.lane).start(kl.record.api.index);
    // The timeline alone first (docks hidden), then the detail pane with the room it needs.
    const QList<QDockWidget*> docks = w.findChildren<QDockWidget*>();
    for (QDockWidget* d : docks)
        d->hide();
    w.resize(1600, 900);
    w.viewState()->setVisibleRange({launch - 120'000, kl.end + 60'000});
    w.viewState()->setSelection(kl.record.self);
    bool ok = save(w, out + QStringLiteral("/kineto-timeline.png"));
    auto* detailsDock = qobject_cast<QDockWidget*>(w.details()->parentWidget());
    if (detailsDock) {
        detailsDock->setFloating(true);
        detailsDock->show();
        detailsDock->resize(860, 800);
    }
    ok &= finished(w);
    QWidget* pane = detailsDock ? static_cast<QWidget*>(detailsDock) : w.details();
    const bool paneOk = pane->grab().save(out + QStringLiteral("/kineto-kernel-details.png"));
    std::printf("%s %s/kineto-kernel-details.png\n", paneOk ? "wrote" : "FAILED to write",
                qPrintable(out));
    return ok && paneOk;
}

// The Operators panel on the ResNet-50 trace with aten::cudnn_convolution selected, and the
// detail pane of that operator's longest kernel launch, naming the chain that launched it.
bool operatorShots(MainWindow& w, const QString& trace, const QString& out) {
    if (!openAndWait(w, trace))
        return false;
    // FINDINGS.md: the tutorial's trace, Tensor Cores and data loading first.
    if (!saveFindings(w, out + QStringLiteral("/findings-resnet50.png")))
        return false;
    auto* dock = w.findChild<QDockWidget*>(QStringLiteral("operatorsDock"));
    OperatorsPanel* panel = w.operatorsPanel();
    if (!dock || !panel)
        return false;
    dock->raise();
    w.resizeDocks({dock}, {560}, Qt::Vertical);
    const QAbstractItemModel* rows = panel->view()->model();
    int conv = -1;
    for (int r = 0; r < rows->rowCount() && conv < 0; ++r)
        if (rows->index(r, 0).data().toString() == QStringLiteral("aten::cudnn_convolution"))
            conv = r;
    if (conv < 0) {
        std::fprintf(stderr, "mainwindow_screenshots: no aten::cudnn_convolution row\n");
        return false;
    }
    panel->selectOperatorRow(conv);
    bool ok = finished(w);
    ok &= dock->grab().save(out + QStringLiteral("/operators-panel.png"));
    std::printf("%s %s/operators-panel.png\n", ok ? "wrote" : "FAILED to write", qPrintable(out));
    // The kernel with the most time under it (the first row), at its longest launch.
    panel->activateKernelRow(0);
    ok &= finished(w);
    auto* details = qobject_cast<QDockWidget*>(w.details()->parentWidget());
    if (details)
        w.resizeDocks({details}, {620}, Qt::Horizontal);
    ok &= finished(w);
    QWidget* pane = details ? static_cast<QWidget*>(details) : w.details();
    const bool paneOk = pane->grab().save(out + QStringLiteral("/kernel-operator-chain.png"));
    std::printf("%s %s/kernel-operator-chain.png\n", paneOk ? "wrote" : "FAILED to write",
                qPrintable(out));
    w.resizeDocks({dock}, {320}, Qt::Vertical);
    if (details)
        w.resizeDocks({details}, {440}, Qt::Horizontal);
    return ok && paneOk;
}

} // namespace

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    if (argc < 3) {
        std::fprintf(stderr,
                     "usage: mainwindow_screenshots OUTDIR TRACE [KINETO_TRACE [RESNET_TRACE]]\n");
        return 2;
    }
    const QString out = QString::fromLocal8Bit(argv[1]);
    QTemporaryDir dir;
    AppSettings settings(dir.filePath(QStringLiteral("s.ini")));
    MainWindow w(&settings);
    w.resize(1600, 1000);
    w.show();
    if (!openAndWait(w, QString()))
        return 1;
    bool ok = saveOverview(w, out + QStringLiteral("/overview-sample.png"));
    ok &= saveFindings(w, out + QStringLiteral("/findings-panel.png"));
    raiseKernels(w);
    ok &= save(w, out + QStringLiteral("/mainwindow.png"));

    // Job 2: kernels sorted by duration, the longest selected.
    QTableView* view = w.kernelTable()->view();
    view->sortByColumn(KernelTableModel::Duration, Qt::DescendingOrder);
    ok &= finished(w);
    view->selectRow(0);
    w.kernelTable()->activateRow(0);
    ok &= save(w, out + QStringLiteral("/kernels-by-duration.png"));

    // Job 3: the softmax launch's parameters, occupancy and warning.
    w.kernelTable()->setNameFilter(QStringLiteral("softmax"), false);
    ok &= finished(w);
    if (view->model()->rowCount() == 0) {
        std::fprintf(stderr, "mainwindow_screenshots: the sample has no softmax kernel\n");
        return 1;
    }
    view->selectRow(0);
    w.kernelTable()->activateRow(0);
    ok &= save(w, out + QStringLiteral("/kernel-details.png"));
    w.kernelTable()->setNameFilter(QString(), false);

    // The README's real trace: a two-GPU export, kernels in start order.
    if (!openAndWait(w, QString::fromLocal8Bit(argv[2])))
        return 1;
    ok &= saveOverview(w, out + QStringLiteral("/overview-h100.png"));
    ok &= saveFindings(w, out + QStringLiteral("/findings-h100.png"));
    raiseKernels(w);
    view->sortByColumn(KernelTableModel::Start, Qt::AscendingOrder);
    ok &= save(w, out + QStringLiteral("/timeline-h100.png"));
    // USER_GUIDE: the NVTX statistics of the PyTorch export, per-call ids grouped, filtered.
    if (auto* dock = w.findChild<QDockWidget*>(QStringLiteral("statisticsDock"))) {
        dock->raise();
        w.statistics()->tabs()->setCurrentIndex(StatisticsWidget::NvtxTab);
        w.statistics()->setNameFilter(StatisticsWidget::NvtxTab, QStringLiteral("aten::"));
        ok &= save(w, out + QStringLiteral("/statistics-nvtx-h100.png"));
        w.statistics()->setNameFilter(StatisticsWidget::NvtxTab, QString());
    }
    // (Before the Kineto shots, which float the detail pane and hide the docks.)
    if (argc >= 5)
        ok &= operatorShots(w, QString::fromLocal8Bit(argv[4]), out);
    if (argc >= 4)
        ok &= kinetoShots(w, QString::fromLocal8Bit(argv[3]), out);
    return ok ? 0 : 1;
}
