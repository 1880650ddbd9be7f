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
        const TimeNs span = view.end > view.start ? view.end - view.start : 1;
        return TimeMapping{view.start, widthPx > 0 ? widthPx / double(span) : 1.0};
    }
    double nsPerPx() const { return 1.0 / pxPerNs; }
    // Pixel x of time t (may be negative or beyond the width; no clamping).
    double toPx(TimeNs t) const { return double(t - viewStart) * pxPerNs; }
    // The time at pixel x, rounded down to whole nanoseconds.
    TimeNs toTime(double x) const { return viewStart + TimeNs(std::floor(x / pxPerNs)); }
    // Duration of `px` pixels in ns (not rounded).
    double toDuration(double px) const { return px / pxPerNs; }
};

} // namespace strobe
