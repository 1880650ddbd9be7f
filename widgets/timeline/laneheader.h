// SPDX-License-Identifier: MIT
#pragma once

#include "render/paint/headerpainter.h"

#include <QWidget>

namespace strobe {

class TimelineView;

// The name column left of the lanes: group names with expand/collapse arrows, lane names, and a
// context menu to hide, show and pin lanes and to hide threads without events of interest.
// The wheel scrolls the lanes vertically.
class LaneHeader final : public QWidget {
    Q_OBJECT
public:
    explicit LaneHeader(TimelineView* view);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;

private:
    TimelineView* m_view;
    HeaderLabels m_labels; // the names shaped once, not on every scroll
};

} // namespace strobe
