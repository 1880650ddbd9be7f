// SPDX-License-Identifier: MIT
// The flame graph panel: it follows the scope the user picks (visible range, selected range,
// whole trace), computes on a worker, and a double-clicked path selects its longest call.
#include "widgets/panels/flamegraphpanel.h"

#include "model/tracebuilder.h"
#include "widgets/panels/flamegraphview.h"
#include "widgets/viewstate.h"

#include <QTest>
#include <gtest/gtest.h>

using namespace strobe;

namespace {

// Thread 1: aten::conv2d [0, 400) > aten::convolution [100, 300); aten::relu [600, 700).
std::shared_ptr<const Trace> cpuTrace() {
    TraceBuilder b(QStringLiteral("flame.json"));
    b.metadata().format = QStringLiteral("kineto-json");
    auto op = [&](TimeNs s, TimeNs e, const char* name) {
        b.addCpuOp(LaneKind::CpuOps, 1, 1, s, e, b.intern(name), CpuOpRecord{});
    };
    op(0, 400, "aten::conv2d");
    op(100, 300, "aten::convolution");
    op(600, 700, "aten::relu");
    return b.finish();
}

bool settle(const FlameGraphPanel& panel) {
    return QTest::qWaitFor([&] { return !panel.isComputing(); }, 20000);
}

const FlameNode* named(const FlameGraph& g, const char* name) {
    for (const FlameNode& n : g.nodes)
        if (n.name == QLatin1String(name))
            return &n;
    return nullptr;
}

TEST(FlameGraphPanel, FollowsTheScope) {
    ViewState state;
    FlameGraphPanel panel(&state);
    EXPECT_EQ(panel.status(), QStringLiteral("No trace."));
    state.setTrace(cpuTrace());
    panel.setScope(FlameGraphPanel::Scope::WholeTrace);
    ASSERT_TRUE(settle(panel));
    const FlameGraph& whole = panel.view()->flameGraph();
    ASSERT_FALSE(whole.isEmpty());
    EXPECT_EQ(whole.nodes[0].total, 500); // 400 + 100 of top-level ranges
    ASSERT_NE(named(whole, "aten::relu"), nullptr);
    EXPECT_EQ(named(whole, "aten::convolution")->total, 200);

    // The visible range [0, 350): relu is outside, conv2d is clipped.
    panel.setScope(FlameGraphPanel::Scope::VisibleRange);
    state.setVisibleRange({0, 350});
    ASSERT_TRUE(settle(panel));
    const FlameGraph& visible = panel.view()->flameGraph();
    EXPECT_EQ(visible.nodes[0].total, 350);
    EXPECT_EQ(named(visible, "aten::relu"), nullptr);

    // No selected range: the panel says how to get one; then it follows the selection.
    panel.setScope(FlameGraphPanel::Scope::SelectedRange);
    ASSERT_TRUE(settle(panel));
    EXPECT_TRUE(panel.view()->flameGraph().isEmpty());
    EXPECT_TRUE(panel.status().startsWith(QStringLiteral("Select a range")));
    state.setSelectedRange(TimeRange{550, 800});
    ASSERT_TRUE(settle(panel));
    const FlameGraph& selected = panel.view()->flameGraph();
    EXPECT_EQ(selected.nodes[0].total, 100);
    ASSERT_NE(named(selected, "aten::relu"), nullptr);
    EXPECT_EQ(named(selected, "aten::conv2d"), nullptr);
    EXPECT_TRUE(panel.status().contains(QStringLiteral("100 ns"))) << panel.status().toStdString();

    // A range with no CPU ranges says so.
    state.setSelectedRange(TimeRange{450, 550});
    ASSERT_TRUE(settle(panel));
    EXPECT_TRUE(panel.view()->flameGraph().isEmpty());
    EXPECT_TRUE(panel.status().startsWith(QStringLiteral("No CPU operators")));
}

TEST(FlameGraphPanel, ActivatingAPathSelectsItsLongestCall) {
    ViewState state;
    FlameGraphPanel panel(&state);
    state.setTrace(cpuTrace());
    panel.setScope(FlameGraphPanel::Scope::WholeTrace);
    ASSERT_TRUE(settle(panel));
    const FlameNode* conv = named(panel.view()->flameGraph(), "aten::convolution");
    ASSERT_NE(conv, nullptr);
    EventRef revealed;
    QObject::connect(&state, &ViewState::revealRequested, [&](EventRef ref) { revealed = ref; });
    emit panel.view()->rangeActivated(conv->longest, conv->longestRange);
    EXPECT_EQ(revealed, conv->longest);
    // Shown with a margin around it.
    const TimeRange v = state.visibleRange();
    EXPECT_LT(v.start, 100);
    EXPECT_GT(v.end, 300);
    EXPECT_LT(v.duration(), 400);
}

} // namespace
