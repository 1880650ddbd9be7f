// SPDX-License-Identifier: MIT
#pragma once

#include "model/analysis/flamegraph.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QScrollArea;
class QTimer;

namespace strobe {

class BackgroundTask;
class FlameGraphView;
class ViewState;

// The flame graph of the CPU side (buildFlameGraph) over a scope the user picks: the visible
// range (it follows zoom and pan, once they settle), the selected range (a step picked on the
// Overview's chart, a range dragged on the ruler) or the whole trace. Computed on a worker; a
// double-click on a box zooms the timeline to that path's longest call and selects it.
class FlameGraphPanel : public QWidget {
    Q_OBJECT
public:
    enum class Scope { VisibleRange, SelectedRange, WholeTrace };

    explicit FlameGraphPanel(ViewState* state, QWidget* parent = nullptr);
    ~FlameGraphPanel() override;

    void setScope(Scope scope);
    Scope scope() const { return m_scope; }
    FlameGraphView* view() const { return m_view; }
    // The line above the graph: what it covers, or why it is empty.
    QString status() const;
    // True while a graph is being computed (tests and screenshots wait for it).
    bool isComputing() const;

private:
    void schedule();
    void recompute();
    void activate(EventRef event, TimeRange range);

    ViewState* m_state;
    Scope m_scope = Scope::VisibleRange;
    QComboBox* m_scopeCombo = nullptr;
    QLabel* m_status = nullptr;
    QScrollArea* m_scroll = nullptr;
    FlameGraphView* m_view = nullptr;
    BackgroundTask* m_task = nullptr;
    QTimer* m_settle = nullptr; // zoom and pan settle before the graph follows
};

} // namespace strobe
