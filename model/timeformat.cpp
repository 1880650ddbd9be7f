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

std::optional<TimeNs> parseTime(QStringView text) {
    text = text.trimmed();
    bool negative = false;
    if (!text.isEmpty() && (text.front() == u'-' || text.front() == u'+')) {
        negative = text.front() == u'-';
        text = text.mid(1);
    }
    qsizetype i = 0;
    auto digitAt = [&](qsizetype k) { return k < text.size() && text[k].isDigit(); };
    constexpr TimeNs kLimit = TimeNs(1) << 62;
    TimeNs whole = 0;
    qsizetype wholeDigits = 0;
    for (; digitAt(i); ++i, ++wholeDigits) {
        const int digit = text[i].digitValue();
        if (whole > (kLimit - digit) / 10) // checked before it can overflow
            return std::nullopt;
        whole = whole * 10 + digit;
    }
    QStringView fraction;
    if (i < text.size() && text[i] == u'.') {
        const qsizetype from = ++i;
        while (digitAt(i))
            ++i;
        fraction = text.mid(from, i - from);
    }
    if (wholeDigits == 0 && fraction.isEmpty())
        return std::nullopt;
    const QStringView unit = text.mid(i).trimmed();
    TimeNs scale = 0;
    if (unit.isEmpty() || unit == u"ns")
        scale = 1;
    else if (unit == u"us" || unit == u"\u00b5s" || unit == u"\u03bcs")
        scale = 1'000;
    else if (unit == u"ms")
        scale = 1'000'000;
    else if (unit == u"s")
        scale = 1'000'000'000;
    else
        return std::nullopt;
    if (whole > kLimit / scale)
        return std::nullopt;
    TimeNs ns = whole * scale;
    // The fraction digit by digit, so "1.2s" is exactly 1,200,000,000 ns.
    TimeNs place = scale;
    for (QChar c : fraction) {
        place /= 10;
        if (place == 0)
            break;
        ns += c.digitValue() * place;
    }
    if (ns > kLimit)
        return std::nullopt;
    return negative ? -ns : ns;
}

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
