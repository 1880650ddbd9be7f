// SPDX-License-Identifier: MIT
#include "widgets/timelinelink.h"

#include "widgets/viewstate.h"

namespace strobe {

TimelineLink::TimelineLink(ViewState* a, ViewState* b, QObject* parent)
    : QObject(parent)
    , m_a(a)
    , m_b(b) {
    connect(m_a, &ViewState::visibleRangeChanged, this, [this] { follow(m_a, m_b, m_offset); });
    connect(m_b, &ViewState::visibleRangeChanged, this, [this] { follow(m_b, m_a, -m_offset); });
    // A new trace on either side starts from the two traces' own starts.
    connect(m_a, &ViewState::traceChanged, this, &TimelineLink::alignStarts);
    connect(m_b, &ViewState::traceChanged, this, &TimelineLink::alignStarts);
    alignStarts();
}

void TimelineLink::follow(ViewState* from, ViewState* to, TimeNs shift) {
    if (m_syncing || !from->trace() || !to->trace())
        return;
    m_syncing = true;
    const TimeRange r = from->visibleRange();
    to->setVisibleRange({r.start + shift, r.end + shift}, false);
    m_syncing = false;
}

void TimelineLink::setOffset(TimeNs offset) {
    const bool changed = offset != m_offset;
    m_offset = offset;
    follow(m_a, m_b, m_offset);
    if (changed)
        emit offsetChanged(m_offset);
}

void TimelineLink::alignStarts() {
    const Trace* ta = m_a->trace();
    const Trace* tb = m_b->trace();
    setOffset(ta && tb ? tb->timeRange().start - ta->timeRange().start : 0);
}

void TimelineLink::alignAt(TimeNs aTime, TimeNs bTime) {
    setOffset(bTime - aTime);
}

} // namespace strobe
