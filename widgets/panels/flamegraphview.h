// SPDX-License-Identifier: MIT
#pragma once

#include "model/analysis/flamegraph.h"

#include <QColor>
#include <QRectF>
#include <QWidget>
#include <optional>
#include <vector>

namespace strobe {

struct TimelinePalette;

// The flame graph (buildFlameGraph) as an icicle: the root on top, each path below its parent,
// as wide as its total time. Operators, annotations and Python frames have a hue each, a shade
// per name. A click zooms into a box (it becomes the full width; its ancestors stay above as
// full-width breadcrumbs, a click on one goes back to it, Escape goes up one level); a
// double-click emits rangeActivated for the path's longest call. Passive: it shows the graph it
// is given. Boxes under 1 px are not drawn one by one: the smallest children of a box merge into
// one grey box. Deep graphs are taller than sizeHint's minimum: put the view in a QScrollArea.
class FlameGraphView : public QWidget {
    Q_OBJECT
public:
    explicit FlameGraphView(QWidget* parent = nullptr);
    ~FlameGraphView() override;

    // Shows `graph` from its root.
    void setFlameGraph(FlameGraph graph);
    const FlameGraph& flameGraph() const { return m_graph; }

    // The node drawn at the full width (0, the root, until a zoom).
    std::uint32_t focus() const { return m_focus; }
    // Zooms into `node` (ignored when it is not a node of the graph).
    void zoomTo(std::uint32_t node);
    // Zooms out to the focus's parent; nothing at the root.
    void zoomOut();

    // One drawn box: a node, or (merged > 0) the `merged` children of `node` too narrow to draw.
    struct Box {
        QRectF rect;
        std::uint32_t node = 0;
        std::uint32_t merged = 0;
    };
    // The boxes of the current width and focus, row by row (depth), each row left to right.
    const std::vector<std::vector<Box>>& boxes() const;
    // The node of the box at `pos`, if any (a merged box is none).
    std::optional<std::uint32_t> nodeAt(QPoint pos) const;
    // Where `node` is drawn, if it is (not when narrower than a pixel or outside the focus).
    std::optional<QRectF> boxOf(std::uint32_t node) const;
    // The tooltip of `node`: name and kind, total, self, calls and its share of its parent.
    QString toolTipOf(std::uint32_t node) const;
    int rowHeight() const;
    // The fill of a box of `kind` named `name`: a hue per kind, a shade per name.
    static QColor colorOf(FlameKind kind, const QString& name, const TimelinePalette& palette);

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    // Double-click on a box: the longest call of its path, to select on the timeline.
    void rangeActivated(strobe::EventRef event, strobe::TimeRange range);
    void focusChanged(std::uint32_t node);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    bool event(QEvent* event) override;

private:
    const Box* boxAt(QPoint pos) const;
    void layOut() const;
    bool isAncestorOfFocus(std::uint32_t node) const;

    FlameGraph m_graph;
    std::uint32_t m_focus = 0;
    std::optional<QPoint> m_pressPos;
    // Geometry for (graph, focus, width), made on demand.
    mutable std::vector<std::vector<Box>> m_rows;
    mutable bool m_layoutValid = false;
};

} // namespace strobe
