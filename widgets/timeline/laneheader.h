// SPDX-License-Identifier: MIT
#pragma once

#include "render/paint/headerpainter.h"

#include <QWidget>
#include <cstdint>

namespace strobe {

class LaneLayout;

// The name column left of the lanes: group names with expand/collapse arrows, lane names, and a
// context menu to hide, show and pin lanes and to hide threads without events of interest.
// The wheel scrolls the lanes vertically. It draws `layout` (owned by its owner) scrolled as
// setScrollY says and signals what the user asks for; its owner changes the layout.
class LaneHeader final : public QWidget {
    Q_OBJECT
public:
    LaneHeader(const LaneLayout& layout, QWidget* parent);
    // The lanes' vertical scroll position (content pixels above the view), as the canvas has it.
    void setScrollY(int y) { m_scrollY = y; }

signals:
    void groupExpandRequested(std::uint32_t group, bool expanded);
    void laneHideRequested(std::uint32_t lane, bool hidden);
    void lanePinRequested(std::uint32_t lane, bool pinned);
    void showAllLanesRequested();
    void hideIdleLanesRequested(bool hide);
    void hideIdleGpusRequested(bool hide);
    void allGroupsExpandRequested(bool expanded);
    void scrollRequested(int y); // to content y `y` (the owner clamps it)

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;

private:
    const LaneLayout& m_layout;
    int m_scrollY = 0;
    HeaderLabels m_labels; // the names shaped once, not on every scroll
};

} // namespace strobe
