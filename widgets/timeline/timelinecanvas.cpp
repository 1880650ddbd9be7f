// SPDX-License-Identifier: MIT
#include "widgets/timeline/timelinecanvas.h"

#include "widgets/timeline/timelineview.h"
#include "widgets/viewstate.h"
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
constexpr double kKeyZoomStep = 0.7;
constexpr double kKeyPanFraction = 0.15; // of the width per key press
constexpr int kDragThresholdPx = 3;
} // namespace

TimelineCanvas::TimelineCanvas(TimelineView* view)
    : QWidget(view)
    , m_view(view) {
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setAttribute(Qt::WA_OpaquePaintEvent);
}

void TimelineCanvas::paintEvent(QPaintEvent*) {
    QPainter p(this);
    m_view->paintCanvas(p, size(), devicePixelRatioF());
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
            m_view->panPixels(double(m_lastPos.x() - pos.x()), starting);
            m_lastPos = pos;
        }
    }
    m_view->setPointer(pos.x(), pos.y());
}

void TimelineCanvas::mouseReleaseEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton || !m_pressPos)
        return QWidget::mouseReleaseEvent(event);
    if (!m_dragging)
        m_view->viewState()->setSelection(m_view->eventAt(event->position().toPoint()));
    m_pressPos.reset();
    m_dragging = false;
    unsetCursor();
}

void TimelineCanvas::mouseDoubleClickEvent(QMouseEvent* event) {
    const EventRef ref = m_view->eventAt(event->position().toPoint());
    if (ref.isValid())
        m_view->revealEvent(ref);
}

void TimelineCanvas::wheelEvent(QWheelEvent* event) {
    const QPoint angle = event->angleDelta();
    const double x = event->position().x();
    if (event->modifiers() & Qt::ShiftModifier) {
        // Shift+wheel pans; some platforms turn it into a horizontal delta already.
        const int d = angle.y() != 0 ? angle.y() : angle.x();
        m_view->panPixels(-double(d) / 120.0 * width() * 0.1);
    } else if (angle.x() != 0 && std::abs(angle.x()) > std::abs(angle.y())) {
        m_view->panPixels(-double(angle.x()) / 120.0 * width() * 0.1);
    } else if (angle.y() != 0) {
        m_view->zoomAt(x, std::pow(kWheelZoomStep, double(angle.y()) / 120.0));
    }
    event->accept();
}

void TimelineCanvas::keyPressEvent(QKeyEvent* event) {
    const double w = width();
    switch (event->key()) {
    case Qt::Key_W:
    case Qt::Key_Up:
        m_view->zoomAt(m_view->keyboardZoomAnchor(), kKeyZoomStep);
        break;
    case Qt::Key_S:
    case Qt::Key_Down:
        m_view->zoomAt(m_view->keyboardZoomAnchor(), 1.0 / kKeyZoomStep);
        break;
    case Qt::Key_A:
    case Qt::Key_Left:
        m_view->panPixels(-w * kKeyPanFraction);
        break;
    case Qt::Key_D:
    case Qt::Key_Right:
        m_view->panPixels(w * kKeyPanFraction);
        break;
    case Qt::Key_Home:
    case Qt::Key_F:
        m_view->fitAll();
        break;
    case Qt::Key_Backspace:
        m_view->undoZoom();
        break;
    case Qt::Key_Z:
    case Qt::Key_Return:
    case Qt::Key_Enter:
        m_view->zoomToSelectedRange();
        break;
    case Qt::Key_PageUp:
        m_view->setScrollY(m_view->scrollY() - height() * 3 / 4);
        break;
    case Qt::Key_PageDown:
        m_view->setScrollY(m_view->scrollY() + height() * 3 / 4);
        break;
    case Qt::Key_Escape:
        m_view->viewState()->setSelection({});
        m_view->viewState()->setSelectedRange(std::nullopt);
        break;
    default:
        return QWidget::keyPressEvent(event);
    }
    event->accept();
}

void TimelineCanvas::leaveEvent(QEvent* event) {
    m_view->setPointer(std::nullopt);
    QWidget::leaveEvent(event);
}

bool TimelineCanvas::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QString text = m_view->toolTipAt(help->pos());
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    return QWidget::event(event);
}

} // namespace strobe
