// SPDX-License-Identifier: MIT
// The flame graph view on a hand-made graph: box geometry and hit-testing, the merged box of
// sub-pixel children, zooming by click, breadcrumb and Escape, and the activation signal.
#include "widgets/panels/flamegraphview.h"

#include "render/paint/timelinecolors.h"

#include <QSignalSpy>
#include <QTest>
#include <gtest/gtest.h>

using namespace strobe;

namespace {

// root (1000 ns) > main (1000) > X (600) > X1 (300)
//                              > Y (300)
//                              > W1 (1), W2 (1): half a pixel each at 500 px
enum : std::uint32_t { kRoot, kMain, kX, kY, kW1, kW2, kX1 };

FlameGraph handGraph() {
    FlameGraph g;
    g.window = {0, 1000};
    auto add = [&](const char* name, FlameKind kind, std::uint32_t parent, TimeNs total) {
        FlameNode n;
        n.name = QString::fromLatin1(name);
        n.kind = kind;
        n.parent = parent;
        n.depth = g.nodes.empty() ? 0 : g.nodes[parent].depth + 1;
        n.total = n.self = total;
        n.calls = 1;
        if (!g.nodes.empty())
            g.nodes[parent].children.push_back(std::uint32_t(g.nodes.size()));
        g.nodes.push_back(n);
    };
    add("All threads", FlameKind::Root, 0, 1000);
    add("main [10]", FlameKind::Thread, kRoot, 1000);
    add("aten::conv2d", FlameKind::Operator, kMain, 600);
    add("forward", FlameKind::Annotation, kMain, 300);
    add("w1", FlameKind::Python, kMain, 1);
    add("w2", FlameKind::Python, kMain, 1);
    add("aten::convolution", FlameKind::Operator, kX, 300);
    g.nodes[kX].calls = 3;
    g.nodes[kX].self = 300;
    g.nodes[kX].longest = EventRef{3, 7};
    g.nodes[kX].longestRange = {100, 700};
    g.maxDepth = 3;
    return g;
}

class FlameGraphViewTest : public ::testing::Test {
protected:
    void SetUp() override {
        view.resize(500, 200);
        view.setFlameGraph(handGraph());
        rh = view.rowHeight();
    }
    QPoint inRow(int x, int row) const { return QPoint(x, row * rh + rh / 2); }
    FlameGraphView view;
    int rh = 0;
};

TEST_F(FlameGraphViewTest, BoxesAreProportionalAndHitTestingFindsThem) {
    ASSERT_TRUE(view.boxOf(kRoot));
    EXPECT_EQ(*view.boxOf(kRoot), QRectF(0, 0, 500, rh));
    EXPECT_EQ(*view.boxOf(kMain), QRectF(0, rh, 500, rh));
    EXPECT_EQ(*view.boxOf(kX), QRectF(0, 2 * rh, 300, rh));
    EXPECT_EQ(*view.boxOf(kY), QRectF(300, 2 * rh, 150, rh));
    EXPECT_EQ(*view.boxOf(kX1), QRectF(0, 3 * rh, 150, rh));
    EXPECT_FALSE(view.boxOf(kW1)); // half a pixel: merged
    const auto& row2 = view.boxes().at(2);
    ASSERT_EQ(row2.size(), 3u);
    EXPECT_EQ(row2[2].merged, 2u);
    EXPECT_EQ(row2[2].node, kMain);
    EXPECT_EQ(row2[2].rect, QRectF(450, 2 * rh, 1, rh));

    EXPECT_EQ(view.nodeAt(inRow(10, 2)), kX);
    EXPECT_EQ(view.nodeAt(inRow(299, 2)), kX);
    EXPECT_EQ(view.nodeAt(inRow(300, 2)), kY);
    EXPECT_EQ(view.nodeAt(inRow(449, 2)), kY);
    EXPECT_FALSE(view.nodeAt(inRow(450, 2))); // the merged box
    EXPECT_FALSE(view.nodeAt(inRow(480, 2))); // main's self time
    EXPECT_EQ(view.nodeAt(inRow(100, 3)), kX1);
    EXPECT_FALSE(view.nodeAt(inRow(200, 3)));
    EXPECT_EQ(view.nodeAt(inRow(499, 0)), kRoot);
    EXPECT_FALSE(view.nodeAt(inRow(10, 4)));

    const QString tip = view.toolTipOf(kX);
    EXPECT_TRUE(tip.contains(QStringLiteral("aten::conv2d (operator)"))) << tip.toStdString();
    EXPECT_TRUE(tip.contains(QStringLiteral("60.0 % of main [10]"))) << tip.toStdString();
    EXPECT_TRUE(tip.contains(QStringLiteral("Calls: 3"))) << tip.toStdString();
}

TEST_F(FlameGraphViewTest, ClickZoomsBreadcrumbsAndEscapeGoBack) {
    QSignalSpy focus(&view, &FlameGraphView::focusChanged);
    QTest::mouseClick(&view, Qt::LeftButton, {}, inRow(100, 2));
    EXPECT_EQ(view.focus(), kX);
    ASSERT_EQ(focus.count(), 1);
    EXPECT_EQ(focus.front().front().toUInt(), kX);
    EXPECT_EQ(*view.boxOf(kX), QRectF(0, 2 * rh, 500, rh));
    EXPECT_EQ(*view.boxOf(kX1), QRectF(0, 3 * rh, 250, rh));
    EXPECT_FALSE(view.boxOf(kY)); // outside the focus
    // The ancestors stay, full width.
    EXPECT_EQ(*view.boxOf(kMain), QRectF(0, rh, 500, rh));
    EXPECT_EQ(view.nodeAt(inRow(400, 0)), kRoot);
    EXPECT_FALSE(view.nodeAt(inRow(400, 3)));

    view.setFocus();
    QTest::keyClick(&view, Qt::Key_Escape);
    EXPECT_EQ(view.focus(), kMain);
    EXPECT_EQ(*view.boxOf(kY), QRectF(300, 2 * rh, 150, rh));
    QTest::mouseClick(&view, Qt::LeftButton, {}, inRow(100, 3)); // X1
    EXPECT_EQ(view.focus(), kX1);
    QTest::mouseClick(&view, Qt::LeftButton, {}, inRow(100, 0)); // the root box
    EXPECT_EQ(view.focus(), kRoot);
    QTest::keyClick(&view, Qt::Key_Escape); // at the root: nothing
    EXPECT_EQ(view.focus(), kRoot);
    // The merged box zooms into its parent.
    QTest::mouseClick(&view, Qt::LeftButton, {}, inRow(450, 2));
    EXPECT_EQ(view.focus(), kMain);
    // A new graph starts from its root.
    view.setFlameGraph(handGraph());
    EXPECT_EQ(view.focus(), kRoot);
}

TEST_F(FlameGraphViewTest, DoubleClickActivatesTheLongestCallOnce) {
    QSignalSpy spy(&view, &FlameGraphView::rangeActivated);
    QTest::mouseDClick(&view, Qt::LeftButton, {}, inRow(100, 2));
    ASSERT_EQ(spy.count(), 1);
    EXPECT_EQ(spy.front().at(0).value<EventRef>(), (EventRef{3, 7}));
    EXPECT_EQ(spy.front().at(1).value<TimeRange>(), (TimeRange{100, 700}));
    // A path with no recorded call (Y has none here) emits nothing.
    QTest::keyClick(&view, Qt::Key_Escape);
    QTest::mouseDClick(&view, Qt::LeftButton, {}, inRow(350, 2));
    EXPECT_EQ(spy.count(), 1);
}

TEST(FlameGraphView, KindsHaveTheirOwnHuesInBothThemes) {
    for (const TimelinePalette& pal : {TimelinePalette::light(), TimelinePalette::darkPalette()}) {
        const QString name = QStringLiteral("aten::mm");
        const QColor op = FlameGraphView::colorOf(FlameKind::Operator, name, pal);
        const QColor an = FlameGraphView::colorOf(FlameKind::Annotation, name, pal);
        const QColor py = FlameGraphView::colorOf(FlameKind::Python, name, pal);
        EXPECT_LT(op.hsvHue(), 45);
        EXPECT_GT(an.hsvHue(), 190);
        EXPECT_LT(an.hsvHue(), 235);
        EXPECT_GT(py.hsvHue(), 85);
        EXPECT_LT(py.hsvHue(), 125);
        EXPECT_EQ(FlameGraphView::colorOf(FlameKind::Thread, name, pal), pal.groupHeader);
        // Stable: one name, one colour.
        EXPECT_EQ(op, FlameGraphView::colorOf(FlameKind::Operator, name, pal));
    }
}

TEST(FlameGraphView, EmptyGraphHasNoBoxes) {
    FlameGraphView view;
    view.resize(300, 100);
    view.setFlameGraph(FlameGraph{});
    EXPECT_TRUE(view.boxes().empty());
    EXPECT_FALSE(view.nodeAt(QPoint(10, 5)));
    view.zoomTo(5); // not a node: ignored
    EXPECT_EQ(view.focus(), 0u);
    EXPECT_FALSE(view.grab().isNull()); // paints its sentence
}

} // namespace
