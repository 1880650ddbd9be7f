// SPDX-License-Identifier: MIT
#pragma once

#include "model/lane.h"
#include "model/types.h"

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace strobe {

// What one pixel column of a summarised row shows.
struct SummaryColumn {
    bool covered = false;    // exact: at least one event overlaps the column
    float busy = 0.0f;       // covered fraction of the column, 0..1 (edge buckets prorated)
    std::uint32_t count = 0; // events starting in buckets that start in the column
    std::uint32_t rep = 0;   // the busiest bucket's representative (Bucket::rep)
};

// The coarse per-row summary of the level-of-detail rule (shared/DESIGN.md): a pyramid of
// power-of-two time buckets, level 0 holding about kEventsPerBucket events per bucket on average
// and each level above merging pairs. Per bucket: the covered nanoseconds (the union of the
// events' [start, effectiveEnd) clipped to the bucket), the number of events starting in it and
// the event that covers most of it (its colour stands for the bucket). Built once per row in
// O(n + buckets); a frame then costs O(pixels) per row, whatever n is.
class RowSummary {
public:
    struct Bucket {
        TimeNs busy = 0;           // covered ns inside the bucket
        std::uint32_t count = 0;   // events starting inside the bucket
        std::uint32_t rep = kNone; // row position of the event covering most of it (see
                                   // mapRepresentatives)
        // First covered ns and end of the last covered ns, from the bucket's start (kNone when
        // they do not fit 32 bits): a column that cuts the bucket is covered iff it holds one.
        std::uint32_t firstCovered = kNone;
        std::uint32_t coveredEnd = kNone;
    };
    static constexpr std::uint32_t kNone = 0xFFFFFFFF;
    // Level 0 is usable from about this many events per pixel column (memory: ~3 B per event).
    static constexpr std::uint32_t kEventsPerBucket = 16;
    // Level 0 has at least this many buckets, so a row of a few thousand events spread over a
    // long trace still gets buckets narrower than a column at full zoom-out.
    static constexpr std::uint32_t kMinBuckets = 8192;
    // Rows with fewer events are never dense enough to need a summary (see TIMELINE.md).
    static constexpr std::uint32_t kMinEvents = 4096;

    RowSummary() = default;
    // Summarises every event of `row`; an empty row gives an empty summary.
    static RowSummary build(const RowView& row);
    // Same for sorted, non-overlapping intervals (a device's busy intervals).
    static RowSummary build(std::span<const TimeRange> intervals);

    bool isEmpty() const { return m_levels.empty(); }
    // Start of bucket 0 of every level (the row's first start).
    TimeNs origin() const { return m_origin; }
    int levelCount() const { return int(m_levels.size()); }
    TimeNs bucketWidth(int level) const { return TimeNs(1) << (m_shift + std::uint32_t(level)); }
    const std::vector<Bucket>& level(int level) const { return m_levels[std::size_t(level)]; }
    // The coarsest level whose buckets are at most a column wide (each column then meets one or
    // two buckets, and the covered extents settle the ones it cuts); nullopt when even level 0
    // is too coarse for columns of `nsPerColumn`.
    std::optional<int> levelFor(double nsPerColumn) const;

    // One SummaryColumn per column i, covering [viewStart + floor(i * nsPerColumn),
    // viewStart + floor((i + 1) * nsPerColumn)). `row` must be the row this summary was built
    // from: a row search settles the rare columns the buckets cannot (a bucket wider than the
    // column, or offsets beyond 32 bits). `level` as from levelFor(nsPerColumn).
    void columns(const RowView& row, TimeNs viewStart, double nsPerColumn, int columnCount,
                 int level, std::vector<SummaryColumn>& out) const;
    // Same for a summary built from `intervals`.
    void columns(std::span<const TimeRange> intervals, TimeNs viewStart, double nsPerColumn,
                 int columnCount, int level, std::vector<SummaryColumn>& out) const;

    // Replaces every bucket's representative (a row position) by fn(position), e.g. a small
    // colour class, so a painter needs no per-event lookup. Call once, right after build().
    template <typename Fn> void mapRepresentatives(Fn&& fn) {
        for (auto& l : m_levels) {
            for (Bucket& b : l) {
                if (b.rep != kNone)
                    b.rep = fn(b.rep);
            }
        }
    }

    std::size_t memoryBytes() const;

private:
    // Bucket offsets are stored where the level's width fits 32 bits.
    bool edgesKnown(int level) const { return bucketWidth(level) < TimeNs(kNone); }
    template <typename StartOf, typename EndOf>
    static RowSummary buildFrom(std::uint32_t n, StartOf startOf, EndOf endOf);
    // `coveredExactly(a, b)`: whether any event overlaps [a, b), for the columns buckets cannot
    // settle.
    template <typename Exact>
    void columnsWith(Exact&& coveredExactly, TimeNs viewStart, double nsPerColumn, int columnCount,
                     int level, std::vector<SummaryColumn>& out) const;

    TimeNs m_origin = 0;
    std::uint32_t m_shift = 0; // level 0 bucket width is 1 << m_shift ns
    std::vector<std::vector<Bucket>> m_levels;
};

} // namespace strobe
