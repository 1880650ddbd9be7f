// SPDX-License-Identifier: MIT
// The lane painter only reads a TimelineFrame: one frame painted twice (by one painter, then by a
// fresh one) gives the same pixels, and what the painter draws is the frame that the geometry
// computed without any painter: one background per row at the frame's rows, one rectangle per
// draw item at the item's snapped span (an SVG keeps every rectangle, so they can be read back).
#include "model/trace.h"
#include "model/tracebuilder.h"
#include "render/geometry/lanelayout.h"
#include "render/geometry/timelineframe.h"
#include "render/geometry/timelinegeometry.h"
#include "render/paint/lanepainter.h"
#include "render/paint/paintcontext.h"
#include "tests/widgets/timeline/synthtraces.h"

#include <QBuffer>
#include <QGuiApplication>
#include <QImage>
#include <QPainter>
#include <QRegularExpression>
#include <QSvgGenerator>
#include <QXmlStreamReader>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

using namespace strobe;

namespace {

// Two streams of 3,000 short kernels in bursts: a middle zoom folds hundreds of runs per row
// (drawn as one image line), the whole range is summarised.
std::unique_ptr<Trace> burstyKernels() {
    TraceBuilder b(QStringLiteral("bursts"));
    KernelConfig a, c;
    a.shortName = b.intern("gemm");
    c.shortName = b.intern("elementwise");
    for (std::uint32_t stream = 1; stream <= 2; ++stream) {
        TimeNs t = stream * 11;
        for (int i = 0; i < 3000; ++i) {
            const TimeNs d = 10 + TimeNs((i * 31 + stream) % 150);
            b.addKernel(1, 0, stream, 7, t, t + d, i % 3 ? a : c, std::nullopt, std::nullopt);
            t += d + (i % 40 == 0 ? 2'000 : TimeNs((i * 17) % 60));
        }
    }
    return b.finish();
}

struct Scene {
    std::shared_ptr<const Trace> trace;
    std::shared_ptr<TimelineLod> lod;
    LaneLayout layout;
    TimelineGeometry geometry;
    explicit Scene(std::shared_ptr<const Trace> t)
        : trace(std::move(t)) {
        lod = std::make_shared<TimelineLod>(trace);
        const std::atomic<bool> cancelled{false};
        lod->build(cancelled);
        layout.setTrace(trace.get());
        geometry.setTrace(trace.get(), lod);
    }
    PaintContext context(TimeRange view, QSize size, double dpr) const {
        return makePaintContext(trace.get(), &layout, view, size, 0, dpr, 500,
                                TimelinePalette::light(), QGuiApplication::font());
    }
};

QImage paintFrame(LanePainter& painter, const PaintContext& ctx, const TimelineFrame& frame,
                  QRgb under) {
    QImage image(QSize(ctx.width, ctx.height) * ctx.dpr, QImage::Format_RGB32);
    image.setDevicePixelRatio(ctx.dpr);
    image.fill(under);
    QPainter p(&image);
    painter.paint(p, ctx, frame);
    return image;
}

int distinctColours(const QImage& image) {
    std::set<QRgb> seen;
    for (int y = 0; y < image.height(); y += 3)
        for (int x = 0; x < image.width(); x += 3)
            seen.insert(image.pixel(x, y));
    return int(seen.size());
}

} // namespace

TEST(FramePaint, TheSameFramePaintedTwiceGivesTheSamePixels) {
    Scene bursts(burstyKernels());
    Scene small(synth_traces::smallTrace());
    const TimeRange all = bursts.trace->timeRange();
    const TimeRange middle{all.start + all.duration() / 3,
                           all.start + all.duration() / 3 + all.duration() / 8};
    struct Case {
        Scene* scene;
        TimeRange view;
        double dpr;
        const char* what;
    };
    for (const Case& c :
         {Case{&bursts, all, 1.0, "summarised"}, Case{&bursts, middle, 1.0, "folded into lines"},
          Case{&bursts, middle, 2.0, "folded at ratio 2"},
          Case{&small, {0, 10'000}, 1.0, "bars and labels"}}) {
        const PaintContext ctx = c.scene->context(c.view, {1200, 300}, c.dpr);
        const TimelineFrame frame(c.scene->geometry, ctx);
        LanePainter painter;
        const QImage first = paintFrame(painter, ctx, frame, qRgb(1, 2, 3));
        // Over another picture, by the same painter and by a fresh one: every pixel is the frame's.
        const QImage again = paintFrame(painter, ctx, frame, qRgb(200, 10, 10));
        LanePainter fresh;
        const QImage other = paintFrame(fresh, ctx, frame, qRgb(10, 200, 10));
        EXPECT_TRUE(again == first) << c.what;
        EXPECT_TRUE(other == first) << c.what;
        EXPECT_GT(distinctColours(first), 4) << c.what << ": rows were drawn";
    }
}

TEST(FramePaint, ThePainterDrawsTheRowsAndItemRectsOfTheFrame) {
    Scene s(burstyKernels());
    const TimeRange all = s.trace->timeRange();
    const TimeRange middle{all.start + all.duration() / 3,
                           all.start + all.duration() / 3 + all.duration() / 8};
    const int width = 1500, height = 400;
    PaintContext ctx = s.context(middle, {width, height}, 1.0);
    ctx.oneRectPerItem = true;
    TimelineFrame::Options o;
    o.summaries = false;
    const TimelineFrame frame(s.geometry, ctx, o);

    QBuffer svgBytes;
    ASSERT_TRUE(svgBytes.open(QIODevice::WriteOnly));
    {
        QSvgGenerator svg;
        svg.setOutputDevice(&svgBytes);
        svg.setSize({width, height});
        svg.setViewBox(QRect(0, 0, width, height));
        QPainter p(&svg);
        LanePainter painter;
        painter.paint(p, ctx, frame);
    }
    // Every rectangle drawn without a translation: (y, height) -> (x, width), in drawing order.
    std::map<std::pair<double, double>, std::vector<std::pair<double, double>>> rects;
    QXmlStreamReader xml(svgBytes.data());
    const QRegularExpression matrix(QStringLiteral(R"(matrix\(1,0,0,1,([-\d.]+),([-\d.]+)\))"));
    std::vector<bool> identity{true};
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement() && xml.name() == u"g") {
            const auto m = matrix.match(xml.attributes().value(QStringLiteral("transform")));
            identity.push_back(m.hasMatch()
                                   ? m.captured(1).toDouble() == 0 && m.captured(2).toDouble() == 0
                                   : identity.back());
        } else if (xml.isEndElement() && xml.name() == u"g") {
            identity.pop_back();
        } else if (xml.isStartElement() && xml.name() == u"rect" && identity.back()) {
            const auto a = xml.attributes();
            rects[{a.value(QStringLiteral("y")).toDouble(),
                   a.value(QStringLiteral("height")).toDouble()}]
                .emplace_back(a.value(QStringLiteral("x")).toDouble(),
                              a.value(QStringLiteral("width")).toDouble());
        }
    }
    ASSERT_FALSE(xml.hasError()) << xml.errorString().toStdString();

    // Row counts: the full-width backgrounds drawn are exactly the frame's rows, (y, height)
    // (utilisation strips draw theirs in parts: left out).
    std::vector<std::pair<int, int>> strips;
    for (const FrameRow& r : frame.scrolledRows())
        if (r.layout->kind == LayoutRowKind::Utilization)
            strips.emplace_back(r.y, r.y + r.layout->height);
    std::set<std::pair<int, int>> backgrounds, frameRows;
    for (const auto& [yh, xs] : rects) {
        const int y = int(yh.first);
        const bool inStrip = std::any_of(strips.begin(), strips.end(),
                                         [y](auto s) { return y >= s.first && y < s.second; });
        for (const auto& [x, w] : xs)
            if (x == 0 && w == width && !inStrip)
                backgrounds.emplace(y, int(yh.second));
    }
    ASSERT_FALSE(strips.empty());
    std::size_t laneRows = 0, items = 0, folded = 0;
    for (const FrameRow& r : frame.scrolledRows()) {
        if (r.layout->kind == LayoutRowKind::Utilization)
            continue;
        frameRows.emplace(r.y, r.layout->height);
        if (r.layout->kind != LayoutRowKind::LaneRow)
            continue;
        ++laneRows;
        // Item rects: each draw item of the frame, snapped to the pixel grid, 1 px at least.
        std::vector<std::pair<double, double>> want;
        for (const DrawItem& it : *frame.await(r).items) {
            const double x0 = ctx.snap(it.x0), x1 = std::max(ctx.snap(it.x1), x0 + 1.0);
            want.emplace_back(x0, x1 - x0);
            folded += it.isFolded;
        }
        items += want.size();
        const auto got = rects[{double(r.y + 1), double(r.layout->height - 2)}];
        ASSERT_EQ(got.size(), want.size()) << "row at y " << r.y;
        for (std::size_t k = 0; k < want.size(); ++k) {
            ASSERT_EQ(got[k].first, want[k].first) << "row at y " << r.y << ", item " << k;
            ASSERT_EQ(got[k].second, want[k].second) << "row at y " << r.y << ", item " << k;
        }
    }
    if (frame.rowsBottom() < height) // and the background below the rows
        frameRows.emplace(frame.rowsBottom(), height - frame.rowsBottom());
    EXPECT_EQ(backgrounds, frameRows);
    EXPECT_GE(laneRows, 2u);
    EXPECT_GT(items, 2 * LanePainter::kLineItems) << "rows a PNG would draw as lines";
    EXPECT_GT(folded, 50u);
}
