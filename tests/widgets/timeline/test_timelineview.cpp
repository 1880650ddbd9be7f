// SPDX-License-Identifier: MIT
#include "formats/open.h"
#include "model/lod/timelinelod.h"
#include "model/tracebuilder.h"
#include "tests/support/columncover.h"
#include "tests/widgets/timeline/synthtraces.h"
#include "widgets/timeline/timelineview.h"
#include "widgets/viewstate.h"
#include "widgets/workerpriority.h"

#include <QApplication>
#include <QSignalSpy>
#include <QTest>
#include <QThreadPool>
#include <QWheelEvent>
#include <gtest/gtest.h>

#include <QBuffer>
#include <QPainter>
#include <QSvgGenerator>
#include <algorithm>
#include <cmath>
#include <random>

using namespace strobe;

namespace {
struct Fixture {
    ViewState state;
    TimelineView view{&state};
    explicit Fixture(std::shared_ptr<const Trace> trace, QSize size = {1400, 700}) {
        state.setTrace(std::move(trace));
        view.resize(size);
        view.waitForLevelOfDetail(); // utilisation and row summaries are built on a worker
    }
    void show() {
        view.show();
        EXPECT_TRUE(QTest::qWaitForWindowExposed(&view));
    }
    QWidget* canvas() const { return view.canvas(); }
};

std::uint32_t laneOfKind(const Trace& t, LaneKind k) {
    for (std::uint32_t i = 0; i < t.lanes().size(); ++i) {
        if (t.lane(i).kind() == k)
            return i;
    }
    return ~0u;
}

// Centre of the row drawing (lane, row), in canvas coordinates.
int rowCentre(const TimelineView& v, std::uint32_t lane, std::uint16_t row) {
    const LayoutRow* r = v.laneLayout().findLaneRow(lane, row);
    EXPECT_NE(r, nullptr);
    return r ? v.laneLayout().viewY(*r, v.scrollY()) + r->height / 2 : -1;
}

void sendMouse(QWidget* w, QEvent::Type type, QPoint pos, Qt::MouseButtons buttons) {
    QMouseEvent e(type, QPointF(pos), w->mapToGlobal(QPointF(pos)), Qt::LeftButton, buttons,
                  Qt::NoModifier);
    QApplication::sendEvent(w, &e);
}

void sendWheel(QWidget* w, QPoint pos, QPoint angle, Qt::KeyboardModifiers mods = {}) {
    QWheelEvent e(QPointF(pos), w->mapToGlobal(QPointF(pos)), QPoint(), angle, Qt::NoButton, mods,
                  Qt::NoScrollPhase, false);
    QApplication::sendEvent(w, &e);
}

// Independent idle computation: sort all GPU work of a device by start and sweep.
std::vector<TimeRange> idleByHand(const Trace& t, std::uint32_t device, TimeNs threshold) {
    std::vector<std::pair<TimeNs, TimeNs>> iv;
    for (const Lane& l : t.lanes()) {
        const LaneKind k = l.kind();
        if (k != LaneKind::Kernels && k != LaneKind::Memcpy && k != LaneKind::Memset)
            continue;
        if (t.streams()[l.owner()].deviceId != device)
            continue;
        for (std::uint32_t i = 0; i < l.size(); ++i)
            iv.push_back({l.start(i), std::max(l.end(i), l.start(i) + 1)});
    }
    std::sort(iv.begin(), iv.end());
    std::vector<TimeRange> gaps;
    TimeNs reach = iv.empty() ? 0 : iv.front().first;
    for (auto [s, e] : iv) {
        if (s > reach && s - reach >= threshold)
            gaps.push_back({reach, s});
        reach = std::max(reach, e);
    }
    return gaps;
}
} // namespace

class TimelineViewTest : public ::testing::Test {};

TEST_F(TimelineViewTest, MapsTimeToPixelsAtSeveralZoomLevels) {
    Fixture f(synth_traces::smallTrace());
    const int w = f.view.canvasSize().width();
    ASSERT_GT(w, 500);
    f.state.setVisibleRange({0, 10'000});
    EXPECT_DOUBLE_EQ(f.view.mapping().toPx(5'000), w / 2.0);
    f.state.setVisibleRange({1'000, 2'000});
    EXPECT_DOUBLE_EQ(f.view.mapping().toPx(1'250), w / 4.0);
    EXPECT_DOUBLE_EQ(f.view.mapping().toPx(0), -double(w));
    // The drawn gemm kernel [1000, 3000) at [0, 10000): x from w/10 to 3w/10.
    f.state.setVisibleRange({0, 10'000});
    const std::uint32_t kernels = laneOfKind(*f.state.trace(), LaneKind::Kernels);
    const auto items = f.view.rowItems(kernels, 0);
    ASSERT_EQ(items.size(), 2u);
    EXPECT_DOUBLE_EQ(items[0].x0, w / 10.0);
    EXPECT_DOUBLE_EQ(items[0].x1, 3.0 * w / 10.0);
}

TEST_F(TimelineViewTest, HitTestsEventsAndLanes) {
    Fixture f(synth_traces::smallTrace());
    const Trace& t = *f.state.trace();
    f.state.setVisibleRange({0, 10'000});
    const auto m = f.view.mapping();
    const std::uint32_t kernels = laneOfKind(t, LaneKind::Kernels);
    const int y0 = rowCentre(f.view, kernels, 0), y1 = rowCentre(f.view, kernels, 1);
    EXPECT_EQ(f.view.laneAt(y0), int(kernels));
    EXPECT_EQ(f.view.laneAt(y1), int(kernels));
    EXPECT_EQ(f.view.laneAt(2), -1); // process header
    // gemm [1000, 3000) is lane index 0 (row 0); the overlapping relu [2000, 2500) index 1 (row 1)
    EXPECT_EQ(f.view.eventAt(QPoint(int(m.toPx(2'200)), y0)), (EventRef{kernels, 0}));
    EXPECT_EQ(f.view.eventAt(QPoint(int(m.toPx(2'200)), y1)), (EventRef{kernels, 1}));
    EXPECT_FALSE(f.view.eventAt(QPoint(int(m.toPx(4'000)), y0)).isValid()); // empty space
    EXPECT_FALSE(f.view.eventAt(QPoint(int(m.toPx(2'800)), y1)).isValid());
    const QString tip = f.view.toolTipAt(QPoint(int(m.toPx(2'200)), y0));
    EXPECT_TRUE(tip.contains(u"ampere_sgemm_128x64_nn"));
    EXPECT_TRUE(tip.contains(u"Grid: (80, 1, 1)"));
    EXPECT_TRUE(tip.contains(u"Registers per thread: 96"));
    EXPECT_TRUE(tip.contains(u"Duration: 2.000 \u00b5s"));
    const std::uint32_t memcpy = laneOfKind(t, LaneKind::Memcpy);
    const QString copyTip =
        f.view.toolTipAt(QPoint(int(m.toPx(4'000)), rowCentre(f.view, memcpy, 0)));
    EXPECT_TRUE(copyTip.contains(u"Host to device"));
    EXPECT_TRUE(copyTip.contains(u"2000.00 GB/s")); // 4 MB in 2 us
    const std::uint32_t api = laneOfKind(t, LaneKind::CudaApi);
    const QString apiTip = f.view.toolTipAt(QPoint(int(m.toPx(150)), rowCentre(f.view, api, 0)));
    EXPECT_TRUE(apiTip.startsWith(u"cudaLaunchKernel\n"));
    EXPECT_TRUE(apiTip.contains(u"Return value: 0"));
}

TEST_F(TimelineViewTest, FoldedItemsCountTheirEvents) {
    TraceBuilder b(QStringLiteral("dense"));
    KernelConfig cfg;
    cfg.shortName = b.intern("tiny");
    for (int i = 0; i < 1000; ++i)
        b.addKernel(1, 0, 1, 7, TimeNs(i) * 100, TimeNs(i) * 100 + 10, cfg, std::nullopt,
                    std::nullopt);
    b.addKernel(1, 0, 1, 7, 1'000'000, 1'000'010, cfg, std::nullopt, std::nullopt);
    Fixture f(std::shared_ptr<const Trace>(b.finish()));
    const std::uint32_t kernels = laneOfKind(*f.state.trace(), LaneKind::Kernels);
    const auto items = f.view.rowItems(kernels, 0);
    ASSERT_EQ(items.size(), 2u);
    EXPECT_TRUE(items[0].isFolded);
    EXPECT_EQ(items[0].count, 1000u);
    const QPoint p(int(items[0].x0), rowCentre(f.view, kernels, 0));
    const TimelineHit hit = f.view.hitTest(p);
    ASSERT_TRUE(hit.item.has_value());
    EXPECT_EQ(hit.item->count, 1000u);
    EXPECT_TRUE(hit.event.isValid());
    const QString tip = f.view.toolTipAt(p);
    EXPECT_TRUE(tip.startsWith(u"1,000 kernels\n")) << tip.toStdString();
    EXPECT_TRUE(tip.contains(u"Span: 99.91 \u00b5s")) << tip.toStdString();
}

TEST_F(TimelineViewTest, WheelZoomsAtTheCursorAndKeysPanAndUndo) {
    Fixture f(synth_traces::smallTrace());
    f.show();
    QWidget* c = f.canvas();
    const int w = c->width();
    f.state.setVisibleRange({0, 10'000});
    const double x = w / 4.0;
    const TimeNs anchor = f.view.mapping().toTime(x);
    sendWheel(c, QPoint(int(x), 50), QPoint(0, 120));
    const TimeRange z = f.state.visibleRange();
    EXPECT_NEAR(double(z.duration()), 8'000.0, 1.0);
    EXPECT_NEAR(f.view.mapping().toPx(anchor), x, 1.0); // the anchor stayed put
    // Ctrl+wheel zooms too; wheel back out.
    sendWheel(c, QPoint(int(x), 50), QPoint(0, -120), Qt::ControlModifier);
    EXPECT_NEAR(double(f.state.visibleRange().duration()), 10'000.0, 2.0);

    // Keyboard: W zooms in about the middle (no cursor time), D pans right by 15%.
    f.state.setVisibleRange({0, 10'000});
    f.state.setCursorTime(std::nullopt);
    QTest::keyClick(c, Qt::Key_W);
    EXPECT_NEAR(double(f.state.visibleRange().duration()), 7'000.0, 1.0);
    EXPECT_NEAR(double(f.state.visibleRange().start), 1'500.0, 1.0);
    const TimeRange beforePan = f.state.visibleRange();
    QTest::keyClick(c, Qt::Key_D);
    EXPECT_NEAR(double(f.state.visibleRange().start - beforePan.start), 0.15 * 7'000, 2.0);
    QTest::keyClick(c, Qt::Key_Left);
    EXPECT_NEAR(double(f.state.visibleRange().start), double(beforePan.start), 2.0);
    // Shift+wheel pans: one notch back is 10% of the width earlier.
    sendWheel(c, QPoint(10, 50), QPoint(0, 120), Qt::ShiftModifier);
    EXPECT_NEAR(double(f.state.visibleRange().start), double(beforePan.start) - 700.0, 2.0);
    // Backspace undoes the last recorded zoom (W), Home fits all.
    f.state.setVisibleRange({2'000, 3'000});
    QTest::keyClick(c, Qt::Key_Backspace);
    EXPECT_NE(f.state.visibleRange(), (TimeRange{2'000, 3'000}));
    QTest::keyClick(c, Qt::Key_Home);
    EXPECT_EQ(f.state.visibleRange(), f.state.trace()->timeRange());
}

TEST_F(TimelineViewTest, DragPansAndClickSelectsWithPartner) {
    Fixture f(synth_traces::smallTrace());
    f.show();
    QWidget* c = f.canvas();
    const Trace& t = *f.state.trace();
    f.state.setVisibleRange({2'000, 7'000});
    const double nsPerPx = f.view.mapping().nsPerPx();
    const int y = rowCentre(f.view, laneOfKind(t, LaneKind::Kernels), 0);
    sendMouse(c, QEvent::MouseButtonPress, QPoint(400, y), Qt::LeftButton);
    sendMouse(c, QEvent::MouseMove, QPoint(350, y), Qt::LeftButton);
    sendMouse(c, QEvent::MouseMove, QPoint(300, y), Qt::LeftButton);
    sendMouse(c, QEvent::MouseButtonRelease, QPoint(300, y), Qt::NoButton);
    EXPECT_NEAR(double(f.state.visibleRange().start), 2'000 + 100 * nsPerPx, 2.0);
    EXPECT_EQ(f.state.visibleRange().duration(), 5'000);
    EXPECT_FALSE(f.state.selection().isValid()); // a drag does not select
    EXPECT_TRUE(f.state.undoZoom());             // the whole drag is one undo step
    EXPECT_EQ(f.state.visibleRange(), (TimeRange{2'000, 7'000}));
    f.state.setVisibleRange({0, 10'000});

    QSignalSpy spy(&f.state, &ViewState::selectionChanged);
    const std::uint32_t kernels = laneOfKind(t, LaneKind::Kernels);
    const QPoint onGemm(int(f.view.mapping().toPx(1'500)), y);
    sendMouse(c, QEvent::MouseButtonPress, onGemm, Qt::LeftButton);
    sendMouse(c, QEvent::MouseButtonRelease, onGemm, Qt::NoButton);
    EXPECT_EQ(spy.count(), 1);
    EXPECT_EQ(f.state.selection(), (EventRef{kernels, 0}));
    const EventRef api = t.partnerOf(f.state.selection());
    ASSERT_TRUE(api.isValid());
    EXPECT_EQ(t.lane(api.lane).kind(), LaneKind::CudaApi);
    EXPECT_TRUE(f.view.eventRect(api).has_value());
    // Painting with a selection and its partner works offscreen: the selected kernel's and its
    // launch call's rects change, a row far from both (the memset lane) does not.
    const int memsetY = rowCentre(f.view, laneOfKind(t, LaneKind::Memset), 0);
    sendMouse(c, QEvent::MouseMove, QPoint(2, memsetY), Qt::NoButton); // no event there
    ASSERT_FALSE(f.view.hovered().isValid()) << "no hover outline in either picture";
    QImage selected(c->size(), QImage::Format_ARGB32_Premultiplied);
    c->render(&selected);
    const QRectF kernelRect = *f.view.eventRect(f.state.selection());
    const QRectF apiRect = *f.view.eventRect(api);
    f.state.setSelection(EventRef{});
    QImage plain(c->size(), QImage::Format_ARGB32_Premultiplied);
    c->render(&plain);
    auto differs = [&](const QRectF& r) {
        int n = 0;
        for (int yy = int(r.top()); yy < int(r.bottom()); ++yy)
            for (int xx = int(r.left()); xx < int(r.right()); ++xx)
                n += selected.pixel(xx, yy) != plain.pixel(xx, yy);
        return n;
    };
    // The outlines run just outside the rects' right edges (the arrow between them joins their
    // left edges).
    auto rightEdge = [](const QRectF& r) {
        return QRectF(r.right() - 1, r.top() + 2, 3, r.height() - 4);
    };
    EXPECT_GT(differs(rightEdge(kernelRect)), 0) << "the selection is drawn on the kernel";
    EXPECT_GT(differs(rightEdge(apiRect)), 0) << "and on its launch call";
    for (int xx = 0; xx < c->width(); xx += 7)
        EXPECT_EQ(selected.pixel(xx, memsetY), plain.pixel(xx, memsetY)) << xx;
}

TEST_F(TimelineViewTest, RulerDragMeasuresARangeAndZoomsToIt) {
    Fixture f(synth_traces::smallTrace());
    f.show();
    f.state.setVisibleRange({0, 10'000});
    QWidget* ruler = reinterpret_cast<QWidget*>(f.view.ruler());
    const auto m = f.view.mapping();
    sendMouse(ruler, QEvent::MouseButtonPress, QPoint(int(m.toPx(2'000)), 10), Qt::LeftButton);
    sendMouse(ruler, QEvent::MouseMove, QPoint(int(m.toPx(4'000)), 10), Qt::LeftButton);
    sendMouse(ruler, QEvent::MouseButtonRelease, QPoint(int(m.toPx(4'000)), 10), Qt::NoButton);
    ASSERT_TRUE(f.state.selectedRange().has_value());
    EXPECT_NEAR(double(f.state.selectedRange()->duration()), 2'000.0, 2 * m.nsPerPx() + 1);
    QTest::keyClick(f.canvas(), Qt::Key_Z);
    EXPECT_EQ(f.state.visibleRange(), *f.state.selectedRange());
}

TEST_F(TimelineViewTest, RevealKeepsZoomWhenItFitsAndSelects) {
    Fixture f(synth_traces::smallTrace());
    const Trace& t = *f.state.trace();
    const std::uint32_t memset = laneOfKind(t, LaneKind::Memset);
    f.state.setVisibleRange({0, 3'000});
    f.view.laneLayout().setAllExpanded(false);
    f.state.reveal(EventRef{memset, 0}); // [9000, 10000) fits in 3000 ns
    EXPECT_EQ(f.state.visibleRange(), (TimeRange{8'000, 11'000}));
    EXPECT_EQ(f.state.selection(), (EventRef{memset, 0}));
    EXPECT_NE(f.view.laneLayout().findLaneRow(memset, 0), nullptr); // expanded for it
    f.state.setVisibleRange({0, 100});
    f.state.reveal(EventRef{memset, 0});
    EXPECT_EQ(f.state.visibleRange(), (TimeRange{7'000, 12'000})); // ~5x its duration
}

TEST_F(TimelineViewTest, UtilisationStripMarksExactlyTheIdleStretches) {
    Fixture f(synth_traces::smallTrace());
    f.state.fitAll();
    const Trace& t = *f.state.trace();
    EXPECT_TRUE(f.view.idleMarks(0).empty()); // default threshold 100 us: none
    for (TimeNs threshold : {400, 500, 501, 2'900, 2'901}) {
        f.state.setIdleThresholdNs(threshold);
        EXPECT_EQ(f.view.idleMarks(0), idleByHand(t, 0, threshold)) << threshold;
    }
    f.state.setIdleThresholdNs(500);
    EXPECT_EQ(f.view.idleMarks(0).size(), 3u);
}

TEST_F(TimelineViewTest, RealFixtureIdleMarksMatchTheData) {
    auto r =
        loadTrace(QStringLiteral(STROBE_FIXTURES_DIR "/nsys/nsys2026.2-h100-2gpu-nvtx.sqlite"));
    ASSERT_TRUE(r.ok()) << r.error.toStdString();
    Fixture f(std::shared_ptr<const Trace>(std::move(r.trace)));
    const Trace& t = *f.state.trace();
    ASSERT_GE(t.gpus().size(), 2u);
    f.state.fitAll();
    std::size_t total = 0;
    for (TimeNs threshold : {TimeNs(10'000), TimeNs(100'000)}) {
        f.state.setIdleThresholdNs(threshold);
        for (const GpuInfo& g : t.gpus()) {
            const auto want = idleByHand(t, g.id, threshold);
            EXPECT_EQ(f.view.idleMarks(g.id), want) << g.id << " " << threshold;
            total += want.size();
        }
    }
    EXPECT_GT(total, 0u);
}

TEST_F(TimelineViewTest, EveryKernelOfARealFixtureIsDrawnWhenZoomedToIt) {
    auto r =
        loadTrace(QStringLiteral(STROBE_FIXTURES_DIR "/nsys/nsys2026.2-h100-2gpu-nvtx.sqlite"));
    ASSERT_TRUE(r.ok()) << r.error.toStdString();
    Fixture f(std::shared_ptr<const Trace>(std::move(r.trace)));
    const Trace& t = *f.state.trace();
    ASSERT_GT(t.kernelCount(), 100u);
    const QSize canvas = f.view.canvasSize();
    std::size_t drawn = 0;
    for (std::size_t i = 0; i < t.kernelCount(); ++i) {
        const EventRef ref = t.kernels()[i].self;
        f.state.reveal(ref);
        const Lane& lane = t.lane(ref.lane);
        const std::uint16_t row = lane.row(ref.index);
        const RowView rv = lane.rowView(row);
        // The kernel's position k in its row.
        std::uint32_t k = rv.firstStartingAtOrAfter(lane.start(ref.index));
        while (k < rv.size() && rv.laneIndex(k) != ref.index)
            ++k;
        ASSERT_LT(k, rv.size());
        const auto items = f.view.rowItems(ref.lane, row);
        const auto it = std::find_if(items.begin(), items.end(), [&](const DrawItem& d) {
            return d.first <= k && k < d.first + d.count;
        });
        ASSERT_NE(it, items.end()) << "kernel " << i;
        EXPECT_GE(it->x1 - it->x0, 1.0);
        EXPECT_LT(it->x0, canvas.width());
        EXPECT_GT(it->x1, 0.0);
        const auto rect = f.view.eventRect(ref);
        ASSERT_TRUE(rect.has_value());
        EXPECT_GE(rect->top(), 0.0);
        EXPECT_LE(rect->bottom(), canvas.height());
        EXPECT_EQ(f.view.eventAt(rect->center().toPoint()).lane, ref.lane)
            << rect->x() << "," << rect->y() << " " << rect->width() << "x" << rect->height()
            << " item " << it->x0 << ".." << it->x1 << " row " << row;
        if (::testing::Test::HasFailure())
            break;
        ++drawn;
    }
    EXPECT_EQ(drawn, t.kernelCount());
}

namespace {
// `streams` streams of `n` short kernels each, in bursts separated by idle stretches, around
// time zero.
std::shared_ptr<const Trace> denseKernelTrace(std::uint32_t seed, int n,
                                              std::uint32_t streams = 1) {
    TraceBuilder b(QStringLiteral("dense"));
    KernelConfig cfg[3];
    const char* names[] = {"sgemm_128x64", "vectorized_elementwise", "softmax_forward"};
    for (int i = 0; i < 3; ++i)
        cfg[i].shortName = b.intern(names[i]);
    GpuInfo g;
    g.id = 0;
    b.addGpu(g);
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> len(0, 300), gap(0, 200), pick(0, 2), burst(0, 400);
    for (std::uint32_t stream = 7; stream < 7 + streams; ++stream) {
        TimeNs t = -1'000'000;
        for (int i = 0; i < n; ++i) {
            if (burst(rng) == 0)
                t += 400'000; // an idle stretch: empty pixel columns
            const TimeNs s = t + gap(rng);
            const TimeNs e = s + len(rng); // zero-length ones included
            b.addKernel(1, 0, 1, stream, s, e, cfg[pick(rng)], std::nullopt, std::nullopt);
            t = std::max(e, s + 1);
        }
    }
    return std::shared_ptr<const Trace>(b.finish());
}

// Paints the view of [s, s + w) at `dpr` and checks that row 0 of `lane` differs from the
// background in exactly the device pixel columns that hold an event, on every device line of
// the row between its 1 px margins, and is the background on the margins.
void expectSummarisedRowExact(Fixture& f, std::uint32_t lane, TimeNs s, TimeNs w, double dpr) {
    const Trace& t = *f.state.trace();
    f.state.setVisibleRange({s, s + w}, false);
    ASSERT_TRUE(f.view.rowPaintsFromSummary(lane, 0));
    const QSize size = f.view.canvasSize();
    QImage image(size * dpr, QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(dpr);
    QPainter p(&image);
    f.view.paintCanvas(p, size, dpr);
    p.end();
    const LayoutRow* r = f.view.laneLayout().findLaneRow(lane, 0);
    ASSERT_NE(r, nullptr);
    const int top = int((f.view.laneLayout().viewY(*r, f.view.scrollY()) + 1) * dpr);
    const int bottom = int((f.view.laneLayout().viewY(*r, f.view.scrollY()) + r->height - 1) * dpr);
    ASSERT_LT(bottom, image.height()) << "the row is below the canvas";
    const RowView rv = t.lane(lane).rowView(0);
    const double nsPerColumn = f.view.mapping().nsPerPx() / dpr;
    const std::vector<bool> want = test::columnsHoldingEvents(rv, s, nsPerColumn, image.width());
    const auto firstEmpty = std::find(want.begin(), want.end(), false);
    ASSERT_NE(firstEmpty, want.end());
    const QRgb background = image.pixel(int(firstEmpty - want.begin()), (top + bottom) / 2);
    int covered = 0;
    for (int x = 0; x < image.width(); ++x) {
        for (int y = top; y < bottom; ++y)
            ASSERT_EQ(image.pixel(x, y) != background, bool(want[std::size_t(x)]))
                << "lane " << lane << " x " << x << " device line " << y - top;
        ASSERT_EQ(image.pixel(x, top - 1), background) << "margin above, x " << x;
        ASSERT_EQ(image.pixel(x, bottom), background) << "margin below, x " << x;
        covered += want[std::size_t(x)] ? 1 : 0;
    }
    EXPECT_GT(covered, 10);
}
} // namespace

TEST_F(TimelineViewTest, SummarisedRowMarksExactlyThePixelColumnsHoldingEvents) {
    Fixture f(denseKernelTrace(5, 60'000), {900, 300});
    const Trace& t = *f.state.trace();
    const std::uint32_t lane = laneOfKind(t, LaneKind::Kernels);
    ASSERT_EQ(t.lane(lane).rowCount(), 1);
    const TimeRange all = t.timeRange();
    std::mt19937 rng(17);
    for (int v = 0; v < 6; ++v) {
        // Wide views over a random part of the trace, some reaching past its ends.
        std::uniform_int_distribution<TimeNs> span(all.duration() / 4, all.duration() * 2);
        const TimeNs w = span(rng);
        std::uniform_int_distribution<TimeNs> start(all.start - w / 4, all.end - w / 2);
        const TimeNs s = start(rng);
        SCOPED_TRACE(v);
        expectSummarisedRowExact(f, lane, s, w, 1.0);
        // Folded columns still say what they stand for.
        const int y = rowCentre(f.view, lane, 0);
        for (int x = 0; x < f.view.canvasSize().width(); ++x) {
            const QString tip = f.view.toolTipAt(QPoint(x, y));
            if (!tip.isEmpty()) {
                EXPECT_TRUE(tip.contains(QStringLiteral("kernels"))) << tip.toStdString();
                break;
            }
        }
    }
}

TEST_F(TimelineViewTest, SummarisedRowsAtRatioTwoMarkEveryDevicePixelColumn) {
    // One device pixel per column at a ratio of 2 too: the line is tiled down the row, not
    // stretched from logical pixels.
    Fixture f(denseKernelTrace(8, 60'000), {700, 300});
    const std::uint32_t lane = laneOfKind(*f.state.trace(), LaneKind::Kernels);
    const TimeRange all = f.state.trace()->timeRange();
    expectSummarisedRowExact(f, lane, all.start, all.duration(), 2.0);
    expectSummarisedRowExact(f, lane, all.start + all.duration() / 3, all.duration() / 2, 2.0);
}

TEST_F(TimelineViewTest, ManySummarisedRowsEachGetTheirOwnColumns) {
    // Enough summarised rows that their columns are shared with another thread: each row must
    // still show its own stream's events.
    Fixture f(denseKernelTrace(9, 6'000, 24), {800, 1100});
    const Trace& t = *f.state.trace();
    const TimeRange all = t.timeRange();
    int rows = 0;
    for (std::uint32_t lane = 0; lane < t.lanes().size(); ++lane) {
        if (t.lane(lane).kind() != LaneKind::Kernels)
            continue;
        SCOPED_TRACE(lane);
        expectSummarisedRowExact(f, lane, all.start, all.duration(), 1.0);
        ++rows;
    }
    EXPECT_EQ(rows, 24);
}

TEST_F(TimelineViewTest, AFramePaintedWithHelpersEqualsOnePaintedAlone) {
    // The rows' jobs (summaries, folds) run on idle pool threads while the rows are painted in
    // order: every frame must be the one the GUI thread paints alone, pixel for pixel.
    Fixture f(denseKernelTrace(9, 6'000, 24), {800, 1100});
    const TimeRange all = f.state.trace()->timeRange();
    const QSize size = f.view.canvasSize();
    auto paint = [&](TimeRange view) {
        f.state.setVisibleRange(view, false); // another range: the rows are folded afresh
        QImage image(size, QImage::Format_ARGB32_Premultiplied);
        QPainter p(&image);
        f.view.paintCanvas(p, size, 1.0);
        return image;
    };
    const std::vector<TimeRange> views = {
        all,                                                              // every row summarised
        {all.start + all.duration() / 3, all.start + all.duration() / 2}, // rows folded
        {all.start, all.start + all.duration() / 40}};
    QThreadPool* pool = QThreadPool::globalInstance();
    const int threads = pool->maxThreadCount();
    pool->waitForDone();
    pool->setMaxThreadCount(std::max(2, threads));
    std::vector<QImage> shared;
    for (const TimeRange& v : views)
        shared.push_back(paint(v));
    pool->setMaxThreadCount(0); // no helper can start: the GUI thread does every job
    for (std::size_t k = 0; k < views.size(); ++k) {
        paint({views[k].start - 1, views[k].end}); // moves the view away, so the next folds
        EXPECT_TRUE(paint(views[k]) == shared[k]) << "view " << k;
    }
    pool->setMaxThreadCount(threads);
}

TEST_F(TimelineViewTest, ZoomedInDenseRowFoldsAsBefore) {
    Fixture f(denseKernelTrace(6, 20'000), {900, 300});
    const Trace& t = *f.state.trace();
    const std::uint32_t lane = laneOfKind(t, LaneKind::Kernels);
    const TimeNs s = t.lane(lane).start(100);
    f.state.setVisibleRange({s, s + 200'000}, false); // ~1,000 events over 800+ px: fold
    EXPECT_FALSE(f.view.rowPaintsFromSummary(lane, 0));
    f.state.fitAll();
    EXPECT_TRUE(f.view.rowPaintsFromSummary(lane, 0));
}

TEST_F(TimelineViewTest, ANewTraceDiscardsTheOldLevelOfDetail) {
    ViewState state;
    TimelineView view(&state);
    view.resize(1400, 700);
    state.setTrace(denseKernelTrace(7, 50'000));
    state.setTrace(synth_traces::smallTrace()); // the first build is stale at once
    view.waitForLevelOfDetail();
    EXPECT_TRUE(view.isLevelOfDetailReady());
    state.fitAll();
    state.setIdleThresholdNs(500);
    EXPECT_EQ(view.idleMarks(0), idleByHand(*state.trace(), 0, 500));
}

// A shown timeline holds background work while it paints a new trace's first frame; its next
// paint releases it (the hold's limit is set far beyond the test, so nothing else ends it). A
// hidden one paints nothing, so it holds nothing.
TEST_F(TimelineViewTest, ANewTraceHoldsBackgroundWorkUntilItsFirstFrameIsPainted) {
    Fixture f(synth_traces::smallTrace());
    f.view.setFirstFrameHold(std::chrono::minutes(1));
    f.state.setTrace(denseKernelTrace(3, 1000));
    EXPECT_FALSE(isBackgroundWorkHeld()) << "a hidden timeline held it";
    f.view.waitForLevelOfDetail();
    f.show();
    f.state.setTrace(synth_traces::smallTrace());
    EXPECT_TRUE(isBackgroundWorkHeld());
    f.canvas()->repaint();
    QCoreApplication::processEvents(); // the release comes after the whole window's paint
    EXPECT_FALSE(isBackgroundWorkHeld());
    f.view.waitForLevelOfDetail();
    EXPECT_TRUE(f.view.isLevelOfDetailReady());
}

// What TraceLoadJob hands over with a big trace: a level of detail built on its worker.
std::shared_ptr<TimelineLod> builtLod(std::shared_ptr<const Trace> trace, TimeNs idle = -1) {
    auto lod = std::make_shared<TimelineLod>(std::move(trace), idle);
    const std::atomic<bool> cancelled{false};
    lod->build(cancelled);
    return lod;
}

TEST_F(TimelineViewTest, ALevelOfDetailOfferedForTheNextTracePaintsItsFirstFrame) {
    ViewState state;
    TimelineView view(&state);
    view.resize(1400, 700);
    const std::shared_ptr<const Trace> dense = denseKernelTrace(8, 50'000);
    const std::shared_ptr<TimelineLod> lod = builtLod(dense, state.idleThresholdNs());
    view.offerLevelOfDetail(lod);
    state.setTrace(dense);
    // No build of its own: the first frame already reads the summaries.
    EXPECT_EQ(view.levelOfDetail(), lod.get());
    EXPECT_TRUE(view.isLevelOfDetailReady());
    const std::uint32_t lane = laneOfKind(*dense, LaneKind::Kernels);
    EXPECT_TRUE(view.rowPaintsFromSummary(lane, 0));
    state.setIdleThresholdNs(state.idleThresholdNs());
    EXPECT_EQ(view.idleMarks(0), idleByHand(*dense, 0, state.idleThresholdNs()));
}

TEST_F(TimelineViewTest, APartialPictureGetsNoLevelOfDetail) {
    // A sample of the GPU rows (issue 45) paints from its rows: no build takes the loader's
    // cores, and no utilisation strip shows a fraction of the GPU's busy time.
    ViewState state;
    TimelineView view(&state);
    view.resize(1400, 700);
    state.setTrace(std::shared_ptr<const Trace>(synth_traces::smallTrace(16)));
    EXPECT_EQ(view.levelOfDetail(), nullptr);
    EXPECT_TRUE(view.isLevelOfDetailReady());
    EXPECT_FALSE(view.grab().isNull());
    // The whole trace that follows gets one.
    state.setTrace(std::shared_ptr<const Trace>(synth_traces::smallTrace(1)));
    ASSERT_NE(view.levelOfDetail(), nullptr);
    view.waitForLevelOfDetail();
    EXPECT_TRUE(view.isLevelOfDetailReady());
    EXPECT_NE(view.levelOfDetail()->utilization(), nullptr);
}

TEST_F(TimelineViewTest, AnOfferedLevelOfDetailOfAnotherTraceIsNotUsed) {
    ViewState state;
    TimelineView view(&state);
    const std::shared_ptr<const Trace> dense = denseKernelTrace(9, 50'000);
    const std::shared_ptr<const Trace> other = denseKernelTrace(10, 50'000);
    const std::shared_ptr<TimelineLod> lod = builtLod(dense);
    view.offerLevelOfDetail(lod);
    state.setTrace(other); // not its trace: dropped
    EXPECT_NE(view.levelOfDetail(), lod.get());
    EXPECT_EQ(view.levelOfDetail()->trace(), other.get());
    state.setTrace(dense); // the offer went with the trace change before
    EXPECT_NE(view.levelOfDetail(), lod.get());
    // One still being built (or cancelled) is not taken either: the view builds its own.
    auto unbuilt = std::make_shared<TimelineLod>(other);
    view.offerLevelOfDetail(unbuilt);
    state.setTrace(other);
    EXPECT_NE(view.levelOfDetail(), unbuilt.get());
    view.waitForLevelOfDetail();
    EXPECT_TRUE(view.isLevelOfDetailReady());
}

TEST_F(TimelineViewTest, ProjectedRangesAreLabelledWithTheGroupedName) {
    // Two calls of aten::mm, each launching a 40 us kernel: on the GPU's projected row both read
    // "aten::mm" in full (the CPU-side rows keep the recorded names, ids included).
    TraceBuilder b(QStringLiteral("projected labels"));
    GpuInfo g;
    b.addGpu(g);
    std::uint32_t corr = 0;
    for (TimeNs t : {TimeNs(0), TimeNs(100'000)}) {
        ApiCallRecord a;
        a.correlationId = ++corr;
        b.addApiCall(100, 101, t + 1000, t + 2000, b.intern("cudaLaunchKernel_v7000"), a);
        KernelConfig c;
        c.shortName = b.intern("gemm");
        b.addKernel(100, 0, 1, 7, t + 5000, t + 45'000, c, corr, std::nullopt);
        NvtxRecord r;
        const QByteArray name = "aten::mm, op_id = " + QByteArray::number(corr);
        b.addNvtx(100, 101, kNoString, t, t + 50'000, b.intern(name.constData()), r, std::nullopt);
    }
    Fixture f(std::shared_ptr<const Trace>(b.finish()));
    f.view.setShowProjectedNvtx(true);
    ASSERT_EQ(f.view.projectedNvtx().size(), 1u);
    QBuffer svgText;
    QSvgGenerator svg;
    svg.setOutputDevice(&svgText);
    const QSize size = f.view.canvasSize();
    svg.setSize(size);
    {
        QPainter p(&svg);
        f.view.paintCanvas(p, size, 1.0);
    }
    const QString out = QString::fromUtf8(svgText.data());
    EXPECT_EQ(out.count(QStringLiteral(">aten::mm<")), 2) << out.toStdString();
    EXPECT_TRUE(out.contains(QStringLiteral("aten::mm, op_id = 1"))) << "the CPU-side label";
}

// Issue 44, item 13: a trace with no event the lanes draw (an export of only scheduler events,
// say) says in the timeline what it holds and why nothing is drawn, instead of an empty window.
TEST(TimelineView, ATraceWithNothingToDrawSaysWhatItHolds) {
    TraceBuilder b(QStringLiteral("sched-only"));
    GpuInfo gpu;
    gpu.id = 0;
    b.addGpu(gpu);
    for (TimeNs t : {100, 900}) {
        SyncRecord sync;
        sync.start = t;
        sync.end = t + 50;
        b.addSync(sync);
    }
    b.warn(QStringLiteral("unread-table"), 3, QStringLiteral("%1 rows of a table were not read"));
    Fixture f(std::shared_ptr<const Trace>(b.finish()));
    ASSERT_TRUE(f.view.hasNothingToDraw());
    const QString text = TimelineView::nothingToDrawText(*f.state.trace());
    EXPECT_EQ(text.toStdString(),
              "This trace holds 1 GPU and 2 synchronisation records but no kernels, memory "
              "copies, memsets, CUDA API calls, NVTX ranges, OS runtime calls, CPU operators or "
              "Python frames, so the timeline has nothing to draw. The reader noted 1 warning "
              "(Trace Information, Ctrl+I).");
    // It is painted: the canvas is no longer one colour.
    f.show();
    QImage img(f.canvas()->size(), QImage::Format_ARGB32_Premultiplied);
    {
        QPainter p(&img);
        f.view.paintCanvas(p, img.size(), 1.0);
    }
    QSet<QRgb> colours;
    for (int y = 0; y < img.height(); y += 2) {
        for (int x = 0; x < img.width(); x += 2)
            colours.insert(img.pixel(x, y));
    }
    EXPECT_GT(colours.size(), 2);

    // A trace with no events at all says so; one with events draws them and says nothing.
    EXPECT_EQ(TimelineView::nothingToDrawText(*TraceBuilder(QStringLiteral("empty")).finish())
                  .toStdString(),
              "This trace holds no events, so the timeline has nothing to draw.");
    Fixture drawn(std::shared_ptr<const Trace>(synth_traces::smallTrace()));
    EXPECT_FALSE(drawn.view.hasNothingToDraw());
}
