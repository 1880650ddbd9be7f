// SPDX-License-Identifier: MIT
// The picture of the timeline's search (docs/USER_GUIDE.md, docs/TIMELINE.md): the two-GPU H100
// export searched for "memcpy", stepped to the first match after 16 ms, every match highlighted.
//   search_screenshot TRACE.sqlite OUT.png
#include "formats/open.h"
#include "widgets/timeline/searchbar.h"
#include "widgets/timeline/timelineview.h"
#include "widgets/viewstate.h"

#include <QApplication>
#include <QLineEdit>
#include <QPixmap>
#include <cstdio>

using namespace strobe;

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    const QStringList args = QApplication::arguments();
    if (args.size() != 3) {
        std::fprintf(stderr, "usage: search_screenshot TRACE OUT.png\n");
        return 2;
    }
    LoadResult r = loadTrace(args[1]);
    if (!r.ok()) {
        std::fprintf(stderr, "%s\n", qPrintable(r.error));
        return 1;
    }
    ViewState state;
    state.setTrace(std::shared_ptr<const Trace>(std::move(r.trace)));
    TimelineView view(&state);
    view.resize(1400, 560);
    view.show();
    view.waitForLevelOfDetail(); // summaries and utilisation, or the strips say "Computing…"
    const TimeNs t0 = state.trace()->timeRange().start;
    constexpr TimeNs kMs = 1'000'000;
    state.setVisibleRange({t0 + 16 * kMs, t0 + 40 * kMs}, false);
    SearchBar* bar = view.searchBar();
    bar->open();
    bar->textField()->setText(QStringLiteral("memcpy"));
    bar->findNext();
    QApplication::processEvents();
    if (!view.grab().save(args[2])) {
        std::fprintf(stderr, "cannot write %s\n", qPrintable(args[2]));
        return 1;
    }
    std::printf("%s: %s\n", qPrintable(args[2]), qPrintable(bar->countText()));
    return 0;
}
