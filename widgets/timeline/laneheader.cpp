// SPDX-License-Identifier: MIT
#include "widgets/timeline/laneheader.h"

#include "render/geometry/lanelayout.h"
#include "render/paint/headerpainter.h"
#include "render/paint/timelinecolors.h"

#include <QContextMenuEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QWheelEvent>

namespace strobe {

LaneHeader::LaneHeader(const LaneLayout& layout, QWidget* parent)
    : QWidget(parent)
    , m_layout(layout) {}

void LaneHeader::paintEvent(QPaintEvent*) {
    QPainter p(this);
    paintLaneHeader(p, size(), m_layout, m_scrollY, TimelinePalette::forPalette(palette()), font(),
                    &m_labels);
}

void LaneHeader::mousePressEvent(QMouseEvent* event) {
    const LayoutRow* r = m_layout.rowAt(event->position().toPoint().y(), m_scrollY);
    if (event->button() == Qt::LeftButton && r && r->kind == LayoutRowKind::GroupHeader)
        emit groupExpandRequested(r->group, !m_layout.isExpanded(r->group));
    QWidget::mousePressEvent(event);
}

void LaneHeader::contextMenuEvent(QContextMenuEvent* event) {
    const LayoutRow* r = m_layout.rowAt(event->pos().y(), m_scrollY);
    QMenu menu(this);
    if (r && r->kind == LayoutRowKind::LaneRow) {
        const std::uint32_t lane = r->lane;
        menu.addAction(tr("Hide lane"), this, [this, lane] { emit laneHideRequested(lane, true); });
        const bool pinned = m_layout.isLanePinned(lane);
        menu.addAction(pinned ? tr("Unpin lane") : tr("Pin lane to top"), this,
                       [this, lane, pinned] { emit lanePinRequested(lane, !pinned); });
    }
    menu.addAction(tr("Show all lanes"), this, [this] { emit showAllLanesRequested(); });
    menu.addSeparator();
    QAction* idle = menu.addAction(tr("Hide threads without CUDA or NVTX events"));
    idle->setCheckable(true);
    idle->setChecked(m_layout.hideIdle());
    connect(idle, &QAction::toggled, this, [this](bool on) { emit hideIdleLanesRequested(on); });
    // On at first: a node's other GPUs, listed by the trace but unused, are only empty strips.
    QAction* idleGpus = menu.addAction(tr("Hide GPUs that ran no kernels, copies or memsets"));
    idleGpus->setCheckable(true);
    idleGpus->setChecked(m_layout.hideIdleGpus());
    connect(idleGpus, &QAction::toggled, this, [this](bool on) { emit hideIdleGpusRequested(on); });
    menu.addAction(tr("Expand all"), this, [this] { emit allGroupsExpandRequested(true); });
    menu.addAction(tr("Collapse all"), this, [this] { emit allGroupsExpandRequested(false); });
    menu.exec(event->globalPos());
}

void LaneHeader::wheelEvent(QWheelEvent* event) {
    emit scrollRequested(m_scrollY - event->angleDelta().y() / 120 * 3 * LaneLayout::kRowHeight);
    event->accept();
}

} // namespace strobe
