// SPDX-License-Identifier: MIT
// TimelineCanvas::paintEvent as the real widget runs it: the canvas of a shown TimelineView,
// grabbed offscreen, holds a zoomed-in kernel's colour exactly on the span the view's mapping
// gives it, in the row the view's layout gives it, and the row background around it.
#include "model/trace.h"
#include "render/paint/timelinecolors.h"
#include "tests/widgets/timeline/synthtraces.h"
#include "widgets/timeline/timelineview.h"
#include "widgets/viewstate.h"

#include <QImage>
#include <QPixmap>
#include <QTest>
#include <gtest/gtest.h>

#include <cmath>

using namespace strobe;

namespace {
std::uint32_t laneOfKind(const Trace& t, LaneKind k) {
    for (std::uint32_t i = 0; i < t.lanes().size(); ++i) {
        if (t.lane(i).kind() == k)
            return i;
    }
    return ~0u;
}
} // namespace

TEST(TimelineCanvas, PaintEventDrawsAKernelOnItsSpanInItsColour) {
    ViewState state;
    TimelineView view(&state);
    state.setTrace(synth_traces::smallTrace());
    view.resize(1400, 700);
    view.waitForLevelOfDetail();
    view.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
    state.setVisibleRange({1'500, 2'600});
    QWidget* canvas = view.canvas();
    const QImage img = canvas->grab().toImage();
    ASSERT_EQ(img.width(), canvas->width() * int(img.devicePixelRatio()));
    ASSERT_EQ(img.devicePixelRatio(), 1.0) << "the offscreen platform paints at ratio 1";

    const Trace& t = *state.trace();
    const std::uint32_t kernels = laneOfKind(t, LaneKind::Kernels);
    // relu [2000, 2500) sits on row 1 (it overlaps gemm on row 0).
    const LayoutRow* relu = view.laneLayout().findLaneRow(kernels, 1);
    ASSERT_NE(relu, nullptr);
    const int y = view.laneLayout().viewY(*relu, view.scrollY()) + 1;
    const double x0 = view.mapping().toPx(2'000), x1 = view.mapping().toPx(2'500);
    ASSERT_GT(x1 - x0, 100.0);
    const TimelinePalette pal = TimelinePalette::forPalette(view.palette());
    const std::string_view name = "vectorized_elementwise_kernel";
    const QRgb want = pal.eventColor(classifyKernel(name), stableNameHash(name)).rgb();
    const QRgb background =
        ((relu->y / LaneLayout::kRowHeight) % 2 ? pal.rowAlternate : pal.background).rgb();
    ASSERT_NE(want, background);
    for (int x = int(std::ceil(x0)) + 1; x < int(std::floor(x1)) - 1; ++x)
        ASSERT_EQ(img.pixel(x, y), want) << "x " << x;
    EXPECT_EQ(img.pixel(int(std::floor(x0)) - 2, y), background);
    EXPECT_EQ(img.pixel(int(std::ceil(x1)) + 2, y), background);
}
