// SPDX-License-Identifier: MIT
// Renders the flame graph of a trace's whole time range (zoomed into its steps) and the trace's
// step breakdown chart (scripts/screenshots.sh):
//   QT_QPA_PLATFORM=offscreen flamegraph_screenshot TRACE FLAME.png STEPS.png
#include "formats/open.h"
#include "model/analysis/flamegraph.h"
#include "model/analysis/operators.h"
#include "model/analysis/steps.h"
#include "widgets/panels/flamegraphview.h"
#include "widgets/panels/stepbreakdownchart.h"

#include <QApplication>
#include <QTableWidget>
#include <QTest>
#include <cstdio>

using namespace strobe;

namespace {

bool save(QWidget& w, const char* path) {
    w.show();
    if (!QTest::qWaitForWindowExposed(&w))
        return false;
    if (!w.grab().save(QString::fromLocal8Bit(path))) {
        std::fprintf(stderr, "flamegraph_screenshot: cannot write %s\n", path);
        return false;
    }
    w.hide();
    return true;
}

} // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    if (argc < 4) {
        std::fprintf(stderr, "usage: flamegraph_screenshot TRACE FLAME.png STEPS.png\n");
        return 2;
    }
    LoadResult r = loadTrace(QString::fromLocal8Bit(argv[1]));
    if (!r.ok()) {
        std::fprintf(stderr, "%s\n", qPrintable(r.error));
        return 1;
    }
    FlameGraphView flame;
    flame.setFlameGraph(buildFlameGraph(*r.trace, r.trace->timeRange()));
    flame.resize(1400, std::max(240, flame.sizeHint().height()));
    // Zoomed into the longest path two levels down (the steps of the busiest thread), so that
    // its operators have room for their names and the breadcrumbs show above.
    const FlameGraph& g = flame.flameGraph();
    if (!g.isEmpty() && !g.nodes[0].children.empty()) {
        const FlameNode& thread = g.nodes[g.nodes[0].children.front()];
        if (!thread.children.empty())
            flame.zoomTo(thread.children.front());
    }
    if (!save(flame, argv[2]))
        return 1;
    StepBreakdownChart steps;
    steps.setStepBreakdown(computeStepBreakdown(*r.trace));
    steps.resize(1240, steps.sizeHint().height());
    steps.table()->setCurrentCell(-1, -1);
    return save(steps, argv[3]) ? 0 : 1;
}
