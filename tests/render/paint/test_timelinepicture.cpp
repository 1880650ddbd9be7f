// SPDX-License-Identifier: MIT
// Whole pictures from plain data: the bands traces get, each trace drawn from its own offset on
// the shared axis, the title and footer bands.
#include "model/lod/timelinelod.h"
#include "model/trace.h"
#include "render/geometry/lanelayout.h"
#include "render/geometry/timelinegeometry.h"
#include "render/paint/headerpainter.h"
#include "render/paint/rulerpainter.h"
#include "render/paint/timelinepicture.h"
#include "tests/widgets/timeline/synthtraces.h"

#include <QGuiApplication>
#include <QImage>
#include <QPainter>
#include <gtest/gtest.h>

using namespace strobe;

namespace {
struct Scene {
    std::shared_ptr<const Trace> trace{synth_traces::smallTrace()};
    std::shared_ptr<TimelineLod> lod = std::make_shared<TimelineLod>(trace);
    LaneLayout layout;
    TimelineGeometry geometry;
    Scene() {
        const std::atomic<bool> cancelled{false};
        lod->build(cancelled);
        layout.setTrace(trace.get());
        geometry.setTrace(trace.get(), lod);
    }
    PictureTrace picture(TimeNs offset, QString title = {}) {
        return PictureTrace{&layout, &geometry, offset, 0, std::move(title)};
    }
};

QImage paint(const PictureOptions& o, std::span<const PictureTrace> traces) {
    QImage image(o.size, QImage::Format_RGB32);
    QPainter p(&image);
    paintTimelinePicture(p, o, traces);
    return image;
}

std::uint32_t kernelLane(const Trace& t) {
    for (std::uint32_t i = 0; i < t.lanes().size(); ++i) {
        if (t.lane(i).kind() == LaneKind::Kernels)
            return i;
    }
    return ~0u;
}
} // namespace

TEST(TimelinePicture, BandsGetWhatTheyNeedAndTheLastOneTheRest) {
    Scene a, b;
    const int need = a.layout.contentHeight();
    const PictureTrace traces[] = {a.picture(0, QStringLiteral("a")),
                                   b.picture(0, QStringLiteral("b"))};
    EXPECT_EQ(pictureLanesHeight(traces), 2 * (kPictureTitleHeight + need));
    PictureOptions o;
    o.size = QSize(800, 1000);
    o.footer = QStringLiteral("footer");
    EXPECT_EQ(pictureLanesRoom(o), 1000 - kTimeRulerHeight - kPictureFooterHeight);
    const std::vector<int> heights = pictureBandHeights(o, traces);
    ASSERT_EQ(heights.size(), 2u);
    EXPECT_EQ(heights[0], kPictureTitleHeight + need);
    EXPECT_EQ(heights[1], pictureLanesRoom(o) - heights[0]);
    o.size = QSize(800, kTimeRulerHeight + kPictureFooterHeight + 50); // less than one needs
    EXPECT_EQ(pictureBandHeights(o, traces), (std::vector<int>{50, 0}));
}

TEST(TimelinePicture, StackedTracesDrawEachFromItsOwnOffset) {
    // The same trace twice, the second shifted by 1,000 ns: on the shared axis [0, 10,000) its
    // relu kernel [2000, 2500) lands 1,000 ns (100 px of 1,000) further left.
    Scene a, b;
    const PictureTrace traces[] = {a.picture(0, QStringLiteral("first")),
                                   b.picture(1'000, QStringLiteral("second"))};
    PictureOptions o;
    o.size = QSize(kLaneHeaderWidth + 1000, 800);
    o.window = {0, 10'000};
    o.font = QGuiApplication::font();
    o.footer = QStringLiteral("footer");
    const QImage image = paint(o, traces);
    const TimelinePalette& pal = o.palette;
    const QRgb relu = pal.eventColor(classifyKernel("vectorized_elementwise_kernel"),
                                     stableNameHash("vectorized_elementwise_kernel"))
                          .rgb();
    const LayoutRow* row = a.layout.findLaneRow(kernelLane(*a.trace), 1);
    ASSERT_NE(row, nullptr);
    const int first = kTimeRulerHeight + kPictureTitleHeight + row->y + 1;
    const int second = first + kPictureTitleHeight + a.layout.contentHeight();
    for (int x = 200; x < 250; ++x) {
        EXPECT_EQ(image.pixel(kLaneHeaderWidth + x, first), relu) << x;
        EXPECT_EQ(image.pixel(kLaneHeaderWidth + x - 100, second), relu) << x;
    }
    EXPECT_NE(image.pixel(kLaneHeaderWidth + 199, first), relu);
    EXPECT_NE(image.pixel(kLaneHeaderWidth + 250, first), relu);
    EXPECT_NE(image.pixel(kLaneHeaderWidth + 99, second), relu);
    EXPECT_NE(image.pixel(kLaneHeaderWidth + 150, second), relu);
    // The title bands and the footer are the ruler's colour, edge to edge.
    for (int y : {kTimeRulerHeight, second - row->y - 2 - kPictureTitleHeight + 1, 799})
        EXPECT_EQ(image.pixel(o.size.width() - 1, y), pal.groupHeader.rgb()) << y;
}

TEST(TimelinePicture, ShortRowsGetAProportionallySmallerFont) {
    Scene s;
    QFont base = QGuiApplication::font();
    base.setPointSizeF(12);
    EXPECT_DOUBLE_EQ(pictureFontForRows(base, s.layout).pointSizeF(), 12.0);
    s.layout.setRowHeight(9); // half the view's 18 px
    EXPECT_DOUBLE_EQ(pictureFontForRows(base, s.layout).pointSizeF(), 6.0);
    s.layout.setRowHeight(LaneLayout::kMinRowHeight);
    EXPECT_DOUBLE_EQ(pictureFontForRows(base, s.layout).pointSizeF(), 4.0);
}
