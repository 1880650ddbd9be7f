// SPDX-License-Identifier: MIT
#pragma once

#include "model/types.h"

#include <cmath>
#include <limits>

namespace strobe {

// The one time <-> pixel mapping of the timeline. Times are subtracted in integers before the
// conversion to double, so a trace far from time zero keeps nanosecond precision.
struct TimeMapping {
    TimeNs viewStart = 0;
    double pxPerNs = 1.0;

    static TimeMapping fromRange(TimeRange view, double widthPx) {
        const double span = view.end > view.start ? difference(view.end, view.start) : 1.0;
        return TimeMapping{view.start, widthPx > 0 ? widthPx / span : 1.0};
    }
    double nsPerPx() const { return 1.0 / pxPerNs; }
    // Pixel x of time t (may be negative or beyond the width; no clamping). Exact to the
    // nanosecond while t - viewStart fits int64, computed in doubles where it does not.
    double toPx(TimeNs t) const { return difference(t, viewStart) * pxPerNs; }
    // The time at pixel x, rounded down to whole nanoseconds.
    TimeNs toTime(double x) const {
        return saturatingAdd(viewStart, saturatingNs(std::floor(x / pxPerNs)));
    }
    // Duration of `px` pixels in ns (not rounded).
    double toDuration(double px) const { return px / pxPerNs; }

    // `ns` as whole nanoseconds, clamped to the TimeNs range (a double past it, or NaN, would
    // convert to garbage: undefined behaviour).
    static TimeNs saturatingNs(double ns) {
        constexpr double kLimit = 9.2e18; // below 2^63
        if (!(ns == ns))
            return 0;
        return ns >= kLimit    ? std::numeric_limits<TimeNs>::max()
               : ns <= -kLimit ? std::numeric_limits<TimeNs>::min()
                               : TimeNs(ns);
    }
    // a - b, subtracted in integers where that fits int64 (nanosecond precision far from zero)
    // and in doubles where it does not (a view wider than int64 reaches).
    static double difference(TimeNs a, TimeNs b) {
        TimeNs d = 0;
        return __builtin_sub_overflow(a, b, &d) ? double(a) - double(b) : double(d);
    }
};

} // namespace strobe
