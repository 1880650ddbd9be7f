// SPDX-License-Identifier: MIT
#include "model/valueformat.h"

#include <QStringBuilder>
#include <cmath>

namespace strobe {

QString formatMeanDuration(double ns) {
    if (std::abs(ns) >= 1000.0)
        return formatDuration(TimeNs(std::llround(ns)));
    return QString::number(ns, 'f', 1) % QStringLiteral(" ns");
}

QString formatBandwidth(double bytesPerNs) {
    return QString::number(bytesPerNs, 'f', 2) % QStringLiteral(" GB/s");
}

QString formatDim3(const std::array<std::int32_t, 3>& d) {
    return u'(' % QString::number(d[0]) % QStringLiteral(", ") % QString::number(d[1]) %
           QStringLiteral(", ") % QString::number(d[2]) % u')';
}

} // namespace strobe
