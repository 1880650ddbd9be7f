// SPDX-License-Identifier: MIT
#pragma once

#include "model/types.h"
#include "render/paint/eventcolors.h"
#include "render/paint/labelcache.h"

#include <QHash>
#include <QImage>
#include <QString>
#include <cstdint>

class QPainter;

namespace strobe {

class Trace;

// One opaque line of device pixels, filled by a lane pass and repeated down a row: the image is
// kept between rows and frames so that a row drawn as a line allocates nothing. Pixels only.
class RowLine {
public:
    // The scan line of `columns` device pixels, to fill; blit() then repeats it `logicalHeight`
    // high at `dpr`.
    QRgb* begin(int columns, int logicalHeight, qreal dpr);
    void blit(QPainter& p, int y) const;
    // `line` (device pixels, one scan line) repeated `logicalHeight` high from `y`: tiled as a
    // texture on a raster device (one copy per device pixel, never scaled), drawn as an image
    // where there are no texture brushes (SVG).
    static void blit(QPainter& p, const QImage& line, int y, int logicalHeight, qreal dpr);

private:
    QImage m_image;
    int m_height = 0;
    qreal m_dpr = 1.0;
};

// What the lane passes keep between frames to paint fast, none of it geometry: the event colours
// (per trace and theme), the names shown on bars (API names lose their _vNNNN suffix, once per
// string), the bars' shaped labels, and the image line reused between rows. A LanePainter owns
// one; the passes get it by reference and read the frame only.
struct LaneLook {
    EventColors colors;
    LabelCache labels;
    RowLine line;

    // Drops the per-trace caches when `trace` (or its generation) differs from the last paint's.
    void useTrace(const Trace* trace, std::uint64_t generation);
    const Trace* trace() const { return m_trace; }
    // The name shown for an event, cached per string.
    const QString& eventName(std::uint32_t lane, std::uint32_t index);

private:
    const Trace* m_trace = nullptr;
    std::uint64_t m_generation = 0;
    QHash<StringId, QString> m_names;
};

} // namespace strobe
