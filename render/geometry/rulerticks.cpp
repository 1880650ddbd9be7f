// SPDX-License-Identifier: MIT
#include "render/geometry/rulerticks.h"

#include "model/lod/timemapping.h"

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

namespace {
// x modulo m in [0, m), for m > 0, without overflow.
TimeNs positiveMod(TimeNs x, TimeNs m) {
    const TimeNs r = x % m;
    return r < 0 ? r + m : r;
}

// The times congruent to `origin` modulo `step` inside `view`, in order, at most `maxCount`.
// Worked out from view.start (not as origin + k * step), so no sum or product leaves int64
// whatever the distance between origin and the view.
std::vector<TimeNs> multiplesIn(TimeRange view, TimeNs origin, TimeNs step, std::size_t maxCount) {
    std::vector<TimeNs> out;
    if (view.isEmpty())
        return out;
    TimeNs delta = positiveMod(origin, step) - positiveMod(view.start, step);
    if (delta < 0)
        delta += step;
    TimeNs t = 0;
    if (__builtin_add_overflow(view.start, delta, &t))
        return out;
    while (t < view.end && out.size() < maxCount) {
        out.push_back(t);
        if (__builtin_add_overflow(t, step, &t))
            break;
    }
    return out;
}
} // namespace

RulerTicks computeTicks(TimeRange view, TimeNs origin, int widthPx, int minSpacingPx) {
    RulerTicks out;
    if (widthPx <= 0)
        return out;
    // In doubles: a view from near INT64_MIN to near INT64_MAX spans more than int64 holds.
    const double span = std::max(1.0, TimeMapping::difference(view.end, view.start));
    const int spacing = std::max(1, minSpacingPx);
    const double minStep = span / double(widthPx) * double(spacing);
    // The first of 1, 2, 5, 10, ... 5e18 at least minStep; 1e18 when none is (a view far wider
    // than its pixels allow at this spacing).
    constexpr TimeNs kLargestDecade = 1'000'000'000'000'000'000;
    TimeNs step = kLargestDecade;
    for (TimeNs decade = 1; decade <= kLargestDecade; decade *= 10) {
        if (const TimeNs found = double(decade) >= minStep       ? decade
                                 : double(2 * decade) >= minStep ? 2 * decade
                                 : double(5 * decade) >= minStep ? 5 * decade
                                                                 : 0) {
            step = found;
            break;
        }
        if (decade == kLargestDecade)
            break; // ten times it is beyond int64
    }
    out.step = step;
    out.minorStep = std::max<TimeNs>(1, step / 5);
    const std::size_t maxTicks =
        std::min(kMaxRulerTicks, std::size_t(widthPx) / std::size_t(spacing) + 2);
    out.ticks = multiplesIn(view, origin, step, maxTicks);
    out.minorTicks = multiplesIn(view, origin, out.minorStep, 5 * maxTicks + 5);
    return out;
}

} // namespace strobe
