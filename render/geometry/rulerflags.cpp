// SPDX-License-Identifier: MIT
#include "render/geometry/rulerflags.h"

#include "model/bookmarks.h"
#include "model/lod/timemapping.h"

#include <algorithm>
#include <cmath>

namespace strobe {

std::vector<RulerMark> noteMarks(const BookmarkSet& set, TimeNs origin) {
    std::vector<RulerMark> out;
    out.reserve(set.notes.size());
    for (const BookmarkNote& n : set.notes)
        out.push_back(RulerMark{{n.range.start - origin, n.range.end - origin}, n.text});
    return out;
}

std::vector<RulerFlag> layoutRulerFlags(std::span<const RulerMark> marks, TimeRange view,
                                        int width) {
    std::vector<RulerFlag> out;
    if (width <= 0 || view.end <= view.start)
        return out;
    const TimeMapping map = TimeMapping::fromRange(view, width);
    for (const RulerMark& m : marks) {
        const bool instant = m.range.end <= m.range.start;
        if (m.range.start >= view.end ||
            (instant ? m.range.start < view.start : m.range.end <= view.start))
            continue;
        const double x0 = std::clamp(map.toPx(m.range.start), 0.0, double(width));
        const double x1 = std::clamp(map.toPx(m.range.end), 0.0, double(width));
        out.push_back(RulerFlag{std::floor(x0), std::max(std::floor(x0) + 1, x1), 0, m.label});
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const RulerFlag& a, const RulerFlag& b) { return a.x < b.x; });
    for (std::size_t i = 0; i < out.size(); ++i) {
        const double next = i + 1 < out.size() ? out[i + 1].x : double(width);
        out[i].labelRoom = std::max(0.0, next - out[i].x - kRulerFlagWidth - 2);
    }
    return out;
}

} // namespace strobe
