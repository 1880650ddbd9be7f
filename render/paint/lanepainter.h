// SPDX-License-Identifier: MIT
#pragma once

#include "model/lod/foldruns.h"
#include "model/lod/rowsummary.h"
#include "render/geometry/timelinegeometry.h"
#include "render/paint/labelcache.h"
#include "render/paint/paintcontext.h"
#include "render/paint/sharework.h"

#include <QColor>
#include <QHash>
#include <QImage>
#include <QString>
#include <functional>
#include <unordered_map>
#include <utility>
#include <vector>

class QPainter;

namespace strobe {

struct LayoutRow;
class RowView;

// Where a utilisation strip of `height` logical pixels draws its kernel (first) and copy (second)
// strips: (offset from the row's top, height) each, a 1 px margin above and below.
inline std::pair<std::pair<int, int>, std::pair<int, int>> utilizationHalves(int height) {
    const int inner = std::max(2, height - 2);
    const int top = inner / 2;
    return {{1, top}, {1 + top, inner - top}};
}

// Draws the lane rows and GPU utilisation strips of one frame as a TimelineGeometry places them:
// rows from their draw items, or from their RowSummary where the geometry says so, idle marks
// where it puts them. It keeps no geometry; what it caches is painting only (colours per trace,
// the labels' glyph runs, an image line reused between rows), so any QPainter (a widget, a
// QImage, an SVG generator) gets the same picture from the same geometry and context.
class LanePainter {
public:
    // A folded row with more items than this is coloured into one image line and blitted.
    static constexpr std::size_t kLineItems = 96;
    // Rows to fold with fewer visible events than this in all, and fewer than 8 summarised
    // rows, are done on the painting thread alone: waking a helper costs more than it saves.
    static constexpr std::uint64_t kShareFoldEvents = 20'000;

    // The whole canvas: every visible row of ctx.layout with its background, and the background
    // below the rows; nothing else (overlays: paintOverlay). `geometry` holds the trace that
    // ctx.trace names.
    void paint(QPainter& p, const PaintContext& ctx, const TimelineGeometry& geometry);

private:
    // Drops the per-trace caches when `geometry` holds another trace than the last paint.
    void useTraceOf(const TimelineGeometry& geometry);
    // This frame's row jobs, run on idle cores (JobPipeline) while the rows are painted.
    using RowJobs = JobPipeline<std::function<void(std::size_t)>>;
    void paintLaneRow(QPainter& p, const PaintContext& ctx, const TimelineGeometry& geometry,
                      RowJobs& jobs, const LayoutRow& row, int y);
    // Whether `row` shows in the frame (rows above `clipTop` are under the pinned ones).
    static bool isVisible(const PaintContext& ctx, const LayoutRow& row, int clipTop);
    // Lists this frame's row jobs in painting order (m_rowJobs): the visible rows drawn from
    // their summary, and the visible lane rows not folded yet (TimelineGeometry::claimRows).
    void prepareRows(const PaintContext& ctx, const TimelineGeometry& geometry);
    // Job k of m_rowJobs, on any thread: a summarised row's columns and its line of device
    // pixels, or the folding of a row. It writes only that job's slots.
    void runRowJob(const PaintContext& ctx, const TimelineGeometry& geometry, std::size_t k);
    // Draws a summarised row from its job's line.
    void paintSummaryRow(QPainter& p, const PaintContext& ctx, const LayoutRow& row, int y,
                         std::size_t job, const QColor& background);
    void paintUtilization(QPainter& p, const PaintContext& ctx, const TimelineGeometry& geometry,
                          const LayoutRow& row, int y);
    void paintProjectedRow(QPainter& p, const PaintContext& ctx, const TimelineGeometry& geometry,
                           const LayoutRow& row, int y);
    // Allocated bytes as a filled step plot scaled to the GPU's peak, the peak marked.
    void paintMemoryCounter(QPainter& p, const PaintContext& ctx, const LayoutRow& row, int y);
    // One opaque line of `columns` device pixels, repeated `logicalHeight` high by blitLine: the
    // caller fills the returned scan line.
    QRgb* lineImage(int columns, int logicalHeight, qreal dpr);
    void blitLine(QPainter& p, int y);
    // `line` (device pixels, one scan line) repeated `logicalHeight` high from `y`.
    static void blitLine(QPainter& p, const QImage& line, int y, int logicalHeight, qreal dpr);
    // A lane row drawn from one line (lineImage(columns, row.height - 2, dpr)): the line inside
    // the row's 1 px margins, the margins in `background`; each pixel of the row written once.
    void blitRowLine(QPainter& p, const PaintContext& ctx, const LayoutRow& row, int y,
                     const QColor& background);
    static void blitRowMargins(QPainter& p, const PaintContext& ctx, const LayoutRow& row, int y,
                               const QColor& background);

    QColor eventColor(const TimelinePalette& palette, std::uint32_t lane, std::uint32_t index);
    // The name shown for an event (API names lose their _vNNNN suffix), cached per string.
    const QString& eventName(std::uint32_t lane, std::uint32_t index);
    // A draw item's colour: its middle event's, washed towards grey when folded. Answered from
    // m_itemColors, as a folded row at a middle zoom asks for thousands of items a frame.
    QRgb itemColor(const TimelinePalette& palette, std::uint32_t lane, const RowView& rv,
                   const DrawItem& it);
    // The colour of each of a lane's colour classes (TimelineLod::colorClasses) washed towards
    // the folded grey, kept while the theme and the classes stay, so that the row jobs only read
    // them.
    struct LaneClassColors {
        bool dark = false;
        QRgb folded = 0;
        std::vector<QRgb> rgb;
    };
    const std::vector<QRgb>& classColors(const TimelinePalette& palette, const TimelineLod& lod,
                                         std::uint32_t lane);
    ColorCategory categoryOf(std::uint32_t lane, std::uint32_t index) const;
    // What eventColor caches on: kind and name (copy kind for memcpys), or an NVTX range's colour.
    quint64 colorKey(bool dark, std::uint32_t lane, std::uint32_t index) const;
    // The same from the event's colorIdentity.
    static quint64 colorKeyOf(bool dark, quint64 identity);

    // The trace of the last paint, and its TimelineGeometry::traceGeneration: what the caches
    // below belong to.
    const Trace* m_trace = nullptr;
    std::uint64_t m_traceGeneration = 0;
    std::uint64_t m_paintCount = 0;
    // A lane row that needs work before it is painted: a summarised row's columns and line, or
    // a row to fold. What a job writes is its own: m_summaryColumns[k] and m_summaryLines[k], or
    // its fold's cache entry.
    struct RowJob {
        const LayoutRow* row = nullptr;
        int level = -1;                                 // RowSummary level; -1: a row to fold
        TimelineGeometry::PendingRow fold;              // for a row to fold
        const std::vector<QRgb>* classColors = nullptr; // for a summarised row: its lane's
        QRgb background = 0;                            // and its background
    };
    std::vector<RowJob> m_rowJobs;                    // this frame's, in painting order
    std::vector<TimelineGeometry::RowKey> m_foldRows; // this frame's rows not from a summary
    std::size_t m_nextRowJob = 0;                     // the next one paintLaneRow meets
    // Per job, for a summarised row: a SummaryColumn and a pixel per device pixel column
    // (capacity reused).
    std::vector<std::vector<SummaryColumn>> m_summaryColumns;
    std::vector<std::vector<QRgb>> m_summaryLines;
    QImage m_line; // see lineImage
    int m_lineHeight = 0;
    qreal m_lineDpr = 1.0;
    std::unordered_map<std::uint32_t, LaneClassColors> m_classColors; // per lane
    QHash<StringId, QString> m_names;
    LabelCache m_labels;
    QHash<quint64, QColor> m_colors;
    // A direct-mapped memo of this paint's event colours by colorKey, plain and washed: the
    // QHash lookup, the QColor arithmetic and an NVTX range's colour search cost more per item
    // than the folding.
    struct ItemColors {
        std::uint64_t paint = 0; // m_paintCount when filled; 0: never
        quint64 key = 0;
        QRgb plain = 0, washed = 0;
    };
    static constexpr std::size_t kItemColorSlots = 256;
    std::vector<ItemColors> m_itemColors = std::vector<ItemColors>(kItemColorSlots);
};

} // namespace strobe
