// SPDX-License-Identifier: MIT
#include "widgets/timeline/geometry/rulerticks.h"

#include <QStringBuilder>
#include <cmath>
#include <limits>

namespace strobe {

QString formatTickLabel(TimeNs t, TimeNs step) {
    if (t == 0)
        return QStringLiteral("0");
    const TimeNs mag = t == std::numeric_limits<TimeNs>::min() ? std::numeric_limits<TimeNs>::max()
                       : t < 0                                 ? -t
                                                               : t;
    const TimeUnit& u = timeUnitFor(mag);
    int decimals = 0;
    for (TimeNs s = u.ns; s > step && s > 1 && decimals < 9; s /= 10)
        ++decimals;
    // Steps like 2 or 5 times 10^k need no more digits than 10^k itself.
    const QString number =
        u.ns == 1 ? QString::number(t) : QString::number(double(t) / double(u.ns), 'f', decimals);
    return number % u' ' % QString::fromUtf16(u.name);
}

RulerTicks computeTicks(TimeRange view, TimeNs origin, int widthPx, int minSpacingPx) {
    RulerTicks out;
    const TimeNs span = std::max<TimeNs>(1, view.duration());
    if (widthPx <= 0)
        return out;
    const double minStep = double(span) / double(widthPx) * double(std::max(1, minSpacingPx));
    TimeNs step = 1;
    for (TimeNs decade = 1;; decade *= 10) {
        if (double(decade) >= minStep) {
            step = decade;
            break;
        }
        if (double(2 * decade) >= minStep) {
            step = 2 * decade;
            break;
        }
        if (double(5 * decade) >= minStep) {
            step = 5 * decade;
            break;
        }
        if (decade > TimeNs(1) << 58) {
            step = decade;
            break;
        }
    }
    out.step = step;
    // First multiple of step (relative to origin) at or after view.start. Saturating arithmetic
    // and a bound on the count: a hostile file's extreme times must not make this loop for ever.
    const TimeNs rel = saturatingSub(view.start, origin);
    TimeNs k = rel / step;
    if (rel > 0 && k * step < rel)
        ++k;
    const std::size_t maxTicks = std::size_t(widthPx) / std::size_t(std::max(1, minSpacingPx)) + 2;
    TimeNs t = 0;
    TimeNs offset = 0;
    if (__builtin_mul_overflow(k, step, &offset) || __builtin_add_overflow(origin, offset, &t))
        return out;
    while (t < view.end && out.ticks.size() < maxTicks) {
        out.ticks.push_back(t);
        if (__builtin_add_overflow(t, step, &t))
            break;
    }
    return out;
}

} // namespace strobe
