// SPDX-License-Identifier: MIT
#include "widgets/timeline/timeruler.h"

#include "model/lod/timemapping.h"
#include "model/trace.h"
#include "render/geometry/rulerflags.h"
#include "render/paint/rulerpainter.h"
#include "render/paint/timelinecolors.h"
#include "widgets/bookmarks.h"
#include "widgets/viewstate.h"

#include <QMouseEvent>
#include <QPainter>
#include <QStringBuilder>

namespace strobe {

TimeRuler::TimeRuler(ViewState* state, QWidget* parent)
    : QWidget(parent)
    , m_state(state) {
    setMouseTracking(true);
    setCursor(Qt::IBeamCursor);
}

void TimeRuler::setBookmarks(const Bookmarks* bookmarks) {
    if (m_bookmarks)
        disconnect(m_bookmarks, nullptr, this, nullptr);
    m_bookmarks = bookmarks;
    if (bookmarks)
        connect(bookmarks, &Bookmarks::changed, this, qOverload<>(&QWidget::update));
    update();
}

TimeNs TimeRuler::timeAt(double x) const {
    return TimeMapping::fromRange(m_state->visibleRange(), width()).toTime(x);
}

void TimeRuler::paintEvent(QPaintEvent*) {
    QPainter p(this);
    const ViewState* state = m_state;
    std::optional<RulerContent> content;
    if (const Trace* trace = state->trace())
        content = RulerContent{state->visibleRange(), trace->timeRange().start,
                               state->selectedRange(), state->cursorTime()};
    std::vector<RulerFlag> flags;
    if (content && m_bookmarks) {
        flags = layoutRulerFlags(noteMarks(m_bookmarks->set()), content->view, width());
    }
    paintTimeRuler(p, size(), TimelinePalette::forPalette(palette()), font(), content, flags);
}

void TimeRuler::mousePressEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton)
        return QWidget::mousePressEvent(event);
    m_dragStart = timeAt(event->position().x());
}

void TimeRuler::mouseMoveEvent(QMouseEvent* event) {
    const TimeNs t = timeAt(event->position().x());
    ViewState* state = m_state;
    emit pointerMoved(event->position().x());
    if (m_dragStart && (event->buttons() & Qt::LeftButton) && t != *m_dragStart)
        state->setSelectedRange(TimeRange{std::min(t, *m_dragStart), std::max(t, *m_dragStart)});
}

void TimeRuler::mouseReleaseEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton || !m_dragStart)
        return QWidget::mouseReleaseEvent(event);
    const TimeNs t = timeAt(event->position().x());
    // A click without a drag outside the measured range clears it (inside: keep it, so that a
    // double-click can zoom to it).
    ViewState* state = m_state;
    const TimeMapping map = TimeMapping::fromRange(state->visibleRange(), width());
    const auto r = state->selectedRange();
    if (std::abs(map.toPx(t) - map.toPx(*m_dragStart)) < 2 && r && (t < r->start || t >= r->end))
        state->setSelectedRange(std::nullopt);
    m_dragStart.reset();
}

void TimeRuler::leaveEvent(QEvent* event) {
    emit pointerMoved(std::nullopt);
    QWidget::leaveEvent(event);
}

void TimeRuler::mouseDoubleClickEvent(QMouseEvent*) {
    emit zoomToMeasuredRangeRequested();
}

} // namespace strobe
