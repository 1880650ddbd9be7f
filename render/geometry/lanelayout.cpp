// SPDX-License-Identifier: MIT
#include "render/geometry/lanelayout.h"

#include "model/trace.h"

#include <QStringBuilder>
#include <algorithm>
#include <map>

namespace strobe {

void LaneLayout::setTrace(const Trace* trace) {
    m_trace = trace;
    m_hidden.clear();
    m_pinned.clear();
    m_projectedRows.clear();
    buildGroups();
    relayout();
}

void LaneLayout::buildGroups() {
    m_groups.clear();
    m_roots.clear();
    m_laneGroup.clear();
    if (!m_trace)
        return;
    const Trace& t = *m_trace;
    std::map<std::pair<int, std::uint32_t>, std::uint32_t> byKey; // (kind, key) -> group
    auto group = [&](GroupKind kind, std::uint32_t key, std::optional<std::uint32_t> parent,
                     auto makeLabel) {
        const auto k = std::make_pair(int(kind), key);
        if (auto it = byKey.find(k); it != byKey.end())
            return it->second;
        const auto idx = std::uint32_t(m_groups.size());
        LaneGroup g;
        g.kind = kind;
        g.label = makeLabel();
        g.parent = parent;
        g.interesting = kind == GroupKind::Gpu || kind == GroupKind::Stream;
        m_groups.push_back(std::move(g));
        if (parent)
            m_groups[*parent].children.push_back(idx);
        else
            m_roots.push_back(idx);
        byKey.emplace(k, idx);
        return idx;
    };
    auto processGroup = [&](std::uint32_t p) {
        return group(GroupKind::Process, p, std::nullopt, [&] { return t.processLabel(p); });
    };
    auto gpuGroup = [&](std::uint32_t deviceId) {
        const std::uint32_t g =
            group(GroupKind::Gpu, deviceId, std::nullopt, [&] { return t.gpuLabel(deviceId); });
        m_groups[g].deviceId = deviceId;
        return g;
    };
    m_laneGroup.resize(t.lanes().size(), 0);
    for (std::uint32_t li = 0; li < t.lanes().size(); ++li) {
        const Lane& l = t.lane(li);
        std::uint32_t g = 0;
        switch (ownerOf(l.kind())) {
        case LaneOwner::Thread: {
            const std::uint32_t p = processGroup(t.threads()[l.owner()].process);
            g = group(GroupKind::Thread, l.owner(), p, [&] { return t.threadLabel(l.owner()); });
            if (l.kind() != LaneKind::Osrt && !l.isEmpty())
                m_groups[g].interesting = m_groups[p].interesting = true;
            break;
        }
        case LaneOwner::Process:
            g = processGroup(l.owner());
            if (!l.isEmpty())
                m_groups[g].interesting = true;
            break;
        case LaneOwner::Stream: {
            const StreamInfo& s = t.streams()[l.owner()];
            const std::uint32_t gpu = gpuGroup(s.deviceId);
            g = group(GroupKind::Stream, l.owner(), gpu, [&]() -> QString {
                // Under its GPU's header, the stream's number says it all.
                return QStringLiteral("Stream ") % QString::number(s.streamId);
            });
            break;
        }
        case LaneOwner::Device:
            g = gpuGroup(l.owner());
            break;
        }
        m_groups[g].lanes.push_back(li);
        m_laneGroup[li] = g;
    }
    // A GPU the trace lists without one event (the other GPUs of a node, where the program used
    // one) still gets a header and a (fully idle) utilisation strip, but counts as of no
    // interest: hideIdleGpus drops it.
    for (const GpuInfo& gpu : t.gpus())
        gpuGroup(gpu.id);
    for (std::uint32_t g = 0; g < m_groups.size(); ++g) {
        if (m_groups[g].kind == GroupKind::Gpu)
            m_groups[g].interesting = ranAnything(g);
    }
}

bool LaneLayout::ranAnything(std::uint32_t g) const {
    const LaneGroup& grp = m_groups[g];
    return std::any_of(grp.lanes.begin(), grp.lanes.end(),
                       [&](std::uint32_t l) { return !m_trace->lane(l).isEmpty(); }) ||
           std::any_of(grp.children.begin(), grp.children.end(),
                       [&](std::uint32_t c) { return ranAnything(c); });
}

void LaneLayout::setExpanded(std::uint32_t group, bool expanded) {
    if (group >= m_groups.size() || m_groups[group].expanded == expanded)
        return;
    m_groups[group].expanded = expanded;
    relayout();
}

void LaneLayout::setAllExpanded(bool expanded) {
    for (auto& g : m_groups)
        g.expanded = expanded;
    relayout();
}

void LaneLayout::setLaneHidden(std::uint32_t lane, bool hidden) {
    const bool changed = hidden ? m_hidden.insert(lane).second : m_hidden.erase(lane) > 0;
    if (changed)
        relayout();
}

void LaneLayout::showAllLanes() {
    m_hidden.clear();
    relayout();
}

void LaneLayout::setLanePinned(std::uint32_t lane, bool pinned) {
    const bool changed = pinned ? m_pinned.insert(lane).second : m_pinned.erase(lane) > 0;
    if (changed)
        relayout();
}

void LaneLayout::setProjectedNvtxRows(std::map<std::uint32_t, std::uint16_t> rowsPerDevice) {
    if (rowsPerDevice == m_projectedRows)
        return;
    m_projectedRows = std::move(rowsPerDevice);
    relayout();
}

void LaneLayout::setHideIdle(bool hide) {
    if (hide == m_hideIdle)
        return;
    m_hideIdle = hide;
    relayout();
}

void LaneLayout::setHideIdleGpus(bool hide) {
    if (hide == m_hideIdleGpus)
        return;
    m_hideIdleGpus = hide;
    relayout();
}

void LaneLayout::setHideEmptyGroups(bool hide) {
    if (hide == m_hideEmpty)
        return;
    m_hideEmpty = hide;
    relayout();
}

void LaneLayout::setRowHeight(int rowPx) {
    rowPx = std::clamp(rowPx, kMinRowHeight, kRowHeight);
    if (rowPx == m_rowHeight)
        return;
    m_rowHeight = rowPx;
    relayout();
}

bool LaneLayout::ensureShown(std::uint32_t lane) {
    if (lane >= m_laneGroup.size())
        return false;
    m_hidden.erase(lane);
    for (std::optional<std::uint32_t> g = m_laneGroup[lane]; g; g = m_groups[*g].parent)
        m_groups[*g].expanded = true;
    relayout();
    return findLaneRow(lane, 0) != nullptr;
}

bool LaneLayout::groupShown(std::uint32_t g) const {
    if (m_hideEmpty && !hasShownLane(g))
        return false;
    if (m_groups[g].interesting)
        return true;
    return m_groups[g].kind == GroupKind::Gpu ? !m_hideIdleGpus : !m_hideIdle;
}

bool LaneLayout::hasShownLane(std::uint32_t g) const {
    const LaneGroup& grp = m_groups[g];
    return std::any_of(grp.lanes.begin(), grp.lanes.end(),
                       [&](std::uint32_t l) { return !m_hidden.count(l) && !m_pinned.count(l); }) ||
           std::any_of(grp.children.begin(), grp.children.end(),
                       [&](std::uint32_t c) { return hasShownLane(c); });
}

void LaneLayout::appendLane(std::uint32_t lane, std::uint32_t group, int indent, bool pinned) {
    const Lane& l = m_trace->lane(lane);
    auto& out = pinned ? m_pinnedRows : m_rows;
    int& y = pinned ? m_pinnedHeight : m_contentHeight;
    for (std::uint16_t r = 0; r < l.rowCount(); ++r) {
        LayoutRow row;
        row.kind = LayoutRowKind::LaneRow;
        row.y = y;
        row.height = m_rowHeight;
        row.indent = indent;
        row.group = group;
        row.lane = lane;
        row.row = r;
        row.pinned = pinned;
        if (r == 0) {
            row.label = m_trace->laneKindLabel(lane);
            if (pinned) // out of its tree: say whose lane it is
                row.label = m_trace->laneLabel(lane);
        }
        out.push_back(std::move(row));
        y += m_rowHeight;
    }
}

void LaneLayout::appendGroup(std::uint32_t g, int indent) {
    if (!groupShown(g))
        return;
    const LaneGroup& grp = m_groups[g];
    // A group whose lanes are all hidden or pinned (and has no child groups) is not shown.
    const bool anyLane = std::any_of(grp.lanes.begin(), grp.lanes.end(), [&](std::uint32_t l) {
        return !m_hidden.count(l) && !m_pinned.count(l);
    });
    if (!anyLane && grp.children.empty() && grp.kind != GroupKind::Gpu)
        return;
    LayoutRow header;
    header.kind = LayoutRowKind::GroupHeader;
    header.y = m_contentHeight;
    header.height = headerHeight();
    header.indent = indent;
    header.group = g;
    header.label = grp.label;
    m_rows.push_back(header);
    m_contentHeight += header.height;
    if (grp.kind == GroupKind::Gpu) { // visible even when the GPU is collapsed
        LayoutRow util;
        util.kind = LayoutRowKind::Utilization;
        util.y = m_contentHeight;
        util.height = utilizationHeight();
        util.indent = indent + 1;
        util.group = g;
        util.deviceId = grp.deviceId;
        util.label = QStringLiteral("Utilisation");
        m_rows.push_back(util);
        m_contentHeight += util.height;
        if (m_trace->gpuMemoryOf(grp.deviceId)) {
            LayoutRow mem = util;
            mem.kind = LayoutRowKind::MemoryCounter;
            mem.y = m_contentHeight;
            mem.height = counterHeight();
            mem.label = QStringLiteral("GPU memory");
            m_rows.push_back(mem);
            m_contentHeight += mem.height;
        }
    }
    if (!grp.expanded)
        return;
    if (grp.kind == GroupKind::Gpu) {
        const auto projected = m_projectedRows.find(grp.deviceId);
        const std::uint16_t n = projected == m_projectedRows.end() ? 0 : projected->second;
        for (std::uint16_t r = 0; r < n; ++r) {
            LayoutRow row;
            row.kind = LayoutRowKind::ProjectedNvtx;
            row.y = m_contentHeight;
            row.height = m_rowHeight;
            row.indent = indent + 1;
            row.group = g;
            row.row = r;
            row.deviceId = grp.deviceId;
            if (r == 0)
                row.label = QStringLiteral("NVTX (projected)");
            m_rows.push_back(std::move(row));
            m_contentHeight += m_rowHeight;
        }
    }
    for (std::uint32_t c : grp.children)
        appendGroup(c, indent + 1);
    for (std::uint32_t l : grp.lanes) {
        if (!m_hidden.count(l) && !m_pinned.count(l))
            appendLane(l, g, indent + 1, false);
    }
}

void LaneLayout::relayout() {
    m_rows.clear();
    m_pinnedRows.clear();
    m_contentHeight = m_pinnedHeight = 0;
    ++m_generation;
    if (!m_trace)
        return;
    for (std::uint32_t lane : m_pinned) {
        if (lane < m_laneGroup.size() && !m_hidden.count(lane))
            appendLane(lane, m_laneGroup[lane], 0, true);
    }
    for (std::uint32_t g : m_roots)
        appendGroup(g, 0);
}

const LayoutRow* LaneLayout::rowAt(int viewY, int scrollY) const {
    auto find = [](const std::vector<LayoutRow>& rows, int y) -> const LayoutRow* {
        auto it = std::upper_bound(rows.begin(), rows.end(), y,
                                   [](int v, const LayoutRow& r) { return v < r.y; });
        if (it == rows.begin())
            return nullptr;
        --it;
        return y < it->y + it->height ? &*it : nullptr;
    };
    if (viewY < 0)
        return nullptr;
    if (viewY < m_pinnedHeight)
        return find(m_pinnedRows, viewY);
    return find(m_rows, viewY - m_pinnedHeight + scrollY);
}

const LayoutRow* LaneLayout::findLaneRow(std::uint32_t lane, std::uint16_t row) const {
    for (const auto* rows : {&m_pinnedRows, &m_rows}) {
        for (const LayoutRow& r : *rows) {
            if (r.kind == LayoutRowKind::LaneRow && r.lane == lane && r.row == row)
                return &r;
        }
    }
    return nullptr;
}

} // namespace strobe
