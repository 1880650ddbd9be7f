// SPDX-License-Identifier: MIT
#pragma once

#include "model/types.h"

#include <QString>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <vector>

namespace strobe {

class Trace;

enum class GroupKind : std::uint8_t { Process, Thread, Gpu, Stream };

// A collapsible node of the lane tree: a process (its threads, its start/end NVTX lanes), a
// thread (its CUDA API, OS runtime and NVTX lanes), a GPU (utilisation strip, streams, unified
// memory) or a stream (its kernel, memcpy and memset lanes).
struct LaneGroup {
    GroupKind kind = GroupKind::Process;
    QString label;
    std::optional<std::uint32_t> parent; // index into LaneLayout::groups()
    std::vector<std::uint32_t> children; // child groups, in display order
    std::vector<std::uint32_t> lanes;    // lanes directly in this group, after the children
    std::uint32_t deviceId = 0;          // for Gpu groups
    // Threads and processes: has CUDA API or NVTX events. GPUs: ran something (a kernel, copy,
    // memset or migration on one of its lanes). Streams: always.
    bool interesting = true;
    bool expanded = true;
};

// ProjectedNvtx: one row of a GPU's "NVTX (projected)" lane (NVTX ranges drawn over the span of
// the GPU work they launched; see nvtxprojection.h), between its utilisation strip and streams.
// MemoryCounter: a GPU's allocated bytes over time (Trace::gpuMemory), under its utilisation
// strip, when the trace recorded them.
enum class LayoutRowKind : std::uint8_t {
    GroupHeader,
    Utilization,
    LaneRow,
    ProjectedNvtx,
    MemoryCounter
};

// One horizontal strip of the timeline. y is in content coordinates for scrolling rows and in
// view coordinates for pinned rows (which stay on top).
struct LayoutRow {
    LayoutRowKind kind = LayoutRowKind::LaneRow;
    int y = 0;
    int height = 0;
    int indent = 0;             // tree depth, for the header column
    std::uint32_t group = 0;    // the header's group, or the group a lane row belongs to
    std::uint32_t lane = 0;     // LaneRow only
    std::uint16_t row = 0;      // LaneRow and ProjectedNvtx: the row (depth) within the lane
    std::uint32_t deviceId = 0; // Utilization, ProjectedNvtx and MemoryCounter only
    bool pinned = false;
    QString label; // header column text; empty for a lane's deeper rows
};

// Turns a trace's lanes into the rows of the timeline: grouping, expand and collapse, hidden and
// pinned lanes, hiding threads without events of interest and GPUs that ran nothing. Pure
// geometry, no widget.
class LaneLayout {
public:
    static constexpr int kRowHeight = 18;
    static constexpr int kHeaderHeight = 20;
    static constexpr int kUtilizationHeight = 16;
    static constexpr int kCounterHeight = 32;
    // The smallest row setRowHeight takes: a 4 px bar between 1 px margins.
    static constexpr int kMinRowHeight = 6;

    void setTrace(const Trace* trace);
    const Trace* trace() const { return m_trace; }

    const std::vector<LaneGroup>& groups() const { return m_groups; }
    void setExpanded(std::uint32_t group, bool expanded);
    bool isExpanded(std::uint32_t group) const { return m_groups[group].expanded; }
    void setAllExpanded(bool expanded);

    void setLaneHidden(std::uint32_t lane, bool hidden);
    bool isLaneHidden(std::uint32_t lane) const { return m_hidden.count(lane) > 0; }
    void showAllLanes();
    void setLanePinned(std::uint32_t lane, bool pinned);
    bool isLanePinned(std::uint32_t lane) const { return m_pinned.count(lane) > 0; }
    // Hides threads and processes that have no CUDA API calls and no NVTX ranges. Off at first.
    void setHideIdle(bool hide);
    bool hideIdle() const { return m_hideIdle; }
    // Hides GPUs that ran nothing (a GPU the trace lists without one event on its lanes: its
    // utilisation strip would be empty). On at first.
    void setHideIdleGpus(bool hide);
    bool hideIdleGpus() const { return m_hideIdleGpus; }
    // Rows of the projected NVTX lane of each GPU (device id -> row count); empty hides them.
    void setProjectedNvtxRows(std::map<std::uint32_t, std::uint16_t> rowsPerDevice);
    bool showsProjectedNvtx() const { return !m_projectedRows.empty(); }
    // Leaves out every group none of whose lanes (or child groups' lanes) is shown, GPUs with
    // their utilisation strip included: a picture of some of the lanes shows only those.
    void setHideEmptyGroups(bool hide);
    bool hideEmptyGroups() const { return m_hideEmpty; }
    // Lane rows `rowPx` high (clamped to [kMinRowHeight, kRowHeight]), group headers 2 px taller
    // and utilisation strips 2 px shorter, so a picture of a fixed height fits more lanes.
    void setRowHeight(int rowPx);
    int rowHeight() const { return m_rowHeight; }
    int headerHeight() const { return m_rowHeight + (kHeaderHeight - kRowHeight); }
    int utilizationHeight() const { return m_rowHeight - (kRowHeight - kUtilizationHeight); }
    // The GPU memory counter: kCounterHeight at the default row height, scaled with it.
    int counterHeight() const { return m_rowHeight * kCounterHeight / kRowHeight; }
    // Whether `r` is drawn on the alternate band colour (every other row height down the view).
    bool isAlternate(const LayoutRow& r) const { return (r.y / m_rowHeight) % 2 != 0; }
    // Expands the groups above `lane`, unhides it; false when the lane is hidden by hideIdle
    // (a GPU holding a lane is never idle).
    bool ensureShown(std::uint32_t lane);

    const std::vector<LayoutRow>& pinnedRows() const { return m_pinnedRows; }
    int pinnedHeight() const { return m_pinnedHeight; }
    const std::vector<LayoutRow>& rows() const { return m_rows; }
    int contentHeight() const { return m_contentHeight; }

    // The row under view y (scrolling rows are shifted by scrollY below the pinned area).
    const LayoutRow* rowAt(int viewY, int scrollY) const;
    // The row drawing (lane, row), pinned or not; nullptr when collapsed or hidden.
    const LayoutRow* findLaneRow(std::uint32_t lane, std::uint16_t row) const;
    // Top of `r` in view coordinates.
    int viewY(const LayoutRow& r, int scrollY) const {
        return r.pinned ? r.y : m_pinnedHeight + r.y - scrollY;
    }
    // Changes whenever rows move; part of the painters' cache key.
    std::uint64_t generation() const { return m_generation; }

private:
    void buildGroups();
    void relayout();
    bool groupShown(std::uint32_t g) const;
    bool hasShownLane(std::uint32_t g) const;
    bool ranAnything(std::uint32_t g) const; // a GPU or stream group: an event on a lane
    void appendGroup(std::uint32_t g, int indent);
    void appendLane(std::uint32_t lane, std::uint32_t group, int indent, bool pinned);

    const Trace* m_trace = nullptr;
    std::vector<LaneGroup> m_groups;
    std::vector<std::uint32_t> m_roots;
    std::vector<std::uint32_t> m_laneGroup; // owning group of each lane
    std::set<std::uint32_t> m_hidden, m_pinned;
    bool m_hideIdle = false;
    bool m_hideIdleGpus = true;
    bool m_hideEmpty = false;
    int m_rowHeight = kRowHeight;
    std::map<std::uint32_t, std::uint16_t> m_projectedRows;
    std::vector<LayoutRow> m_rows, m_pinnedRows;
    int m_contentHeight = 0, m_pinnedHeight = 0;
    std::uint64_t m_generation = 0;
};

} // namespace strobe
