// SPDX-License-Identifier: MIT
#pragma once

#include "model/analysis/gaps.h"
#include "model/analysis/nvtxprojection.h"
#include "model/lod/foldruns.h"
#include "model/lod/rowsummary.h"
#include "model/lod/timelinelod.h"
#include "model/lod/timemapping.h"
#include "model/lod/utilization.h"
#include "model/types.h"

#include <QPoint>
#include <QRectF>
#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <unordered_map>
#include <vector>

namespace strobe {

class LaneLayout;
struct LayoutRow;
class Trace;

// The viewport of one frame of the lane canvas: everything the geometry depends on besides the
// data. Coordinates are logical pixels of the canvas (x = 0 is the start of `view`, y = 0 the
// top of the lanes).
struct ViewFrame {
    const LaneLayout* layout = nullptr;
    TimeRange view;
    TimeMapping map;
    double nsPerPx = 1.0;
    int width = 0;  // logical pixels
    int height = 0; // logical pixels
    int scrollY = 0;
    double dpr = 1.0;
    TimeNs idleThreshold = kDefaultIdleThresholdNs;

    // `view` drawn `width` x `height` logical pixels at device pixel ratio `dpr`.
    static ViewFrame make(const LaneLayout* layout, TimeRange view, int width, int height,
                          int scrollY, double dpr, TimeNs idleThreshold);
    // Snaps a logical x to the device pixel grid, so bars stay crisp at any devicePixelRatio.
    double snap(double x) const { return std::floor(x * dpr + 0.5) / dpr; }
};

// What lies under a point of the lane canvas.
struct TimelineHit {
    const LayoutRow* row = nullptr;
    std::optional<DrawItem> item; // the drawn item under the point, if any
    EventRef event; // the event (for a folded item: the one nearest the point); invalid if none
                    // (in a projected NVTX row: the CPU-side NVTX range)
};

// A horizontal stretch of the canvas in logical pixels, on the device pixel grid.
struct PixelSpan {
    double x0 = 0, x1 = 0;
    bool operator==(const PixelSpan&) const = default;
};

// What is drawn where on the lane canvas, without any painting: the draw items of each layout
// row (foldRuns, cached per (visible range, width, data generation); only rows that are asked
// for are built), which rows are drawn from their RowSummary, the projected NVTX rows, the idle
// stretches of each GPU, event rectangles and hit-testing. A frame's whole description is built
// from it (TimelineFrame, timelineframe.h) before anything is painted, and the painters read only
// that; hit-tests, tooltips and the overlay query the same cache, so what is found under the
// mouse is what was drawn there.
//
// The caches are the geometry's own: every query that may fill one is non-const, and nothing
// else writes them (a TimelineFrame's row jobs fill the entries it claimed, before the frame is
// read). It is not thread-safe: one thread (the GUI thread) asks. A reference returned by
// rowItems or projectedItems stays valid until a query with another range or width, or the next
// setTrace / setProjectedNvtx; a TimelineFrame holds such references for its lifetime, so no
// query with another frame may come while one is alive.
class TimelineGeometry {
public:
    // Minimum width of an unfolded event; narrower runs fold (see foldRuns).
    static constexpr double kMinPx = 3.0;
    // Above this many visible events per pixel column on average, a row paints from its summary.
    static constexpr std::uint32_t kSummaryEventsPerPx = 4;

    // `lod` is the trace's level-of-detail data, possibly still being built (nullptr: none).
    void setTrace(const Trace* trace, std::shared_ptr<const TimelineLod> lod = nullptr);
    const Trace* trace() const { return m_trace; }
    const TimelineLod* lod() const { return m_lod.get(); }
    // Changes with every setTrace (not with setProjectedNvtx): what per-trace caches key on.
    std::uint64_t traceGeneration() const { return m_traceGeneration; }

    // The draw items of (lane, row) in `frame`'s range; empty for a lane or row that does not
    // exist.
    const std::vector<DrawItem>& rowItems(const ViewFrame& frame, std::uint32_t lane,
                                          std::uint16_t row);
    // A row of a lane, as rowItems names it.
    struct RowKey {
        std::uint32_t lane = 0;
        std::uint16_t row = 0;
    };
    // A row whose cache entry claimRows made, for fillRow to fold into.
    struct PendingRow {
        const Lane* lane = nullptr;
        std::uint16_t row = 0;
        std::vector<DrawItem>* items = nullptr; // the cache entry, empty
        std::uint32_t visible = 0;              // events overlapping the frame's range
    };
    // Makes the cache entries of those of `rows` that `frame` has not folded yet and returns
    // them, so that a caller can fold them with fillRow on other threads too (each by one
    // thread, before the next query of this geometry); rowItems() then answers them at once.
    // TimelineFrame does this for the rows of a frame. The class stays single-threaded to its
    // callers: only the entries' contents are written elsewhere, and unordered_map entries do not
    // move.
    std::vector<PendingRow> claimRows(const ViewFrame& frame, std::span<const RowKey> rows);
    static void fillRow(const ViewFrame& frame, const PendingRow& row);

    // The summary level (lane, row) is drawn from in `frame`; nullopt when it is drawn from
    // rowItems (few events per pixel column, or its summary is not built yet).
    std::optional<int> summaryLevel(const ViewFrame& frame, std::uint32_t lane,
                                    std::uint16_t row) const;
    bool paintsFromSummary(const ViewFrame& frame, std::uint32_t lane, std::uint16_t row) const {
        return summaryLevel(frame, lane, row).has_value();
    }

    // The projected NVTX lanes drawn in ProjectedNvtx rows (owned by the caller); nullptr: none.
    void setProjectedNvtx(const std::vector<ProjectedNvtxLane>* lanes);
    const ProjectedNvtxLane* projectedNvtx(std::uint32_t deviceId) const;
    // The draw items of row `row` of a device's projected NVTX lane in `frame`'s range.
    const std::vector<DrawItem>& projectedItems(const ViewFrame& frame, std::uint32_t deviceId,
                                                std::uint16_t row);

    // nullptr while the level of detail is still being built.
    const GpuUtilization* utilization(std::uint32_t deviceId) const;
    // Idle stretches at least `threshold` long of a device, all of them (cached per threshold);
    // empty while its utilisation is being built.
    const std::vector<TimeRange>& idleGaps(std::uint32_t deviceId, TimeNs threshold);
    // The idle stretches (at least frame.idleThreshold long) that overlap frame.view.
    std::vector<TimeRange> idleMarks(const ViewFrame& frame, std::uint32_t deviceId);
    // Where the idle marks of `deviceId` are drawn: snapped, at least 1 px wide, clipped to
    // [-1, width + 1], marks that touch on screen merged; ascending.
    std::vector<PixelSpan> idleMarkSpans(const ViewFrame& frame, std::uint32_t deviceId);

    // The row and drawn item under canvas point `pos`, and the event it stands for.
    TimelineHit hitTest(const ViewFrame& frame, QPoint pos);
    // Canvas rectangle of an event (1 px minimum width, its row's full height); nullopt when
    // the event does not exist or its row is not laid out (collapsed or hidden).
    std::optional<QRectF> eventRect(const ViewFrame& frame, EventRef ref) const {
        return eventRectIn(m_trace, frame, ref);
    }
    // The same for `trace` laid out as frame.layout says: what a frame answers without its
    // geometry.
    static std::optional<QRectF> eventRectIn(const Trace* trace, const ViewFrame& frame,
                                             EventRef ref);

private:
    friend class TimelineFrame; // builds its rows from the caches below
    struct CacheKey {
        TimeRange view;
        int width = 0;
        std::uint64_t generation = 0;
        bool operator==(const CacheKey&) const = default;
    };
    // Clears the row cache when `frame` asks for another range or width than the cached one.
    void checkCacheKey(const ViewFrame& frame);

    const Trace* m_trace = nullptr;
    std::shared_ptr<const TimelineLod> m_lod;
    const std::vector<ProjectedNvtxLane>* m_projected = nullptr;
    std::uint64_t m_generation = 0;      // data: trace, level of detail, projected lanes
    std::uint64_t m_traceGeneration = 0; // trace only

    // The draw items of the rows asked for in the frame m_key names.
    CacheKey m_key;
    std::unordered_map<std::uint64_t, std::vector<DrawItem>> m_rows;
    // The emptied item lists of the last cleared frame, reused by the next one: freeing a
    // frame's lists (megabytes at a middle zoom) made malloc return the heap's top to the
    // kernel and the next frame fault it back in.
    std::vector<std::vector<DrawItem>> m_spareItems;
    // The cache entry of `id`, and whether it was made now (then empty, to be filled).
    std::pair<std::vector<DrawItem>*, bool> rowEntry(std::uint64_t id);
    void clearRows();
    // Idle gaps per device for the threshold they were swept for (when the level of detail has
    // none for it).
    std::unordered_map<std::uint32_t, std::pair<TimeNs, std::vector<TimeRange>>> m_gaps;
    // The summary columns of the last frame's summarised rows, one list per row (TimelineFrame),
    // kept so that their capacity is reused frame after frame.
    std::vector<std::vector<SummaryColumn>> m_summaryColumns;
    bool m_frameAlive = false; // a TimelineFrame holds references into the caches
};

} // namespace strobe
