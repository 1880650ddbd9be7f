// SPDX-License-Identifier: MIT
#include "model/lod/foldruns.h"

#include "model/lod/timemapping.h"

#include <algorithm>
#include <cmath>

namespace strobe {

namespace {
// First k in [from, limit) with start >= t, else limit. Gallops from `from` before bisecting: the
// answer is usually a few hundred events ahead, and the nearby probes stay in cache, where a
// binary search over the whole row would miss it on every step.
std::uint32_t gallopStartAtOrAfter(const RowView& row, std::uint32_t from, std::uint32_t limit,
                                   TimeNs t) {
    std::uint32_t lo = from, step = 1;
    std::uint32_t hi = from;
    while (hi < limit && row.start(hi) < t) {
        lo = hi + 1;
        hi = std::uint32_t(std::min<std::uint64_t>(limit, std::uint64_t(hi) + step));
        step *= 2;
    }
    hi = std::min(hi, limit);
    while (lo < hi) { // invariant: start(lo - 1) < t, start(hi) >= t or hi == limit
        const std::uint32_t mid = lo + (hi - lo) / 2;
        if (row.start(mid) < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}
} // namespace

void foldRunsInto(const RowView& row, TimeNs viewStart, double nsPerPx, int widthPx, double minPx,
                  std::vector<DrawItem>& out) {
    if (widthPx <= 0 || nsPerPx <= 0 || row.size() == 0)
        return;
    const TimeMapping map{viewStart, 1.0 / nsPerPx};
    const TimeNs viewEnd =
        saturatingAdd(viewStart, TimeMapping::saturatingNs(std::ceil(double(widthPx) * nsPerPx)));
    const std::uint32_t last = row.firstStartingAtOrAfter(viewEnd); // exclusive
    std::uint32_t k = row.firstEndingAfter(viewStart);
    const double lo = -1.0, hi = double(widthPx) + 1.0;
    auto leftPx = [&](std::uint32_t i) { return map.toPx(row.start(i)); };
    auto rightPx = [&](std::uint32_t i) {
        return map.toPx(effectiveEnd(row.start(i), row.end(i)));
    };
    auto emit = [&](std::uint32_t first, std::uint32_t count, double x0, double x1) {
        x0 = std::clamp(x0, lo, hi);
        x1 = std::clamp(x1, lo, hi);
        if (x1 - x0 < 1.0)
            x1 = x0 + 1.0;
        out.push_back(DrawItem{first, count, x0, x1, count > 1});
    };

    while (k < last) {
        const double x0 = leftPx(k);
        double right = rightPx(k);
        if (right - x0 >= minPx) {
            emit(k, 1, x0, right);
            ++k;
            continue;
        }
        // A narrow event opens a run; extend it by skipping over everything that starts within
        // minPx of its right edge. In a row only the last of those can be wide.
        std::uint32_t end = k + 1; // exclusive
        while (end < last) {
            const TimeNs reach = saturatingAdd(
                map.viewStart, TimeMapping::saturatingNs(std::ceil(map.toDuration(right + minPx))));
            const std::uint32_t j = gallopStartAtOrAfter(row, end, last, reach);
            if (j <= end)
                break; // the next event starts too far away
            if (rightPx(j - 1) - leftPx(j - 1) >= minPx) {
                if (j - 1 > end)
                    right = std::max(right, rightPx(j - 2));
                end = j - 1; // the wide one gets its own item
                break;
            }
            right = std::max(right, rightPx(j - 1));
            end = j;
        }
        emit(k, end - k, x0, right);
        k = end;
    }
}

std::vector<DrawItem> foldRuns(const RowView& row, TimeNs viewStart, double nsPerPx, int widthPx,
                               double minPx) {
    std::vector<DrawItem> out;
    foldRunsInto(row, viewStart, nsPerPx, widthPx, minPx, out);
    return out;
}

} // namespace strobe
