// SPDX-License-Identifier: MIT
#include "formatting.h"

#include <QStringBuilder>
#include <array>
#include <cmath>

namespace strobe {

QString formatDuration(double ns) {
    const double a = std::abs(ns);
    if (a >= 1e9)
        return QString::number(ns / 1e9, 'f', 3) % QStringLiteral(" s");
    if (a >= 1e6)
        return QString::number(ns / 1e6, 'f', 3) % QStringLiteral(" ms");
    if (a >= 1e3)
        return QString::number(ns / 1e3, 'f', 3) % QStringLiteral(" µs");
    if (ns == std::floor(ns))
        return QString::number(ns, 'f', 0) % QStringLiteral(" ns");
    return QString::number(ns, 'f', 1) % QStringLiteral(" ns");
}

QString formatDuration(TimeNs ns) {
    return formatDuration(double(ns));
}

QString formatBytes(std::uint64_t bytes) {
    if (bytes < 1024)
        return QString::number(bytes) % QStringLiteral(" B");
    const char* units[] = {"KiB", "MiB", "GiB", "TiB"};
    double v = double(bytes) / 1024.0;
    int u = 0;
    while (v >= 1024.0 && u < 3) {
        v /= 1024.0;
        ++u;
    }
    return QString::number(v, 'f', 1) % u' ' % QLatin1String(units[u]);
}

QString formatBandwidth(double bytesPerNs) {
    return QString::number(bytesPerNs, 'f', 2) % QStringLiteral(" GB/s");
}

QString formatTimestamp(TimeNs ns) {
    const bool negative = ns < 0;
    const std::uint64_t a = negative ? std::uint64_t(-(ns + 1)) + 1 : std::uint64_t(ns);
    return (negative ? QStringLiteral("-") : QString()) % QString::number(a / 1'000'000'000) %
           u'.' % QString::number(a % 1'000'000'000).rightJustified(9, u'0') % QStringLiteral(" s");
}

QString formatDim3(const std::array<std::int32_t, 3>& d) {
    return u'(' % QString::number(d[0]) % QStringLiteral(", ") % QString::number(d[1]) %
           QStringLiteral(", ") % QString::number(d[2]) % u')';
}

} // namespace strobe
