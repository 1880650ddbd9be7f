// SPDX-License-Identifier: MIT
#include "widgets/timeline/laneheader.h"

#include "render/paint/headerpainter.h"
#include "render/paint/timelinecolors.h"
#include "widgets/timeline/timelineview.h"

#include <QContextMenuEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QWheelEvent>

namespace strobe {

LaneHeader::LaneHeader(TimelineView* view)
    : QWidget(view)
    , m_view(view) {}

void LaneHeader::paintEvent(QPaintEvent*) {
    QPainter p(this);
    paintLaneHeader(p, size(), m_view->laneLayout(), m_view->scrollY(),
                    TimelinePalette::forPalette(palette()), font(), &m_labels);
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
