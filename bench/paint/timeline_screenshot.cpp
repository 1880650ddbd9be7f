// SPDX-License-Identifier: MIT
// Renders the timeline of a trace file to a PNG (the documentation's screenshot):
//   timeline_screenshot TRACE.sqlite OUT.png [width height] [--dark]
#include "formats/open.h"
#include "widgets/timeline/timelineview.h"
#include "widgets/viewstate.h"

#include <QApplication>
#include <QPalette>
#include <QPixmap>
#include <cstdio>

using namespace strobe;

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    const QStringList args = QApplication::arguments();
    if (args.size() < 3) {
        std::fprintf(stderr, "usage: timeline_screenshot TRACE OUT.png [width height] [--dark]\n");
        return 2;
    }
    if (args.contains(QStringLiteral("--dark"))) {
        QPalette dark;
        dark.setColor(QPalette::Window, QColor(0x20, 0x22, 0x26));
        dark.setColor(QPalette::WindowText, QColor(0xe0, 0xe0, 0xe0));
        dark.setColor(QPalette::Base, QColor(0x1a, 0x1c, 0x20));
        dark.setColor(QPalette::Text, QColor(0xe0, 0xe0, 0xe0));
        QApplication::setPalette(dark);
    }
    LoadResult r = loadTrace(args[1]);
    if (!r.ok()) {
        std::fprintf(stderr, "%s\n", qPrintable(r.error));
        return 1;
    }
    ViewState state;
    state.setTrace(std::shared_ptr<const Trace>(std::move(r.trace)));
    TimelineView view(&state);
    const int w = args.size() > 4 ? args[3].toInt() : 1600;
    const int h = args.size() > 4 ? args[4].toInt() : 900;
    view.resize(w, h);
    view.show();
    view.waitForLevelOfDetail(); // summaries and utilisation, or the strips say "Computing…"
    QApplication::processEvents();
    // Select the first kernel so the launch arrow and the highlight show.
    const Trace& t = *state.trace();
    if (t.kernelCount() > 0) {
        const EventRef k = t.kernels()[t.kernelCount() / 3].self;
        state.setSelection(k);
    }
    QApplication::processEvents();
    if (!view.grab().save(args[2])) {
        std::fprintf(stderr, "cannot write %s\n", qPrintable(args[2]));
        return 1;
    }
    return 0;
}
