// SPDX-License-Identifier: MIT
// Renders the user guide's comparison screenshots from the real main window: the sample trace
// (A) compared with its data-loader fix (B), timelines aligned on an iteration, and the
// Comparison panel. Not a test: `compare_screenshots OUTDIR` (offscreen platform).
#include "app/gui/appsettings.h"
#include "app/gui/mainwindow.h"
#include "formats/nsys/synth/sampletrace.h"
#include "model/trace.h"
#include "widgets/panels/comparisonpanel.h"
#include "widgets/timeline/comparetimelines.h"
#include "widgets/timeline/timelineview.h"
#include "widgets/viewstate.h"

#include <QApplication>
#include <QDockWidget>
#include <QEventLoop>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTimer>
#include <cstdio>

using namespace strobe;

namespace {

void settle() {
    for (int i = 0; i < 8; ++i) {
        QCoreApplication::processEvents();
        QEventLoop loop;
        QTimer::singleShot(40, &loop, &QEventLoop::quit);
        loop.exec();
    }
}

bool save(QWidget& w, const QString& path) {
    settle();
    const bool ok = w.grab().save(path);
    std::printf("%s %s\n", ok ? "wrote" : "FAILED to write", qPrintable(path));
    return ok;
}

} // namespace

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    if (argc < 2) {
        std::fprintf(stderr, "usage: compare_screenshots OUTDIR\n");
        return 2;
    }
    const QString out = QString::fromLocal8Bit(argv[1]);
    QTemporaryDir dir;
    const QString before = dir.filePath(QStringLiteral("train-before.sqlite"));
    const QString after = dir.filePath(QStringLiteral("train-after.sqlite"));
    std::string error;
    if (!sample::writeSampleTrace(before.toStdString(), &error, sample::SampleVariant::Before) ||
        !sample::writeSampleTrace(after.toStdString(), &error, sample::SampleVariant::After)) {
        std::fprintf(stderr, "%s\n", error.c_str());
        return 1;
    }
    AppSettings settings(dir.filePath(QStringLiteral("s.ini")));
    MainWindow w(&settings);
    w.resize(1600, 1100);
    w.show();
    {
        QEventLoop loop;
        QObject::connect(&w, &MainWindow::loadFinished, &loop, &QEventLoop::quit);
        w.openFile(before);
        loop.exec();
    }
    {
        QEventLoop loop;
        QObject::connect(&w, &MainWindow::compareLoadFinished, &loop, &QEventLoop::quit);
        w.compareWith(after);
        loop.exec();
    }
    ComparisonPanel* panel = w.comparisonPanel();
    while (!panel->comparison())
        settle();
    w.timeline()->waitForLevelOfDetail();
    w.compareTimelines()->timelineB()->waitForLevelOfDetail();
    // Iteration 3 of A at the x of iteration 3 of B, about one and a half iterations wide.
    CompareTimelines* ct = w.compareTimelines();
    if (!ct->alignOnInstance(2) || !panel->comparison()->a.range)
        return 1;
    const TimeRange it = panel->comparison()->a.range->instances[2];
    w.viewState()->setVisibleRange({it.start - it.duration() / 10, it.end + it.duration() / 2});
    bool ok = save(w, out + QStringLiteral("/compare-timelines.png"));
    // The panel on its own, wide enough for every column.
    auto* dock = w.findChild<QDockWidget*>(QStringLiteral("comparisonDock"));
    if (!dock)
        return 1;
    dock->setFloating(true);
    dock->resize(1560, 400);
    panel->tabs()->setCurrentIndex(1); // NVTX ranges: Data Load shrinks
    ok &= save(*panel, out + QStringLiteral("/compare-panel-nvtx.png"));
    panel->tabs()->setCurrentIndex(2);
    ok &= save(*panel, out + QStringLiteral("/compare-panel-gpus.png"));
    return ok ? 0 : 1;
}
