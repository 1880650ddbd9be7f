// SPDX-License-Identifier: MIT
#pragma once

#include "model/types.h"

#include <QObject>

namespace strobe {

class ViewState;

// Links the visible ranges of two views (a baseline A and a trace B) so zoom and pan move both:
// B always shows A's visible range shifted by offset() (B time = A time + offset), and a change
// on either side moves the other, without adding to its zoom history. The offset says which
// moments line up: each trace's own start (alignStarts), or any two chosen times (alignAt: an
// iteration instance, the two longest instances of a kernel).
class TimelineLink : public QObject {
    Q_OBJECT
public:
    TimelineLink(ViewState* a, ViewState* b, QObject* parent = nullptr);

    ViewState* a() const { return m_a; }
    ViewState* b() const { return m_b; }
    TimeNs offset() const { return m_offset; }
    // B's time shown at the x of A's time `t`.
    TimeNs toB(TimeNs t) const { return t + m_offset; }

    // Shows both from their own start: offset = B's first event - A's first event.
    void alignStarts();
    // Puts B's time `bTime` at the x of A's time `aTime`; A's view stays where it is.
    void alignAt(TimeNs aTime, TimeNs bTime);
    void setOffset(TimeNs offset);

signals:
    void offsetChanged(strobe::TimeNs offset);

private:
    void follow(ViewState* from, ViewState* to, TimeNs shift);

    ViewState* m_a;
    ViewState* m_b;
    TimeNs m_offset = 0;
    bool m_syncing = false;
};

} // namespace strobe
