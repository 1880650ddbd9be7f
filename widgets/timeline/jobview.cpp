// SPDX-License-Identifier: MIT
#include "widgets/timeline/jobview.h"

#include "model/reports/jobreports.h"
#include "model/timeformat.h"
#include "render/geometry/rulerticks.h"
#include "widgets/timeline/timelineview.h"
#include "widgets/viewstate.h"

#include <QContextMenuEvent>
#include <QHelpEvent>
#include <QLabel>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollArea>
#include <QScrollBar>
#include <QStringBuilder>
#include <QToolTip>
#include <QVBoxLayout>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>
#include <limits>

namespace strobe {

namespace {

constexpr TimeNs kMinView = 1'000; // 1 µs

// The lanes' colours: steps alternate two blues, collectives the communication orange the
// breakdown uses, the busy strip a green whose strength is the bucket's busy share.
const QColor kStepA(0x5b, 0x8d, 0xc9);
const QColor kStepB(0x3f, 0x6f, 0xa8);
const QColor kNccl(0xe0, 0x8a, 0x2c);
const QColor kNcclUnmatched(0x9a, 0x9a, 0x9a);
const QColor kBusy(0x3c, 0xa0, 0x5a);
const QColor kHighlight(0xff, 0xe0, 0x40);
const QColor kWait(0xd0, 0x30, 0x30);

} // namespace

JobCanvas::JobCanvas(QWidget* parent)
    : QWidget(parent) {
    setMouseTracking(true);
    setFocusPolicy(Qt::ClickFocus);
    setAttribute(Qt::WA_OpaquePaintEvent);
}

void JobCanvas::setJob(std::shared_ptr<const Job> job, std::shared_ptr<const JobAnalysis> analysis,
                       bool resetView) {
    m_job = std::move(job);
    m_analysis = std::move(analysis);
    m_matchOf.clear();
    m_selected.reset();
    m_extra.assign(m_job ? m_job->ranks.size() : 0, 0);
    m_tops.clear();
    for (std::size_t r = 0; r <= m_extra.size(); ++r)
        m_tops.push_back(kRulerHeight + int(r) * kGroupHeight);
    if (m_job) {
        m_matchOf.resize(m_job->ranks.size());
        for (std::size_t r = 0; r < m_job->ranks.size(); ++r)
            m_matchOf[r].resize(m_job->ranks[r].collectives.size());
        if (m_analysis) {
            const auto& matched = m_analysis->match.matched;
            for (std::size_t m = 0; m < matched.size(); ++m)
                for (const auto& [rank, call] : matched[m].calls)
                    if (rank < m_matchOf.size() && call < m_matchOf[rank].size())
                        m_matchOf[rank][call] = m;
        }
    }
    if (resetView || m_view.isEmpty())
        m_view = jobRange();
    setView(m_view);
    updateGeometry();
    update();
    emit groupsMoved();
    emit collectiveSelected(std::nullopt);
}

TimeNs JobCanvas::rankOffset(std::size_t rank) const {
    return m_analysis && rank < m_analysis->offsets.size() ? m_analysis->offsets[rank] : 0;
}

TimeRange JobCanvas::jobRange() const {
    if (!m_job)
        return {};
    TimeNs lo = std::numeric_limits<TimeNs>::max();
    TimeNs hi = std::numeric_limits<TimeNs>::min();
    for (std::size_t r = 0; r < m_job->ranks.size(); ++r) {
        const RankSummary& s = m_job->ranks[r];
        const TimeNs off = rankOffset(r);
        auto take = [&](TimeRange range) {
            if (range.isEmpty())
                return;
            lo = std::min(lo, saturatingAdd(range.start, off));
            hi = std::max(hi, saturatingAdd(range.end, off));
        };
        take(s.gpuSpan);
        if (!s.steps.empty())
            take({s.steps.front().host.start, s.steps.back().host.end});
    }
    if (lo >= hi)
        return {};
    return {lo, hi};
}

void JobCanvas::setView(TimeRange view) {
    const TimeRange whole = widened(jobRange(), 10);
    if (view.duration() < kMinView) {
        const TimeNs mid = view.start + view.duration() / 2;
        view = {mid - kMinView / 2, mid + kMinView / 2};
    }
    if (!whole.isEmpty()) {
        if (view.duration() > whole.duration())
            view = whole;
        if (view.start < whole.start)
            view = {whole.start, whole.start + view.duration()};
        if (view.end > whole.end)
            view = {whole.end - view.duration(), whole.end};
    }
    if (view == m_view)
        return;
    m_view = view;
    update();
    emit viewChanged(m_view);
}

void JobCanvas::zoomAround(double x, double factor) {
    const TimeNs at = timeAt(x);
    const double left = double(at - m_view.start) * factor;
    const double right = double(m_view.end - at) * factor;
    setView({at - TimeNs(std::llround(left)), at + TimeNs(std::llround(right))});
}

int JobCanvas::plotWidth() const {
    return std::max(1, width() - kHeaderWidth);
}

double JobCanvas::xOf(TimeNs t) const {
    const double d = double(std::max<TimeNs>(1, m_view.duration()));
    return kHeaderWidth + double(t - m_view.start) / d * plotWidth();
}

TimeNs JobCanvas::timeAt(double x) const {
    const double d = double(m_view.duration());
    return m_view.start + TimeNs(std::llround((x - kHeaderWidth) / plotWidth() * d));
}

QString JobCanvas::rankTitle(std::size_t rank) const {
    if (!m_job || rank >= m_job->ranks.size())
        return {};
    const RankSummary& s = m_job->ranks[rank];
    QStringList where;
    if (!s.host.isEmpty())
        where << s.host;
    if (s.deviceId)
        where << tr("GPU %1").arg(*s.deviceId);
    if (where.isEmpty())
        return tr("rank %1").arg(s.rank);
    return tr("rank %1 (%2)").arg(s.rank).arg(where.join(QStringLiteral(", ")));
}

std::unique_ptr<QMenu> JobCanvas::headingMenu(std::optional<std::size_t> rank) {
    auto menu = std::make_unique<QMenu>(this);
    if (m_job && rank && *rank < m_job->ranks.size()) {
        const std::size_t r = *rank;
        const QString label = m_extra[r] > 0 ? tr("Hide Rank %1's Full Lanes")
                                             : tr("Show Rank %1's Full Lanes (loads its trace)");
        menu->addAction(label.arg(m_job->ranks[r].rank), this,
                        [this, r] { emit rankActivated(r); });
        menu->addSeparator();
    }
    QAction* all = menu->addAction(tr("Expand All Ranks"), this, &JobCanvas::expandAllRequested);
    QAction* none =
        menu->addAction(tr("Collapse All Ranks"), this, &JobCanvas::collapseAllRequested);
    all->setEnabled(m_job != nullptr);
    none->setEnabled(std::any_of(m_extra.begin(), m_extra.end(), [](int h) { return h > 0; }));
    return menu;
}

void JobCanvas::contextMenuEvent(QContextMenuEvent* event) {
    if (!m_job || event->pos().x() >= kHeaderWidth || event->pos().y() < kRulerHeight)
        return QWidget::contextMenuEvent(event);
    const std::unique_ptr<QMenu> menu = headingMenu(rankAt(event->pos().y()));
    menu->exec(event->globalPos());
}

void JobCanvas::setExtraHeight(std::size_t rank, int height) {
    if (rank >= m_extra.size() || m_extra[rank] == std::max(0, height))
        return;
    m_extra[rank] = std::max(0, height);
    for (std::size_t r = 0; r < m_extra.size(); ++r)
        m_tops[r + 1] = m_tops[r] + kGroupHeight + m_extra[r];
    updateGeometry();
    update();
    emit groupsMoved();
}

int JobCanvas::extraHeight(std::size_t rank) const {
    return rank < m_extra.size() ? m_extra[rank] : 0;
}

QRect JobCanvas::extraRect(std::size_t rank) const {
    if (rank >= m_extra.size())
        return {};
    return {0, m_tops[rank] + kGroupHeight - kGroupGap, width(), m_extra[rank]};
}

std::optional<std::size_t> JobCanvas::rankAt(int y) const {
    if (m_tops.size() < 2 || y < m_tops.front() || y >= m_tops.back())
        return std::nullopt;
    const auto it = std::upper_bound(m_tops.begin(), m_tops.end(), y);
    return std::size_t(it - m_tops.begin() - 1);
}

QRect JobCanvas::groupRect(std::size_t rank) const {
    if (rank >= m_extra.size())
        return {};
    return {0, m_tops[rank], width(), kGroupHeight};
}

QRect JobCanvas::ncclLaneRect(std::size_t rank) const {
    const QRect g = groupRect(rank);
    return {kHeaderWidth, g.top() + 2 + kBusyHeight + 1 + kLaneHeight + 1, plotWidth(),
            kLaneHeight - 2};
}

QRectF JobCanvas::callRect(std::size_t rank, std::size_t call) const {
    if (!m_job || rank >= m_job->ranks.size() || call >= m_job->ranks[rank].collectives.size())
        return {};
    const TimeRange gpu = m_job->ranks[rank].collectives[call].gpu;
    const TimeNs off = rankOffset(rank);
    const double x0 = xOf(saturatingAdd(gpu.start, off));
    const double x1 = std::max(x0 + 1.0, xOf(saturatingAdd(gpu.end, off)));
    const QRect lane = ncclLaneRect(rank);
    return QRectF(x0, lane.top(), x1 - x0, lane.height());
}

QSize JobCanvas::sizeHint() const {
    return {900, m_tops.empty() ? kRulerHeight : m_tops.back()};
}

QSize JobCanvas::minimumSizeHint() const {
    return {kHeaderWidth + 100, sizeHint().height()};
}

std::optional<std::pair<std::size_t, std::size_t>> JobCanvas::callAt(QPoint p) const {
    if (!m_job || p.y() < kRulerHeight || p.x() < kHeaderWidth)
        return std::nullopt;
    const auto at = rankAt(p.y());
    if (!at || !ncclLaneRect(*at).adjusted(0, -1, 0, 1).contains(p))
        return std::nullopt;
    const std::size_t rank = *at;
    // Calls are in start order: the last one starting at or before the pointer (2 px of slack
    // for calls drawn 1 px wide) is the candidate.
    const auto& calls = m_job->ranks[rank].collectives;
    const TimeNs off = rankOffset(rank);
    const TimeNs slack = TimeNs(2.0 * double(m_view.duration()) / plotWidth());
    const TimeNs t = timeAt(p.x()) - off;
    auto it = std::upper_bound(calls.begin(), calls.end(), t + slack,
                               [](TimeNs v, const RankCollective& c) { return v < c.gpu.start; });
    while (it != calls.begin()) {
        --it;
        if (it->gpu.end + slack >= t)
            return std::pair{rank, std::size_t(it - calls.begin())};
        if (t - it->gpu.start > 10 * m_view.duration())
            break; // far behind the pointer; the earlier ones end before it too in practice
    }
    return std::nullopt;
}

std::optional<std::size_t> JobCanvas::collectiveAt(QPoint p) const {
    const auto call = callAt(p);
    if (!call)
        return std::nullopt;
    return m_matchOf[call->first][call->second];
}

void JobCanvas::selectCollective(std::optional<std::size_t> matched) {
    if (matched && (!m_analysis || *matched >= m_analysis->match.matched.size()))
        matched.reset();
    if (matched == m_selected)
        return;
    m_selected = matched;
    update();
    emit collectiveSelected(m_selected);
}

std::vector<std::pair<std::uint32_t, std::uint32_t>> JobCanvas::highlightedCalls() const {
    if (!m_selected || !m_analysis)
        return {};
    return m_analysis->match.matched[*m_selected].calls;
}

void JobCanvas::paintEvent(QPaintEvent* /*event*/) {
    QPainter p(this);
    p.fillRect(rect(), palette().color(QPalette::Base));
    if (!m_job)
        return;
    p.fillRect(QRect(0, 0, kHeaderWidth, height()), palette().color(QPalette::Window));
    const QRect shown = visibleRegion().boundingRect();
    const std::size_t first = rankAt(std::max(shown.top(), kRulerHeight)).value_or(0);
    for (std::size_t r = first; r < m_job->ranks.size() && groupRect(r).top() <= shown.bottom();
         ++r)
        paintRank(p, r);
    paintSelection(p);
    paintRuler(p, shown.top());
}

void JobCanvas::paintRuler(QPainter& p, int top) const {
    p.save();
    p.translate(0, top);
    p.fillRect(QRect(0, 0, width(), kRulerHeight), palette().color(QPalette::Window));
    const TimeNs origin = jobRange().start;
    const RulerTicks ticks = computeTicks(m_view, origin, plotWidth(), 90);
    p.setPen(palette().color(QPalette::WindowText));
    for (const TimeNs t : ticks.ticks) {
        const double x = xOf(t);
        p.drawLine(QPointF(x, kRulerHeight - 6), QPointF(x, kRulerHeight));
        p.drawText(QPointF(x + 3, kRulerHeight - 8), formatTickLabel(t - origin, ticks.step));
    }
    p.drawText(QRect(4, 0, kHeaderWidth - 8, kRulerHeight), Qt::AlignVCenter | Qt::AlignLeft,
               tr("job time"));
    p.restore();
}

void JobCanvas::paintRank(QPainter& p, std::size_t rank) const {
    const RankSummary& s = m_job->ranks[rank];
    const QRect g = groupRect(rank);
    const TimeNs off = rankOffset(rank);
    const double left = kHeaderWidth;
    const double right = width();
    p.setRenderHint(QPainter::Antialiasing, false);

    // Heading and lane names.
    QFont bold = font();
    bold.setBold(true);
    p.setFont(bold);
    p.setPen(palette().color(QPalette::WindowText));
    // A long host name is cut at its end: the full heading is in the tooltip.
    p.drawText(QRect(4, g.top(), kHeaderWidth - 8, kBusyHeight + 4),
               Qt::AlignLeft | Qt::AlignVCenter,
               QFontMetrics(bold).elidedText(rankTitle(rank), Qt::ElideRight, kHeaderWidth - 8));
    p.setFont(font());
    const QRect steps(kHeaderWidth, g.top() + 2 + kBusyHeight + 1, plotWidth(), kLaneHeight - 2);
    const QRect nccl = ncclLaneRect(rank);
    p.setPen(palette().color(QPalette::PlaceholderText));
    p.drawText(QRect(4, steps.top(), kHeaderWidth - 8, steps.height()),
               Qt::AlignRight | Qt::AlignVCenter, tr("steps"));
    p.drawText(QRect(4, nccl.top(), kHeaderWidth - 8, nccl.height()),
               Qt::AlignRight | Qt::AlignVCenter, tr("NCCL"));

    // GPU busy strip: each bucket's busy share as the strength of its colour.
    const QRect busy(kHeaderWidth, g.top() + 2, plotWidth(), kBusyHeight);
    const TimeNs span = s.gpuSpan.duration();
    const auto buckets = TimeNs(s.busy.size());
    for (TimeNs i = 0; i < buckets && span > 0; ++i) {
        const TimeNs b0 = s.gpuSpan.start + TimeNs((__int128(span) * i) / buckets);
        const TimeNs b1 = s.gpuSpan.start + TimeNs((__int128(span) * (i + 1)) / buckets);
        const double x0 = std::max(left, xOf(b0 + off));
        const double x1 = std::min(right, xOf(b1 + off));
        if (x1 < left || x0 > right || b1 <= b0)
            continue;
        const double share = std::clamp(double(s.busy[std::size_t(i)]) / double(b1 - b0), 0.0, 1.0);
        QColor c = kBusy;
        c.setAlphaF(float(0.15 + 0.85 * share));
        p.fillRect(QRectF(x0, busy.top(), std::max(1.0, x1 - x0), busy.height()), c);
    }

    // Steps, numbered where the number fits.
    const QFontMetrics fm(font());
    for (std::size_t i = 0; i < s.steps.size(); ++i) {
        const RankStep& st = s.steps[i];
        const double x0 = std::max(left, xOf(st.host.start + off));
        const double x1 = std::min(right, xOf(st.host.end + off));
        if (x1 < left || x0 > right)
            continue;
        const QRectF r(x0, steps.top(), std::max(1.0, x1 - x0), steps.height());
        p.fillRect(r, st.number % 2 ? kStepB : kStepA);
        const QString label = QString::number(st.number);
        if (fm.horizontalAdvance(label) + 4 < r.width()) {
            p.setPen(Qt::white);
            p.drawText(r, Qt::AlignCenter, label);
        }
    }

    // Collectives: matched ones orange, unmatched grey.
    for (std::size_t c = 0; c < s.collectives.size(); ++c) {
        const TimeRange gpu = s.collectives[c].gpu;
        if (gpu.end + off < m_view.start || gpu.start + off > m_view.end)
            continue;
        const QRectF r = callRect(rank, c);
        p.fillRect(r, m_matchOf[rank][c] ? kNccl : kNcclUnmatched);
    }
}

void JobCanvas::paintSelection(QPainter& p) const {
    if (!m_selected || !m_analysis || *m_selected >= m_analysis->timings.size())
        return;
    const MatchedCollective& m = m_analysis->match.matched[*m_selected];
    const CollectiveTiming& t = m_analysis->timings[*m_selected];
    const TimeNs lastStart = t.gpu[t.lastArriver].start;
    p.setRenderHint(QPainter::Antialiasing, false);
    for (std::size_t i = 0; i < m.calls.size(); ++i) {
        const auto [rank, call] = m.calls[i];
        const QRectF r = callRect(rank, call);
        // The wait: from this rank's arrival to the last arriver's, under its call.
        if (t.wait[i] > 0) {
            const double x0 = xOf(t.gpu[i].start);
            const double x1 = xOf(lastStart);
            p.fillRect(QRectF(x0, r.bottom() - 3, std::max(1.0, x1 - x0), 3), kWait);
        }
        p.setPen(QPen(kHighlight, 2));
        p.setBrush(Qt::NoBrush);
        p.drawRect(r.adjusted(-1, -1, 1, 1));
    }
    // The last arrival, across every group.
    const double x = xOf(lastStart);
    QPen dashed(kWait, 1, Qt::DashLine);
    p.setPen(dashed);
    p.drawLine(QPointF(x, kRulerHeight), QPointF(x, height()));
}

void JobCanvas::wheelEvent(QWheelEvent* event) {
    const double steps = event->angleDelta().y() / 120.0;
    if (steps == 0) {
        event->ignore(); // horizontal wheels scroll nothing here
        return;
    }
    zoomAround(event->position().x(), std::pow(0.8, steps));
    event->accept();
}

void JobCanvas::mousePressEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton)
        return QWidget::mousePressEvent(event);
    m_pressAt = event->position().toPoint();
    m_pressView = m_view;
    m_dragged = false;
}

void JobCanvas::mouseMoveEvent(QMouseEvent* event) {
    if (!m_pressAt || !m_pressView)
        return;
    const int dx = event->position().toPoint().x() - m_pressAt->x();
    if (std::abs(dx) > 3)
        m_dragged = true;
    if (!m_dragged)
        return;
    const TimeNs shift =
        TimeNs(std::llround(double(dx) / plotWidth() * double(m_pressView->duration())));
    setView({m_pressView->start - shift, m_pressView->end - shift});
}

void JobCanvas::mouseReleaseEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton || !m_pressAt)
        return QWidget::mouseReleaseEvent(event);
    if (!m_dragged)
        selectCollective(collectiveAt(event->position().toPoint()));
    m_pressAt.reset();
    m_pressView.reset();
}

void JobCanvas::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    emit groupsMoved();
}

void JobCanvas::mouseDoubleClickEvent(QMouseEvent* event) {
    if (event->position().x() < kHeaderWidth) {
        if (const auto rank = rankAt(event->position().toPoint().y()))
            emit rankActivated(*rank);
        return;
    }
    setView(jobRange());
}

bool JobCanvas::event(QEvent* event) {
    if (event->type() != QEvent::ToolTip || !m_job)
        return QWidget::event(event);
    const auto* help = static_cast<QHelpEvent*>(event);
    const QPoint pos = help->pos();
    QString text;
    if (pos.x() < kHeaderWidth && pos.y() >= kRulerHeight) {
        if (const auto rank = rankAt(pos.y())) {
            const RankSummary& s = m_job->ranks[*rank];
            text = rankTitle(*rank) % u'\n' % s.gpu % u'\n' % s.file % u'\n' %
                   (m_extra[*rank] > 0 ? tr("Double-click: hide its full lanes")
                                       : tr("Double-click: show its full lanes (loads the trace)"));
        }
    } else if (const auto call = callAt(pos)) {
        const RankCollective& c = m_job->ranks[call->first].collectives[call->second];
        const TimeNs origin = jobRange().start;
        const TimeNs off = rankOffset(call->first);
        text = tr("%1 on %2, stream %3 #%4\nstart %5, duration %6")
                   .arg(m_job->ranks[call->first].kindOf(c), rankTitle(call->first))
                   .arg(c.streamOrdinal)
                   .arg(c.order)
                   .arg(formatDurationFixed(c.gpu.start + off - origin),
                        formatDuration(c.gpu.duration()));
        if (const auto m = m_matchOf[call->first][call->second]; m && m_analysis) {
            const MatchedCollective& mc = m_analysis->match.matched[*m];
            const CollectiveTiming& t = m_analysis->timings[*m];
            for (std::size_t i = 0; i < mc.calls.size(); ++i)
                if (mc.calls[i].first == call->first)
                    text += tr("\nwait %1, transfer %2")
                                .arg(formatDuration(t.wait[i]), formatDuration(t.transfer));
        } else {
            text += tr("\nunmatched: no partner on some rank");
        }
    }
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(help->globalPos(), text, this);
    return true;
}

JobView::JobView(QWidget* parent)
    : QWidget(parent)
    , m_verdict(new QLabel(this))
    , m_scroll(new QScrollArea(this))
    , m_canvas(new JobCanvas)
    , m_details(new QLabel(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    QFont bold = m_verdict->font();
    bold.setBold(true);
    m_verdict->setFont(bold);
    m_verdict->setWordWrap(true);
    m_verdict->setContentsMargins(6, 4, 6, 2);
    m_verdict->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_scroll->setWidget(m_canvas);
    m_scroll->setWidgetResizable(true);
    m_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_scroll->setFrameShape(QFrame::NoFrame);
    m_details->setContentsMargins(6, 2, 6, 4);
    m_details->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_details->setTextFormat(Qt::RichText);
    m_details->hide();
    layout->addWidget(m_verdict);
    layout->addWidget(m_scroll, 1);
    layout->addWidget(m_details);
    connect(m_canvas, &JobCanvas::collectiveSelected, this, &JobView::showDetails);
    connect(m_canvas, &JobCanvas::groupsMoved, this, &JobView::placeTimelines);
    // The ruler is drawn at the top of the part in view: scrolling moves it, not its pixels.
    connect(m_scroll->verticalScrollBar(), &QScrollBar::valueChanged, m_canvas,
            qOverload<>(&QWidget::update));
    connect(m_canvas, &JobCanvas::viewChanged, this, &JobView::followCanvas);
    connect(m_canvas, &JobCanvas::expandAllRequested, this, &JobView::expandAllRequested);
    connect(m_canvas, &JobCanvas::collapseAllRequested, this, &JobView::collapseAllRequested);
    connect(m_canvas, &JobCanvas::rankActivated, this, [this](std::size_t rank) {
        if (m_expanded.contains(rank))
            collapseRank(rank);
        else
            emit expandRequested(rank);
    });
}

void JobView::showRankTrace(std::size_t rank, std::shared_ptr<const Trace> trace, bool reveal) {
    const Job* job = m_canvas->job();
    if (!job || rank >= job->ranks.size() || !trace)
        return;
    collapseRank(rank);
    Expanded e;
    e.state = new ViewState(this);
    e.view = new TimelineView(e.state, m_canvas);
    e.state->setTrace(std::move(trace));
    // The rank's own zoom and pan move the job view, and so every other rank.
    connect(e.state, &ViewState::visibleRangeChanged, this, [this, rank](TimeRange r) {
        if (!m_following)
            m_canvas->setView(jobRangeOf(rank, r));
    });
    m_expanded[rank] = e;
    m_canvas->setExtraHeight(rank, kExpandedHeight);
    e.view->show();
    placeTimelines();
    followCanvas(m_canvas->view());
    if (!reveal)
        return;
    // Bring the rank's rows and lanes into view.
    const QRect shown = m_canvas->groupRect(rank).united(m_canvas->extraRect(rank));
    m_scroll->ensureVisible(0, shown.center().y(), 0, shown.height() / 2);
}

void JobView::collapseRank(std::size_t rank) {
    const auto it = m_expanded.find(rank);
    if (it == m_expanded.end())
        return;
    const Expanded e = it->second;
    m_expanded.erase(it);
    delete e.view;
    delete e.state;
    m_canvas->setExtraHeight(rank, 0);
}

void JobView::collapseAll() {
    while (!m_expanded.empty())
        collapseRank(m_expanded.begin()->first);
}

std::vector<std::size_t> JobView::expandedRanks() const {
    std::vector<std::size_t> out;
    for (const auto& [rank, e] : m_expanded)
        out.push_back(rank);
    return out;
}

TimelineView* JobView::rankTimeline(std::size_t rank) const {
    const auto it = m_expanded.find(rank);
    return it == m_expanded.end() ? nullptr : it->second.view;
}

void JobView::placeTimelines() {
    for (const auto& [rank, e] : m_expanded)
        e.view->setGeometry(m_canvas->extraRect(rank));
    followCanvas(m_canvas->view()); // (the widths may have changed)
}

TimeRange JobView::laneRange(std::size_t rank, TimeRange view) const {
    const auto it = m_expanded.find(rank);
    const double lanes = it == m_expanded.end() ? 1.0 : it->second.view->canvasSize().width();
    const TimeNs start = saturatingSub(view.start, m_canvas->rankOffset(rank));
    const auto duration = TimeNs(
        std::llround(double(view.duration()) * lanes / double(std::max(1, m_canvas->plotWidth()))));
    return {start, saturatingAdd(start, std::max<TimeNs>(1, duration))};
}

TimeRange JobView::jobRangeOf(std::size_t rank, TimeRange lanes) const {
    const auto it = m_expanded.find(rank);
    const double width = it == m_expanded.end() ? 1.0 : it->second.view->canvasSize().width();
    const TimeNs start = saturatingAdd(lanes.start, m_canvas->rankOffset(rank));
    const auto duration = TimeNs(std::llround(double(lanes.duration()) *
                                              double(std::max(1, m_canvas->plotWidth())) / width));
    return {start, saturatingAdd(start, std::max<TimeNs>(1, duration))};
}

void JobView::followCanvas(TimeRange view) {
    m_following = true;
    for (const auto& [rank, e] : m_expanded)
        e.state->setVisibleRange(laneRange(rank, view), false);
    m_following = false;
}

void JobView::setJob(std::shared_ptr<const Job> job, std::shared_ptr<const JobAnalysis> analysis,
                     bool resetView) {
    // Another alignment of the same job keeps the ranks' full lanes; another job drops them.
    const bool sameJob = !resetView && job && job.get() == m_canvas->job();
    if (!sameJob)
        collapseAll();
    if (job && analysis)
        m_verdict->setText(stragglerVerdict(*job, *analysis) % u'.');
    else
        m_verdict->clear();
    m_canvas->setJob(std::move(job), std::move(analysis), resetView);
    for (const auto& [rank, e] : m_expanded)
        m_canvas->setExtraHeight(rank, kExpandedHeight);
    placeTimelines();
    followCanvas(m_canvas->view());
}

QString JobView::verdict() const {
    return m_verdict->text();
}

void JobView::showDetails(std::optional<std::size_t> matched) {
    const Job* job = m_canvas->job();
    const JobAnalysis* a = m_canvas->analysis();
    m_detailsText.clear();
    if (!matched || !job || !a || *matched >= a->timings.size()) {
        m_details->hide();
        return;
    }
    const MatchedCollective& m = a->match.matched[*matched];
    const CollectiveTiming& t = a->timings[*matched];
    const TimeNs origin = m_canvas->jobRange().start;
    QString heading = tr("%1 #%2").arg(m.kind).arg(*matched);
    if (t.step)
        heading += tr(", step %1").arg(*t.step);
    heading += tr(": last arriver rank %1, transfer %2")
                   .arg(job->ranks[m.calls[t.lastArriver].first].rank)
                   .arg(formatDuration(t.transfer));
    m_detailsText = heading;
    QString html =
        QStringLiteral("<b>") % heading.toHtmlEscaped() %
        QStringLiteral("</b><table cellspacing=\"0\" cellpadding=\"1\"><tr><th align=\"left\">") %
        tr("rank") % QStringLiteral("</th><th align=\"right\">") % tr("start") %
        QStringLiteral("</th><th align=\"right\">") % tr("end") %
        QStringLiteral("</th><th align=\"right\">") % tr("wait") %
        QStringLiteral("</th><th align=\"right\">") % tr("transfer") % QStringLiteral("</th></tr>");
    for (std::size_t i = 0; i < m.calls.size(); ++i) {
        const QString cells[] = {QString::number(job->ranks[m.calls[i].first].rank),
                                 formatDurationFixed(t.gpu[i].start - origin),
                                 formatDurationFixed(t.gpu[i].end - origin),
                                 formatDuration(t.wait[i]), formatDuration(t.transfer)};
        m_detailsText += u'\n' % QStringList(std::begin(cells), std::end(cells)).join(u'\t');
        html += QStringLiteral("<tr><td>") % cells[0];
        for (int c = 1; c < 5; ++c)
            html +=
                QStringLiteral("</td><td align=\"right\">&nbsp;&nbsp;") % cells[c].toHtmlEscaped();
        html += QStringLiteral("</td></tr>");
    }
    m_details->setText(html % QStringLiteral("</table>"));
    m_details->show();
}

} // namespace strobe
