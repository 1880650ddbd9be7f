// SPDX-License-Identifier: MIT
// Renders the GPU gaps panel and the timeline zoomed to the longest gap, on the sample trace:
//   QT_QPA_PLATFORM=offscreen gaps_screenshot PANEL.png ZOOMED.png   (scripts/screenshots.sh)
// It waits for the panels' and the timeline's workers before each picture.
#include "formats/nsys/synth/sampletrace.h"
#include "formats/open.h"
#include "tests/support/waitfinished.h"
#include "widgets/panels/detailpane.h"
#include "widgets/panels/gapspanel.h"
#include "widgets/timeline/timelineview.h"
#include "widgets/viewstate.h"

#include <QApplication>
#include <QSplitter>
#include <QTemporaryDir>
#include <QTest>
#include <cstdio>

using namespace strobe;

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    if (argc < 3) {
        std::fprintf(stderr, "usage: gaps_screenshot PANEL.png ZOOMED.png\n");
        return 2;
    }
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("sample.sqlite"));
    std::string error;
    if (!sample::writeSampleTrace(path.toStdString(), &error)) {
        std::fprintf(stderr, "%s\n", error.c_str());
        return 1;
    }
    LoadResult r = loadTrace(path);
    if (!r.ok()) {
        std::fprintf(stderr, "%s\n", qPrintable(r.error));
        return 1;
    }
    ViewState state;
    state.setTrace(std::shared_ptr<const Trace>(std::move(r.trace)));

    GapsPanel panel(&state);
    panel.resize(1200, 420);
    panel.show();
    if (!QTest::qWaitForWindowExposed(&panel) || !test::waitUntilFinished<GapsPanel>(&panel))
        return 1;
    if (!panel.grab().save(QString::fromLocal8Bit(argv[1])))
        return 1;

    QSplitter window(Qt::Horizontal);
    auto* timeline = new TimelineView(&state, &window);
    new DetailPane(&state, &window);
    timeline->setShowProjectedNvtx(true);
    window.setSizes({1150, 450});
    window.resize(1600, 900);
    window.show();
    if (!QTest::qWaitForWindowExposed(&window) ||
        !test::waitUntilFinished<TimelineView, DetailPane>(&window))
        return 1;
    panel.activateRow(0); // the longest gap
    if (!test::waitUntilFinished<TimelineView, DetailPane>(&window)) {
        std::fprintf(stderr, "gaps_screenshot: the detail pane did not finish computing\n");
        return 1;
    }
    return window.grab().save(QString::fromLocal8Bit(argv[2])) ? 0 : 1;
}
