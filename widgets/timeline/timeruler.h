// SPDX-License-Identifier: MIT
#pragma once

#include "model/types.h"

#include <QWidget>
#include <optional>

namespace strobe {

class Bookmarks;
class ViewState;

// The time axis above the lanes: adaptive ticks and units relative to the trace start, the time
// under the cursor, and a drag that measures a range (ViewState::setSelectedRange); a
// double-click asks to zoom to the measured range. It reads and sets `state` (owned by its
// owner) and signals where the mouse is.
class TimeRuler final : public QWidget {
    Q_OBJECT
public:
    TimeRuler(ViewState* state, QWidget* parent);

    // Draws the notes of `bookmarks` (owned elsewhere; nullptr: none) as flags, following its
    // changes.
    void setBookmarks(const Bookmarks* bookmarks);
    const Bookmarks* bookmarks() const { return m_bookmarks; }

signals:
    // The mouse is at canvas x `x` (the ruler and the lanes share it); nullopt: it left.
    void pointerMoved(std::optional<double> x);
    void zoomToMeasuredRangeRequested();

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;

private:
    TimeNs timeAt(double x) const;

    ViewState* m_state;
    const Bookmarks* m_bookmarks = nullptr;
    std::optional<TimeNs> m_dragStart;
};

} // namespace strobe
