// SPDX-License-Identifier: MIT
#pragma once

#include "model/analysis/nvtxprojection.h"
#include "model/lod/foldruns.h"
#include "model/lod/timelinelod.h"
#include "model/lod/utilization.h"
#include "widgets/timeline/paintcontext.h"

#include <QColor>
#include <QHash>
#include <QImage>
#include <QString>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

class QPainter;

namespace strobe {

struct LayoutRow;

// Builds and draws the geometry of lane rows and GPU utilisation strips. Geometry is cached per
// (visible range, width, data generation); only rows that become visible are built. A row whose
// visible window holds more than kSummaryEventsPerPx events per device pixel column is drawn
// from its RowSummary (one column per pixel) once the TimelineLod has it; other rows, and every
// row until then, fold with foldRuns.
class LanePainter {
public:
    // Minimum width of an unfolded event; narrower runs fold (see foldRuns).
    static constexpr double kMinPx = 3.0;
    // A folded row with more items than this is coloured into one image line and blitted.
    static constexpr std::size_t kLineItems = 96;
    // Above this many visible events per pixel column on average, a row paints from its summary.
    static constexpr std::uint32_t kSummaryEventsPerPx = 4;

    // `lod` is the trace's level-of-detail data, possibly still being built (nullptr: none).
    void setTrace(const Trace* trace, std::shared_ptr<const TimelineLod> lod = nullptr);
    // True when (lane, row) paints from its summary in `ctx` (not through rowItems).
    bool paintsFromSummary(const PaintContext& ctx, std::uint32_t lane, std::uint16_t row) const;

    // The draw items of (lane, row) in `ctx`'s range, from the cache when the key matches.
    const std::vector<DrawItem>& rowItems(const PaintContext& ctx, std::uint32_t lane,
                                          std::uint16_t row);
    // Every visible row of the layout, then nothing else (overlays are drawn by the canvas).
    void paint(QPainter& p, const PaintContext& ctx);

    // The projected NVTX lanes to draw in ProjectedNvtx rows (owned by the view); nullptr: none.
    void setProjectedNvtx(const std::vector<ProjectedNvtxLane>* lanes);
    const ProjectedNvtxLane* projectedNvtx(std::uint32_t deviceId) const;
    // The draw items of row `row` of a device's projected NVTX lane in `ctx`'s range.
    const std::vector<DrawItem>& projectedItems(const PaintContext& ctx, std::uint32_t deviceId,
                                                std::uint16_t row);

    const DeviceUtilization* utilization(std::uint32_t deviceId) const;
    // Idle stretches at least `threshold` long of a device, all of them (cached per threshold).
    const std::vector<TimeRange>& idleGaps(std::uint32_t deviceId, TimeNs threshold);

    QColor eventColor(const TimelinePalette& palette, std::uint32_t lane, std::uint32_t index);
    // The name shown for an event (API names lose their _vNNNN suffix), cached per string.
    const QString& eventName(std::uint32_t lane, std::uint32_t index);

private:
    struct CacheKey {
        TimeRange view;
        int width = 0;
        std::uint64_t generation = 0;
        bool operator==(const CacheKey&) const = default;
    };
    void paintLaneRow(QPainter& p, const PaintContext& ctx, const LayoutRow& row, int y);
    // Draws the row from its summary; false (nothing drawn) when the row does not qualify.
    bool paintSummaryRow(QPainter& p, const PaintContext& ctx, const LayoutRow& row, int y,
                         QColor background);
    // One opaque line of `columns` device pixels, `logicalHeight` high, drawn by blitLine: the
    // caller fills the returned first scan line.
    QRgb* lineImage(int columns, int logicalHeight, qreal dpr);
    void blitLine(QPainter& p, int y);
    static QRgb blend(QRgb under, QRgb over, int alpha);
    // A draw item's colour: its middle event's, washed towards grey when folded.
    QColor itemColor(const TimelinePalette& palette, std::uint32_t lane, const RowView& rv,
                     const DrawItem& it);
    // The colour of a lane's colour class (TimelineLod::colorClasses) washed towards the folded
    // grey, cached per class and paint.
    struct ClassColor {
        std::uint64_t paint = 0; // m_paintCount when computed
        QRgb rgb = 0;
    };
    QRgb classColor(const TimelinePalette& palette, std::uint32_t lane, std::uint32_t cls,
                    std::vector<ClassColor>& cache);
    std::optional<int> summaryLevel(const PaintContext& ctx, std::uint32_t lane,
                                    std::uint16_t row) const;
    void paintUtilization(QPainter& p, const PaintContext& ctx, const LayoutRow& row, int y);
    void paintProjectedRow(QPainter& p, const PaintContext& ctx, const LayoutRow& row, int y);
    void checkCacheKey(const PaintContext& ctx);
    ColorCategory categoryOf(std::uint32_t lane, std::uint32_t index) const;
    // What eventColor caches on: kind and name (copy kind for memcpys), or an NVTX range's colour.
    quint64 colorKey(bool dark, std::uint32_t lane, std::uint32_t index) const;

    const Trace* m_trace = nullptr;
    std::shared_ptr<const TimelineLod> m_lod;
    std::uint64_t m_generation = 0;
    CacheKey m_key;
    std::unordered_map<std::uint64_t, std::vector<DrawItem>> m_rows;
    std::vector<SummaryColumn> m_columns; // scratch, one per device pixel column
    QImage m_line;                        // see lineImage
    std::unordered_map<std::uint32_t, std::vector<ClassColor>> m_classColors; // per lane
    std::uint64_t m_paintCount = 0;
    const std::vector<ProjectedNvtxLane>* m_projected = nullptr;
    std::unordered_map<std::uint32_t, std::pair<TimeNs, std::vector<TimeRange>>> m_gaps;
    QHash<StringId, QString> m_names;
    QHash<StringId, int> m_textWidth;
    QHash<quint64, QColor> m_colors;
};

} // namespace strobe
