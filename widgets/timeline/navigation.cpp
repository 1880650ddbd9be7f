// SPDX-License-Identifier: MIT
#include "widgets/timeline/navigation.h"

#include <algorithm>
#include <cmath>

namespace strobe::navigation {

TimeRange clampView(TimeRange view, TimeRange bounds) {
    const TimeNs boundsSpan = std::max<TimeNs>(kMinSpan, bounds.duration());
    const TimeNs margin = boundsSpan / 20;
    const TimeNs lo = bounds.start - margin, hi = bounds.start + boundsSpan + margin;
    TimeNs span = std::clamp<TimeNs>(view.duration(), kMinSpan, boundsSpan + boundsSpan / 10);
    TimeNs start = view.start;
    if (span >= hi - lo)
        start = lo + (hi - lo - span) / 2;
    else
        start = std::clamp(start, lo, hi - span);
    return {start, start + span};
}

TimeRange zoomAround(TimeRange view, TimeNs anchor, double factor, TimeRange bounds) {
    const double span = double(view.duration()) * factor;
    const double left = double(anchor - view.start) * factor;
    TimeRange z{anchor - TimeNs(std::llround(left)), 0};
    z.end = z.start + std::max<TimeNs>(1, TimeNs(std::llround(span)));
    // Keep the anchor where it was when the span hits its limits.
    const TimeRange c = clampView(z, bounds);
    if (c.duration() != z.duration()) {
        const double frac =
            double(anchor - view.start) / double(std::max<TimeNs>(1, view.duration()));
        const TimeNs s = anchor - TimeNs(std::llround(frac * double(c.duration())));
        return clampView({s, s + c.duration()}, bounds);
    }
    return c;
}

TimeRange panBy(TimeRange view, TimeNs delta, TimeRange bounds) {
    return clampView({view.start + delta, view.end + delta}, bounds);
}

TimeRange revealRange(TimeRange view, TimeRange event, double widthPx, double minPx) {
    const TimeNs dur = std::max<TimeNs>(1, event.duration());
    const TimeNs span = std::max<TimeNs>(1, view.duration());
    const bool fits = dur * 10 <= span * 9 && double(dur) / double(span) * widthPx >= minPx;
    const TimeNs centre = event.start + dur / 2;
    if (fits && event.start >= view.start && event.start + dur <= view.end)
        return view;
    if (fits)
        return {centre - span / 2, centre - span / 2 + span};
    const TimeNs wide = std::max<TimeNs>(kMinSpan, dur * 5);
    return {centre - wide / 2, centre - wide / 2 + wide};
}

} // namespace strobe::navigation
