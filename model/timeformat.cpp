// SPDX-License-Identifier: MIT
#include "timeformat.h"

#include <QStringBuilder>
#include <cstdlib>

namespace strobe {

QString formatDuration(TimeNs ns, int decimals) {
    const TimeNs mag = ns < 0 ? -ns : ns;
    const QString sign = ns < 0 ? QStringLiteral("-") : QString();
    if (mag >= 1'000'000'000)
        return sign % QString::number(double(mag) / 1e9, 'f', decimals) % QStringLiteral(" s");
    if (mag >= 1'000'000)
        return sign % QString::number(double(mag) / 1e6, 'f', decimals) % QStringLiteral(" ms");
    if (mag >= 1'000)
        return sign % QString::number(double(mag) / 1e3, 'f', decimals) % QStringLiteral(" us");
    return sign % QString::number(mag) % QStringLiteral(" ns");
}

QString formatTimestamp(TimeNs t, TimeNs origin, int decimals) {
    return formatDuration(t - origin, decimals);
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
