// SPDX-License-Identifier: MIT
#pragma once

#include "widgets/timeline/keybindings.h"

#include <QPoint>
#include <QWidget>
#include <functional>
#include <optional>

class QPainter;

namespace strobe {

// The lane area of the timeline: paints through the function it is given and turns mouse, wheel
// and key input into signals (navigation, pointer, selection) for its owner to carry out. Keys
// come from the one list of controls (timelineKeyAction). It knows nothing of the view around it.
class TimelineCanvas final : public QWidget {
    Q_OBJECT
public:
    // What the canvas asks of its owner and cannot signal, as it needs the answer now.
    struct Hooks {
        // Draws the lanes and overlays into [0, size) at device pixel ratio `dpr`.
        std::function<void(QPainter& p, QSize size, qreal dpr)> paint;
        // The tooltip at canvas point `pos`; empty: none.
        std::function<QString(QPoint pos)> toolTip;
    };
    TimelineCanvas(Hooks hooks, QWidget* parent);

signals:
    // Pan by `dx` canvas pixels; `record`: make it an undo step (the first move of a drag).
    void panRequested(double dx, bool record);
    // Zoom the span by `factor` around canvas x `x` (the wheel).
    void zoomRequested(double x, double factor);
    // The mouse is at canvas (x, y); nullopt: it left the canvas.
    void pointerMoved(std::optional<double> x, std::optional<int> y);
    // A click (no drag) or a double-click at canvas point `pos`.
    void clicked(QPoint pos);
    void doubleClicked(QPoint pos);
    // A key of the list of controls was pressed.
    void actionRequested(TimelineAction action);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void leaveEvent(QEvent* event) override;
    bool event(QEvent* event) override;

private:
    Hooks m_hooks;
    std::optional<QPoint> m_pressPos;
    QPoint m_lastPos;
    bool m_dragging = false;
};

} // namespace strobe
