// SPDX-License-Identifier: MIT
#pragma once

#include "model/intervalindex.h"
#include "model/types.h"

#include <QtGlobal>
#include <algorithm>
#include <compare>
#include <cstdint>
#include <functional>
#include <iterator>
#include <span>
#include <vector>

namespace strobe {

class Lane;

// A read-only, random-access view of one time column of a lane (starts or ends), decoded on the
// fly from the compressed storage: works with std::lower_bound and friends.
class LaneTimes {
public:
    using Getter = TimeNs (Lane::*)(std::uint32_t) const;
    class iterator {
    public:
        using iterator_category = std::random_access_iterator_tag;
        using value_type = TimeNs;
        using difference_type = std::ptrdiff_t;
        using pointer = void;
        using reference = TimeNs;
        iterator() = default;
        iterator(const Lane* l, Getter g, std::uint32_t i)
            : m_lane(l)
            , m_get(g)
            , m_i(i) {}
        TimeNs operator*() const { return (m_lane->*m_get)(m_i); }
        TimeNs operator[](difference_type d) const { return *(*this + d); }
        iterator& operator++() { return ++m_i, *this; }
        iterator operator++(int) { return iterator(m_lane, m_get, m_i++); }
        iterator& operator--() { return --m_i, *this; }
        iterator operator--(int) { return iterator(m_lane, m_get, m_i--); }
        iterator& operator+=(difference_type d) { return m_i = std::uint32_t(m_i + d), *this; }
        iterator& operator-=(difference_type d) { return m_i = std::uint32_t(m_i - d), *this; }
        friend iterator operator+(iterator a, difference_type d) { return a += d; }
        friend iterator operator+(difference_type d, iterator a) { return a += d; }
        friend iterator operator-(iterator a, difference_type d) { return a -= d; }
        friend difference_type operator-(const iterator& a, const iterator& b) {
            return difference_type(a.m_i) - difference_type(b.m_i);
        }
        friend bool operator==(const iterator& a, const iterator& b) { return a.m_i == b.m_i; }
        friend auto operator<=>(const iterator& a, const iterator& b) { return a.m_i <=> b.m_i; }

    private:
        const Lane* m_lane = nullptr;
        Getter m_get = nullptr;
        std::uint32_t m_i = 0;
    };
    LaneTimes(const Lane& l, Getter g, std::uint32_t n)
        : m_lane(&l)
        , m_get(g)
        , m_size(n) {}
    iterator begin() const { return iterator(m_lane, m_get, 0); }
    iterator end() const { return iterator(m_lane, m_get, m_size); }
    std::size_t size() const { return m_size; }
    TimeNs operator[](std::size_t i) const { return (m_lane->*m_get)(std::uint32_t(i)); }

private:
    const Lane* m_lane;
    Getter m_get;
    std::uint32_t m_size;
};

// The events of one row of a lane, in start order. Within a row intervals do not overlap, so
// both starts and ends are sorted and windows are found with two binary searches.
class RowView {
public:
    RowView(const Lane& lane, const std::uint32_t* indices, std::uint32_t size,
            const TimeNs* runningMaxEnd = nullptr)
        : m_lane(&lane)
        , m_indices(indices)
        , m_size(size)
        , m_runningMaxEnd(runningMaxEnd) {}
    std::uint32_t size() const { return m_size; }
    // Lane index of the row's k-th event.
    std::uint32_t laneIndex(std::uint32_t k) const { return m_indices ? m_indices[k] : k; }
    TimeNs start(std::uint32_t k) const;
    TimeNs end(std::uint32_t k) const;
    // Returns the first k whose effective end > t; no clamping (size() when none). In the
    // overflow row (see Lane::overflowEvents) it is the first k whose end or any earlier end > t.
    std::uint32_t firstEndingAfter(TimeNs t) const;
    // True for the last row of a lane that ran out of rows: its events may overlap.
    bool mayOverlap() const { return m_runningMaxEnd != nullptr; }
    // Returns the first k whose start >= t; no clamping (size() when none).
    std::uint32_t firstStartingAtOrAfter(TimeNs t) const;

private:
    const Lane* m_lane;
    const std::uint32_t* m_indices; // nullptr: the lane's events are this row, in order
    std::uint32_t m_size;
    const TimeNs* m_runningMaxEnd; // overflow row only: max effective end of events 0..k
};

// How a lane's overlapping events are spread over rows.
enum class RowPolicy : std::uint8_t {
    Nesting,  // call stacks and NVTX push/pop: a contained event goes one row below its parent
    FirstFit, // GPU work and start/end ranges: the first row that is free at the event's start
};

// One row group of the timeline: events of one kind of one thread or one GPU stream.
// Struct-of-arrays, sorted by start (ties: longer first), frozen after finalize().
//
// Frozen storage is compressed to ~11 bytes per event plus the row lists: a start is a 64-bit
// base per block of kStartBlock events plus a 32-bit offset (lanes where some block spans more
// than 4.29 s keep 64-bit starts), an end is a 32-bit duration, with durations that do not fit
// (or negative ones) kept exactly in a small side table, and a name is a 16-bit index into the
// lane's own list of distinct names (32-bit ids when a lane has more than 65,536 of them). The
// payload is implicit: records are stored in lane order, so event i's record is
// recordBase() + i, except in lanes that keep an explicit column (kernels, whose records are in
// start order across lanes). Every value round-trips.
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

    static constexpr std::uint32_t kStartShift = 6; // kStartBlock = 64 events per start base
    static constexpr std::uint32_t kStartBlock = 1u << kStartShift;

    std::uint32_t size() const { return m_size; }
    bool isEmpty() const { return m_size == 0; }
    TimeNs start(std::uint32_t i) const {
        if (!m_wideStart.empty())
            return m_wideStart[i];
        const std::uint32_t offset = m_startOffset[i];
        return offset != kFarStart ? m_startBase[i >> kStartShift] + TimeNs(offset) : farStart(i);
    }
    TimeNs end(std::uint32_t i) const {
        // Staged and frozen alike: a 32-bit duration, or the exact end kept beside.
        const std::uint32_t d = m_duration[i];
        return d != kLongDuration ? start(i) + TimeNs(d) : longEnd(i);
    }
    StringId nameId(std::uint32_t i) const {
        return m_nameIndex.empty() ? m_name[i] : m_nameDict[m_nameIndex[i]];
    }
    // Index of the event in its kind's record table of the Trace (kernels, memcpys, API calls...).
    std::uint32_t payload(std::uint32_t i) const {
        return m_payload.empty() ? m_recordBase + i : m_payload[i];
    }
    // Position of event 0 in the lane's family of record tables (Trace::refOfRecord).
    std::uint32_t recordBase() const { return m_recordBase; }
    // Views of all starts (sorted) and all ends, decoded on access.
    LaneTimes starts() const { return LaneTimes(*this, &Lane::start, size()); }
    LaneTimes ends() const { return LaneTimes(*this, &Lane::end, size()); }
    // The row of event i (a binary search per row: meant for building and tests, not painting).
    std::uint16_t row(std::uint32_t i) const;

    // At most kMaxRows rows. Events that find every row busy (more than kMaxRows overlapping, or
    // nesting deeper than that) go to the last row, where they may overlap; never dropped.
    static constexpr std::uint16_t kMaxRows = 0xFFFF;
    std::uint16_t rowCount() const { return m_rowCount; }
    // How many events were put in the last row because every row was busy (0 normally).
    std::uint32_t overflowEvents() const { return m_overflowEvents; }
    RowView rowView(std::uint16_t r) const;
    TimeRange timeRange() const { return m_range; }

    // Every event overlapping [a, b), across rows, ascending index.
    template <typename Fn> void forEachOverlapping(TimeNs a, TimeNs b, Fn&& fn) const {
        m_index.forEachOverlappingIn(*this, a, b, std::forward<Fn>(fn));
    }
    std::vector<std::uint32_t> overlapping(TimeNs a, TimeNs b) const {
        std::vector<std::uint32_t> out;
        forEachOverlapping(a, b, [&](std::uint32_t i) { out.push_back(i); });
        return out;
    }
    std::vector<std::uint32_t> stabbing(TimeNs t) const { return overlapping(t, t + 1); }
    // True when starts are stored as 32-bit offsets from per-block bases (see the class comment).
    bool hasCompactStarts() const { return m_frozen && m_wideStart.empty(); }

    // Building. Events may be appended in any order; finalize() sorts them, assigns rows and
    // builds the index, and returns the permutation applied (old index of each new position).
    // Events of equal start and end keep the order they were appended in, or that of `inOrder`
    // where given (a permutation of the indices: a reader that appended them out of their
    // source's order says what that order is, so that the result is the same either way).
    void reserve(std::size_t n);
    void append(TimeNs start, TimeNs end, StringId name, std::uint32_t payload);
    // For a lane whose names follow from its payloads (kernels: their launch configuration's):
    // no name is staged, finalize() is given them as nameOfPayload, and nameId() reads them only
    // after it. Not mixed with append() in one lane.
    void appendUnnamed(TimeNs start, TimeNs end, std::uint32_t payload);
    std::vector<std::uint32_t>
    finalize(RowPolicy policy,
             const std::function<StringId(std::uint32_t)>& nameOfPayload = nullptr,
             std::vector<std::uint32_t> inOrder = {});

    std::size_t memoryBytes() const;

private:
    friend class TraceBuilder; // fixes ends of open ranges and payloads while building
    friend class TraceCodec;   // the reopen cache (formats/cache) stores and restores the storage
    static constexpr std::uint32_t kLongDuration = 0xFFFFFFFF;
    // A staged start too far from its block's first for an offset: kept exactly in m_farStarts.
    // (Frozen offsets stay below it; one that equals it, from an older cache, reads as itself.)
    static constexpr std::uint32_t kFarStart = 0xFFFFFFFF;
    TimeNs farStart(std::uint32_t i) const;
    void assignRows(RowPolicy policy);
    // Puts the staged events in `order` (old index of each new position).
    void reorder(const std::vector<std::uint32_t>& order);
    // Stores the sorted starts startAt(0 .. size() - 1) as 32-bit offsets from each block's
    // first; false, changing nothing, when some block spans kFarStart ns or more.
    template <typename StartAt> bool compactSortedStarts(StartAt&& startAt);
    void compress(const std::function<StringId(std::uint32_t)>& nameOfPayload);
    void compressNames(const std::function<StringId(std::uint32_t)>& nameOfPayload);
    // Records now sit in lane order from `base`: drops the payload column.
    void setRecordBase(std::uint32_t base);
    // While building: ends every staged event for which `isOpen(i)` holds at `last` (or at its
    // start, if later), in one pass that keeps the long ends in index order.
    template <typename IsOpen> void endOpenEventsAt(TimeNs last, IsOpen&& isOpen);
    // Stages the next start: as a block base and offset while the starts ascend, as frozen lanes
    // keep them, else spelled out.
    void stageStart(TimeNs start);
    void spellOutStagedStarts();
    // Stages an end as a duration, or beside it when it does not fit 32 bits (or is negative).
    void stageEnd(std::uint32_t i, TimeNs end,
                  std::vector<std::pair<std::uint32_t, TimeNs>>& longEnds);
    TimeNs longEnd(std::uint32_t i) const;

    LaneKind m_kind;
    std::uint32_t m_owner;
    StringId m_domain = 0;
    bool m_frozen = false;
    std::uint32_t m_size = 0;
    // While building: starts as 32-bit offsets from a base per block (m_startBase, m_startOffset),
    // those more than 2^31 ns from their block's first kept beside (m_farStarts), or all plain
    // 64-bit when those are more than a quarter of them (m_wideStart), and
    // ends as durations (m_duration, m_longEnds): 8 bytes an event, not 16, as the staging of
    // every lane exists at once at the end of a load's scan. finalize() sorts through the same
    // accessors and spells times out only for a lane that was not in order. Frozen: the same
    // columns, each block based on its first start (m_wideStart stays when some block does not
    // fit 32-bit offsets).
    std::vector<TimeNs> m_wideStart;
    std::vector<TimeNs> m_startBase;                           // per block of kStartBlock events
    std::vector<std::uint32_t> m_startOffset;                  // start - base of its block
    std::vector<std::pair<std::uint32_t, TimeNs>> m_farStarts; // staging: (index, start)
    std::vector<std::uint32_t> m_duration;                     // end - start, or kLongDuration
    std::vector<std::pair<std::uint32_t, TimeNs>> m_longEnds;  // (index, end) for kLongDuration
    std::vector<StringId> m_name;           // while building, or > 65,536 distinct names
    std::vector<std::uint16_t> m_nameIndex; // frozen: index into m_nameDict
    std::vector<StringId> m_nameDict;       // the lane's distinct names
    std::vector<std::uint32_t> m_payload;   // empty: implicit, m_recordBase + i
    std::uint32_t m_recordBase = 0;
    std::vector<std::vector<std::uint32_t>> m_rowIdx; // per row lane indices; empty with one row
    std::uint16_t m_rowCount = 1;
    std::uint32_t m_overflowEvents = 0;
    std::vector<TimeNs> m_lastRowMaxEnd; // running max end of the last row, when it overflowed
    TimeRange m_range;
    IntervalIndex m_index;
};

template <typename IsOpen> void Lane::endOpenEventsAt(TimeNs last, IsOpen&& isOpen) {
    Q_ASSERT(!m_frozen);
    std::vector<std::pair<std::uint32_t, TimeNs>> longEnds;
    std::size_t k = 0;
    for (std::uint32_t i = 0; i < m_size; ++i) {
        const bool wasLong = k < m_longEnds.size() && m_longEnds[k].first == i;
        const TimeNs e = wasLong ? m_longEnds[k++].second : end(i);
        stageEnd(i, isOpen(i) ? std::max(last, start(i)) : e, longEnds);
    }
    m_longEnds = std::move(longEnds);
}

inline TimeNs RowView::start(std::uint32_t k) const {
    return m_lane->start(laneIndex(k));
}
inline TimeNs RowView::end(std::uint32_t k) const {
    return m_lane->end(laneIndex(k));
}

} // namespace strobe
