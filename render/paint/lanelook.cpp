// SPDX-License-Identifier: MIT
#include "render/paint/lanelook.h"

#include "model/cudaapi.h"
#include "model/trace.h"

#include <QBrush>
#include <QPaintEngine>
#include <QPainter>
#include <QTransform>

namespace strobe {

QRgb* RowLine::begin(int columns, int logicalHeight, qreal dpr) {
    if (m_image.width() != columns)
        m_image = QImage(columns, 1, QImage::Format_RGB32);
    m_height = logicalHeight;
    m_dpr = dpr;
    return reinterpret_cast<QRgb*>(m_image.scanLine(0));
}

void RowLine::blit(QPainter& p, int y) const {
    blit(p, m_image, y, m_height, m_dpr);
}

void RowLine::blit(QPainter& p, const QImage& line, int y, int logicalHeight, qreal dpr) {
    const QRectF rect(0, y, line.width() / dpr, logicalHeight);
    if (p.paintEngine() && p.paintEngine()->type() != QPaintEngine::Raster) {
        p.drawImage(rect, line); // an SVG has no texture brushes: the line as an image
        return;
    }
    // The line tiled down the rectangle as a texture: one copy per device pixel, never scaled
    // (the brush maps the line's pixels 1:1 onto device pixels whatever the ratio).
    QBrush brush(line);
    if (dpr != 1.0)
        brush.setTransform(QTransform::fromScale(1.0 / dpr, 1.0 / dpr));
    p.fillRect(rect, brush);
}

void LaneLook::useTrace(const Trace* trace, std::uint64_t generation) {
    if (trace == m_trace && generation == m_generation)
        return;
    m_trace = trace;
    m_generation = generation;
    m_names.clear();
    labels.clear();
    colors.useTrace(trace, generation);
}

const QString& LaneLook::eventName(std::uint32_t lane, std::uint32_t index) {
    const Lane& l = m_trace->lane(lane);
    const StringId id = l.nameId(index);
    auto it = m_names.find(id);
    if (it == m_names.end()) {
        QString s = m_trace->string(id);
        if (l.kind() == LaneKind::CudaApi)
            s = cudaapi::displayName(s);
        it = m_names.insert(id, s);
    }
    return it.value();
}

} // namespace strobe
