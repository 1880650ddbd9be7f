// SPDX-License-Identifier: MIT
#include "widgets/timeline/paint/rulerpainter.h"

#include "model/lod/timemapping.h"
#include "widgets/timeline/geometry/rulerticks.h"
#include "widgets/timeline/paint/timelinecolors.h"

#include <QFont>
#include <QPainter>
#include <algorithm>
#include <cmath>

namespace strobe {

namespace {
constexpr int kMinTickSpacingPx = 90;
}

void paintTimeRuler(QPainter& p, QSize size, const TimelinePalette& pal, const QFont& baseFont,
                    const std::optional<RulerContent>& content) {
    const int width = size.width(), height = size.height();
    p.fillRect(QRect(QPoint(0, 0), size), pal.groupHeader);
    if (!content)
        return;
    const TimeRange view = content->view;
    const TimeMapping map = TimeMapping::fromRange(view, width);
    const TimeNs origin = content->origin;
    QFont f = baseFont;
    f.setPointSizeF(f.pointSizeF() * 0.85);
    p.setFont(f);

    if (const auto r = content->measured) {
        const double x0 = map.toPx(r->start), x1 = map.toPx(r->end);
        p.fillRect(QRectF(x0, 0, std::max(1.0, x1 - x0), height), pal.rulerMeasure);
        const QString label = formatDuration(r->duration());
        const double mid = (x0 + x1) / 2 - p.fontMetrics().horizontalAdvance(label) / 2.0;
        p.setPen(pal.text);
        p.drawText(QPointF(std::clamp(mid, 2.0, width - 80.0), 11), label);
    }

    const RulerTicks ticks = computeTicks(view, origin, width, kMinTickSpacingPx);
    p.setPen(pal.text);
    for (TimeNs t : ticks.ticks) {
        const double x = std::floor(map.toPx(t)) + 0.5;
        p.drawLine(QPointF(x, height - 8), QPointF(x, height));
        p.drawText(QPointF(x + 3, height - 6), formatTickLabel(t - origin, ticks.step));
    }
    // Minor ticks: five per step.
    p.setPen(pal.minorTick);
    const TimeNs minor = std::max<TimeNs>(1, ticks.step / 5);
    if (!ticks.ticks.empty()) {
        for (TimeNs t = ticks.ticks.front() - ticks.step; t < view.end; t += minor) {
            const double x = std::floor(map.toPx(t)) + 0.5;
            p.drawLine(QPointF(x, height - 4), QPointF(x, height));
        }
    }

    if (const auto c = content->cursor) {
        const double x = map.toPx(*c);
        const QString label =
            formatTickLabel(*c - origin, std::max<TimeNs>(1, TimeNs(map.nsPerPx())));
        const int w = p.fontMetrics().horizontalAdvance(label) + 8;
        const QRectF box(std::clamp(x - w / 2.0, 0.0, double(width - w)), 0, w, 13);
        p.fillRect(box, pal.text);
        p.setPen(pal.background);
        p.drawText(box, Qt::AlignCenter, label);
    }
    p.fillRect(QRect(0, height - 1, width, 1), pal.grid);
}

} // namespace strobe
