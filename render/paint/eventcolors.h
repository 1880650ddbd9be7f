// SPDX-License-Identifier: MIT
#pragma once

#include "model/lod/foldruns.h"
#include "render/paint/timelinecolors.h"

#include <QColor>
#include <QHash>
#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

namespace strobe {

class RowView;
class TimelineLod;
class Trace;

// The colours of one trace's events as the lane rows draw them, kept between frames because a
// folded row at a middle zoom asks for thousands of them a frame: per colour key (kind and name,
// or an NVTX range's own colour) and theme, per lane colour class washed for summarised rows,
// and a direct-mapped memo of the current paint's item colours. None of it is geometry: it
// follows from the trace and the palette alone. Single-threaded (the painting thread).
class EventColors {
public:
    // Drops everything when `trace` differs from the last one (or its generation does).
    void useTrace(const Trace* trace, std::uint64_t generation);
    const Trace* trace() const { return m_trace; }
    // Starts a paint: the item memo of the last one no longer answers.
    void beginPaint() { ++m_paintCount; }

    QColor eventColor(const TimelinePalette& palette, std::uint32_t lane, std::uint32_t index);
    // A draw item's colour: its middle event's, washed towards grey when folded.
    QRgb itemColor(const TimelinePalette& palette, std::uint32_t lane, const RowView& rv,
                   const DrawItem& it);
    // The colour of each of a lane's colour classes (TimelineLod::colorClasses) washed towards
    // the folded grey, kept while the theme and the classes stay.
    const std::vector<QRgb>& classColors(const TimelinePalette& palette, const TimelineLod& lod,
                                         std::uint32_t lane);

private:
    ColorCategory categoryOf(std::uint32_t lane, std::uint32_t index) const;
    // What eventColor caches on: kind and name (copy kind for memcpys), or an NVTX range's colour.
    quint64 colorKey(bool dark, std::uint32_t lane, std::uint32_t index) const;
    // The same from the event's colorIdentity.
    static quint64 colorKeyOf(bool dark, quint64 identity);

    const Trace* m_trace = nullptr;
    std::uint64_t m_generation = 0;
    std::uint64_t m_paintCount = 0;
    QHash<quint64, QColor> m_colors;
    struct LaneClassColors {
        bool dark = false;
        QRgb folded = 0;
        std::vector<QRgb> rgb;
    };
    std::unordered_map<std::uint32_t, LaneClassColors> m_classColors; // per lane
    // This paint's event colours by colorKey, plain and washed: the QHash lookup, the QColor
    // arithmetic and an NVTX range's colour search cost more per item than the folding.
    struct ItemColors {
        std::uint64_t paint = 0; // m_paintCount when filled; 0: never
        quint64 key = 0;
        QRgb plain = 0, washed = 0;
    };
    static constexpr std::size_t kItemColorSlots = 256;
    std::vector<ItemColors> m_itemColors = std::vector<ItemColors>(kItemColorSlots);
};

} // namespace strobe
