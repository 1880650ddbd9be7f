// SPDX-License-Identifier: MIT
#include "model/timeformat.h"

#include <QStringBuilder>
#include <cmath>

namespace strobe {

namespace {
constexpr TimeUnit kUnits[] = {
    {1'000'000'000, u"s"}, {1'000'000, u"ms"}, {1'000, u"\u00b5s"}, {1, u"ns"}};
} // namespace

const TimeUnit& timeUnitFor(TimeNs magnitude) {
    for (const TimeUnit& u : kUnits) {
        if (magnitude >= u.ns)
            return u;
    }
    return kUnits[3];
}

namespace {
// |t| without overflow at INT64_MIN, saturated to the largest TimeNs.
TimeNs magnitude(TimeNs t) {
    return t >= 0                                    ? t
           : t == std::numeric_limits<TimeNs>::min() ? std::numeric_limits<TimeNs>::max()
                                                     : -t;
}
} // namespace

QString formatDuration(TimeNs d) {
    const TimeNs mag = magnitude(d);
    const TimeUnit& u = timeUnitFor(mag);
    if (u.ns == 1)
        return QString::number(d) % QStringLiteral(" ns");
    const double v = double(d) / double(u.ns);
    const double a = std::fabs(v);
    const int decimals = a >= 100 ? 1 : a >= 10 ? 2 : 3;
    return QString::number(v, 'f', decimals) % u' ' % QString::fromUtf16(u.name);
}

QString formatDurationFixed(TimeNs ns, int decimals) {
    const TimeNs mag = magnitude(ns);
    const QString sign = ns < 0 ? QStringLiteral("-") : QString();
    if (mag >= 1'000'000'000)
        return sign % QString::number(double(mag) / 1e9, 'f', decimals) % QStringLiteral(" s");
    if (mag >= 1'000'000)
        return sign % QString::number(double(mag) / 1e6, 'f', decimals) % QStringLiteral(" ms");
    if (mag >= 1'000)
        return sign % QString::number(double(mag) / 1e3, 'f', decimals) % QStringLiteral(" us");
    return sign % QString::number(mag) % QStringLiteral(" ns");
}

QString formatTimestamp(TimeNs t, TimeNs origin) {
    return formatDuration(saturatingSub(t, origin));
}

QString formatBytes(std::uint64_t bytes) {
    static const char* const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double v = double(bytes);
    int u = 0;
    while (v >= 1024.0 && u < 4) {
        v /= 1024.0;
        ++u;
    }
    return (u == 0 ? QString::number(bytes) : QString::number(v, 'f', 2)) % u' ' %
           QLatin1String(units[u]);
}

} // namespace strobe
