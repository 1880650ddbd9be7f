// SPDX-License-Identifier: MIT
// A frame's description without any painter: its rows are the layout's visible rows in painting
// order, each with the draw items, summary columns, utilisation columns and idle marks the
// geometry and the level of detail give, computed independently here; the row jobs run once,
// wherever they run, and a frame that nobody painted still leaves its rows folded.
#include "model/analysis/eventsearch.h"
#include "model/lod/utilization.h"
#include "model/trace.h"
#include "model/tracebuilder.h"
#include "render/geometry/lanelayout.h"
#include "render/geometry/timelineframe.h"
#include "render/geometry/timelinegeometry.h"
#include "tests/widgets/timeline/synthtraces.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace strobe;

namespace {

struct Scene {
    std::shared_ptr<const Trace> trace;
    std::shared_ptr<TimelineLod> lod;
    LaneLayout layout;
    TimelineGeometry geometry;
    explicit Scene(std::shared_ptr<const Trace> t)
        : trace(std::move(t)) {
        layout.setTrace(trace.get());
        lod = std::make_shared<TimelineLod>(trace);
        const std::atomic<bool> cancelled{false};
        lod->build(cancelled);
        geometry.setTrace(trace.get(), lod);
    }
    ViewFrame view(TimeRange range, int width, int height = 600, int scrollY = 0,
                   double dpr = 1.0) const {
        return ViewFrame::make(&layout, range, width, height, scrollY, dpr, 500);
    }
};

// Four streams of 5,000 short kernels each: a middle zoom folds thousands of runs per row, and
// the whole range at a few hundred pixels is many events per column (summary rows).
std::unique_ptr<Trace> busyStreams() {
    TraceBuilder b(QStringLiteral("streams"));
    KernelConfig cfg;
    cfg.shortName = b.intern("k");
    for (std::uint32_t stream = 1; stream <= 4; ++stream) {
        TimeNs t = stream * 7;
        for (int i = 0; i < 5000; ++i) {
            const TimeNs d = 5 + TimeNs((i * 37 + stream) % 90);
            b.addKernel(1, 0, stream, 7, t, t + d, cfg, std::nullopt, std::nullopt);
            t += d + (i % 50 == 0 ? 3000 : TimeNs((i * 13) % 40));
        }
    }
    return b.finish();
}

// The visible rows as the canvas shows them, worked out from the layout alone.
std::vector<std::pair<const LayoutRow*, int>> visibleRows(const LaneLayout& layout,
                                                          const ViewFrame& f) {
    std::vector<std::pair<const LayoutRow*, int>> out;
    const int pinned = layout.pinnedHeight();
    for (const LayoutRow& r : layout.rows()) {
        const int y = r.y - f.scrollY + pinned;
        if (y + r.height > pinned && y < f.height)
            out.emplace_back(&r, y);
    }
    for (const LayoutRow& r : layout.pinnedRows()) {
        if (r.y + r.height > 0 && r.y < f.height)
            out.emplace_back(&r, r.y);
    }
    return out;
}

void expectItems(const std::vector<DrawItem>& got, const std::vector<DrawItem>& want,
                 const char* what) {
    ASSERT_EQ(got.size(), want.size()) << what;
    for (std::size_t k = 0; k < got.size(); ++k) {
        ASSERT_EQ(got[k].first, want[k].first) << what << " item " << k;
        ASSERT_EQ(got[k].count, want[k].count) << what << " item " << k;
        ASSERT_EQ(got[k].x0, want[k].x0) << what << " item " << k;
        ASSERT_EQ(got[k].x1, want[k].x1) << what << " item " << k;
        ASSERT_EQ(got[k].isFolded, want[k].isFolded) << what << " item " << k;
    }
}

} // namespace

TEST(TimelineFrame, RowsAreTheVisibleLayoutRowsInPaintingOrder) {
    Scene s(synth_traces::smallTrace());
    s.layout.setLanePinned(s.layout.rows()[2].lane, true);
    ASSERT_GT(s.layout.pinnedHeight(), 0);
    for (const auto& [scroll, height] : {std::pair(0, 600), std::pair(40, 120), std::pair(0, 30)}) {
        const ViewFrame f = s.view({0, 10'000}, 1000, height, scroll);
        const TimelineFrame frame(s.geometry, f);
        const auto want = visibleRows(s.layout, f);
        const auto scrolled = frame.scrolledRows(), pinned = frame.pinnedRows();
        ASSERT_EQ(scrolled.size() + pinned.size(), want.size()) << "height " << height;
        ASSERT_EQ(pinned.size(), s.layout.pinnedRows().size());
        for (std::size_t i = 0; i < want.size(); ++i) {
            const FrameRow& r = i < scrolled.size() ? scrolled[i] : pinned[i - scrolled.size()];
            EXPECT_EQ(r.layout, want[i].first) << i;
            EXPECT_EQ(r.y, want[i].second) << i;
        }
        EXPECT_EQ(frame.pinnedHeight(), s.layout.pinnedHeight());
        EXPECT_EQ(frame.rowsBottom(), s.layout.pinnedHeight() + s.layout.contentHeight() - scroll);
    }
}

TEST(TimelineFrame, LaneRowItemsAreTheFoldedRunsOfTheirRows) {
    Scene s(busyStreams());
    const ViewFrame f = s.view({200'000, 900'000}, 1500);
    std::size_t laneRows = 0;
    {
        const TimelineFrame frame(s.geometry, f);
        EXPECT_EQ(frame.jobCount(), 4u) << "the four kernel rows fold for this frame";
        for (const FrameRow& r : frame.scrolledRows()) {
            if (r.layout->kind != LayoutRowKind::LaneRow)
                continue;
            ++laneRows;
            ASSERT_FALSE(r.summaryLevel);
            ASSERT_NE(frame.await(r).items, nullptr);
            const RowView rv = s.trace->lane(r.layout->lane).rowView(r.layout->row);
            expectItems(*r.items, foldRuns(rv, f.view.start, f.nsPerPx, f.width, 3.0), "row");
            EXPECT_GT(r.items->size(), 50u);
            EXPECT_EQ(r.items, &s.geometry.rowItems(f, r.layout->lane, r.layout->row));
        }
    }
    EXPECT_EQ(laneRows, 4u);
    // The same view again: the rows are in the geometry's cache, nothing to fold.
    {
        const TimelineFrame again(s.geometry, f);
        EXPECT_EQ(again.jobCount(), 0u);
    }
    const TimelineFrame moved(s.geometry, s.view({200'001, 900'001}, 1500));
    EXPECT_EQ(moved.jobCount(), 4u);
}

TEST(TimelineFrame, RowsFoldAlikeOnHelpersAndRowsNobodyAwaitedAreFoldedAtTheEnd) {
    Scene s(busyStreams());
    const ViewFrame f = s.view({100'000, 800'000}, 1200);
    std::vector<std::vector<DrawItem>> want;
    for (const LayoutRow& r : s.layout.rows())
        if (r.kind == LayoutRowKind::LaneRow)
            want.push_back(foldRuns(s.trace->lane(r.lane).rowView(r.row), f.view.start, f.nsPerPx,
                                    f.width, 3.0));
    ASSERT_EQ(want.size(), 4u);
    for (int helpers : {0, 3}) {
        TimelineFrame::Options o;
        o.helpers = helpers;
        s.geometry.setTrace(s.trace.get(), s.lod); // a cold cache
        {
            const TimelineFrame frame(s.geometry, f, o);
            ASSERT_EQ(frame.jobCount(), 4u);
            // Not awaited: the destructor runs what no helper took.
        }
        std::size_t i = 0;
        for (const LayoutRow& r : s.layout.rows())
            if (r.kind == LayoutRowKind::LaneRow)
                expectItems(s.geometry.rowItems(f, r.lane, r.row), want[i++], "after the frame");
    }
}

TEST(TimelineFrame, BusyRowsCarryTheirSummaryColumns) {
    Scene s(busyStreams());
    const ViewFrame f = s.view(s.trace->timeRange(), 300, 600, 0, 2.0);
    const TimelineFrame frame(s.geometry, f);
    const int cols = 600; // device pixels
    std::size_t summarised = 0;
    for (const FrameRow& r : frame.scrolledRows()) {
        if (r.layout->kind != LayoutRowKind::LaneRow)
            continue;
        const auto level = s.geometry.summaryLevel(f, r.layout->lane, r.layout->row);
        ASSERT_TRUE(level.has_value()) << "4,000 visible events over 300 px";
        ASSERT_EQ(r.summaryLevel, level);
        ASSERT_NE(frame.await(r).columns, nullptr);
        std::vector<SummaryColumn> want;
        s.lod->rowSummary(r.layout->lane, r.layout->row)
            ->columns(s.trace->lane(r.layout->lane).rowView(r.layout->row), f.view.start,
                      f.nsPerPx / f.dpr, cols, *level, want);
        ASSERT_EQ(r.columns->size(), want.size());
        int covered = 0;
        for (std::size_t i = 0; i < want.size(); ++i) {
            ASSERT_EQ((*r.columns)[i].covered, want[i].covered) << i;
            ASSERT_EQ((*r.columns)[i].rep, want[i].rep) << i;
            ASSERT_EQ((*r.columns)[i].busy, want[i].busy) << i;
            covered += want[i].covered;
        }
        EXPECT_GT(covered, 100);
        ++summarised;
    }
    EXPECT_EQ(summarised, 4u);
    EXPECT_EQ(frame.jobCount(), 4u);
}

TEST(TimelineFrame, WithoutSummariesEveryLaneRowIsDrawnFromItems) {
    Scene s(busyStreams());
    const ViewFrame f = s.view(s.trace->timeRange(), 300);
    TimelineFrame::Options o;
    o.summaries = false;
    const TimelineFrame frame(s.geometry, f, o);
    for (const FrameRow& r : frame.scrolledRows()) {
        if (r.layout->kind != LayoutRowKind::LaneRow)
            continue;
        EXPECT_FALSE(r.summaryLevel);
        ASSERT_NE(frame.await(r).items, nullptr);
        EXPECT_FALSE(r.items->empty());
    }
}

TEST(TimelineFrame, UtilisationRowsHoldTheirBusyColumnsAndIdleMarks) {
    Scene s(synth_traces::smallTrace());
    const ViewFrame f = s.view({0, 10'000}, 1000);
    const TimelineFrame frame(s.geometry, f);
    const GpuUtilization* u = s.geometry.utilization(0);
    ASSERT_NE(u, nullptr);
    int strips = 0;
    for (const FrameRow& r : frame.scrolledRows()) {
        if (r.layout->kind != LayoutRowKind::Utilization)
            continue;
        ++strips;
        EXPECT_EQ(r.utilization, u);
        EXPECT_EQ(r.kernelBusy, u->kernels.busyFractions(0, 10.0, 1000));
        EXPECT_EQ(r.copyBusy, u->copies.busyFractions(0, 10.0, 1000));
        // GPU 0 is busy in [1000, 3000), [3500, 5500), [6000, 6100) and [9000, 10000): idle at
        // least 500 ns between them in [3000, 3500), [5500, 6000) and [6100, 9000) (before its
        // first work it is not idle).
        const std::vector<PixelSpan> idle{{300, 350}, {550, 600}, {610, 900}};
        EXPECT_EQ(r.idleSpans, idle);
        EXPECT_EQ(r.kernelBusy[150], 1.0f);
        EXPECT_EQ(r.kernelBusy[50], 0.0f);
    }
    EXPECT_EQ(strips, 1);
}

// A partial picture (sampled GPU rows, issue 45) has the same busy columns but no idle marks:
// its gaps are mostly rows not read yet, not an idle GPU.
TEST(TimelineFrame, APartialPictureMarksNoIdleStretches) {
    Scene s(synth_traces::smallTrace(16));
    ASSERT_EQ(s.trace->metadata().gpuSampleStride, 16u);
    const TimelineFrame frame(s.geometry, s.view({0, 10'000}, 1000));
    int strips = 0;
    for (const FrameRow& r : frame.scrolledRows()) {
        if (r.layout->kind != LayoutRowKind::Utilization)
            continue;
        ++strips;
        EXPECT_TRUE(r.idleSpans.empty());
        EXPECT_EQ(r.kernelBusy[150], 1.0f);
    }
    EXPECT_EQ(strips, 1);
}

// Search marks (issue 44, item 16): each visible match's own extent, at least 3 px wide, merged
// where they touch; the pixels they cover are those a brute force over every match covers.
namespace {
std::vector<bool> coveredColumns(const std::vector<PixelSpan>& spans, int width) {
    std::vector<bool> on(std::size_t(width), false);
    for (const PixelSpan& m : spans) {
        for (int x = 0; x < width; ++x) {
            if (x + 0.5 > m.x0 && x + 0.5 < m.x1)
                on[std::size_t(x)] = true;
        }
    }
    return on;
}
} // namespace

TEST(TimelineFrame, SearchMarksCoverEveryVisibleMatch) {
    Scene s(busyStreams());
    // Every kernel matches: the worst case, thousands of matches per row.
    const EventSearchResult all = searchEvents(*s.trace, {QStringLiteral("k"), false, false});
    ASSERT_EQ(all.count(), 20'000u);
    for (const auto& [range, width] :
         {std::pair(TimeRange{0, 2'000'000}, 300), std::pair(TimeRange{200'000, 260'000}, 1500),
          std::pair(TimeRange{500'000, 500'900}, 900)}) {
        const ViewFrame f = s.view(range, width);
        const TimelineFrame frame(s.geometry, f, TimelineFrame::Options{true, 0, &all});
        std::size_t rows = 0;
        for (const FrameRow& r : frame.scrolledRows()) {
            if (r.layout->kind != LayoutRowKind::LaneRow)
                continue;
            ++rows;
            const Lane& l = s.trace->lane(r.layout->lane);
            const RowView rv = l.rowView(r.layout->row);
            // Brute force: every match of the row overlapping the view, its own mark.
            std::vector<PixelSpan> each;
            for (std::uint32_t k = 0; k < rv.size(); ++k) {
                const TimeNs a = rv.start(k), b = effectiveEnd(a, rv.end(k));
                if (b <= range.start || a >= range.end)
                    continue;
                double x0 = f.map.toPx(a), x1 = f.map.toPx(b);
                if (x1 - x0 < 3.0)
                    x0 = (x0 + x1) / 2 - 1.5, x1 = x0 + 3.0;
                each.push_back({f.snap(x0), f.snap(x1)});
            }
            ASSERT_FALSE(each.empty());
            EXPECT_EQ(coveredColumns(r.searchMarks, width), coveredColumns(each, width))
                << "width " << width;
            for (std::size_t i = 1; i < r.searchMarks.size(); ++i)
                EXPECT_GT(r.searchMarks[i].x0, r.searchMarks[i - 1].x1); // merged when touching
            EXPECT_LE(r.searchMarks.size(), std::size_t(width / 3 + 1));
        }
        EXPECT_EQ(rows, 4u);
    }
}

TEST(TimelineFrame, SearchMarksOnlyWhereMatchesAre) {
    Scene s(synth_traces::smallTrace());
    const EventSearchResult gemm = searchEvents(*s.trace, {QStringLiteral("sgemm"), false, false});
    ASSERT_EQ(gemm.count(), 1u);
    const ViewFrame f = s.view({0, 10'000}, 1000);
    {
        const TimelineFrame frame(s.geometry, f, TimelineFrame::Options{true, 0, &gemm});
        std::size_t marked = 0;
        for (const FrameRow& r : frame.scrolledRows()) {
            if (r.searchMarks.empty())
                continue;
            ++marked;
            EXPECT_EQ(s.trace->lane(r.layout->lane).kind(), LaneKind::Kernels);
            EXPECT_EQ(r.layout->row, 0);
            // The GEMM runs [1000, 3000): pixels 100 to 300.
            ASSERT_EQ(r.searchMarks.size(), 1u);
            EXPECT_EQ(r.searchMarks[0], (PixelSpan{100, 300}));
        }
        EXPECT_EQ(marked, 1u);
    }
    // Without a result, or with another trace's, no row is marked.
    Scene other(synth_traces::smallTrace());
    for (const EventSearchResult* r : {static_cast<const EventSearchResult*>(nullptr), &gemm}) {
        const TimelineFrame frame(other.geometry, other.view({0, 10'000}, 1000),
                                  TimelineFrame::Options{true, 0, r});
        for (const FrameRow& row : frame.scrolledRows())
            EXPECT_TRUE(row.searchMarks.empty());
    }
}
