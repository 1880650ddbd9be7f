// SPDX-License-Identifier: MIT
// Painting into a QImage from plain data, no widget: the pixels of a zoomed-in kernel, the ruler's
// ticks, the header bands and the overlay's cursor land where the geometry puts them.
#include "model/trace.h"
#include "render/geometry/lanelayout.h"
#include "render/geometry/rulerticks.h"
#include "render/geometry/timelineframe.h"
#include "render/geometry/timelinegeometry.h"
#include "render/paint/headerpainter.h"
#include "render/paint/lanepainter.h"
#include "render/paint/overlaypainter.h"
#include "render/paint/paintcontext.h"
#include "render/paint/rulerpainter.h"
#include "tests/widgets/timeline/synthtraces.h"

#include <QGuiApplication>
#include <QImage>
#include <QPainter>
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

struct Scene {
    std::shared_ptr<const Trace> trace{synth_traces::smallTrace()};
    std::shared_ptr<TimelineLod> lod = std::make_shared<TimelineLod>(trace);
    LaneLayout layout;
    TimelineGeometry geometry;
    LanePainter painter;
    Scene() {
        const std::atomic<bool> cancelled{false};
        lod->build(cancelled);
        layout.setTrace(trace.get());
        geometry.setTrace(trace.get(), lod);
    }
    PaintContext context(TimeRange view, QSize size, double dpr,
                         const TimelinePalette& palette = TimelinePalette::light()) const {
        return makePaintContext(trace.get(), &layout, view, size, 0, dpr, 100'000, palette,
                                QGuiApplication::font());
    }
    // The lanes of `view` drawn into a `size` image at `dpr`, as the canvas draws them.
    QImage paint(TimeRange view, QSize size, double dpr,
                 const TimelinePalette& palette = TimelinePalette::light()) {
        QImage image(size * dpr, QImage::Format_RGB32);
        image.setDevicePixelRatio(dpr);
        const PaintContext ctx = context(view, size, dpr, palette);
        image.fill(ctx.palette.background);
        QPainter p(&image);
        const TimelineFrame frame(geometry, ctx);
        painter.paint(p, ctx, frame);
        return image;
    }
    const LayoutRow& row(std::uint32_t lane, std::uint16_t r) const {
        const LayoutRow* lr = layout.findLaneRow(lane, r);
        EXPECT_NE(lr, nullptr);
        return *lr;
    }
};

// A kernel's fill, from the palette alone (not through the painter's caches).
QRgb kernelColour(const TimelinePalette& palette, std::string_view name) {
    return palette.eventColor(classifyKernel(name), stableNameHash(name)).rgb();
}

QRgb rowBackground(const TimelinePalette& palette, const LayoutRow& r) {
    return ((r.y / LaneLayout::kRowHeight) % 2 ? palette.rowAlternate : palette.background).rgb();
}
} // namespace

TEST(LanePainter, ZoomedInKernelHoldsItsColourExactlyOnItsSpan) {
    Scene s;
    const std::uint32_t kernels = laneOfKind(*s.trace, LaneKind::Kernels);
    // [1500, 2600) over 1000 px: relu [2000, 2500) (row 1) spans x 454.55 .. 909.09, drawn on
    // the pixel grid from 455 to 909; gemm [1000, 3000) (row 0) covers the whole width.
    for (const TimelinePalette& pal : {TimelinePalette::light(), TimelinePalette::darkPalette()}) {
        const QImage image = s.paint({1'500, 2'600}, {1000, 400}, 1.0, pal);
        const LayoutRow& relu = s.row(kernels, 1);
        const int y = s.layout.viewY(relu, 0) + 1; // the bar's top line, above any label
        const QRgb want = kernelColour(pal, "vectorized_elementwise_kernel");
        for (int x = 455; x < 909; ++x)
            ASSERT_EQ(image.pixel(x, y), want) << "x " << x;
        EXPECT_EQ(image.pixel(454, y), rowBackground(pal, relu));
        EXPECT_EQ(image.pixel(909, y), rowBackground(pal, relu));
        const LayoutRow& gemm = s.row(kernels, 0);
        const QRgb gemmColour = kernelColour(pal, "ampere_sgemm_128x64_nn");
        for (int x : {0, 1, 500, 998, 999})
            EXPECT_EQ(image.pixel(x, s.layout.viewY(gemm, 0) + 1), gemmColour) << "x " << x;
        // The bar leaves a 1 px line of the row above and below it.
        EXPECT_EQ(image.pixel(600, s.layout.viewY(relu, 0)), rowBackground(pal, relu));
    }
}

TEST(LanePainter, KernelSpanSnapsToDevicePixelsAtRatioTwo) {
    Scene s;
    const std::uint32_t kernels = laneOfKind(*s.trace, LaneKind::Kernels);
    const TimelinePalette pal = TimelinePalette::light();
    const QImage image = s.paint({1'500, 2'600}, {1000, 400}, 2.0);
    ASSERT_EQ(image.width(), 2000);
    // 454.55 and 909.09 logical px snap to 454.5 and 909: device columns 909 .. 1817.
    const LayoutRow& relu = s.row(kernels, 1);
    const int y = 2 * (s.layout.viewY(relu, 0) + 1);
    const QRgb want = kernelColour(pal, "vectorized_elementwise_kernel");
    for (int x = 909; x < 1818; ++x)
        ASSERT_EQ(image.pixel(x, y), want) << "x " << x;
    EXPECT_EQ(image.pixel(908, y), rowBackground(pal, relu));
    EXPECT_EQ(image.pixel(1818, y), rowBackground(pal, relu));
}

TEST(LanePainter, RulerTicksAndHeaderBandsDrawWithoutAWidget) {
    Scene s;
    const TimelinePalette pal = TimelinePalette::light();
    const TimeRange view{0, 10'000};
    const QSize size(1000, kTimeRulerHeight);
    QImage ruler(size, QImage::Format_RGB32);
    {
        QPainter p(&ruler);
        paintTimeRuler(p, size, pal, QGuiApplication::font(), RulerContent{view, 0, {}, {}});
    }
    const RulerTicks ticks = computeTicks(view, 0, size.width(), 90);
    ASSERT_EQ(ticks.step, 1'000); // 90 px is 900 ns: 1 us steps
    ASSERT_EQ(ticks.ticks.size(), 10u);
    const int h = size.height();
    for (TimeNs t : ticks.ticks) {
        const int x = int(std::floor(double(t) * size.width() / 10'000.0));
        EXPECT_EQ(ruler.pixel(x, h - 6), pal.text.rgb()) << t;                  // major tick
        EXPECT_EQ(ruler.pixel(x + 50, h - 6 - 12), pal.groupHeader.rgb()) << t; // above labels
    }
    // Minor ticks every 200 ns: x 120 (t = 1200) holds one.
    EXPECT_EQ(ruler.pixel(120, h - 2), pal.minorTick.rgb());
    EXPECT_EQ(ruler.pixel(130, h - 2), pal.groupHeader.rgb());
    EXPECT_EQ(ruler.pixel(500, h - 1), pal.grid.rgb()); // the bottom line

    const QSize headerSize(kLaneHeaderWidth, 400);
    QImage header(headerSize, QImage::Format_RGB32);
    {
        QPainter p(&header);
        paintLaneHeader(p, headerSize, s.layout, 0, pal, QGuiApplication::font());
    }
    const LayoutRow& first = s.layout.rows().front();
    ASSERT_EQ(first.kind, LayoutRowKind::GroupHeader);
    EXPECT_EQ(header.pixel(kLaneHeaderWidth - 3, first.y + 1), pal.groupHeader.rgb());
    EXPECT_EQ(header.pixel(kLaneHeaderWidth - 1, first.y + 1), pal.grid.rgb());
    const LayoutRow& kernels = s.row(laneOfKind(*s.trace, LaneKind::Kernels), 0);
    EXPECT_EQ(header.pixel(kLaneHeaderWidth - 3, kernels.y + 1), rowBackground(pal, kernels));
}

TEST(LanePainter, OverlayDrawsTheCursorOverTheLanes) {
    Scene s;
    const TimeRange view{0, 10'000};
    QImage lanes = s.paint(view, {1000, 400}, 1.0);
    QImage withCursor = lanes.copy();
    {
        QPainter p(&withCursor);
        const PaintContext ctx = s.context(view, {1000, 400}, 1.0);
        const TimelineFrame frame(s.geometry, ctx);
        paintOverlay(p, ctx, frame, OverlayState{{}, {}, {}, TimeNs(2'000)});
    }
    // t = 2000 is x 200: that column changes from top to bottom, its neighbours do not.
    for (int y = 0; y < 400; y += 37) {
        EXPECT_NE(withCursor.pixel(200, y), lanes.pixel(200, y)) << y;
        EXPECT_EQ(withCursor.pixel(199, y), lanes.pixel(199, y)) << y;
        EXPECT_EQ(withCursor.pixel(201, y), lanes.pixel(201, y)) << y;
    }
}

TEST(TimelinePalette, ColoursThatWereDerivedInPlaceKeepTheirValues) {
    for (const TimelinePalette& pal : {TimelinePalette::light(), TimelinePalette::darkPalette()}) {
        EXPECT_EQ(pal.pinnedLabel.rgba(), pal.selection.darker(140).rgba()) << pal.dark;
        EXPECT_EQ(pal.rulerMeasure.rgba(), pal.measure.darker(120).rgba()) << pal.dark;
        EXPECT_EQ(pal.minorTick.rgba(), pal.grid.darker(130).rgba()) << pal.dark;
        EXPECT_EQ(pal.textOnBar.rgb(), qRgb(0x10, 0x10, 0x10)) << pal.dark;
    }
}
