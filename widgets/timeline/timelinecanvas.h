// SPDX-License-Identifier: MIT
#pragma once

#include <QPoint>
#include <QWidget>
#include <optional>

namespace strobe {

class TimelineView;

// The lane area of the timeline: paints through its TimelineView and turns mouse, wheel and
// key input into navigation, hover and selection.
class TimelineCanvas final : public QWidget {
    Q_OBJECT
public:
    explicit TimelineCanvas(TimelineView* view);

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
    TimelineView* m_view;
    std::optional<QPoint> m_pressPos;
    QPoint m_lastPos;
    bool m_dragging = false;
};

} // namespace strobe
