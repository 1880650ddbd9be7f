// SPDX-License-Identifier: MIT
#include "widgets/viewstate.h"

namespace strobe {

namespace {
constexpr std::size_t kMaxHistory = 256;
}

ViewState::ViewState(QObject* parent)
    : QObject(parent) {}

void ViewState::setTrace(std::shared_ptr<const Trace> trace) {
    emit traceAboutToChange();
    m_trace = std::move(trace);
    m_history.clear();
    m_selection = {};
    m_selectedRange.reset();
    m_cursor.reset();
    m_visible = m_trace ? m_trace->timeRange() : TimeRange{0, 1};
    if (m_visible.end <= m_visible.start)
        m_visible.end = m_visible.start + 1;
    emit traceChanged();
    emit visibleRangeChanged(m_visible);
    emit selectionChanged(m_selection);
}

void ViewState::setVisibleRange(TimeRange range, bool record) {
    if (range.end <= range.start)
        range.end = range.start + 1;
    if (range == m_visible)
        return;
    if (record) {
        m_history.push_back(m_visible);
        if (m_history.size() > kMaxHistory)
            m_history.erase(m_history.begin());
    }
    m_visible = range;
    emit visibleRangeChanged(m_visible);
}

bool ViewState::undoZoom() {
    if (m_history.empty())
        return false;
    const TimeRange previous = m_history.back();
    m_history.pop_back();
    setVisibleRange(previous, false);
    return true;
}

void ViewState::fitAll() {
    if (m_trace)
        setVisibleRange(m_trace->timeRange());
}

void ViewState::setSelection(EventRef ref) {
    if (ref == m_selection)
        return;
    m_selection = ref;
    emit selectionChanged(ref);
}

void ViewState::setSelectedRange(std::optional<TimeRange> range) {
    if (range == m_selectedRange)
        return;
    m_selectedRange = range;
    emit selectedRangeChanged();
}

void ViewState::setCursorTime(std::optional<TimeNs> t) {
    if (t == m_cursor)
        return;
    m_cursor = t;
    emit cursorTimeChanged();
}

void ViewState::setIdleThresholdNs(TimeNs t) {
    t = std::max<TimeNs>(1, t);
    if (t == m_idleThreshold)
        return;
    m_idleThreshold = t;
    emit idleThresholdChanged(t);
}

void ViewState::reveal(EventRef ref) {
    if (!ref.isValid())
        return;
    setSelection(ref);
    emit revealRequested(ref);
}

void ViewState::requestTimelineFocus() {
    emit timelineFocusRequested();
}

} // namespace strobe
