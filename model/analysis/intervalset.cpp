// SPDX-License-Identifier: MIT
#include "model/analysis/intervalset.h"

#include <algorithm>

namespace strobe {

IntervalSet merged(std::vector<TimeRange> v) {
    std::sort(v.begin(), v.end(), [](const TimeRange& a, const TimeRange& b) {
        return a.start < b.start || (a.start == b.start && a.end < b.end);
    });
    IntervalSet out;
    for (const TimeRange& r : v) {
        if (!out.empty() && r.start <= out.back().end)
            out.back().end = std::max(out.back().end, r.end);
        else
            out.push_back(r);
    }
    return out;
}

IntervalSet unite(const IntervalSet& a, const IntervalSet& b) {
    std::vector<TimeRange> all(a);
    all.insert(all.end(), b.begin(), b.end());
    return merged(std::move(all));
}

IntervalSet clipped(const IntervalSet& s, TimeRange w) {
    IntervalSet out;
    auto it = std::upper_bound(s.begin(), s.end(), w.start,
                               [](TimeNs t, const TimeRange& r) { return t < r.end; });
    for (; it != s.end() && it->start < w.end; ++it)
        out.push_back({std::max(it->start, w.start), std::min(it->end, w.end)});
    return out;
}

IntervalSet intersection(const IntervalSet& a, const IntervalSet& b) {
    IntervalSet out;
    std::size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        const TimeNs s = std::max(a[i].start, b[j].start);
        const TimeNs e = std::min(a[i].end, b[j].end);
        if (s < e)
            out.push_back({s, e});
        if (a[i].end < b[j].end)
            ++i;
        else
            ++j;
    }
    return out;
}

IntervalSet difference(const IntervalSet& a, const IntervalSet& b) {
    IntervalSet out;
    std::size_t j = 0;
    for (TimeRange r : a) {
        while (j < b.size() && b[j].end <= r.start)
            ++j;
        std::size_t k = j;
        while (k < b.size() && b[k].start < r.end) {
            if (b[k].start > r.start)
                out.push_back({r.start, b[k].start});
            r.start = std::max(r.start, b[k].end);
            ++k;
        }
        if (r.start < r.end)
            out.push_back(r);
    }
    return out;
}

TimeNs length(const IntervalSet& s) {
    TimeNs n = 0;
    for (const TimeRange& r : s)
        n = saturatingAdd(n, r.duration());
    return n;
}

TimeNs lengthWithin(const IntervalSet& s, TimeRange w) {
    if (w.end <= w.start)
        return 0;
    auto it = std::lower_bound(s.begin(), s.end(), w.start,
                               [](const TimeRange& r, TimeNs t) { return r.end <= t; });
    TimeNs total = 0;
    for (; it != s.end() && it->start < w.end; ++it)
        total = saturatingAdd(total, std::min(it->end, w.end) - std::max(it->start, w.start));
    return total;
}

} // namespace strobe
