// SPDX-License-Identifier: MIT
#include "render/paint/rulerpainter.h"

#include "model/lod/timemapping.h"
#include "render/geometry/rulerticks.h"
#include "render/paint/timelinecolors.h"

#include <QFont>
#include <QPainter>
#include <algorithm>
#include <cmath>

namespace strobe {

namespace {
constexpr int kMinTickSpacingPx = 90;
constexpr double kLabelHeight = 13;
constexpr double kLabelGap = 4; // between the duration and the cursor label
} // namespace

RulerLabels layoutRulerLabels(const RulerContent& content, int width, const QFontMetrics& fm) {
    RulerLabels out;
    const TimeMapping map = TimeMapping::fromRange(content.view, width);
    const auto box = [&](double centre, const QString& text) {
        const double w = std::min<double>(width, fm.horizontalAdvance(text) + 8);
        return QRectF(std::clamp(centre - w / 2.0, 0.0, width - w), 0, w, kLabelHeight);
    };
    if (const auto c = content.cursor) {
        out.cursorText = formatTickLabel(saturatingSub(*c, content.origin),
                                         std::max<TimeNs>(1, TimeNs(map.nsPerPx())));
        out.cursor = box(map.toPx(*c), out.cursorText);
    }
    if (const auto r = content.measured) {
        out.measuredText = formatDuration(r->duration());
        const double mid = (map.toPx(r->start) + map.toPx(r->end)) / 2;
        QRectF m = box(mid, out.measuredText);
        if (out.cursor && m.intersects(*out.cursor)) {
            const QRectF& c = *out.cursor;
            const QRectF right(c.right() + kLabelGap, 0, m.width(), kLabelHeight);
            const QRectF left(c.left() - kLabelGap - m.width(), 0, m.width(), kLabelHeight);
            const bool rightFits = right.right() <= width, leftFits = left.left() >= 0;
            const bool preferRight = mid >= c.center().x();
            if (rightFits && (preferRight || !leftFits))
                m = right;
            else if (leftFits)
                m = left;
            else
                return out; // no room beside the cursor label: the duration is left out
        }
        out.measured = m;
    }
    return out;
}

void paintTimeRuler(QPainter& p, QSize size, const TimelinePalette& pal, const QFont& baseFont,
                    const std::optional<RulerContent>& content, std::span<const RulerFlag> flags) {
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

    const RulerLabels labels = layoutRulerLabels(*content, width, p.fontMetrics());
    if (const auto r = content->measured) {
        const double x0 = map.toPx(r->start), x1 = map.toPx(r->end);
        p.fillRect(QRectF(x0, 0, std::max(1.0, x1 - x0), height), pal.rulerMeasure);
    }
    if (labels.measured) {
        p.setPen(pal.text);
        p.drawText(*labels.measured, Qt::AlignCenter, labels.measuredText);
    }

    if (!flags.empty()) {
        const QColor flag = pal.dark ? QColor(0xff, 0xb3, 0x40) : QColor(0xd9, 0x7a, 0x00);
        p.setRenderHint(QPainter::Antialiasing, true);
        for (const RulerFlag& f : flags) {
            p.fillRect(QRectF(f.x, 0, f.barEnd - f.x, 3), flag);
            p.fillRect(QRectF(f.x, 0, 1, height - 1), flag);
            const QPointF pennant[] = {{f.x + 1, 0}, {f.x + kRulerFlagWidth, 4}, {f.x + 1, 8}};
            p.setPen(Qt::NoPen);
            p.setBrush(flag);
            p.drawPolygon(pennant, 3);
            if (f.labelRoom >= 12) {
                const QRectF box(f.x + kRulerFlagWidth + 2, 2, f.labelRoom, kLabelHeight);
                p.setPen(pal.text);
                p.drawText(box, Qt::AlignLeft | Qt::AlignVCenter,
                           p.fontMetrics().elidedText(f.label, Qt::ElideRight, int(f.labelRoom)));
            }
        }
        p.setRenderHint(QPainter::Antialiasing, false);
        p.setBrush(Qt::NoBrush);
    }

    // Ticks come bounded in number from computeTicks: a view spanning most of int64 once made
    // the minor ticks' own loop wrap past INT64_MAX and never end.
    const RulerTicks ticks = computeTicks(view, origin, width, kMinTickSpacingPx);
    p.setPen(pal.text);
    for (TimeNs t : ticks.ticks) {
        const double x = std::floor(map.toPx(t)) + 0.5;
        p.drawLine(QPointF(x, height - 8), QPointF(x, height));
        p.drawText(QPointF(x + 3, height - 6),
                   formatTickLabel(saturatingSub(t, origin), ticks.step));
    }
    p.setPen(pal.minorTick);
    for (TimeNs t : ticks.minorTicks) {
        const double x = std::floor(map.toPx(t)) + 0.5;
        p.drawLine(QPointF(x, height - 4), QPointF(x, height));
    }

    if (labels.cursor) {
        p.fillRect(*labels.cursor, pal.text);
        p.setPen(pal.background);
        p.drawText(*labels.cursor, Qt::AlignCenter, labels.cursorText);
    }
    p.fillRect(QRect(0, height - 1, width, 1), pal.grid);
}

} // namespace strobe
