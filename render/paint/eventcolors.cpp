// SPDX-License-Identifier: MIT
#include "render/paint/eventcolors.h"

#include "model/lod/timelinelod.h"
#include "model/rangename.h"
#include "model/trace.h"
#include "render/paint/pixelblend.h"

namespace strobe {

void EventColors::useTrace(const Trace* trace, std::uint64_t generation) {
    if (trace == m_trace && generation == m_generation)
        return;
    m_trace = trace;
    m_generation = generation;
    m_colors.clear();
    m_classColors.clear();
}

ColorCategory EventColors::categoryOf(std::uint32_t lane, std::uint32_t index) const {
    const Lane& l = m_trace->lane(lane);
    const auto name = m_trace->strings().view(l.nameId(index));
    switch (l.kind()) {
    case LaneKind::Kernels: {
        const KernelConfig& config =
            m_trace->kernelConfigs()[m_trace->kernelConfigIndex(l.payload(index))];
        return classifyKernel(name, m_trace->strings().view(config.demangledName));
    }
    case LaneKind::Memcpy:
    case LaneKind::Uvm:
        return classifyMemcpy(m_trace->memcpys()[l.payload(index)].copyKind);
    case LaneKind::Memset:
        return ColorCategory::Memset;
    case LaneKind::CudaApi:
    case LaneKind::Osrt:
        return classifyApiCall(name);
    case LaneKind::Nvtx:
    case LaneKind::NvtxStartEnd:
    case LaneKind::CpuOps:
    case LaneKind::Python:
        return ColorCategory::Nvtx;
    }
    return ColorCategory::OtherKernel;
}

quint64 EventColors::colorKey(bool dark, std::uint32_t lane, std::uint32_t index) const {
    return colorKeyOf(dark, colorIdentity(*m_trace, lane, index));
}

quint64 EventColors::colorKeyOf(bool dark, quint64 identity) {
    return identity >> 62 ? identity : (quint64(dark) << 63) | identity; // NVTX colours keep theirs
}

QColor EventColors::eventColor(const TimelinePalette& palette, std::uint32_t lane,
                               std::uint32_t index) {
    const Lane& l = m_trace->lane(lane);
    if (l.kind() == LaneKind::Nvtx || l.kind() == LaneKind::NvtxStartEnd) {
        // The range's own colour, from the trace (its alpha byte is not meaningful).
        if (const auto argb = m_trace->nvtxColor(l.payload(index)))
            return QColor::fromRgb(QRgb(*argb | 0xff000000u));
    }
    const quint64 key = colorKey(palette.dark, lane, index);
    if (auto it = m_colors.constFind(key); it != m_colors.constEnd())
        return it.value();
    std::string_view name = m_trace->strings().view(l.nameId(index));
    if (l.kind() == LaneKind::Nvtx || l.kind() == LaneKind::NvtxStartEnd)
        name = groupedRangeNameUtf8(name); // every call of an operator in the operator's colour
    const QColor c = palette.eventColor(categoryOf(lane, index), stableNameHash(name));
    m_colors.insert(key, c);
    return c;
}

const std::vector<QRgb>& EventColors::classColors(const TimelinePalette& palette,
                                                  const TimelineLod& lod, std::uint32_t lane) {
    const std::span<const std::uint32_t> examples = lod.colorClasses(lane);
    LaneClassColors& c = m_classColors[lane];
    // Event colours follow the theme alone (see m_colors); the folded grey washes them.
    const QRgb folded = palette.folded.rgb();
    if (c.rgb.size() != examples.size() || c.dark != palette.dark || c.folded != folded) {
        c.dark = palette.dark;
        c.folded = folded;
        c.rgb.resize(examples.size());
        for (std::size_t k = 0; k < examples.size(); ++k)
            c.rgb[k] = washed(eventColor(palette, lane, examples[k]).rgb(), folded);
    }
    return c.rgb;
}

QRgb EventColors::itemColor(const TimelinePalette& palette, std::uint32_t lane, const RowView& rv,
                            const DrawItem& it) {
    // Folded runs: the middle event's hue, washed towards grey.
    const std::uint32_t index = rv.laneIndex(it.first + it.count / 2);
    const quint64 id = colorIdentity(*m_trace, lane, index);
    if (id >> 62) { // an NVTX range's own colour (its alpha byte is not meaningful)
        const QRgb c = QRgb(id) | 0xff000000u;
        return it.isFolded ? washed(c, palette.folded.rgb()) : c;
    }
    const quint64 key = colorKeyOf(palette.dark, id);
    ItemColors& slot = m_itemColors[(key * 0x9E3779B97F4A7C15ull) >> 56];
    static_assert(kItemColorSlots == 256);
    if (slot.paint != m_paintCount || slot.key != key) {
        const QRgb c = eventColor(palette, lane, index).rgb();
        slot = ItemColors{m_paintCount, key, c, washed(c, palette.folded.rgb())};
    }
    return it.isFolded ? slot.washed : slot.plain;
}

} // namespace strobe
