// SPDX-License-Identifier: MIT
#pragma once

#include <QRgb>
#include <algorithm>
#include <cstdint>

namespace strobe {

// `over` at `alpha` (0..255) on `under`, both opaque: red and blue, then green, each pair of
// channels mixed in one multiply (Qt's INTERPOLATE_PIXEL_255), as this runs once per pixel column.
inline QRgb blend(QRgb under, QRgb over, int alpha) {
    const auto a = std::uint32_t(std::clamp(alpha, 0, 255)), b = 255 - a;
    auto mix = [a, b](std::uint32_t u, std::uint32_t o) {
        std::uint32_t t = (o & 0xff00ffu) * a + (u & 0xff00ffu) * b;
        return ((t + ((t >> 8) & 0xff00ffu) + 0x800080u) >> 8) & 0xff00ffu;
    };
    return 0xff000000u | mix(under, over) | (mix(under >> 8, over >> 8) << 8);
}

// A folded run's colour: `c` halfway towards the palette's folded grey.
inline QRgb washed(QRgb c, QRgb folded) {
    return qRgb((qRed(c) + qRed(folded)) / 2, (qGreen(c) + qGreen(folded)) / 2,
                (qBlue(c) + qBlue(folded)) / 2);
}

} // namespace strobe
