// SPDX-License-Identifier: MIT
#pragma once

#include "model/types.h"

#include <QString>
#include <atomic>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace strobe {

class Trace;

// What the timeline's search (Ctrl+F) looks for: events whose name contains `text`, or matches
// the regular expression `text` anywhere in it. Names are the lanes' names: kernels by their
// short and their demangled name, NVTX and annotation ranges, CPU operators, Python frames, CUDA
// API calls (with and without their _vNNNN suffix), OS runtime calls, memcpys, memsets and
// unified-memory migrations.
struct EventSearchQuery {
    QString text; // empty: nothing matches
    bool regex = false;
    bool caseSensitive = false;
};

// Why a query could not run: its regular expression does not compile.
struct EventSearchPatternError {
    QString reason;       // QRegularExpression::errorString(), e.g. "missing closing parenthesis"
    qsizetype offset = 0; // where in the pattern it was found, counted from 0
};

// The matched events of one lane.
struct LaneMatches {
    std::uint32_t lane = 0;
    std::vector<std::uint32_t> events; // lane indices, ascending (the lane's start order)
    // Per row of the lane, the row positions (RowView k) of its matched events, ascending. Empty
    // for a lane with one row, whose row positions are its lane indices (rowPositions says so).
    std::vector<std::vector<std::uint32_t>> rows;
    std::span<const std::uint32_t> rowPositions(std::uint16_t row) const;
};

// Every event a query matched, per lane, read in time order: by start, then lane, then index
// (the order of the timeline's events; ties of one lane keep its order, longer first). Answers
// next / previous / rank with a binary search per lane that has matches, so a result of
// millions of matches needs no global sort.
class EventSearchResult {
public:
    const Trace* trace() const { return m_trace; }
    const EventSearchQuery& query() const { return m_query; }
    // Set when the pattern is not a valid regular expression (then nothing matched).
    const std::optional<EventSearchPatternError>& patternError() const { return m_error; }
    // True when the search was cancelled before it finished (then nothing matched).
    bool wasCancelled() const { return m_cancelled; }

    std::size_t count() const { return m_count; }
    bool isEmpty() const { return m_count == 0; }
    // Lanes with at least one match, in lane order.
    const std::vector<LaneMatches>& lanes() const { return m_lanes; }
    // The matches of `lane`; nullptr when it has none.
    const LaneMatches* matchesOf(std::uint32_t lane) const;
    bool contains(EventRef ref) const;

    // The first / last match in time order; invalid when there is none.
    EventRef first() const;
    EventRef last() const;
    // The first match after `ref` (or the last before it) in time order, `ref` itself a match or
    // not; invalid when there is none (no wrapping).
    EventRef next(EventRef ref) const;
    EventRef previous(EventRef ref) const;
    // The first match starting at or after `t`; invalid when none does.
    EventRef firstStartingAtOrAfter(TimeNs t) const;
    // 1-based position of `ref` among the matches in time order; 0 when it is not a match.
    std::size_t rankOf(EventRef ref) const;
    // Every match in time order (a copy: tests and small traces).
    std::vector<EventRef> inTimeOrder() const;

private:
    friend EventSearchResult searchEvents(const Trace& trace, const EventSearchQuery& query,
                                          const std::atomic<bool>* cancel);
    friend EventSearchResult eventSetOf(const Trace& trace, std::span<const EventRef> events);
    // The best match of one lane relative to `ref` (see next / previous); -1 when none.
    std::int64_t nextIn(const LaneMatches& m, EventRef ref, TimeNs refStart) const;
    std::int64_t previousIn(const LaneMatches& m, EventRef ref, TimeNs refStart) const;
    // True when event a comes before event b in time order.
    bool before(EventRef a, EventRef b) const;

    const Trace* m_trace = nullptr;
    EventSearchQuery m_query;
    std::optional<EventSearchPatternError> m_error;
    bool m_cancelled = false;
    std::vector<LaneMatches> m_lanes;
    std::vector<std::int32_t> m_laneSlot; // per trace lane: its index in m_lanes, or -1
    std::size_t m_count = 0;
};

// Events of `trace` whose name matches `query`. Each distinct string of the trace is matched
// once, then each lane's events are collected by their name id (a kernel by its launch
// configuration's names), so the cost is one table lookup per event: well under 200 ms at ten
// million events. Run it on a worker for big traces; `cancel` (checked between lanes and every
// 65,536 events) stops it early with wasCancelled() set.
EventSearchResult searchEvents(const Trace& trace, const EventSearchQuery& query,
                               const std::atomic<bool>* cancel = nullptr);

// `events` as a result with an empty query, so the timeline marks them as it marks matches (a
// finding's evidence). Invalid refs and refs past their lane's end are left out, duplicates
// counted once. O(n log n) in the events.
EventSearchResult eventSetOf(const Trace& trace, std::span<const EventRef> events);

} // namespace strobe
