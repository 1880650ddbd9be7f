// SPDX-License-Identifier: MIT
#include "widgets/timeline/timeruler.h"

#include "model/trace.h"
#include "widgets/timeline/rulerticks.h"
#include "widgets/timeline/timelinecolors.h"
#include "widgets/timeline/timelineview.h"
#include "widgets/viewstate.h"

#include <QMouseEvent>
#include <QPainter>
#include <QStringBuilder>

namespace strobe {

namespace {
constexpr int kMinTickSpacingPx = 90;
}

TimeRuler::TimeRuler(TimelineView* view)
    : QWidget(view)
    , m_view(view) {
    setMouseTracking(true);
    setCursor(Qt::IBeamCursor);
}

TimeNs TimeRuler::timeAt(double x) const {
    return TimeMapping::fromRange(m_view->viewState()->visibleRange(), width()).toTime(x);
}

void TimeRuler::paintEvent(QPaintEvent*) {
    QPainter p(this);
    const TimelinePalette pal = TimelinePalette::forPalette(palette());
    p.fillRect(rect(), pal.groupHeader);
    const ViewState* state = m_view->viewState();
    const Trace* trace = state->trace();
    if (!trace)
        return;
    const TimeRange view = state->visibleRange();
    const TimeMapping map = TimeMapping::fromRange(view, width());
    const TimeNs origin = trace->timeRange().start;
    QFont f = font();
    f.setPointSizeF(f.pointSizeF() * 0.85);
    p.setFont(f);

    if (const auto r = state->selectedRange()) {
        const double x0 = map.toPx(r->start), x1 = map.toPx(r->end);
        p.fillRect(QRectF(x0, 0, std::max(1.0, x1 - x0), height()), pal.measure.darker(120));
        const QString label = formatDuration(r->duration());
        const double mid = (x0 + x1) / 2 - p.fontMetrics().horizontalAdvance(label) / 2.0;
        p.setPen(pal.text);
        p.drawText(QPointF(std::clamp(mid, 2.0, width() - 80.0), 11), label);
    }

    const RulerTicks ticks = computeTicks(view, origin, width(), kMinTickSpacingPx);
    p.setPen(pal.text);
    for (TimeNs t : ticks.ticks) {
        const double x = std::floor(map.toPx(t)) + 0.5;
        p.drawLine(QPointF(x, height() - 8), QPointF(x, height()));
        p.drawText(QPointF(x + 3, height() - 6), formatTickLabel(t - origin, ticks.step));
    }
    // Minor ticks: five per step.
    p.setPen(pal.grid.darker(130));
    const TimeNs minor = std::max<TimeNs>(1, ticks.step / 5);
    if (!ticks.ticks.empty()) {
        for (TimeNs t = ticks.ticks.front() - ticks.step; t < view.end; t += minor) {
            const double x = std::floor(map.toPx(t)) + 0.5;
            p.drawLine(QPointF(x, height() - 4), QPointF(x, height()));
        }
    }

    if (const auto c = state->cursorTime()) {
        const double x = map.toPx(*c);
        const QString label =
            formatTickLabel(*c - origin, std::max<TimeNs>(1, TimeNs(map.nsPerPx())));
        const int w = p.fontMetrics().horizontalAdvance(label) + 8;
        const QRectF box(std::clamp(x - w / 2.0, 0.0, double(width() - w)), 0, w, 13);
        p.fillRect(box, pal.text);
        p.setPen(pal.background);
        p.drawText(box, Qt::AlignCenter, label);
    }
    p.fillRect(QRect(0, height() - 1, width(), 1), pal.grid);
}

void TimeRuler::mousePressEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton)
        return QWidget::mousePressEvent(event);
    m_dragStart = timeAt(event->position().x());
}

void TimeRuler::mouseMoveEvent(QMouseEvent* event) {
    const TimeNs t = timeAt(event->position().x());
    ViewState* state = m_view->viewState();
    state->setCursorTime(t);
    if (m_dragStart && (event->buttons() & Qt::LeftButton) && t != *m_dragStart)
        state->setSelectedRange(TimeRange{std::min(t, *m_dragStart), std::max(t, *m_dragStart)});
}

void TimeRuler::mouseReleaseEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton || !m_dragStart)
        return QWidget::mouseReleaseEvent(event);
    const TimeNs t = timeAt(event->position().x());
    // A click without a drag outside the measured range clears it (inside: keep it, so that a
    // double-click can zoom to it).
    ViewState* state = m_view->viewState();
    const TimeMapping map = TimeMapping::fromRange(state->visibleRange(), width());
    const auto r = state->selectedRange();
    if (std::abs(map.toPx(t) - map.toPx(*m_dragStart)) < 2 && r && (t < r->start || t >= r->end))
        state->setSelectedRange(std::nullopt);
    m_dragStart.reset();
}

void TimeRuler::mouseDoubleClickEvent(QMouseEvent*) {
    m_view->zoomToSelectedRange();
}

} // namespace strobe
