// SPDX-License-Identifier: MIT
#include "widgets/timeline/laneheader.h"

#include "widgets/timeline/timelinecolors.h"
#include "widgets/timeline/timelineview.h"

#include <QContextMenuEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QWheelEvent>

namespace strobe {

namespace {
constexpr int kIndentPx = 12;
constexpr int kArrowPx = 12;
} // namespace

LaneHeader::LaneHeader(TimelineView* view)
    : QWidget(view)
    , m_view(view) {}

void LaneHeader::paintEvent(QPaintEvent*) {
    QPainter p(this);
    const TimelinePalette pal = TimelinePalette::forPalette(palette());
    p.fillRect(rect(), pal.background);
    const LaneLayout& layout = m_view->laneLayout();
    const int scrollY = m_view->scrollY();
    QFont normal = font();
    normal.setPointSizeF(normal.pointSizeF() * 0.9);
    QFont bold = normal;
    bold.setBold(true);
    auto paintRows = [&](const std::vector<LayoutRow>& rows, int clipTop) {
        for (const LayoutRow& r : rows) {
            const int y = layout.viewY(r, scrollY);
            if (y + r.height <= clipTop || y >= height())
                continue;
            const QRect band(0, y, width(), r.height);
            const bool header = r.kind == LayoutRowKind::GroupHeader;
            if (header)
                p.fillRect(band, pal.groupHeader);
            else if (r.kind == LayoutRowKind::LaneRow && (r.y / LaneLayout::kRowHeight) % 2)
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
                p.setPen(pal.selection.darker(140));
            const QString text =
                p.fontMetrics().elidedText(r.label, Qt::ElideMiddle, width() - x - 4);
            p.drawText(QRect(x, y, width() - x - 4, r.height), Qt::AlignVCenter | Qt::AlignLeft,
                       text);
        }
    };
    const int pinned = layout.pinnedHeight();
    p.save();
    p.setClipRect(QRect(0, pinned, width(), height() - pinned));
    paintRows(layout.rows(), pinned);
    p.restore();
    if (pinned > 0) {
        paintRows(layout.pinnedRows(), 0);
        p.fillRect(QRect(0, pinned - 1, width(), 1), pal.text);
    }
    p.fillRect(QRect(width() - 1, 0, 1, height()), pal.grid);
}

void LaneHeader::mousePressEvent(QMouseEvent* event) {
    const LayoutRow* r = m_view->rowAt(event->position().toPoint().y());
    if (event->button() == Qt::LeftButton && r && r->kind == LayoutRowKind::GroupHeader)
        m_view->setGroupExpanded(r->group, !m_view->laneLayout().isExpanded(r->group));
    QWidget::mousePressEvent(event);
}

void LaneHeader::contextMenuEvent(QContextMenuEvent* event) {
    const LayoutRow* r = m_view->rowAt(event->pos().y());
    LaneLayout& layout = m_view->laneLayout();
    QMenu menu(this);
    if (r && r->kind == LayoutRowKind::LaneRow) {
        const std::uint32_t lane = r->lane;
        menu.addAction(tr("Hide lane"), this, [this, lane] { m_view->setLaneHidden(lane, true); });
        const bool pinned = layout.isLanePinned(lane);
        menu.addAction(pinned ? tr("Unpin lane") : tr("Pin lane to top"), this,
                       [this, lane, pinned] { m_view->setLanePinned(lane, !pinned); });
    }
    menu.addAction(tr("Show all lanes"), this, [this] { m_view->showAllLanes(); });
    menu.addSeparator();
    QAction* idle = menu.addAction(tr("Hide threads without CUDA or NVTX events"));
    idle->setCheckable(true);
    idle->setChecked(layout.hideIdle());
    connect(idle, &QAction::toggled, this, [this](bool on) { m_view->setHideIdleLanes(on); });
    menu.addAction(tr("Expand all"), this, [this] {
        m_view->laneLayout().setAllExpanded(true);
        m_view->setHideIdleLanes(m_view->hideIdleLanes()); // relayout and repaint
    });
    menu.addAction(tr("Collapse all"), this, [this] {
        m_view->laneLayout().setAllExpanded(false);
        m_view->setHideIdleLanes(m_view->hideIdleLanes());
    });
    menu.exec(event->globalPos());
}

void LaneHeader::wheelEvent(QWheelEvent* event) {
    m_view->setScrollY(m_view->scrollY() -
                       event->angleDelta().y() / 120 * 3 * LaneLayout::kRowHeight);
    event->accept();
}

} // namespace strobe
