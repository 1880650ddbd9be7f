// SPDX-License-Identifier: MIT
#include "widgets/timeline/timelinecanvas.h"

#include "widgets/workerpriority.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QTimer>
#include <QToolTip>
#include <QWheelEvent>
#include <cmath>

namespace strobe {

namespace {
constexpr double kWheelZoomStep = 0.8; // span factor per wheel notch
constexpr int kDragThresholdPx = 3;
} // namespace

TimelineCanvas::TimelineCanvas(Hooks hooks, QWidget* parent)
    : QWidget(parent)
    , m_hooks(std::move(hooks)) {
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setAttribute(Qt::WA_OpaquePaintEvent);
}

void TimelineCanvas::paintEvent(QPaintEvent*) {
    QPainter p(this);
    m_hooks.paint(p, size(), devicePixelRatioF());
    // Held for the first frame of a new trace: released once the whole window has painted
    // (its headers and ruler come after this canvas).
    if (isBackgroundWorkHeld())
        QTimer::singleShot(0, this, [] { releaseBackgroundWork(); });
}

void TimelineCanvas::mousePressEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton)
        return QWidget::mousePressEvent(event);
    m_pressPos = event->position().toPoint();
    m_lastPos = *m_pressPos;
    m_dragging = false;
}

void TimelineCanvas::mouseMoveEvent(QMouseEvent* event) {
    const QPoint pos = event->position().toPoint();
    if (m_pressPos && (event->buttons() & Qt::LeftButton)) {
        const bool starting =
            !m_dragging && (pos - *m_pressPos).manhattanLength() >= kDragThresholdPx;
        if (starting) {
            m_dragging = true;
            setCursor(Qt::ClosedHandCursor);
        }
        if (m_dragging) {
            // One undo step for the whole drag: only its first move is recorded.
            emit panRequested(double(m_lastPos.x() - pos.x()), starting);
            m_lastPos = pos;
        }
    }
    emit pointerMoved(pos.x(), pos.y());
}

void TimelineCanvas::mouseReleaseEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton || !m_pressPos)
        return QWidget::mouseReleaseEvent(event);
    if (!m_dragging)
        emit clicked(event->position().toPoint());
    m_pressPos.reset();
    m_dragging = false;
    unsetCursor();
}

void TimelineCanvas::mouseDoubleClickEvent(QMouseEvent* event) {
    emit doubleClicked(event->position().toPoint());
}

void TimelineCanvas::wheelEvent(QWheelEvent* event) {
    const QPoint angle = event->angleDelta();
    const double x = event->position().x();
    if (event->modifiers() & Qt::ShiftModifier) {
        // Shift+wheel pans; some platforms turn it into a horizontal delta already.
        const int d = angle.y() != 0 ? angle.y() : angle.x();
        emit panRequested(-double(d) / 120.0 * width() * 0.1, false);
    } else if (angle.x() != 0 && std::abs(angle.x()) > std::abs(angle.y())) {
        emit panRequested(-double(angle.x()) / 120.0 * width() * 0.1, false);
    } else if (angle.y() != 0) {
        emit zoomRequested(x, std::pow(kWheelZoomStep, double(angle.y()) / 120.0));
    }
    event->accept();
}

void TimelineCanvas::keyPressEvent(QKeyEvent* event) {
    const std::optional<TimelineAction> action = timelineKeyAction(event->key());
    if (!action)
        return QWidget::keyPressEvent(event);
    emit actionRequested(*action);
    event->accept();
}

void TimelineCanvas::leaveEvent(QEvent* event) {
    emit pointerMoved(std::nullopt, std::nullopt);
    QWidget::leaveEvent(event);
}

bool TimelineCanvas::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QString text = m_hooks.toolTip(help->pos());
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    return QWidget::event(event);
}

} // namespace strobe
