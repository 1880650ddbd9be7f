// SPDX-License-Identifier: MIT
// The row geometry cache without any window: spans and hits are checked against x positions
// computed by hand from the view and the width, idle marks against an independent sweep.
#include "formats/open.h"
#include "model/analysis/nvtxprojection.h"
#include "model/trace.h"
#include "model/tracebuilder.h"
#include "render/geometry/lanelayout.h"
#include "render/geometry/timelinegeometry.h"
#include "tests/widgets/timeline/synthtraces.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <thread>

using namespace strobe;

namespace {
std::uint32_t laneOfKind(const Trace& t, LaneKind k) {
    for (std::uint32_t i = 0; i < t.lanes().size(); ++i) {
        if (t.lane(i).kind() == k)
            return i;
    }
    return ~0u;
}

// A trace with its layout, its level of detail (built here, synchronously) and its geometry.
struct Scene {
    std::shared_ptr<const Trace> trace;
    std::shared_ptr<TimelineLod> lod;
    LaneLayout layout;
    TimelineGeometry geometry;
    explicit Scene(std::shared_ptr<const Trace> t, bool buildLod = true, TimeNs lodIdle = -1)
        : trace(std::move(t)) {
        layout.setTrace(trace.get());
        if (buildLod) {
            lod = std::make_shared<TimelineLod>(trace, lodIdle);
            const std::atomic<bool> cancelled{false};
            lod->build(cancelled);
        }
        geometry.setTrace(trace.get(), lod);
    }
    ViewFrame frame(TimeRange view, int width, TimeNs idleThreshold = 100'000,
                    double dpr = 1.0) const {
        return ViewFrame::make(&layout, view, width, 600, 0, dpr, idleThreshold);
    }
    // Canvas y of the middle of the row drawing (lane, row).
    int rowCentre(std::uint32_t lane, std::uint16_t row) const {
        const LayoutRow* r = layout.findLaneRow(lane, row);
        EXPECT_NE(r, nullptr);
        return r ? layout.viewY(*r, 0) + r->height / 2 : -1;
    }
};

// x of time t when `view` is drawn `width` px wide, by hand.
double xOf(TimeNs t, TimeRange view, int width) {
    return double(t - view.start) * double(width) / double(view.end - view.start);
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

TEST(TimelineGeometry, EventRectsAreTheMappedSpansAtSeveralZooms) {
    Scene s(synth_traces::smallTrace());
    const Trace& t = *s.trace;
    const std::uint32_t kernels = laneOfKind(t, LaneKind::Kernels);
    const std::uint32_t memset = laneOfKind(t, LaneKind::Memset);
    // gemm [1000, 3000) is kernel lane index 0 (row 0), relu [2000, 2500) index 1 (row 1).
    struct Case {
        TimeRange view;
        int width;
    };
    for (const Case c : {Case{{0, 10'000}, 1000}, Case{{1'500, 2'600}, 1000},
                         Case{{-5'000, 15'000}, 733}, Case{{2'100, 2'101}, 640}}) {
        const ViewFrame f = s.frame(c.view, c.width);
        for (const EventRef ref :
             {EventRef{kernels, 0}, EventRef{kernels, 1}, EventRef{memset, 0}}) {
            const Lane& l = t.lane(ref.lane);
            const auto rect = s.geometry.eventRect(f, ref);
            ASSERT_TRUE(rect.has_value());
            const double x0 = xOf(l.start(ref.index), c.view, c.width);
            const double x1 = std::max(x0 + 1.0, xOf(l.end(ref.index), c.view, c.width));
            EXPECT_NEAR(rect->left(), x0, 1e-9) << c.view.start << " w " << c.width;
            EXPECT_NEAR(rect->right(), x1, 1e-9) << c.view.start << " w " << c.width;
            const LayoutRow* row = s.layout.findLaneRow(ref.lane, l.row(ref.index));
            ASSERT_NE(row, nullptr);
            EXPECT_EQ(rect->top(), s.layout.viewY(*row, 0));
            EXPECT_EQ(rect->height(), row->height);
        }
    }
    // Scrolled down by 40 px, every rect moves up by 40.
    ViewFrame scrolled = s.frame({0, 10'000}, 1000);
    scrolled.scrollY = 40;
    EXPECT_EQ(s.geometry.eventRect(scrolled, {kernels, 0})->top(),
              s.geometry.eventRect(s.frame({0, 10'000}, 1000), {kernels, 0})->top() - 40);
    // Not laid out, or not an event: no rect.
    s.layout.setAllExpanded(false);
    EXPECT_FALSE(s.geometry.eventRect(s.frame({0, 10'000}, 1000), {kernels, 0}).has_value());
    s.layout.setAllExpanded(true);
    EXPECT_FALSE(s.geometry.eventRect(s.frame({0, 10'000}, 1000), {kernels, 99}).has_value());
    EXPECT_FALSE(s.geometry.eventRect(s.frame({0, 10'000}, 1000), {}).has_value());
}

TEST(TimelineGeometry, HitTestFindsExactlyTheDrawnPixelColumns) {
    Scene s(synth_traces::smallTrace());
    const Trace& t = *s.trace;
    const std::uint32_t kernels = laneOfKind(t, LaneKind::Kernels);
    // [0, 10000) over 1000 px: 10 ns per px. gemm [1000, 3000) covers columns 100..299, the
    // kernel [6000, 6100) (index 2, row 0) columns 600..609, relu (row 1) columns 200..249.
    const ViewFrame f = s.frame({0, 10'000}, 1000);
    const int y0 = s.rowCentre(kernels, 0), y1 = s.rowCentre(kernels, 1);
    auto at = [&](int x, int y) { return s.geometry.hitTest(f, QPoint(x, y)).event; };
    EXPECT_FALSE(at(99, y0).isValid());
    EXPECT_EQ(at(100, y0), (EventRef{kernels, 0}));
    EXPECT_EQ(at(299, y0), (EventRef{kernels, 0}));
    EXPECT_FALSE(at(300, y0).isValid());
    EXPECT_EQ(at(600, y0), (EventRef{kernels, 2}));
    EXPECT_EQ(at(609, y0), (EventRef{kernels, 2}));
    EXPECT_FALSE(at(610, y0).isValid());
    EXPECT_FALSE(at(199, y1).isValid());
    EXPECT_EQ(at(200, y1), (EventRef{kernels, 1}));
    EXPECT_EQ(at(249, y1), (EventRef{kernels, 1}));
    EXPECT_FALSE(at(250, y1).isValid());
    const TimelineHit hit = s.geometry.hitTest(f, QPoint(150, y0));
    ASSERT_NE(hit.row, nullptr);
    EXPECT_EQ(hit.row->lane, kernels);
    ASSERT_TRUE(hit.item.has_value());
    EXPECT_DOUBLE_EQ(hit.item->x0, 100.0);
    EXPECT_DOUBLE_EQ(hit.item->x1, 300.0);
    // A group header row has no events.
    const TimelineHit header = s.geometry.hitTest(f, QPoint(150, 2));
    ASSERT_NE(header.row, nullptr);
    EXPECT_EQ(header.row->kind, LayoutRowKind::GroupHeader);
    EXPECT_FALSE(header.item.has_value());
    // Zoomed in to [2000, 2100) over 1000 px: the relu bar fills the whole width.
    EXPECT_EQ(s.geometry.hitTest(s.frame({2'000, 2'100}, 1000), QPoint(999, y1)).event,
              (EventRef{kernels, 1}));
}

TEST(TimelineGeometry, RowItemsFollowTheFrameAndFoldedHitsFindTheNearestEvent) {
    TraceBuilder b(QStringLiteral("dense"));
    KernelConfig cfg;
    cfg.shortName = b.intern("tiny");
    for (int i = 0; i < 1000; ++i) // [100 i, 100 i + 10)
        b.addKernel(1, 0, 1, 7, TimeNs(i) * 100, TimeNs(i) * 100 + 10, cfg, std::nullopt,
                    std::nullopt);
    Scene s(std::shared_ptr<const Trace>(b.finish()));
    const std::uint32_t lane = laneOfKind(*s.trace, LaneKind::Kernels);
    // 1,000 ns per px: everything folds into one run, from x 0 to 99.91 at least 1 px wide.
    const ViewFrame wide = s.frame({0, 1'000'000}, 1000);
    const auto& items = s.geometry.rowItems(wide, lane, 0);
    ASSERT_EQ(items.size(), 1u);
    EXPECT_TRUE(items[0].isFolded);
    EXPECT_EQ(items[0].count, 1000u);
    // The covered event nearest column 50 is the first ending after t = 50.5 px * 1000 ns.
    EXPECT_EQ(s.geometry.hitTest(wide, QPoint(50, s.rowCentre(lane, 0))).event,
              (EventRef{lane, 505}));
    // Another width is another frame: the cache answers for it, not for the last one.
    const ViewFrame narrow = s.frame({0, 10'000}, 1000); // 10 ns per px: 10 px bars
    const auto& zoomed = s.geometry.rowItems(narrow, lane, 0);
    ASSERT_EQ(zoomed.size(), 100u);
    EXPECT_FALSE(zoomed[7].isFolded);
    EXPECT_DOUBLE_EQ(zoomed[7].x0, 70.0);
    EXPECT_DOUBLE_EQ(zoomed[7].x1, 71.0);
    EXPECT_EQ(s.geometry.rowItems(s.frame({0, 10'000}, 2000), lane, 0)[7].x0, 140.0);
    // A lane or row that does not exist has no items.
    EXPECT_TRUE(s.geometry.rowItems(narrow, lane, 3).empty());
    EXPECT_TRUE(s.geometry.rowItems(narrow, 999, 0).empty());
}

TEST(TimelineGeometry, ClaimedRowsFoldOnOtherThreadsAsRowItemsWouldAndOnlyOnce) {
    TraceBuilder b(QStringLiteral("streams"));
    KernelConfig cfg;
    cfg.shortName = b.intern("k");
    for (std::uint32_t stream = 1; stream <= 4; ++stream) {
        TimeNs t = stream * 7;
        for (int i = 0; i < 5000; ++i) { // bursts of short kernels with the odd gap
            const TimeNs d = 5 + TimeNs((i * 37 + stream) % 90);
            b.addKernel(1, 0, stream, 7, t, t + d, cfg, std::nullopt, std::nullopt);
            t += d + (i % 50 == 0 ? 3000 : TimeNs((i * 13) % 40));
        }
    }
    Scene s(std::shared_ptr<const Trace>(b.finish()));
    std::vector<TimelineGeometry::RowKey> keys;
    for (std::uint32_t lane = 0; lane < s.trace->lanes().size(); ++lane) {
        if (s.trace->lane(lane).kind() == LaneKind::Kernels)
            keys.push_back({lane, 0});
    }
    ASSERT_EQ(keys.size(), 4u);
    keys.push_back({keys[0].lane, 9}); // no such row: not claimed
    const TimeRange view{200'000, 900'000};
    const ViewFrame frame = s.frame(view, 1500);
    const auto pending = s.geometry.claimRows(frame, keys);
    ASSERT_EQ(pending.size(), 4u);
    for (const auto& p : pending) {
        EXPECT_TRUE(p.items->empty());
        const RowView rv = p.lane->rowView(p.row);
        EXPECT_EQ(p.visible, rv.firstStartingAtOrAfter(view.end) - rv.firstEndingAfter(view.start));
    }
    // Filled on two threads at once, each row by one of them.
    std::thread other([&] {
        for (std::size_t i = 1; i < pending.size(); i += 2)
            TimelineGeometry::fillRow(frame, pending[i]);
    });
    for (std::size_t i = 0; i < pending.size(); i += 2)
        TimelineGeometry::fillRow(frame, pending[i]);
    other.join();
    for (std::size_t i = 0; i < 4; ++i) {
        const RowView rv = s.trace->lane(keys[i].lane).rowView(0);
        const auto want =
            foldRuns(rv, frame.view.start, frame.nsPerPx, frame.width, TimelineGeometry::kMinPx);
        const auto& got = s.geometry.rowItems(frame, keys[i].lane, 0);
        EXPECT_EQ(&got, pending[i].items) << "answered from the claimed entry";
        ASSERT_EQ(got.size(), want.size()) << "stream " << i;
        ASSERT_GT(got.size(), 50u);
        for (std::size_t k = 0; k < got.size(); ++k) {
            ASSERT_EQ(got[k].first, want[k].first) << k;
            ASSERT_EQ(got[k].count, want[k].count) << k;
            ASSERT_EQ(got[k].x0, want[k].x0) << k;
            ASSERT_EQ(got[k].x1, want[k].x1) << k;
        }
    }
    // Rows this frame has folded are not claimed again; another frame claims them afresh, and
    // its entries start empty even though the last frame's lists are reused.
    EXPECT_TRUE(s.geometry.claimRows(frame, keys).empty());
    const ViewFrame moved = s.frame({view.start + 1, view.end + 1}, 1500);
    const auto again = s.geometry.claimRows(moved, keys);
    ASSERT_EQ(again.size(), 4u);
    for (const auto& p : again)
        EXPECT_TRUE(p.items->empty());
}

TEST(TimelineGeometry, IdleMarksAreTheSweptGapsInTheView) {
    Scene s(synth_traces::smallTrace());
    const Trace& t = *s.trace;
    EXPECT_TRUE(s.geometry.idleMarks(s.frame(t.timeRange(), 1000), 0).empty()); // 100 us: none
    for (TimeNs threshold : {400, 500, 501, 2'900, 2'901})
        EXPECT_EQ(s.geometry.idleMarks(s.frame(t.timeRange(), 1000, threshold), 0),
                  idleByHand(t, 0, threshold))
            << threshold;
    // Gaps at 500 ns: [3000, 3500), [5500, 6000), [6100, 9000). A view from 5800 keeps the two
    // that reach into it.
    const auto marks = s.geometry.idleMarks(s.frame({5'800, 20'000}, 1000, 500), 0);
    EXPECT_EQ(marks, (std::vector<TimeRange>{{5'500, 6'000}, {6'100, 9'000}}));
}

TEST(TimelineGeometry, IdleGapsFoundWithTheLevelOfDetailAreTheSweptOnes) {
    // The level of detail finds the gaps of one threshold on its worker; the geometry uses
    // them for that threshold and sweeps for any other, with the same results.
    Scene s(synth_traces::smallTrace(), true, 500);
    const Trace& t = *s.trace;
    const std::vector<TimeRange>* built = s.lod->idleGaps(0, 500);
    ASSERT_NE(built, nullptr);
    EXPECT_EQ(*built, idleByHand(t, 0, 500));
    EXPECT_EQ(built->size(), 3u);
    EXPECT_EQ(s.lod->idleGaps(0, 501), nullptr); // another threshold: not built
    EXPECT_EQ(s.lod->idleGaps(7, 500), nullptr); // no such GPU
    EXPECT_EQ(&s.geometry.idleGaps(0, 500), built);
    for (TimeNs threshold : {400, 500, 2'901, 500})
        EXPECT_EQ(s.geometry.idleMarks(s.frame(t.timeRange(), 1000, threshold), 0),
                  idleByHand(t, 0, threshold))
            << threshold;
    // Built without a threshold: none found there, the sweep still answers.
    Scene plain(synth_traces::smallTrace());
    EXPECT_EQ(plain.lod->idleGaps(0, 500), nullptr);
    EXPECT_EQ(plain.geometry.idleGaps(0, 500), idleByHand(t, 0, 500));
}

TEST(TimelineGeometry, IdleMarkSpansAreSnappedAndMergedOnScreen) {
    Scene s(synth_traces::smallTrace());
    // 10 ns per px: the three gaps at their own pixels.
    EXPECT_EQ(s.geometry.idleMarkSpans(s.frame({0, 10'000}, 1000, 500), 0),
              (std::vector<PixelSpan>{{300, 350}, {550, 600}, {610, 900}}));
    // 1,000 ns per px: [3000, 3500) rounds to [3, 4); [5500, 6000) to [6, 7) and [6100, 9000)
    // starts at 6, so the two merge into [6, 9).
    EXPECT_EQ(s.geometry.idleMarkSpans(s.frame({0, 10'000}, 10, 500), 0),
              (std::vector<PixelSpan>{{3, 4}, {6, 9}}));
    // At device pixel ratio 2 edges snap to half pixels: [6100, 9000) starts at 24.4 px, drawn
    // from 24.5, so it no longer touches [22, 24).
    EXPECT_EQ(s.geometry.idleMarkSpans(s.frame({0, 10'000}, 40, 500, 2.0), 0),
              (std::vector<PixelSpan>{{12, 14}, {22, 24}, {24.5, 36}}));
}

TEST(TimelineGeometry, WithoutLevelOfDetailThereAreNoIdleMarksAndNoSummaryRows) {
    Scene s(synth_traces::smallTrace(), false);
    EXPECT_EQ(s.geometry.utilization(0), nullptr);
    EXPECT_TRUE(s.geometry.idleMarks(s.frame(s.trace->timeRange(), 1000, 500), 0).empty());
    EXPECT_TRUE(s.geometry.idleMarkSpans(s.frame(s.trace->timeRange(), 1000, 500), 0).empty());
    const std::uint32_t kernels = laneOfKind(*s.trace, LaneKind::Kernels);
    EXPECT_FALSE(s.geometry.paintsFromSummary(s.frame(s.trace->timeRange(), 1000), kernels, 0));
    // Items are there all the same.
    EXPECT_EQ(s.geometry.rowItems(s.frame({0, 10'000}, 1000), kernels, 0).size(), 2u);
}

TEST(TimelineGeometry, ProjectedRowsHitTheirCpuSideRange) {
    Scene s(synth_traces::smallTrace());
    const Trace& t = *s.trace;
    const std::vector<ProjectedNvtxLane> projected = buildProjectedNvtx(t);
    ASSERT_EQ(projected.size(), 1u);
    std::map<std::uint32_t, std::uint16_t> rows{
        {projected[0].deviceId, projected[0].lane.rowCount()}};
    s.layout.setProjectedNvtxRows(rows);
    s.geometry.setProjectedNvtx(&projected);
    // "step" [0, 700) and "forward" [50, 650) launched all three kernels: both project onto
    // [1000, 6100), one per row.
    const ViewFrame f = s.frame({0, 10'000}, 1000);
    std::vector<EventRef> hits;
    for (const LayoutRow& r : s.layout.rows()) {
        if (r.kind != LayoutRowKind::ProjectedNvtx)
            continue;
        const int y = s.layout.viewY(r, 0) + r.height / 2;
        const auto& items = s.geometry.projectedItems(f, r.deviceId, r.row);
        ASSERT_EQ(items.size(), 1u);
        EXPECT_DOUBLE_EQ(items[0].x0, 100.0);
        EXPECT_DOUBLE_EQ(items[0].x1, 610.0);
        EXPECT_FALSE(s.geometry.hitTest(f, QPoint(99, y)).event.isValid());
        EXPECT_FALSE(s.geometry.hitTest(f, QPoint(610, y)).event.isValid());
        hits.push_back(s.geometry.hitTest(f, QPoint(300, y)).event);
    }
    ASSERT_EQ(hits.size(), 2u);
    const std::uint32_t nvtx = laneOfKind(t, LaneKind::Nvtx);
    std::sort(hits.begin(), hits.end(), [](EventRef a, EventRef b) { return a.index < b.index; });
    EXPECT_EQ(hits, (std::vector<EventRef>{{nvtx, 0}, {nvtx, 1}}));
    // Without projected lanes the rows stay empty rather than pointing at freed data.
    s.geometry.setProjectedNvtx(nullptr);
    EXPECT_EQ(s.geometry.projectedNvtx(projected[0].deviceId), nullptr);
}

TEST(TimelineGeometry, RealFixtureIdleMarksMatchTheSweep) {
    auto r =
        loadTrace(QStringLiteral(STROBE_FIXTURES_DIR "/nsys/nsys2026.2-h100-2gpu-nvtx.sqlite"));
    ASSERT_TRUE(r.ok()) << r.error.toStdString();
    Scene s(std::shared_ptr<const Trace>(std::move(r.trace)));
    const Trace& t = *s.trace;
    ASSERT_GE(t.gpus().size(), 2u);
    // The middle third of the trace: only the gaps that overlap it.
    const TimeRange all = t.timeRange();
    const TimeRange mid{all.start + all.duration() / 3, all.start + 2 * all.duration() / 3};
    std::size_t total = 0;
    for (TimeNs threshold : {TimeNs(10'000), TimeNs(100'000)}) {
        for (const GpuInfo& g : t.gpus()) {
            std::vector<TimeRange> want;
            for (const TimeRange& gap : idleByHand(t, g.id, threshold)) {
                if (gap.start < mid.end && gap.end > mid.start)
                    want.push_back(gap);
            }
            EXPECT_EQ(s.geometry.idleMarks(s.frame(mid, 1200, threshold), g.id), want)
                << g.id << " " << threshold;
            total += want.size();
        }
    }
    EXPECT_GT(total, 0u);
}
