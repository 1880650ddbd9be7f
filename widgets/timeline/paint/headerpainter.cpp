// SPDX-License-Identifier: MIT
#include "widgets/timeline/paint/headerpainter.h"

#include "widgets/timeline/geometry/lanelayout.h"
#include "widgets/timeline/paint/paintcontext.h"
#include "widgets/timeline/paint/timelinecolors.h"

#include <QPainter>

namespace strobe {

namespace {
constexpr int kIndentPx = 12;
constexpr int kArrowPx = 12;
} // namespace

void paintLaneHeader(QPainter& p, QSize size, const LaneLayout& layout, int scrollY,
                     const TimelinePalette& pal, const QFont& baseFont) {
    const int width = size.width(), height = size.height();
    p.setFont(baseFont);
    p.fillRect(QRect(QPoint(0, 0), size), pal.background);
    const QFont normal = laneFont(baseFont);
    QFont bold = normal;
    bold.setBold(true);
    auto paintRows = [&](const std::vector<LayoutRow>& rows, int clipTop) {
        for (const LayoutRow& r : rows) {
            const int y = layout.viewY(r, scrollY);
            if (y + r.height <= clipTop || y >= height)
                continue;
            const QRect band(0, y, width, r.height);
            const bool header = r.kind == LayoutRowKind::GroupHeader;
            if (header)
                p.fillRect(band, pal.groupHeader);
            else if (r.kind == LayoutRowKind::LaneRow && layout.isAlternate(r))
                p.fillRect(band, pal.rowAlternate);
            if (r.label.isEmpty())
                continue;
            int x = 4 + r.indent * kIndentPx;
            p.setPen(pal.text);
            if (header) {
                const bool open = layout.isExpanded(r.group);
                p.drawText(QRect(x, y, kArrowPx, r.height), Qt::AlignCenter,
                           open ? QStringLiteral("\u25BE") : QStringLiteral("\u25B8"));
                x += kArrowPx + 2;
            }
            p.setFont(header ? bold : normal);
            if (r.pinned)
                p.setPen(pal.pinnedLabel);
            const QString text =
                p.fontMetrics().elidedText(r.label, Qt::ElideMiddle, width - x - 4);
            p.drawText(QRect(x, y, width - x - 4, r.height), Qt::AlignVCenter | Qt::AlignLeft,
                       text);
        }
    };
    const int pinned = layout.pinnedHeight();
    p.save();
    p.setClipRect(QRect(0, pinned, width, height - pinned));
    paintRows(layout.rows(), pinned);
    p.restore();
    if (pinned > 0) {
        paintRows(layout.pinnedRows(), 0);
        p.fillRect(QRect(0, pinned - 1, width, 1), pal.text);
    }
    p.fillRect(QRect(width - 1, 0, 1, height), pal.grid);
}

} // namespace strobe
