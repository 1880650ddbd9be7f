// SPDX-License-Identifier: MIT
#pragma once

#include "model/lod/foldruns.h"
#include "model/lod/timemapping.h"
#include "model/types.h"
#include "render/geometry/lanelayout.h"
#include "render/geometry/timelinegeometry.h"
#include "render/paint/headerpainter.h"
#include "render/paint/lanepainter.h"
#include "render/paint/paintcontext.h"
#include "render/paint/rulerpainter.h"
#include "widgets/timeline/keybindings.h"

#include <QRectF>
#include <QWidget>
#include <atomic>
#include <chrono>
#include <memory>
#include <optional>
#include <vector>

class QScrollBar;
class QShortcut;

namespace strobe {

class BackgroundTask;
class EventSearchResult;
class LaneHeader;
struct NvtxSummary;
class SearchBar;
class TimeRuler;
class TimelineCanvas;
class ViewState;

// The timeline: a lane header column, a time ruler, the lane canvas and a vertical scrollbar,
// all following one ViewState (owned by the main window). Hit-testing, layout and geometry are
// methods that work without showing a window (they ask the TimelineGeometry); points are in
// canvas coordinates (x = 0 is the start of the visible range, y = 0 the top of the lanes, below
// the ruler). Drawing goes through render/paint, which needs no widget.
class TimelineView : public QWidget {
    Q_OBJECT
public:
    static constexpr int kHeaderWidth = kLaneHeaderWidth;
    static constexpr int kRulerHeight = kTimeRulerHeight;
    // How long background work waits at most for the first frame of a new trace (while this
    // view is shown; see holdBackgroundWork).
    static constexpr std::chrono::milliseconds kFirstFrameHold{100};
    void setFirstFrameHold(std::chrono::milliseconds limit) { m_firstFrameHold = limit; }

    explicit TimelineView(ViewState* state, QWidget* parent = nullptr);
    ~TimelineView() override;

    ViewState* viewState() const { return m_state; }
    LaneLayout& laneLayout() { return m_layout; }
    const LaneLayout& laneLayout() const { return m_layout; }
    QWidget* canvas() const;
    TimeRuler* ruler() const { return m_ruler; }
    QWidget* headerColumn() const;
    QSize canvasSize() const;
    TimeMapping mapping() const;

    // Hit-testing.
    // (Non-const: a hit on a row not folded yet in this frame folds it into the geometry's cache.)
    TimelineHit hitTest(QPoint pos);
    EventRef eventAt(QPoint pos) { return hitTest(pos).event; }
    // The lane drawn at canvas y, or -1 (group headers, utilisation strips, empty space).
    int laneAt(int y) const;
    const LayoutRow* rowAt(int y) const { return m_layout.rowAt(y, m_scrollY); }
    // An NVTX range's tooltip counts the ranges of its grouped name once the per-name summary,
    // built on a worker after each trace change, has arrived (nvtxNameCountsReady()).
    QString toolTipAt(QPoint pos);
    bool nvtxNameCountsReady() const;

    // Geometry of the current frame.
    std::vector<DrawItem> rowItems(std::uint32_t lane, std::uint16_t row);
    // Canvas rectangle of an event (1 px minimum width); nullopt when its row is not shown.
    std::optional<QRectF> eventRect(EventRef ref) const;
    // The idle stretches the utilisation strip of `deviceId` marks in the visible range.
    std::vector<TimeRange> idleMarks(std::uint32_t deviceId);

    // Navigation (all through ViewState).
    void zoomAt(double x, double factor);
    // Pans by dx pixels; `record` makes it an undo step (the first move of a drag).
    void panPixels(double dx, bool record = false);
    void fitAll();
    bool undoZoom();
    void zoomToSelectedRange();
    // Brings `ref` into view (keeps the zoom when it fits, else ~5x its duration), expands and
    // scrolls to its lane and selects it. Also runs on ViewState::revealRequested.
    void revealEvent(EventRef ref);
    int scrollY() const { return m_scrollY; }
    void setScrollY(int y);

    // Search (Ctrl+F on the view, F3 / Shift+F3 to step): the bar over the canvas's top right
    // corner. While it is open its matches are highlighted (TimelineFrame's search marks).
    SearchBar* searchBar() const { return m_searchBar; }
    // Centres the view on `ref` (zooming in until it is at least a few pixels wide, never out
    // unless it is wider than the view), expands and scrolls to its lane and selects it.
    void showSearchMatch(EventRef ref);
    // Events marked as the search marks its matches while the search bar is closed (the
    // Findings panel's evidence of the selected finding); null clears them. A new trace clears
    // them; a set of another trace is not drawn.
    void setHighlights(std::shared_ptr<const EventSearchResult> marks);
    const EventSearchResult* highlights() const { return m_highlights.get(); }

    // True when the trace has no event the lanes draw (every lane empty, no memory track): the
    // canvas then says so (nothingToDrawText) instead of staying blank.
    bool hasNothingToDraw() const;
    // Why an open trace shows nothing: what it holds and which events the timeline draws.
    static QString nothingToDrawText(const Trace& trace);
    // The banner over a partial picture (a preview of a sample of the GPU rows, spread over the
    // whole time range: TraceMetadata::gpuSampleStride > 1), whose lanes are drawn hatched;
    // empty for any other trace.
    static QString partialPictureText(const Trace& trace);

    // Lanes.
    void setHideIdleLanes(bool hide);
    bool hideIdleLanes() const { return m_layout.hideIdle(); }
    void setHideIdleGpus(bool hide);
    void setLaneHidden(std::uint32_t lane, bool hidden);
    void setLanePinned(std::uint32_t lane, bool pinned);
    void setGroupExpanded(std::uint32_t group, bool expanded);
    void showAllLanes();
    // Draws each GPU's "NVTX (projected)" row: every NVTX range over the span of the GPU work it
    // launched, above the GPU's streams (built when first shown, per trace).
    void setShowProjectedNvtx(bool show);
    bool showProjectedNvtx() const { return m_showProjected; }
    const std::vector<ProjectedNvtxLane>& projectedNvtx() const { return m_projected; }

    // What a picture of the current view draws from (File > Export Image): the geometry of
    // the lanes (with the trace's level of detail) and the palette on screen.
    const TimelineGeometry& geometry() const { return m_geometry; }
    TimelineGeometry& geometry() { return m_geometry; }
    const TimelinePalette& timelinePalette() const { return m_palette; }

    // Paints lanes and overlays as the canvas would (the benchmark and screenshots use it): one
    // TimelineFrame built from the geometry, read by the lane painter and the overlay.
    void paintCanvas(QPainter& p, QSize size, qreal dpr);
    EventRef hovered() const { return m_hover; }
    void setHovered(EventRef ref);

    // The mouse over the timeline, in canvas x (the lanes and the ruler share it); `laneY` is its
    // canvas y when it is over the lanes. The cursor time (and the hovered event) follow it, also
    // when the view moves under a still mouse (keys, fit, undo), so the ruler's cursor label is
    // never stale. nullopt: the mouse is elsewhere.
    void setPointer(std::optional<double> x, std::optional<int> laneY = std::nullopt);
    std::optional<double> pointerX() const { return m_pointerX; }
    // Where W / S zoom: at the mouse when it is over the lanes or the ruler, else at the middle
    // (as Perfetto does).
    double keyboardZoomAnchor() const;

    // The trace's level-of-detail data (row summaries, GPU utilisation) is built on a worker
    // thread after each trace change; until it is ready rows fold with foldRuns and the
    // utilisation strips say they are being computed. True once everything is built.
    bool isLevelOfDetailReady() const;
    // A complete level of detail built elsewhere (TraceLoadJob) for the trace the view state is
    // about to show: that trace then paints from it at once, with no build of its own. Dropped
    // when another trace comes first, or one that is not its trace().
    void offerLevelOfDetail(std::shared_ptr<TimelineLod> lod);
    // The level of detail the current trace paints from (built or still building); null
    // without a trace.
    const TimelineLod* levelOfDetail() const { return m_lod.get(); }
    // Blocks until the worker is done (tests and benchmarks), then repaints.
    void waitForLevelOfDetail();
    // Bytes of level-of-detail data built so far for the current trace.
    std::size_t levelOfDetailBytes() const;
    // True when (lane, row) is drawn from its summary at the current view and canvas width.
    bool rowPaintsFromSummary(std::uint32_t lane, std::uint16_t row) const;

protected:
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    PaintContext makeContext(QSize size, qreal dpr) const;
    // The frame hit-tests and geometry queries use: the canvas at its current size.
    ViewFrame frame() const;
    void onTraceChanged();
    void layoutChanged();
    void updateScrollBar();
    void repaintAll();
    void updateProjectedNvtx();
    void startLevelOfDetail();
    void followPointer();
    void startNvtxNameCounts();
    // Wires the canvas', the header's and the ruler's requests to the view.
    void connectChildren();
    // Carries out a key of the list of controls pressed on the canvas.
    void runAction(TimelineAction action);
    // Expands and scrolls to the row of `ref` (revealEvent, showSearchMatch).
    void scrollToEventRow(EventRef ref);
    void placeSearchBar();
    void paintNothingToDraw(QPainter& p, QSize size, const PaintContext& ctx) const;
    void paintPartialPicture(QPainter& p, QSize size, const PaintContext& ctx,
                             const QString& banner) const;

    ViewState* m_state;
    LaneLayout m_layout;
    TimelineGeometry m_geometry; // what is drawn where, with its caches; frames are built here
    LanePainter m_painter;
    LaneHeader* m_header = nullptr;
    TimeRuler* m_ruler = nullptr;
    TimelineCanvas* m_canvas = nullptr;
    QScrollBar* m_vbar = nullptr;
    SearchBar* m_searchBar = nullptr;
    std::shared_ptr<const EventSearchResult> m_highlights;
    int m_scrollY = 0;
    EventRef m_hover;
    std::optional<double> m_pointerX;
    std::optional<int> m_pointerLaneY;
    TimelinePalette m_palette;
    bool m_showProjected = false;
    std::chrono::milliseconds m_firstFrameHold = kFirstFrameHold;
    std::vector<ProjectedNvtxLane> m_projected;
    // Builds m_lod on a worker (widgets/backgroundtask.h); a stale build stops at its next lane
    // once its cancel flag is set, and its results are never shown.
    BackgroundTask* m_lodTask = nullptr;
    std::shared_ptr<TimelineLod> m_lod;
    std::shared_ptr<TimelineLod> m_offeredLod; // offerLevelOfDetail, until the next trace
    std::shared_ptr<std::atomic<bool>> m_lodCancel;
    // summarizeNvtx of the trace for the tooltips' "Same name" line (grouped names).
    BackgroundTask* m_nvtxNamesTask = nullptr;
    std::shared_ptr<const NvtxSummary> m_nvtxNames;
};

} // namespace strobe
