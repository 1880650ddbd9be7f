// SPDX-License-Identifier: MIT
#include "model/lod/rowsummary.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace strobe {

namespace {
// Widens a bucket's covered extent to include [from, to) (offsets from its start).
void extendCovered(RowSummary::Bucket& b, TimeNs from, TimeNs to) {
    if (b.firstCovered == RowSummary::kNone) {
        b.firstCovered = std::uint32_t(from);
        b.coveredEnd = std::uint32_t(to);
        return;
    }
    b.firstCovered = std::min(b.firstCovered, std::uint32_t(from));
    b.coveredEnd = std::max(b.coveredEnd, std::uint32_t(to));
}

// RowView::firstEndingAfter(t) for a t at or after the one that gave `from`: gallops ahead from
// `from`, then bisects, so a left-to-right sweep costs O(log gap) per call, not O(log n).
std::uint32_t firstEndingAfterFrom(const RowView& row, std::uint32_t from, TimeNs t) {
    const std::uint32_t n = row.size();
    auto endsAfter = [&](std::uint32_t k) { return effectiveEnd(row.start(k), row.end(k)) > t; };
    std::uint32_t lo = from, hi = from, step = 1;
    while (hi < n && !endsAfter(hi)) {
        lo = hi + 1;
        hi = std::uint32_t(std::min<std::uint64_t>(n, std::uint64_t(hi) + step));
        step *= 2;
    }
    hi = std::min(hi, n);
    while (lo < hi) { // endsAfter(lo - 1) is false, endsAfter(hi) true or hi == n
        const std::uint32_t mid = lo + (hi - lo) / 2;
        if (endsAfter(mid))
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}
} // namespace

template <typename StartOf, typename EndOf>
RowSummary RowSummary::buildFrom(std::uint32_t n, StartOf startOf, EndOf endOf) {
    RowSummary s;
    if (n == 0)
        return s;
    s.m_origin = startOf(0);
    // Level 0 gets about max(n / kEventsPerBucket, kMinBuckets) buckets over the row's span (a
    // guess from the last event; the vector grows if an earlier event reaches further).
    const TimeNs lastEnd = endOf(n - 1);
    const auto span = std::uint64_t(std::max<TimeNs>(1, lastEnd - s.m_origin));
    const std::uint64_t want = std::max<std::uint64_t>(n / kEventsPerBucket, kMinBuckets);
    while ((std::uint64_t(1) << s.m_shift) * want < span && s.m_shift < 62)
        ++s.m_shift;
    const TimeNs width = TimeNs(1) << s.m_shift;
    std::vector<Bucket> level0(std::size_t((span + std::uint64_t(width) - 1) >> s.m_shift));
    std::vector<TimeNs> best(level0.size(), 0); // covered ns of each bucket's `rep`

    const bool edges0 = s.edgesKnown(0);
    TimeNs coveredUntil = std::numeric_limits<TimeNs>::min();
    // Buckets inside an event (not its first or last) are covered whole: their representative
    // is the first event that covered them so, their extent the whole bucket, and no later event
    // changes either. Events come in start order, so the buckets so covered from any event's
    // first bucket on are one run, up to `wholeUntil`: each event visits only its two end
    // buckets and the inner ones not yet covered whole, and the fresh busy time only where it
    // lies. Visiting every bucket of every event made a row of n overlapping events cost
    // O(n * buckets) (a million overlapping kernels: minutes).
    std::size_t wholeUntil = 0; // buckets below it, from any event's first on, are covered whole
    const auto visit = [&](std::size_t j, std::uint32_t k, TimeNs a, TimeNs b) {
        const TimeNs bs = s.m_origin + (TimeNs(j) << s.m_shift), be = bs + width;
        const TimeNs mine = std::min(b, be) - std::max(a, bs);
        if (mine > best[j]) {
            best[j] = mine;
            level0[j].rep = k;
        }
        if (edges0)
            extendCovered(level0[j], std::max(a, bs) - bs, std::min(b, be) - bs);
    };
    for (std::uint32_t k = 0; k < n; ++k) {
        const TimeNs a = startOf(k), b = endOf(k);
        const auto first = std::size_t((a - s.m_origin) >> s.m_shift);
        const auto last = std::size_t((b - 1 - s.m_origin) >> s.m_shift);
        if (last >= level0.size()) {
            level0.resize(last + 1);
            best.resize(last + 1, 0);
        }
        ++level0[first].count;
        visit(first, k, a, b);
        for (std::size_t j = std::max(first + 1, wholeUntil); j < last; ++j)
            visit(j, k, a, b);
        if (last > first) {
            visit(last, k, a, b);
            wholeUntil = std::max(wholeUntil, last);
        }
        // Busy time counts each nanosecond once, even where zero-length events (1 ns wide)
        // touch or sit inside their neighbours: only [max(a, coveredUntil), b) is fresh, and
        // those stretches do not overlap from one event to the next.
        const TimeNs newFrom = std::max(a, coveredUntil);
        if (newFrom < b) {
            const auto from = std::size_t((newFrom - s.m_origin) >> s.m_shift);
            for (std::size_t j = from; j <= last; ++j) {
                const TimeNs bs = s.m_origin + (TimeNs(j) << s.m_shift), be = bs + width;
                const TimeNs fresh = std::min(b, be) - std::max(newFrom, bs);
                if (fresh > 0)
                    level0[j].busy += fresh;
            }
        }
        coveredUntil = std::max(coveredUntil, b);
    }

    s.m_levels.push_back(std::move(level0));
    while (s.m_levels.back().size() > 1) {
        const std::vector<Bucket>& lower = s.m_levels.back();
        std::vector<Bucket> upper((lower.size() + 1) / 2);
        std::vector<TimeNs> upperBest(upper.size(), 0);
        const int upperLevel = int(s.m_levels.size());
        const bool edges = s.edgesKnown(upperLevel);
        const TimeNs lowerWidth = s.bucketWidth(upperLevel - 1);
        for (std::size_t j = 0; j < lower.size(); ++j) {
            Bucket& u = upper[j / 2];
            u.busy += lower[j].busy;
            u.count += lower[j].count;
            if (edges && lower[j].busy > 0) {
                const TimeNs at = (j % 2) ? lowerWidth : 0;
                extendCovered(u, at + lower[j].firstCovered, at + lower[j].coveredEnd);
            }
            if (lower[j].rep != kNone && best[j] > upperBest[j / 2]) {
                upperBest[j / 2] = best[j];
                u.rep = lower[j].rep;
            }
        }
        best = std::move(upperBest);
        s.m_levels.push_back(std::move(upper));
    }
    for (auto& l : s.m_levels)
        l.shrink_to_fit();
    return s;
}

RowSummary RowSummary::build(const RowView& row) {
    return buildFrom(
        row.size(), [&](std::uint32_t k) { return row.start(k); },
        [&](std::uint32_t k) { return effectiveEnd(row.start(k), row.end(k)); });
}

RowSummary RowSummary::build(std::span<const TimeRange> intervals) {
    return buildFrom(
        std::uint32_t(intervals.size()), [&](std::uint32_t k) { return intervals[k].start; },
        [&](std::uint32_t k) { return effectiveEnd(intervals[k].start, intervals[k].end); });
}

std::optional<int> RowSummary::levelFor(double nsPerColumn) const {
    std::optional<int> out;
    for (int l = 0; l < levelCount() && double(bucketWidth(l)) <= nsPerColumn; ++l)
        out = l;
    return out;
}

template <typename Exact>
void RowSummary::columnsWith(Exact&& coveredExactly, TimeNs viewStart, double nsPerColumn,
                             int columnCount, int level, std::vector<SummaryColumn>& out) const {
    out.assign(std::size_t(std::max(0, columnCount)), SummaryColumn{});
    if (isEmpty() || level < 0 || level >= levelCount() || nsPerColumn <= 0)
        return;
    const std::vector<Bucket>& buckets = m_levels[std::size_t(level)];
    const std::uint32_t shift = m_shift + std::uint32_t(level);
    const TimeNs width = TimeNs(1) << shift;
    const TimeNs dataEnd = m_origin + TimeNs(buckets.size()) * width;
    const bool edges = edgesKnown(level);
    const auto perColumn = float(1.0 / nsPerColumn);
    // Columns start at whole nanoseconds: the same boundaries for every row and every test.
    // (i * nsPerColumn >= 0, so truncation is floor, without a libm call per column.)
    auto boundary = [&](int i) { return viewStart + TimeNs(double(i) * nsPerColumn); };
    // Skip the columns before the row's first bucket.
    int i = 0;
    if (viewStart < m_origin)
        i = std::clamp(int(std::floor(double(m_origin - viewStart) / nsPerColumn)) - 1, 0,
                       columnCount);
    TimeNs a = boundary(i);
    const auto lastBucket = buckets.size() - 1;
    const float widthF = float(width);
    // Busy ns per covered ns of the last bucket a column cut: one division per cut bucket, not
    // one per column that meets it (a tenth of a full zoom-out row's columns).
    std::size_t densityOf = buckets.size();
    float density = 0;
    for (; i < columnCount; ++i) {
        const TimeNs b = boundary(i + 1);
        if (a >= dataEnd)
            break;
        if (b <= a || b <= m_origin) {
            a = b;
            continue;
        }
        const auto j0 = std::size_t(a <= m_origin ? 0 : (a - m_origin) >> shift);
        const auto j1 = std::min(lastBucket, std::size_t((b - 1 - m_origin) >> shift));
        // Locals, not the output column: the compiler keeps them in registers across buckets.
        float busy = 0; // a shade, not a measurement: float keeps the proration cheap
        TimeNs bestBusy = 0;
        std::uint32_t count = 0, rep = 0;
        bool covered = false, unsure = false;
        TimeNs bs = m_origin + (TimeNs(j0) << shift);
        for (std::size_t j = j0; j <= j1; ++j, bs += width) {
            const Bucket& bk = buckets[j];
            if (bk.busy == 0)
                continue;
            const TimeNs be = bs + width;
            if (bs >= a && be <= b) {
                covered = true;
                busy += float(bk.busy);
            } else if (edges) {
                // Prorated over the bucket's covered extent, so busy time moves between columns
                // but does not leak into a column the extent does not reach. The extent meets
                // the column iff `part` > 0; then the bucket holds an event there, unless it
                // reaches past both of the column's edges (its events may lie on either side:
                // the row settles it).
                const TimeNs lo = bs + TimeNs(bk.firstCovered), hi = bs + TimeNs(bk.coveredEnd);
                const TimeNs part = std::min(hi, b) - std::max(lo, a);
                if (part > 0) {
                    if (j != densityOf) { // a bucket cut by a column's end meets the next one too
                        densityOf = j;
                        density = float(bk.busy) / float(hi - lo);
                    }
                    busy += density * float(part);
                    if (bs < a && be > b)
                        unsure = true;
                    else
                        covered = true;
                }
            } else {
                // No extent: prorated over the whole bucket, and the row settles the column.
                const TimeNs part = std::min(be, b) - std::max(bs, a);
                if (part > 0)
                    busy += float(bk.busy) * float(part) / widthF;
                unsure = true;
            }
            if (bs >= a) // each bucket's count goes to the column holding its start
                count += bk.count;
            if (bk.busy > bestBusy && bk.rep != kNone) {
                bestBusy = bk.busy;
                rep = bk.rep;
            }
        }
        if (!covered && unsure) // ask the row
            covered = coveredExactly(a, b);
        if (covered) {
            SummaryColumn& c = out[std::size_t(i)];
            c.covered = true;
            c.busy = std::min(1.0f, busy * perColumn); // b - a is nsPerColumn, +-1 ns
            c.count = count;
            c.rep = rep;
        }
        a = b;
    }
}

void RowSummary::columns(const RowView& row, TimeNs viewStart, double nsPerColumn, int columnCount,
                         int level, std::vector<SummaryColumn>& out) const {
    std::uint32_t hint = 0; // columns move right, so each search starts where the last ended
    auto exact = [&](TimeNs a, TimeNs b) {
        // An overflow row's ends are not sorted: its own search follows the running end.
        hint = row.mayOverlap() ? row.firstEndingAfter(a) : firstEndingAfterFrom(row, hint, a);
        return hint < row.size() && row.start(hint) < b;
    };
    columnsWith(exact, viewStart, nsPerColumn, columnCount, level, out);
}

void RowSummary::columns(std::span<const TimeRange> intervals, TimeNs viewStart, double nsPerColumn,
                         int columnCount, int level, std::vector<SummaryColumn>& out) const {
    auto exact = [&](TimeNs a, TimeNs b) {
        const auto it = std::lower_bound(
            intervals.begin(), intervals.end(), a,
            [](const TimeRange& r, TimeNs t) { return effectiveEnd(r.start, r.end) <= t; });
        return it != intervals.end() && it->start < b;
    };
    columnsWith(exact, viewStart, nsPerColumn, columnCount, level, out);
}

std::size_t RowSummary::memoryBytes() const {
    std::size_t bytes = sizeof(*this);
    for (const auto& l : m_levels)
        bytes += l.capacity() * sizeof(Bucket);
    return bytes;
}

} // namespace strobe
