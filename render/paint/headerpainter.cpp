// SPDX-License-Identifier: MIT
#include "render/paint/headerpainter.h"

#include "render/geometry/lanelayout.h"
#include "render/paint/labelcache.h"
#include "render/paint/paintcontext.h"
#include "render/paint/timelinecolors.h"

#include <QFontMetrics>
#include <QFontMetricsF>
#include <QPainter>
#include <cmath>

namespace strobe {

namespace {
constexpr int kIndentPx = 12;
constexpr int kArrowPx = 12;

// Where the id of "NAME [id]" starts (its space), or -1 when `text` does not end so.
qsizetype idSuffixStart(const QString& text) {
    if (!text.endsWith(u']'))
        return -1;
    const qsizetype open = text.lastIndexOf(QLatin1String(" ["));
    if (open <= 0 || open + 3 >= text.size())
        return -1;
    for (qsizetype i = open + 2; i < text.size() - 1; ++i)
        if (!text[i].isDigit())
            return -1;
    return open;
}
} // namespace

QString elidedLaneLabel(const QString& text, const QFontMetrics& metrics, int width) {
    if (metrics.horizontalAdvance(text) <= width)
        return text;
    if (text.contains(QLatin1String(" / "))) // a pinned lane: "OWNER / ... / KIND"
        return metrics.elidedText(text, Qt::ElideMiddle, width);
    if (const qsizetype id = idSuffixStart(text); id > 0) {
        const QString tail = text.mid(id);
        const QString head = metrics.elidedText(text.left(id), Qt::ElideRight,
                                                width - metrics.horizontalAdvance(tail));
        // Not when all the name would leave is its ellipsis: then the id goes too, as elsewhere.
        if (head.size() > 1)
            return head + tail;
    }
    return metrics.elidedText(text, Qt::ElideRight, width);
}

const QStaticText& HeaderLabels::elided(const QString& text, const QFont& font,
                                        const QString& fontKey, int width) {
    if (m_count >= kMaxLabels) {
        m_byFont.clear();
        m_count = 0;
    }
    QHash<QPair<QString, int>, QStaticText>& runs = m_byFont[fontKey];
    auto it = runs.find({text, width});
    if (it == runs.end()) {
        it = runs.insert({text, width},
                         preparedText(elidedLaneLabel(text, QFontMetrics(font), width), font));
        ++m_count;
    }
    return it.value();
}

void paintLaneHeader(QPainter& p, QSize size, const LaneLayout& layout, int scrollY,
                     const TimelinePalette& pal, const QFont& baseFont, HeaderLabels* labels) {
    const int width = size.width(), height = size.height();
    p.setFont(baseFont);
    p.fillRect(QRect(QPoint(0, 0), size), pal.background);
    const QFont normal = laneFont(baseFont);
    QFont bold = normal;
    bold.setBold(true);
    const QString normalKey = labels ? normal.key() : QString(),
                  boldKey = labels ? bold.key() : QString();
    // Where drawText's vertical centring puts a line: its height is the font's ascent and
    // descent, rounded up.
    auto lineHeight = [](const QFont& f) {
        const QFontMetricsF fm(f);
        return std::ceil(fm.ascent() + fm.descent());
    };
    const qreal normalLine = lineHeight(normal), boldLine = lineHeight(bold);
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
            const QFont& font = header ? bold : normal;
            p.setFont(font);
            if (r.pinned)
                p.setPen(pal.pinnedLabel);
            const QRect room(x, y, width - x - 4, r.height);
            if (!labels) {
                p.drawText(room, Qt::AlignVCenter | Qt::AlignLeft,
                           elidedLaneLabel(r.label, p.fontMetrics(), room.width()));
                continue;
            }
            const qreal line = header ? boldLine : normalLine;
            p.drawStaticText(
                QPointF(room.x(), room.y() + (room.height() - line) / 2),
                labels->elided(r.label, font, header ? boldKey : normalKey, room.width()));
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
