// SPDX-License-Identifier: MIT
#pragma once

#include "model/analysis/gaps.h"
#include "model/trace.h"

#include <QObject>
#include <memory>
#include <optional>
#include <vector>

namespace strobe {

// The one view state every widget observes: the trace, the visible time range and its zoom
// history, the selected event, the selected (measured) time range, the time under the cursor
// and the idle-gap threshold. Widgets change it through its setters and follow its signals;
// each signal fires once per actual change.
class ViewState : public QObject {
    Q_OBJECT
public:
    explicit ViewState(QObject* parent = nullptr);

    void setTrace(std::shared_ptr<const Trace> trace);
    const Trace* trace() const { return m_trace.get(); }
    std::shared_ptr<const Trace> sharedTrace() const { return m_trace; }

    TimeRange visibleRange() const { return m_visible; }
    // Sets the visible range (clamped to at least 1 ns wide); `record` keeps the old one for undo.
    void setVisibleRange(TimeRange range, bool record = true);
    // Back to the previous visible range; false when there is none.
    bool undoZoom();
    bool canUndoZoom() const { return !m_history.empty(); }
    // Shows the whole trace.
    void fitAll();

    EventRef selection() const { return m_selection; }
    void setSelection(EventRef ref);

    std::optional<TimeRange> selectedRange() const { return m_selectedRange; }
    void setSelectedRange(std::optional<TimeRange> range);

    std::optional<TimeNs> cursorTime() const { return m_cursor; }
    void setCursorTime(std::optional<TimeNs> t);

    TimeNs idleThresholdNs() const { return m_idleThreshold; }
    void setIdleThresholdNs(TimeNs t);

    // Asks the timeline to bring `ref` into view and select it (tables, detail pane, gaps panel).
    void reveal(EventRef ref);
    // Asks the timeline to take the keyboard focus: after a table's jump to the timeline, its keys
    // (W/S/A/D, Home, Z) act there.
    void requestTimelineFocus();

signals:
    void traceAboutToChange(); // in setTrace(), before anything changed
    void traceChanged();
    void visibleRangeChanged(strobe::TimeRange range);
    void selectionChanged(strobe::EventRef ref);
    void selectedRangeChanged();
    void cursorTimeChanged();
    void idleThresholdChanged(strobe::TimeNs threshold);
    void revealRequested(strobe::EventRef ref);
    void timelineFocusRequested();

private:
    std::shared_ptr<const Trace> m_trace;
    TimeRange m_visible{0, 1};
    std::vector<TimeRange> m_history;
    EventRef m_selection;
    std::optional<TimeRange> m_selectedRange;
    std::optional<TimeNs> m_cursor;
    TimeNs m_idleThreshold = kDefaultIdleThresholdNs;
};

} // namespace strobe
