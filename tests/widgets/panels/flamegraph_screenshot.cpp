// SPDX-License-Identifier: MIT
// Renders the flame graph of a trace's whole time range and the step breakdown chart of a
// hand-made eight-step breakdown (scripts/screenshots.sh):
//   QT_QPA_PLATFORM=offscreen flamegraph_screenshot TRACE FLAME.png STEPS.png
#include "formats/open.h"
#include "model/analysis/flamegraph.h"
#include "widgets/panels/flamegraphview.h"
#include "widgets/panels/stepbreakdownchart.h"

#include <QApplication>
#include <QTableWidget>
#include <QTest>
#include <cstdio>

using namespace strobe;

namespace {

// Eight steps of about 120 ms whose data loading grows and shrinks, as a starved input
// pipeline does; the rest in plausible shares of a data-parallel training step.
StepBreakdown exampleBreakdown() {
    StepBreakdown b;
    b.source = StepSource::ProfilerSteps;
    b.family = QStringLiteral("ProfilerStep");
    const TimeNs ms = 1'000'000;
    const TimeNs loader[] = {4, 6, 31, 5, 4, 38, 6, 5};
    TimeNs t = 0;
    for (int i = 0; i < 8; ++i) {
        StepTimes s;
        s.name = QString::number(550 + i);
        std::array<TimeNs, kStepCategoryCount> v{
            71 * ms + i * ms / 3, 3 * ms, ms / 2, 12 * ms, 5 * ms, loader[i] * ms, 9 * ms, 2 * ms};
        s.time = v;
        TimeNs total = 0;
        for (TimeNs x : v)
            total += x;
        s.host = s.range = {t, t + total};
        t += total;
        b.steps.push_back(s);
    }
    for (const StepTimes& s : b.steps) {
        for (std::size_t c = 0; c < kStepCategoryCount; ++c)
            b.average[c] += double(s.time[c]) / double(b.steps.size());
        b.averageTotal += double(s.total()) / double(b.steps.size());
    }
    return b;
}

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
    // Zoomed into the longest path two levels down (a step of the busiest thread), so that
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
    steps.setStepBreakdown(exampleBreakdown());
    steps.resize(1240, steps.sizeHint().height());
    steps.table()->setCurrentCell(-1, -1);
    return save(steps, argv[3]) ? 0 : 1;
}
