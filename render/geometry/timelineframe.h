// SPDX-License-Identifier: MIT
#pragma once

#include "model/lod/foldruns.h"
#include "model/lod/rowsummary.h"
#include "render/geometry/sharework.h"
#include "render/geometry/timelinegeometry.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <vector>

namespace strobe {

class EventSearchResult;
struct GpuMemoryTrack;
struct GpuUtilization;
struct LayoutRow;
struct ProjectedNvtxLane;
class TimelineLod;
class Trace;

// One visible row of a frame, with everything its kind is drawn from. Which members are set
// depends on layout->kind; the others stay empty.
struct FrameRow {
    const LayoutRow* layout = nullptr;
    int y = 0; // canvas y of the row's top

    // LaneRow: the RowSummary level it is drawn from, with one column per device pixel in
    // `columns`; nullopt: it is drawn from `items`.
    std::optional<int> summaryLevel;
    const std::vector<SummaryColumn>* columns = nullptr;
    // LaneRow not drawn from a summary, ProjectedNvtx: the row's draw items (the geometry's
    // cache entry). Read them only through TimelineFrame::await.
    const std::vector<DrawItem>* items = nullptr;
    // ProjectedNvtx: the device's projected lane; nullptr when it has none.
    const ProjectedNvtxLane* projected = nullptr;
    // Utilization: nullptr while the level of detail is still being built. Per device pixel
    // column, the busy fraction of the kernels and of the copies; the idle marks on screen.
    const GpuUtilization* utilization = nullptr;
    std::vector<float> kernelBusy, copyBusy;
    std::vector<PixelSpan> idleSpans;
    // MemoryCounter: the GPU's memory track (nullptr: none) and, per logical pixel column, the
    // most bytes allocated in it (counterColumns).
    const GpuMemoryTrack* memory = nullptr;
    std::vector<std::optional<std::uint64_t>> counter;
    // LaneRow, with a search result (Options::search): where its visible matches lie, ascending
    // (searchMarkSpans).
    std::vector<PixelSpan> searchMarks;

    // The frame's job that computes `columns` or fills `items`; nullopt: nothing to wait for.
    std::optional<std::size_t> job;
};

// The description of one frame of the lane canvas: every visible row in painting order with its
// draw items, summary columns, utilisation columns and idle marks, and the counter columns,
// computed from a TimelineGeometry before anything is painted. The passes (LanePainter, the
// overlay) only read it, so a frame painted twice gives the same picture, and what is painted is
// what the geometry says without a painter (the pattern of Qt Creator's tracing library: one
// render state, passes that only read it).
//
// The rows whose items or summary columns take real work (a summarised row, a row with
// thousands of visible events to fold) are jobs run in painting order on idle cores of Qt's
// pool (JobPipeline) from the moment the frame is built, so that the passes can paint the first
// rows while helpers still compute later ones: await(row) returns once that row's job is done,
// running it on the calling thread if no helper has begun it. Waiting for a result is const,
// as for std::shared_future::get: the job was the frame's from its construction, and its result
// is fixed by then. A job writes only its own row's entries.
//
// The frame holds references into its geometry's caches and the trace: it must not outlive them,
// and no other frame of the geometry may be queried while it lives. Its destructor finishes the
// jobs not yet done, so the geometry's cache never keeps a claimed row unfolded.
class TimelineFrame {
public:
    // Rows to fold with fewer visible events than this in all, and fewer than 8 summarised
    // rows, are done on the painting thread alone: waking a helper costs more than it saves.
    static constexpr std::uint64_t kShareFoldEvents = 20'000;

    struct Options {
        // Rows with many events per pixel are drawn from their summary (false: vector output,
        // where every draw item is its own rectangle).
        bool summaries = true;
        // Helpers of Qt's pool the jobs may use; nullopt: up to 3 when the frame is worth it
        // (idealThreadCount - 1 at most).
        std::optional<int> helpers;
        // The timeline search's matches to mark (TimelineView's search bar); nullptr, or a
        // result of another trace: none.
        const EventSearchResult* search = nullptr;
    };

    TimelineFrame(TimelineGeometry& geometry, const ViewFrame& view, Options options);
    TimelineFrame(TimelineGeometry& geometry, const ViewFrame& view)
        : TimelineFrame(geometry, view, Options{}) {}
    ~TimelineFrame();
    TimelineFrame(const TimelineFrame&) = delete;
    TimelineFrame& operator=(const TimelineFrame&) = delete;

    const ViewFrame& view() const { return m_view; }
    // The trace and its level of detail the frame was built from; nullptr: no trace (no rows).
    const Trace* trace() const { return m_trace; }
    const TimelineLod* lod() const { return m_lod; }
    // TimelineGeometry::traceGeneration of the geometry it was built from.
    std::uint64_t traceGeneration() const { return m_traceGeneration; }

    // The visible rows below the pinned ones, top to bottom (clipped to below pinnedHeight()),
    // then the pinned rows; painting order.
    std::span<const FrameRow> scrolledRows() const { return {m_rows.data(), m_pinnedBegin}; }
    std::span<const FrameRow> pinnedRows() const {
        return std::span<const FrameRow>(m_rows).subspan(m_pinnedBegin);
    }
    int pinnedHeight() const { return m_pinnedHeight; }
    // Canvas y below the last row: what lies below it is background.
    int rowsBottom() const { return m_rowsBottom; }

    // `row` (one of this frame's) once its job is done: its items and columns are final. A job's
    // exception is rethrown here.
    const FrameRow& await(const FrameRow& row) const;
    // Returns once every job is done; rethrows the first job's exception.
    void finish() const;
    // The number of row jobs (rows folded or summarised for this frame).
    std::size_t jobCount() const { return m_jobs.size(); }

    // Canvas rectangle of an event (TimelineGeometry::eventRect).
    std::optional<QRectF> eventRect(EventRef ref) const {
        return TimelineGeometry::eventRectIn(m_trace, m_view, ref);
    }

    // Minimum width of a search mark: a match narrower than this (or folded with others) is
    // still seen.
    static constexpr double kSearchMarkMinPx = 3.0;
    // Where the matches at row positions `positions` (ascending) of `row` are marked in `view`:
    // each match's own extent, at least kSearchMarkMinPx wide, snapped, clipped to
    // [-1, width + 1], marks that touch merged. Matches that start under a mark already made are
    // skipped with binary searches, so the cost is O(marks * log n) whatever the number of
    // matches (a folded run of a million events holding matches costs one mark).
    static std::vector<PixelSpan> searchMarkSpans(const RowView& row,
                                                  std::span<const std::uint32_t> positions,
                                                  const ViewFrame& view);

private:
    // A row's job: a summarised row's columns, or the folding of a claimed row.
    struct Job {
        const FrameRow* row = nullptr;
        TimelineGeometry::PendingRow fold;             // for a row to fold (fold.items set)
        std::vector<SummaryColumn>* columns = nullptr; // for a summarised row
    };
    void build(TimelineGeometry& geometry, const Options& options);
    void runJob(std::size_t k) const;

    TimelineGeometry* m_geometry;
    ViewFrame m_view;
    const Trace* m_trace = nullptr;
    const TimelineLod* m_lod = nullptr;
    std::uint64_t m_traceGeneration = 0;
    std::vector<FrameRow> m_rows;
    std::size_t m_pinnedBegin = 0;
    int m_pinnedHeight = 0;
    int m_rowsBottom = 0;
    std::vector<Job> m_jobs;
    using Pipeline = JobPipeline<std::function<void(std::size_t)>>;
    std::unique_ptr<Pipeline> m_pipeline;
};

} // namespace strobe
