// SPDX-License-Identifier: MIT
// Pixels of the rows test_lanepainter.cpp leaves out, against expectations from the trace's own
// times and the palette: CUDA API and NVTX bars on their spans, the utilisation strip busy and
// idle by column, ruler labels at the computed ticks and a header row's label.
#include "model/rangename.h"
#include "model/trace.h"
#include "render/geometry/lanelayout.h"
#include "render/geometry/rulerticks.h"
#include "render/geometry/timelineframe.h"
#include "render/geometry/timelinegeometry.h"
#include "render/paint/headerpainter.h"
#include "render/paint/lanepainter.h"
#include "render/paint/paintcontext.h"
#include "render/paint/rulerpainter.h"
#include "tests/widgets/timeline/synthtraces.h"

#include <QFontMetrics>
#include <QGuiApplication>
#include <QImage>
#include <QPainter>
#include <gtest/gtest.h>

#include <cmath>
#include <optional>

using namespace strobe;

namespace {
std::uint32_t laneOfKind(const Trace& t, LaneKind k) {
    for (std::uint32_t i = 0; i < t.lanes().size(); ++i) {
        if (t.lane(i).kind() == k)
            return i;
    }
    return ~0u;
}

// smallTrace plus, on thread 100, an NVTX range carrying its own colour: [800, 900) "coloured".
std::unique_ptr<Trace> traceWithColouredRange() {
    TraceBuilder b(QStringLiteral("coloured"));
    b.setThreadName(100, 100, b.intern("main"));
    NvtxRecord plain;
    b.addNvtx(100, 100, 0, 0, 700, b.intern("step"), plain, std::nullopt);
    NvtxRecord coloured;
    coloured.color = 0x00ff8800u; // nsys leaves the alpha byte 0
    b.addNvtx(100, 100, 0, 800, 900, b.intern("coloured"), coloured, std::nullopt);
    return b.finish();
}

struct Scene {
    std::shared_ptr<const Trace> trace;
    std::shared_ptr<TimelineLod> lod;
    LaneLayout layout;
    TimelineGeometry geometry;
    LanePainter painter;
    explicit Scene(std::shared_ptr<const Trace> t = synth_traces::smallTrace())
        : trace(std::move(t))
        , lod(std::make_shared<TimelineLod>(trace)) {
        const std::atomic<bool> cancelled{false};
        lod->build(cancelled);
        layout.setTrace(trace.get());
        geometry.setTrace(trace.get(), lod);
    }
    // `under`: what the image holds before the paint (default: the palette's background).
    QImage paint(TimeRange view, QSize size,
                 const TimelinePalette& palette = TimelinePalette::light(),
                 std::optional<QRgb> under = std::nullopt) {
        QImage image(size, QImage::Format_RGB32);
        const PaintContext ctx = makePaintContext(trace.get(), &layout, view, size, 0, 1.0, 100'000,
                                                  palette, QGuiApplication::font());
        image.fill(under ? QColor::fromRgb(*under) : ctx.palette.background);
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
    int top(const LayoutRow& r) const { return layout.viewY(r, 0) + 1; } // a bar's top line
};

QRgb rowBackground(const TimelinePalette& palette, const LayoutRow& r) {
    return ((r.y / LaneLayout::kRowHeight) % 2 ? palette.rowAlternate : palette.background).rgb();
}

// Every column of [x0, x1) on line y holds `want`; x0 - 1 and x1 hold `outside`.
void expectSpan(const QImage& img, int y, int x0, int x1, QRgb want, QRgb outside,
                const char* what) {
    for (int x = x0; x < x1; ++x)
        ASSERT_EQ(img.pixel(x, y), want) << what << " x " << x;
    if (x0 > 0) {
        EXPECT_EQ(img.pixel(x0 - 1, y), outside) << what << " left of the span";
    }
    if (x1 < img.width()) {
        EXPECT_EQ(img.pixel(x1, y), outside) << what << " right of the span";
    }
}
} // namespace

TEST(LanePainterRows, CudaApiCallsHoldTheirColourOnTheirSpans) {
    Scene s;
    const std::uint32_t api = laneOfKind(*s.trace, LaneKind::CudaApi);
    ASSERT_NE(api, ~0u);
    // [0, 1000) over 1000 px: 1 ns per px; the calls are [100, 200), [300, 400), [500, 600).
    const TimelinePalette pal = TimelinePalette::light();
    const QImage img = s.paint({0, 1'000}, {1000, 400}, pal);
    const LayoutRow& r = s.row(api, 0);
    const std::string_view name = "cudaLaunchKernel_v7000";
    const QRgb want = pal.eventColor(classifyApiCall(name), stableNameHash(name)).rgb();
    EXPECT_NE(want, rowBackground(pal, r));
    expectSpan(img, s.top(r), 100, 200, want, rowBackground(pal, r), "call 1");
    expectSpan(img, s.top(r), 300, 400, want, rowBackground(pal, r), "call 2");
    expectSpan(img, s.top(r), 500, 600, want, rowBackground(pal, r), "call 3");
    EXPECT_EQ(img.pixel(800, s.top(r)), rowBackground(pal, r));
}

TEST(LanePainterRows, NvtxRangesNestInRowsWithTheirColours) {
    Scene s;
    const std::uint32_t nvtx = laneOfKind(*s.trace, LaneKind::Nvtx);
    ASSERT_NE(nvtx, ~0u);
    const TimelinePalette pal = TimelinePalette::light();
    const QImage img = s.paint({0, 1'000}, {1000, 400}, pal);
    // "step" [0, 700) on row 0, "forward" [50, 650) inside it on row 1; no colour of their own.
    const auto colour = [&](std::string_view n) {
        return pal.eventColor(ColorCategory::Nvtx, stableNameHash(n)).rgb();
    };
    const LayoutRow& outer = s.row(nvtx, 0);
    const LayoutRow& inner = s.row(nvtx, 1);
    expectSpan(img, s.top(outer), 0, 700, colour("step"), rowBackground(pal, outer), "step");
    expectSpan(img, s.top(inner), 50, 650, colour("forward"), rowBackground(pal, inner), "forward");

    // A range with its own colour is drawn in it, opaque, in either theme.
    Scene c(traceWithColouredRange());
    const std::uint32_t lane = laneOfKind(*c.trace, LaneKind::Nvtx);
    for (const TimelinePalette& p : {TimelinePalette::light(), TimelinePalette::darkPalette()}) {
        const QImage ci = c.paint({0, 1'000}, {1000, 200}, p);
        const LayoutRow& row = c.row(lane, 0);
        expectSpan(ci, c.top(row), 800, 900, qRgb(0xff, 0x88, 0x00), rowBackground(p, row),
                   "coloured");
    }
}

// Every call of one PyTorch operator is drawn in the operator's colour: the per-call ids that
// NVTX statistics group away do not give each call a colour of its own.
// 3,000 NVTX ranges of 10 ns, 5 ns apart, in runs of ten 300 ns apart; every run has one name,
// four names in turn, and every third run its own colour. At 30 ns per pixel each run folds into
// one item (a view of [0, 45000) over 1500 px shows 100: the row is coloured as one image line).
std::unique_ptr<Trace> busyNvtxTrace() {
    TraceBuilder b(QStringLiteral("busy"));
    b.setThreadName(100, 100, b.intern("main"));
    const StringId names[] = {b.intern("fwd"), b.intern("bwd"), b.intern("opt"), b.intern("io")};
    TimeNs t = 0;
    for (int run = 0; run < 300; ++run) {
        NvtxRecord r;
        if (run % 3 == 0)
            r.color = 0x00102030u + std::uint32_t(run) * 0x010203u;
        for (int i = 0; i < 10; ++i, t += 15)
            b.addNvtx(100, 100, 0, t, t + 10, names[run % 4], r, std::nullopt);
        t += 300;
    }
    return b.finish();
}

TEST(LanePainterRows, FoldedRunsOfABusyRowTakeTheirMiddleRangesColourWashed) {
    Scene s{std::shared_ptr<const Trace>(busyNvtxTrace())};
    const std::uint32_t lane = laneOfKind(*s.trace, LaneKind::Nvtx);
    ASSERT_NE(lane, ~0u);
    const TimeRange view{0, 30 * 1500};
    for (const TimelinePalette& pal : {TimelinePalette::light(), TimelinePalette::darkPalette()}) {
        const QImage img = s.paint(view, {1500, 400}, pal);
        const LayoutRow& r = s.row(lane, 0);
        const PaintContext ctx = makePaintContext(s.trace.get(), &s.layout, view, {1500, 400}, 0,
                                                  1.0, 100'000, pal, QGuiApplication::font());
        const auto& items = s.geometry.rowItems(ctx, lane, 0);
        ASSERT_GT(items.size(), LanePainter::kLineItems);
        int checked = 0;
        const RowView rv = s.trace->lane(lane).rowView(0);
        for (const DrawItem& it : items) {
            if (!it.isFolded || it.x1 - it.x0 < 3)
                continue;
            const std::uint32_t mid = rv.laneIndex(it.first + it.count / 2);
            const auto own0 = s.trace->nvtxColor(s.trace->lane(lane).payload(mid));
            const std::string_view name = s.trace->strings().view(s.trace->lane(lane).nameId(mid));
            const QColor own = own0 ? QColor::fromRgb(QRgb(*own0 | 0xff000000u))
                                    : pal.eventColor(ColorCategory::Nvtx,
                                                     stableNameHash(groupedRangeNameUtf8(name)));
            const QRgb want =
                qRgb((own.red() + pal.folded.red()) / 2, (own.green() + pal.folded.green()) / 2,
                     (own.blue() + pal.folded.blue()) / 2);
            ASSERT_EQ(img.pixel(int((it.x0 + it.x1) / 2), s.top(r)), want)
                << "item at " << it.x0 << (pal.dark ? " (dark)" : " (light)");
            ++checked;
        }
        EXPECT_GE(checked, 90);
    }
}

// A row drawn as one image line writes every pixel of its rectangle once: the line between the
// items is the row's background, and so are the 1 px margins above and below it.
TEST(LanePainterRows, ARowDrawnAsOneLineCoversItsWholeRectangle) {
    Scene s{std::shared_ptr<const Trace>(busyNvtxTrace())};
    const std::uint32_t lane = laneOfKind(*s.trace, LaneKind::Nvtx);
    ASSERT_NE(lane, ~0u);
    const TimeRange view{0, 30 * 1500};
    const QRgb unpainted = qRgb(1, 2, 3); // in no palette
    for (const TimelinePalette& pal : {TimelinePalette::light(), TimelinePalette::darkPalette()}) {
        const QImage img = s.paint(view, {1500, 400}, pal, unpainted);
        const LayoutRow& r = s.row(lane, 0);
        const PaintContext ctx = makePaintContext(s.trace.get(), &s.layout, view, {1500, 400}, 0,
                                                  1.0, 100'000, pal, QGuiApplication::font());
        ASSERT_GT(s.geometry.rowItems(ctx, lane, 0).size(), LanePainter::kLineItems);
        const int y0 = s.layout.viewY(r, 0);
        const QRgb background = rowBackground(pal, r);
        for (int x = 0; x < img.width(); ++x) {
            ASSERT_EQ(img.pixel(x, y0), background) << "top margin, x " << x;
            ASSERT_EQ(img.pixel(x, y0 + r.height - 1), background) << "bottom margin, x " << x;
            for (int y = y0 + 1; y < y0 + r.height - 1; ++y)
                ASSERT_NE(img.pixel(x, y), unpainted) << "x " << x << ", y " << y;
        }
        // Between two runs: the row's background (runs are 300 ns apart, 10 px at 30 ns a px).
        EXPECT_EQ(img.pixel(int(std::lround((15.0 * 10 + 150) / 30)), y0 + r.height / 2),
                  background);
    }
}

TEST(LanePainterRows, CallsOfOneOperatorShareItsColour) {
    TraceBuilder b(QStringLiteral("pytorch"));
    b.setThreadName(100, 100, b.intern("main"));
    const NvtxRecord r;
    b.addNvtx(100, 100, 0, 0, 300, b.intern("aten::mm, op_id = 314286"), r, std::nullopt);
    b.addNvtx(100, 100, 0, 350, 650, b.intern("aten::mm, seq = 7, op_id = 314290"), r,
              std::nullopt);
    b.addNvtx(100, 100, 0, 700, 1000, b.intern("aten::add, op_id = 314291"), r, std::nullopt);
    Scene s(b.finish());
    const std::uint32_t lane = laneOfKind(*s.trace, LaneKind::Nvtx);
    ASSERT_NE(lane, ~0u);
    const TimelinePalette pal = TimelinePalette::light();
    const QImage img = s.paint({0, 1'000}, {1000, 200}, pal);
    const auto colour = [&](std::string_view n) {
        return pal.eventColor(ColorCategory::Nvtx, stableNameHash(n)).rgb();
    };
    ASSERT_NE(colour("aten::mm"), colour("aten::add"));
    const LayoutRow& row = s.row(lane, 0);
    expectSpan(img, s.top(row), 0, 300, colour("aten::mm"), rowBackground(pal, row), "mm 1");
    expectSpan(img, s.top(row), 350, 650, colour("aten::mm"), rowBackground(pal, row), "mm 2");
    expectSpan(img, s.top(row), 700, 1000, colour("aten::add"), rowBackground(pal, row), "add");
}

TEST(LanePainterRows, UtilisationStripDrawsKernelsAboveAndCopiesBelow) {
    Scene s;
    const LayoutRow* util = nullptr;
    for (const LayoutRow& r : s.layout.rows())
        if (r.kind == LayoutRowKind::Utilization && r.deviceId == 0)
            util = &r;
    ASSERT_NE(util, nullptr);
    for (const TimelinePalette& pal : {TimelinePalette::light(), TimelinePalette::darkPalette()}) {
        // [0, 10000) over 1000 px: 10 ns per column. GPU 0 runs kernels in [1000, 3000) (two)
        // and [6000, 6100), a memcpy in [3500, 5500) and a memset in [9000, 10000).
        const QImage img = s.paint({0, 10'000}, {1000, 400}, pal);
        const auto [top, bottom] = utilizationHalves(util->height);
        ASSERT_GE(top.second, 2);
        ASSERT_GE(bottom.second, 2);
        const int y0 = s.layout.viewY(*util, 0);
        const int kernelY = y0 + top.first + top.second / 2;
        // Above the idle marks (the bottom 4 px of the row) so that only the strip shows.
        const int copyY = y0 + bottom.first;
        const QRgb kernel = pal.utilKernel.rgb(), copy = pal.utilCopy.rgb(),
                   idle = pal.utilIdle.rgb();
        ASSERT_NE(kernel, copy);
        ASSERT_NE(kernel, idle);
        ASSERT_NE(copy, idle);
        struct Span {
            int x0, x1;
            bool kernel, copy;
        };
        for (const Span& sp : {Span{0, 100, false, false}, Span{100, 300, true, false},
                               Span{300, 350, false, false}, Span{350, 550, false, true},
                               Span{550, 600, false, false}, Span{600, 610, true, false},
                               Span{610, 900, false, false}, Span{900, 1000, false, true}}) {
            for (int x = sp.x0; x < sp.x1; ++x) {
                ASSERT_EQ(img.pixel(x, kernelY), sp.kernel ? kernel : idle) << "x " << x;
                ASSERT_EQ(img.pixel(x, copyY), sp.copy ? copy : idle) << "x " << x;
            }
        }
    }
}

TEST(LanePainterRows, RulerLabelsSitAtTheComputedTicks) {
    const TimelinePalette pal = TimelinePalette::light();
    const TimeRange view{0, 10'000};
    const QSize size(1000, kTimeRulerHeight);
    QImage ruler(size, QImage::Format_RGB32);
    {
        QPainter p(&ruler);
        paintTimeRuler(p, size, pal, QGuiApplication::font(), RulerContent{view, 0, {}, {}});
    }
    const RulerTicks ticks = computeTicks(view, 0, size.width(), 90);
    ASSERT_EQ(ticks.ticks.size(), 10u);
    // The labels, written out by hand for 1 us steps: "0", "1 µs", ... "9 µs".
    QFont f = QGuiApplication::font();
    f.setPointSizeF(f.pointSizeF() * 0.85);
    const QFontMetrics fm(f);
    const int h = size.height(), base = h - 6;
    for (std::size_t i = 0; i < ticks.ticks.size(); ++i) {
        const TimeNs t = ticks.ticks[i];
        const QString label =
            i == 0 ? QStringLiteral("0") : QString::number(i) + QStringLiteral(" \u00b5s");
        ASSERT_EQ(formatTickLabel(t, ticks.step), label);
        // What the label alone looks like at x + 3 of its tick, over the ruler's background.
        const int x = int(std::floor(double(t) * size.width() / 10'000.0)) + 3;
        QImage want(size, QImage::Format_RGB32);
        want.fill(pal.groupHeader);
        {
            QPainter p(&want);
            p.setFont(f);
            p.setPen(pal.text);
            p.drawText(QPointF(x + 0.5, base), label);
        }
        // Compare the glyph rows above the baseline (the ticks live below it).
        int ink = 0;
        const int x1 = std::min(size.width(), x + fm.horizontalAdvance(label));
        for (int yy = std::max(0, base - fm.ascent()); yy < base; ++yy) {
            for (int xx = x; xx < x1; ++xx) {
                ASSERT_EQ(ruler.pixel(xx, yy), want.pixel(xx, yy))
                    << "label " << label.toStdString() << " at " << xx << "," << yy;
                ink += ruler.pixel(xx, yy) != pal.groupHeader.rgb();
            }
        }
        EXPECT_GT(ink, 0) << "label " << label.toStdString() << " drew nothing";
    }
}

TEST(LanePainterRows, AHeaderRowShowsItsLabel) {
    Scene s;
    const TimelinePalette pal = TimelinePalette::light();
    const QSize size(kLaneHeaderWidth, 400);
    QImage header(size, QImage::Format_RGB32);
    {
        QPainter p(&header);
        paintLaneHeader(p, size, s.layout, 0, pal, QGuiApplication::font());
    }
    // The kernels row of stream 7 is labelled with its kind (its group names the stream).
    const LayoutRow& r = s.row(laneOfKind(*s.trace, LaneKind::Kernels), 0);
    ASSERT_EQ(r.label, s.trace->laneKindLabel(laneOfKind(*s.trace, LaneKind::Kernels)));
    ASSERT_FALSE(r.label.isEmpty());
    // The row drawn with nothing but its label, where the painter's rule puts it.
    const QFont font = laneFont(QGuiApplication::font());
    const int x = 4 + r.indent * 12;
    const QRect rect(x, r.y, size.width() - x - 4, r.height);
    QImage want(size, QImage::Format_RGB32);
    want.fill(rowBackground(pal, r));
    {
        QPainter p(&want);
        p.setFont(font);
        p.setPen(pal.text);
        p.drawText(rect, Qt::AlignVCenter | Qt::AlignLeft,
                   QFontMetrics(font).elidedText(r.label, Qt::ElideMiddle, rect.width()));
    }
    int ink = 0;
    for (int yy = r.y; yy < r.y + r.height; ++yy) {
        for (int xx = 0; xx < size.width() - 1; ++xx) { // the last column is the grid line
            ASSERT_EQ(header.pixel(xx, yy), want.pixel(xx, yy)) << xx << "," << yy;
            ink += header.pixel(xx, yy) != rowBackground(pal, r);
        }
    }
    EXPECT_GT(ink, 20) << "the label's glyphs";
}

TEST(LanePainterRows, HeaderLabelsKeptBetweenPaintsDrawTheSameColumn) {
    // The lane header widget keeps its names shaped (HeaderLabels): every paint, first or
    // later, at every width (names whole and cut in the middle), bold group names included,
    // must be the column drawn without it, pixel for pixel.
    Scene s;
    const TimelinePalette pal = TimelinePalette::light();
    HeaderLabels labels;
    for (int width : {kLaneHeaderWidth, 150, 90, 60}) {
        const QSize size(width, 400);
        auto paint = [&](HeaderLabels* kept) {
            QImage image(size, QImage::Format_RGB32);
            QPainter p(&image);
            paintLaneHeader(p, size, s.layout, 0, pal, QGuiApplication::font(), kept);
            return image;
        };
        const QImage want = paint(nullptr);
        EXPECT_TRUE(paint(&labels) == want) << "first paint at width " << width;
        EXPECT_TRUE(paint(&labels) == want) << "kept labels at width " << width;
    }
    EXPECT_GT(labels.size(), 8u);
}
