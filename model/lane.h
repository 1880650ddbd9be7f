// SPDX-License-Identifier: MIT
#pragma once

#include "intervalindex.h"
#include "types.h"

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

namespace strobe {

class Lane;

// The events of one row of a lane, in start order. Within a row intervals do not overlap, so
// both starts and ends are sorted and windows are found with two binary searches.
class RowView {
public:
    RowView(const Lane& lane, const std::uint32_t* indices, std::uint32_t size)
        : m_lane(&lane)
        , m_indices(indices)
        , m_size(size) {}
    std::uint32_t size() const { return m_size; }
    // Lane index of the row's k-th event.
    std::uint32_t laneIndex(std::uint32_t k) const { return m_indices ? m_indices[k] : k; }
    TimeNs start(std::uint32_t k) const;
    TimeNs end(std::uint32_t k) const;
    // Returns the first k whose effective end > t; no clamping (size() when none).
    std::uint32_t firstEndingAfter(TimeNs t) const;
    // Returns the first k whose start >= t; no clamping (size() when none).
    std::uint32_t firstStartingAtOrAfter(TimeNs t) const;

private:
    const Lane* m_lane;
    const std::uint32_t* m_indices; // nullptr: the lane's events are this row, in order
    std::uint32_t m_size;
};

// How a lane's overlapping events are spread over rows.
enum class RowPolicy : std::uint8_t {
    Nesting,  // call stacks and NVTX push/pop: a contained event goes one row below its parent
    FirstFit, // GPU work and start/end ranges: the first row that is free at the event's start
};

// One row group of the timeline: events of one kind of one thread or one GPU stream.
// Struct-of-arrays, sorted by start (ties: longer first), frozen after finalize().
class Lane {
public:
    Lane(LaneKind kind, std::uint32_t owner);

    LaneKind kind() const { return m_kind; }
    // For CPU lanes the index of the thread (or process, for NvtxStartEnd) in the Trace; for GPU
    // lanes the index of the stream (or GPU, for Uvm).
    std::uint32_t owner() const { return m_owner; }
    // Extra key of the lane (the NVTX domain's name id for NVTX lanes; 0 otherwise).
    StringId domain() const { return m_domain; }
    void setDomain(StringId d) { m_domain = d; }

    std::uint32_t size() const { return std::uint32_t(m_start.size()); }
    bool isEmpty() const { return m_start.empty(); }
    TimeNs start(std::uint32_t i) const { return m_start[i]; }
    TimeNs end(std::uint32_t i) const { return m_end[i]; }
    StringId nameId(std::uint32_t i) const { return m_name[i]; }
    // Index of the event in its kind's record table of the Trace (kernels, memcpys, API calls...).
    std::uint32_t payload(std::uint32_t i) const { return m_payload[i]; }
    std::uint16_t row(std::uint32_t i) const { return m_row.empty() ? 0 : m_row[i]; }
    std::span<const TimeNs> starts() const { return m_start; }
    std::span<const TimeNs> ends() const { return m_end; }

    std::uint16_t rowCount() const { return m_rowCount; }
    RowView rowView(std::uint16_t r) const;
    TimeRange timeRange() const { return m_range; }

    // Every event overlapping [a, b), across rows, ascending index.
    template <typename Fn> void forEachOverlapping(TimeNs a, TimeNs b, Fn&& fn) const {
        m_index.forEachOverlapping(m_start, m_end, a, b, std::forward<Fn>(fn));
    }
    std::vector<std::uint32_t> overlapping(TimeNs a, TimeNs b) const {
        return m_index.overlapping(m_start, m_end, a, b);
    }
    std::vector<std::uint32_t> stabbing(TimeNs t) const {
        return m_index.stabbing(m_start, m_end, t);
    }

    // Building. Events may be appended in any order; finalize() sorts them, assigns rows and
    // builds the index, and returns the permutation applied (old index of each new position).
    void reserve(std::size_t n);
    void append(TimeNs start, TimeNs end, StringId name, std::uint32_t payload);
    std::vector<std::uint32_t> finalize(RowPolicy policy);

    std::size_t memoryBytes() const;

private:
    friend class TraceBuilder; // fixes ends of open ranges and payloads while building
    void assignRows(RowPolicy policy);

    LaneKind m_kind;
    std::uint32_t m_owner;
    StringId m_domain = 0;
    std::vector<TimeNs> m_start;
    std::vector<TimeNs> m_end;
    std::vector<StringId> m_name;
    std::vector<std::uint32_t> m_payload;
    std::vector<std::uint16_t> m_row;                 // empty when the lane has one row
    std::vector<std::vector<std::uint32_t>> m_rowIdx; // per row lane indices; empty with one row
    std::uint16_t m_rowCount = 1;
    TimeRange m_range;
    IntervalIndex m_index;
};

inline TimeNs RowView::start(std::uint32_t k) const {
    return m_lane->start(laneIndex(k));
}
inline TimeNs RowView::end(std::uint32_t k) const {
    return m_lane->end(laneIndex(k));
}

} // namespace strobe
