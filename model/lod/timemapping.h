// SPDX-License-Identifier: MIT
#pragma once

#include "model/types.h"

#include <cmath>

namespace strobe {

// The one time <-> pixel mapping of the timeline. Times are subtracted in integers before the
// conversion to double, so a trace far from time zero keeps nanosecond precision.
struct TimeMapping {
    TimeNs viewStart = 0;
    double pxPerNs = 1.0;

    static TimeMapping fromRange(TimeRange view, double widthPx) {
        const TimeNs span = view.end > view.start ? view.duration() : 1; // saturating
        return TimeMapping{view.start, widthPx > 0 ? widthPx / double(span) : 1.0};
    }
    double nsPerPx() const { return 1.0 / pxPerNs; }
    // Pixel x of time t (may be negative or beyond the width; no clamping). Exact to the
    // nanosecond while t - viewStart fits int64, computed in doubles where it does not.
    double toPx(TimeNs t) const {
        TimeNs d = 0;
        return (__builtin_sub_overflow(t, viewStart, &d) ? double(t) - double(viewStart)
                                                         : double(d)) *
               pxPerNs;
    }
    // The time at pixel x, rounded down to whole nanoseconds.
    TimeNs toTime(double x) const { return viewStart + TimeNs(std::floor(x / pxPerNs)); }
    // Duration of `px` pixels in ns (not rounded).
    double toDuration(double px) const { return px / pxPerNs; }
};

} // namespace strobe
