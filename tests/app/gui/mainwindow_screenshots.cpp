// SPDX-License-Identifier: MIT
// Renders the user guide's screenshots of the kernel table and the detail pane from the real
// main window on the embedded sample trace. Not a test: `mainwindow_screenshots OUTDIR
// [KINETO_TRACE]` (offscreen platform); with a PyTorch profiler trace it also renders the
// README's Kineto timeline and kernel detail pane. The README's overview is a screenshot of
// `strobe` under Xvfb.
#include "app/gui/appsettings.h"
#include "app/gui/mainwindow.h"
#include "model/analysis/kerneltablemodel.h"
#include "model/trace.h"
#include "widgets/panels/detailpane.h"
#include "widgets/panels/kerneltablewidget.h"
#include "widgets/timeline/timelineview.h"
#include "widgets/viewstate.h"

#include <QApplication>
#include <QDockWidget>
#include <QEventLoop>
#include <QTableView>
#include <QTemporaryDir>
#include <QTimer>
#include <cstdio>

using namespace strobe;

namespace {

void settle() {
    for (int i = 0; i < 5; ++i) {
        QCoreApplication::processEvents();
        QEventLoop loop;
        QTimer::singleShot(30, &loop, &QEventLoop::quit);
        loop.exec();
    }
}

bool save(MainWindow& w, const QString& path) {
    settle();
    const bool ok = w.grab().save(path);
    std::printf("%s %s\n", ok ? "wrote" : "FAILED to write", qPrintable(path));
    return ok;
}

} // namespace

// A kernel launched from inside a CPU op, near the middle of the trace, lasting a while: the
// timeline then shows op, launch call and kernel stacked.
std::optional<std::size_t> kernelUnderACpuOp(const Trace& t) {
    for (std::size_t i = t.kernelCount() / 2; i < t.kernelCount(); ++i) {
        const KernelLaunch k = t.kernelAt(i);
        if (!k.record->api.isValid() || k.duration() < 20'000 || !k.config->shortNameDerived)
            continue;
        const Lane& api = t.lane(k.record->api.lane);
        const TimeNs launch = api.start(k.record->api.index);
        for (const Lane& l : t.lanes()) {
            if (l.kind() == LaneKind::CpuOps && l.owner() == api.owner() &&
                !l.stabbing(launch).empty())
                return i;
        }
    }
    return std::nullopt;
}

bool kinetoShots(MainWindow& w, const QString& trace, const QString& out) {
    QEventLoop loop;
    QObject::connect(&w, &MainWindow::loadFinished, &loop, &QEventLoop::quit);
    w.openFile(trace);
    loop.exec();
    if (!w.trace())
        return false;
    const Trace& t = *w.trace();
    const std::optional<std::size_t> k = kernelUnderACpuOp(t);
    if (!k)
        return false;
    const KernelLaunch kl = t.kernelAt(*k);
    const TimeNs launch = t.lane(kl.record->api.lane).start(kl.record->api.index);
    // The timeline alone first (docks hidden), then the detail pane with the room it needs.
    const QList<QDockWidget*> docks = w.findChildren<QDockWidget*>();
    for (QDockWidget* d : docks)
        d->hide();
    w.resize(1600, 900);
    w.viewState()->setVisibleRange({launch - 120'000, kl.end + 60'000});
    w.viewState()->setSelection(kl.record->self);
    bool ok = save(w, out + QStringLiteral("/kineto-timeline.png"));
    auto* detailsDock = qobject_cast<QDockWidget*>(w.details()->parentWidget());
    if (detailsDock) {
        detailsDock->setFloating(true);
        detailsDock->show();
        detailsDock->resize(860, 800);
    }
    settle();
    QWidget* pane = detailsDock ? static_cast<QWidget*>(detailsDock) : w.details();
    const bool paneOk = pane->grab().save(out + QStringLiteral("/kineto-kernel-details.png"));
    std::printf("%s %s/kineto-kernel-details.png\n", paneOk ? "wrote" : "FAILED to write",
                qPrintable(out));
    return ok && paneOk;
}

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    if (argc < 2) {
        std::fprintf(stderr, "usage: mainwindow_screenshots OUTDIR\n");
        return 2;
    }
    const QString out = QString::fromLocal8Bit(argv[1]);
    QTemporaryDir dir;
    AppSettings settings(dir.filePath(QStringLiteral("s.ini")));
    MainWindow w(&settings);
    w.resize(1600, 1000);
    w.show();
    QEventLoop loop;
    QObject::connect(&w, &MainWindow::loadFinished, &loop, &QEventLoop::quit);
    w.openSample();
    loop.exec();
    if (!w.trace())
        return 1;
    const Trace& t = *w.trace();

    std::optional<std::size_t> softmax;
    for (std::size_t i = 0; i < t.kernelCount() && !softmax; ++i) {
        if (t.string(t.kernelAt(i).config->shortName) == QLatin1String("softmax_warp_forward"))
            softmax = i;
    }
    bool ok = true;

    // Job 2: kernels sorted by duration, the longest selected.
    QTableView* view = w.kernelTable()->view();
    view->sortByColumn(KernelTableModel::Duration, Qt::DescendingOrder);
    settle();
    view->selectRow(0);
    const QModelIndex first = view->model()->index(0, 0);
    emit view->doubleClicked(first);
    ok &= save(w, out + QStringLiteral("/kernels-by-duration.png"));

    // Job 3: the softmax launch's parameters, occupancy and warning.
    if (softmax) {
        w.kernelTable()->setNameFilter(QStringLiteral("softmax"), false);
        settle();
        emit view->doubleClicked(view->model()->index(0, 0));
        ok &= save(w, out + QStringLiteral("/kernel-details.png"));
    }
    if (argc >= 3)
        ok &= kinetoShots(w, QString::fromLocal8Bit(argv[2]), out);
    return ok ? 0 : 1;
}
