// SPDX-License-Identifier: MIT
#include "widgets/timeline/timelineview.h"

#include "model/analysis/eventsearch.h"
#include "model/analysis/nvtxstats.h"
#include "model/trace.h"
#include "render/geometry/timelineframe.h"
#include "render/paint/lanepasses.h"
#include "render/paint/overlaypainter.h"
#include "widgets/backgroundtask.h"
#include "widgets/timeline/eventtooltip.h"
#include "widgets/timeline/laneheader.h"
#include "widgets/timeline/navigation.h"
#include "widgets/timeline/searchbar.h"
#include "widgets/timeline/timelinecanvas.h"
#include "widgets/timeline/timeruler.h"
#include "widgets/timeline/utilizationtooltip.h"
#include "widgets/viewstate.h"
#include "widgets/workerpriority.h"

#include <QEvent>
#include <QFontMetrics>
#include <QLocale>
#include <QPainter>
#include <QScrollBar>
#include <QShortcut>
#include <QStringBuilder>
#include <QThreadPool>
#include <algorithm>
#include <cmath>

namespace strobe {

TimelineView::TimelineView(ViewState* state, QWidget* parent)
    : QWidget(parent)
    , m_state(state) {
    m_lodTask = new BackgroundTask(this);
    m_nvtxNamesTask = new BackgroundTask(this);
    m_header = new LaneHeader(m_layout, this);
    m_ruler = new TimeRuler(m_state, this);
    m_canvas = new TimelineCanvas(
        {[this](QPainter& p, QSize size, qreal dpr) { paintCanvas(p, size, dpr); },
         [this](QPoint pos) { return toolTipAt(pos); }},
        this);
    m_vbar = new QScrollBar(Qt::Vertical, this);
    m_searchBar = new SearchBar(m_state, this);
    m_searchBar->setFocusAfterDismiss(m_canvas);
    m_palette = TimelinePalette::forPalette(palette());
    setFocusProxy(m_canvas);
    setMinimumSize(kHeaderWidth + 200, kRulerHeight + 100);

    connect(m_vbar, &QScrollBar::valueChanged, this, [this](int v) {
        m_scrollY = v;
        repaintAll();
    });
    connectChildren();
    connect(m_state, &ViewState::traceAboutToChange, this, [this] {
        // The new trace's first frame before the panels' work (and this view's own) takes a
        // core; the canvas's next paint releases it (a hidden canvas paints nothing: no hold).
        if (m_canvas->isVisible())
            holdBackgroundWork(m_firstFrameHold);
    });
    connect(m_state, &ViewState::traceChanged, this, &TimelineView::onTraceChanged);
    connect(m_state, &ViewState::visibleRangeChanged, this, [this] {
        followPointer();
        repaintAll();
    });
    connect(m_state, &ViewState::selectionChanged, this, &TimelineView::repaintAll);
    connect(m_state, &ViewState::selectedRangeChanged, this, &TimelineView::repaintAll);
    connect(m_state, &ViewState::cursorTimeChanged, this, &TimelineView::repaintAll);
    connect(m_state, &ViewState::idleThresholdChanged, this, &TimelineView::repaintAll);
    connect(m_state, &ViewState::revealRequested, this, &TimelineView::revealEvent);
    connect(m_state, &ViewState::timelineFocusRequested, this,
            [this] { m_canvas->setFocus(Qt::OtherFocusReason); });
    onTraceChanged();
}

TimelineView::~TimelineView() {
    if (m_lodCancel)
        m_lodCancel->store(true); // a build still running stops early; nobody reads it
    releaseBackgroundWork();      // a hold for a frame this view will not paint
}

void TimelineView::connectChildren() {
    // The canvas, the header and the ruler signal what the user asks for; the view carries it
    // out on the view state and the layout.
    connect(m_canvas, &TimelineCanvas::panRequested, this, &TimelineView::panPixels);
    connect(m_canvas, &TimelineCanvas::zoomRequested, this, &TimelineView::zoomAt);
    connect(m_canvas, &TimelineCanvas::pointerMoved, this,
            [this](std::optional<double> x, std::optional<int> y) { setPointer(x, y); });
    connect(m_canvas, &TimelineCanvas::clicked, this,
            [this](QPoint pos) { m_state->setSelection(eventAt(pos)); });
    connect(m_canvas, &TimelineCanvas::doubleClicked, this, [this](QPoint pos) {
        const EventRef ref = eventAt(pos);
        if (ref.isValid())
            revealEvent(ref);
    });
    connect(m_canvas, &TimelineCanvas::actionRequested, this, &TimelineView::runAction);
    connect(m_header, &LaneHeader::groupExpandRequested, this, &TimelineView::setGroupExpanded);
    connect(m_header, &LaneHeader::laneHideRequested, this, &TimelineView::setLaneHidden);
    connect(m_header, &LaneHeader::lanePinRequested, this, &TimelineView::setLanePinned);
    connect(m_header, &LaneHeader::showAllLanesRequested, this, &TimelineView::showAllLanes);
    connect(m_header, &LaneHeader::hideIdleLanesRequested, this, &TimelineView::setHideIdleLanes);
    connect(m_header, &LaneHeader::hideIdleGpusRequested, this, &TimelineView::setHideIdleGpus);
    connect(m_header, &LaneHeader::allGroupsExpandRequested, this, [this](bool expanded) {
        m_layout.setAllExpanded(expanded);
        setHideIdleLanes(hideIdleLanes()); // relayout and repaint
    });
    connect(m_header, &LaneHeader::scrollRequested, this, &TimelineView::setScrollY);
    connect(m_ruler, &TimeRuler::pointerMoved, this,
            [this](std::optional<double> x) { setPointer(x); });
    connect(m_ruler, &TimeRuler::zoomToMeasuredRangeRequested, this,
            &TimelineView::zoomToSelectedRange);

    // Search: the view's own shortcuts (the list of controls, Scope::Search), so they work
    // wherever the view sits (the main window, a comparison) while it has the focus.
    connect(m_searchBar, &SearchBar::resultChanged, m_canvas, qOverload<>(&QWidget::update));
    connect(m_searchBar, &SearchBar::matchChosen, this, &TimelineView::showSearchMatch);
    const auto shortcut = [this](const QKeySequence& key, auto slot) {
        auto* s = new QShortcut(key, this);
        s->setContext(Qt::WidgetWithChildrenShortcut);
        connect(s, &QShortcut::activated, this, slot);
    };
    shortcut(QKeySequence(Qt::CTRL | Qt::Key_F), [this] {
        m_searchBar->open();
        placeSearchBar();
    });
    const auto stepper = [this](bool forward) {
        return [this, forward] {
            if (m_searchBar->isHidden()) {
                m_searchBar->open();
                placeSearchBar();
            }
            forward ? m_searchBar->findNext() : m_searchBar->findPrevious();
        };
    };
    shortcut(QKeySequence(Qt::Key_F3), stepper(true));
    shortcut(QKeySequence(Qt::SHIFT | Qt::Key_F3), stepper(false));
}

void TimelineView::runAction(TimelineAction action) {
    constexpr double kKeyZoomStep = 0.7;
    constexpr double kKeyPanFraction = 0.15; // of the width per key press
    const double w = m_canvas->width();
    switch (action) {
    case TimelineAction::ZoomIn:
        zoomAt(keyboardZoomAnchor(), kKeyZoomStep);
        break;
    case TimelineAction::ZoomOut:
        zoomAt(keyboardZoomAnchor(), 1.0 / kKeyZoomStep);
        break;
    case TimelineAction::PanLeft:
        panPixels(-w * kKeyPanFraction);
        break;
    case TimelineAction::PanRight:
        panPixels(w * kKeyPanFraction);
        break;
    case TimelineAction::ScrollUp:
        setScrollY(scrollY() - m_canvas->height() * 3 / 4);
        break;
    case TimelineAction::ScrollDown:
        setScrollY(scrollY() + m_canvas->height() * 3 / 4);
        break;
    case TimelineAction::FitAll:
        fitAll();
        break;
    case TimelineAction::UndoZoom:
        undoZoom();
        break;
    case TimelineAction::ZoomToMeasuredRange:
        zoomToSelectedRange();
        break;
    case TimelineAction::ClearSelection:
        m_state->setSelection({});
        m_state->setSelectedRange(std::nullopt);
        break;
    }
}

QWidget* TimelineView::canvas() const {
    return m_canvas;
}

QWidget* TimelineView::headerColumn() const {
    return m_header;
}

QSize TimelineView::canvasSize() const {
    const int sb = m_vbar->sizeHint().width();
    return {std::max(1, width() - kHeaderWidth - sb), std::max(1, height() - kRulerHeight)};
}

TimeMapping TimelineView::mapping() const {
    return TimeMapping::fromRange(m_state->visibleRange(), canvasSize().width());
}

void TimelineView::setPointer(std::optional<double> x, std::optional<int> laneY) {
    m_pointerX = x;
    m_pointerLaneY = x ? laneY : std::nullopt;
    if (!x) {
        setHovered({});
        m_state->setCursorTime(std::nullopt);
        return;
    }
    followPointer();
}

void TimelineView::followPointer() {
    if (!m_pointerX)
        return;
    m_state->setCursorTime(mapping().toTime(*m_pointerX));
    if (m_pointerLaneY)
        setHovered(eventAt(QPoint(int(*m_pointerX), *m_pointerLaneY)));
}

double TimelineView::keyboardZoomAnchor() const {
    const double width = canvasSize().width();
    if (m_pointerX && *m_pointerX >= 0 && *m_pointerX < width)
        return *m_pointerX;
    return width / 2.0;
}

void TimelineView::resizeEvent(QResizeEvent*) {
    const QSize c = canvasSize();
    const int sb = m_vbar->sizeHint().width();
    m_ruler->setGeometry(kHeaderWidth, 0, c.width(), kRulerHeight);
    m_header->setGeometry(0, kRulerHeight, kHeaderWidth, c.height());
    m_canvas->setGeometry(kHeaderWidth, kRulerHeight, c.width(), c.height());
    m_vbar->setGeometry(kHeaderWidth + c.width(), kRulerHeight, sb, c.height());
    placeSearchBar();
    updateScrollBar();
}

void TimelineView::placeSearchBar() {
    const QSize c = canvasSize();
    const int w = std::min(m_searchBar->sizeHint().width() + 80, c.width());
    const int h = m_searchBar->sizeHint().height();
    m_searchBar->setGeometry(kHeaderWidth + c.width() - w - 6, kRulerHeight + 4, w, h);
}

void TimelineView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::ApplicationPaletteChange)
        m_palette = TimelinePalette::forPalette(palette());
    QWidget::changeEvent(event);
}

void TimelineView::onTraceChanged() {
    const Trace* t = m_state->trace();
    m_layout.setTrace(t);
    startLevelOfDetail();
    startNvtxNameCounts();
    updateProjectedNvtx();
    m_hover = {};
    m_scrollY = 0;
    m_highlights.reset();
    layoutChanged();
}

void TimelineView::setHighlights(std::shared_ptr<const EventSearchResult> marks) {
    m_highlights = std::move(marks);
    m_canvas->update();
}

void TimelineView::startLevelOfDetail() {
    if (m_lodCancel)
        m_lodCancel->store(true); // the previous trace's build stops at its next lane, unseen
    std::shared_ptr<const Trace> trace = m_state->sharedTrace();
    std::shared_ptr<TimelineLod> offered = std::exchange(m_offeredLod, nullptr);
    if (!offered || !trace || offered->trace() != trace.get() || !offered->isComplete())
        offered.reset();
    // None for a partial picture (a sample of the GPU rows, issue 45): its rows are a fraction of
    // what the whole has and paint fast enough without; its utilisation would be a fraction of
    // the GPU's; and on two cores, building it for each of a 100M-event trace's partial pictures
    // took the loader 0.4 s of the complete picture's 9 s.
    const bool partial = trace && trace->metadata().gpuSampleStride > 1;
    // Freed off the GUI thread when a newer trace replaces it (its summaries: 30 MB at 10M).
    m_lod =
        offered ? std::move(offered)
        : trace && !partial
            ? shareFreedOffThread(std::make_unique<TimelineLod>(trace, m_state->idleThresholdNs()))
            : nullptr;
    m_lodCancel = std::make_shared<std::atomic<bool>>(false);
    m_geometry.setTrace(trace.get(), m_lod);
    if (!m_lod || m_lod->isComplete()) {
        m_lodTask->cancel();
        return;
    }
    // Paint reads whatever part is ready (TimelineLod publishes lane by lane); the delivery only
    // asks for one more paint once everything is there.
    m_lodTask->start(
        [lod = m_lod, cancel = m_lodCancel] {
            lod->build(*cancel);
            return true;
        },
        [this](bool) { repaintAll(); });
}

void TimelineView::startNvtxNameCounts() {
    m_nvtxNames.reset();
    std::shared_ptr<const Trace> trace = m_state->sharedTrace();
    if (!trace) {
        m_nvtxNamesTask->cancel();
        return;
    }
    m_nvtxNamesTask->start(
        [trace] {
            NvtxSummary names = summarizeNvtx(*trace);
            for (NvtxSummaryRow& r : names.rows) // rowOf needs only the name index
                std::vector<EventRef>().swap(r.instances);
            return std::make_shared<const NvtxSummary>(std::move(names));
        },
        [this](std::shared_ptr<const NvtxSummary> names) { m_nvtxNames = std::move(names); });
}

bool TimelineView::nvtxNameCountsReady() const {
    return !m_state->trace() || m_nvtxNames != nullptr;
}

void TimelineView::offerLevelOfDetail(std::shared_ptr<TimelineLod> lod) {
    m_offeredLod = std::move(lod);
}

bool TimelineView::isLevelOfDetailReady() const {
    return !m_lod || m_lod->isComplete();
}

void TimelineView::waitForLevelOfDetail() {
    BackgroundTask::pool()->waitForDone();
    repaintAll();
}

std::size_t TimelineView::levelOfDetailBytes() const {
    return m_lod ? m_lod->memoryBytes() : 0;
}

bool TimelineView::rowPaintsFromSummary(std::uint32_t lane, std::uint16_t row) const {
    return m_geometry.paintsFromSummary(frame(), lane, row);
}

void TimelineView::layoutChanged() {
    updateScrollBar();
    repaintAll();
}

void TimelineView::updateScrollBar() {
    const int page = canvasSize().height() - m_layout.pinnedHeight();
    const int max = std::max(0, m_layout.contentHeight() - page);
    const QSignalBlocker block(m_vbar);
    m_vbar->setRange(0, max);
    m_vbar->setPageStep(std::max(1, page));
    m_vbar->setSingleStep(LaneLayout::kRowHeight);
    m_scrollY = std::clamp(m_scrollY, 0, max);
    m_vbar->setValue(m_scrollY);
    m_header->setScrollY(m_scrollY);
}

void TimelineView::setScrollY(int y) {
    m_scrollY = std::clamp(y, 0, m_vbar->maximum());
    const QSignalBlocker block(m_vbar);
    m_vbar->setValue(m_scrollY);
    repaintAll();
}

void TimelineView::repaintAll() {
    m_header->setScrollY(m_scrollY);
    m_canvas->update();
    m_ruler->update();
    m_header->update();
}

PaintContext TimelineView::makeContext(QSize size, qreal dpr) const {
    return makePaintContext(m_state->trace(), &m_layout, m_state->visibleRange(), size, m_scrollY,
                            dpr, m_state->idleThresholdNs(), m_palette, font());
}

ViewFrame TimelineView::frame() const {
    const QSize c = canvasSize();
    return ViewFrame::make(&m_layout, m_state->visibleRange(), c.width(), c.height(), m_scrollY,
                           1.0, m_state->idleThresholdNs());
}

void TimelineView::paintCanvas(QPainter& p, QSize size, qreal dpr) {
    const PaintContext ctx = makeContext(size, dpr);
    if (!ctx.trace) {
        p.fillRect(QRect(QPoint(0, 0), size), ctx.palette.background);
        return;
    }
    TimelineFrame::Options options;
    options.search = m_searchBar->isHidden() ? m_highlights.get() : m_searchBar->result();
    const TimelineFrame frame(m_geometry, ctx, options);
    m_painter.paint(p, ctx, frame); // the background too
    paintOverlay(p, ctx, frame,
                 OverlayState{m_hover, m_state->selection(), m_state->selectedRange(),
                              m_state->cursorTime()});
    if (hasNothingToDraw())
        paintNothingToDraw(p, size, ctx);
    else if (const QString banner = partialPictureText(*ctx.trace); !banner.isEmpty())
        paintPartialPicture(p, size, ctx, banner);
}

QString TimelineView::partialPictureText(const Trace& t) {
    const TraceMetadata& m = t.metadata();
    if (m.stage != TraceStage::GpuSideBegun || m.gpuSampleStride <= 1)
        return {};
    return tr("Reading 1/%1 of the GPU rows, spread over the whole time range: a partial picture, "
              "with gaps where rows are not read yet…")
        .arg(m.gpuSampleStride);
}

void TimelineView::paintPartialPicture(QPainter& p, QSize size, const PaintContext& ctx,
                                       const QString& banner) const {
    // Hatched over the events: a gap in a partial picture is rows not read yet, not idle time.
    p.save();
    QColor hatch = ctx.palette.background;
    hatch.setAlpha(150);
    p.fillRect(QRect(QPoint(0, 0), size), QBrush(hatch, Qt::BDiagPattern));
    const QFontMetrics fm(font());
    const int pad = 6;
    const QRect text =
        fm.boundingRect(QRect(0, 0, std::max(40, size.width() - 4 * pad), size.height()),
                        Qt::AlignLeft | Qt::TextWordWrap, banner);
    const QRect box(pad, pad, text.width() + 2 * pad, text.height() + 2 * pad);
    QColor fill = ctx.palette.background;
    fill.setAlpha(230);
    p.fillRect(box, fill);
    p.setPen(ctx.palette.text);
    p.drawRect(box.adjusted(0, 0, -1, -1));
    p.drawText(box.adjusted(pad, pad, -pad, -pad), Qt::AlignLeft | Qt::TextWordWrap, banner);
    p.restore();
}

bool TimelineView::hasNothingToDraw() const {
    const Trace* t = m_state->trace();
    if (!t || !t->gpuMemory().empty())
        return false;
    return std::all_of(t->lanes().begin(), t->lanes().end(),
                       [](const Lane& l) { return l.isEmpty(); });
}

QString TimelineView::nothingToDrawText(const Trace& t) {
    const QLocale en(QLocale::English, QLocale::UnitedStates);
    const auto count = [&en](std::size_t n, const QString& one, const QString& many) -> QString {
        return en.toString(qulonglong(n)) % QLatin1Char(' ') % (n == 1 ? one : many);
    };
    QStringList held;
    if (!t.processes().empty())
        held << count(t.processes().size(), tr("process"), tr("processes"));
    if (!t.threads().empty())
        held << count(t.threads().size(), tr("thread"), tr("threads"));
    if (!t.gpus().empty())
        held << count(t.gpus().size(), tr("GPU"), tr("GPUs"));
    if (!t.syncs().empty())
        held << count(t.syncs().size(), tr("synchronisation record"),
                      tr("synchronisation records"));
    QString text;
    if (held.isEmpty()) {
        text = tr("This trace holds no events, so the timeline has nothing to draw.");
    } else {
        const QString last = held.takeLast();
        const QString what =
            held.isEmpty() ? last : QString(held.join(QStringLiteral(", ")) % tr(" and ") % last);
        text = tr("This trace holds %1 but no kernels, memory copies, memsets, CUDA API calls, "
                  "NVTX ranges, OS runtime calls, CPU operators or Python frames, so the "
                  "timeline has nothing to draw.")
                   .arg(what);
    }
    if (!(t.metadata().loadedParts == kAllTraceParts))
        text += tr(" Some kinds of events were not read.");
    if (!t.warnings().empty())
        text += tr(" The reader noted %1 (Trace Information, Ctrl+I).")
                    .arg(count(t.warnings().size(), tr("warning"), tr("warnings")));
    return text;
}

void TimelineView::paintNothingToDraw(QPainter& p, QSize size, const PaintContext& ctx) const {
    const QRectF box = QRectF(QPointF(0, 0), QSizeF(size)).adjusted(40, 40, -40, -40);
    if (box.width() < 40 || box.height() < 20)
        return;
    p.save();
    p.setPen(ctx.palette.text);
    p.setFont(font());
    p.drawText(box, Qt::AlignCenter | Qt::TextWordWrap, nothingToDrawText(*ctx.trace));
    p.restore();
}

TimelineHit TimelineView::hitTest(QPoint pos) {
    return m_geometry.hitTest(frame(), pos);
}

int TimelineView::laneAt(int y) const {
    const LayoutRow* r = rowAt(y);
    return r && r->kind == LayoutRowKind::LaneRow ? int(r->lane) : -1;
}

QString TimelineView::toolTipAt(QPoint pos) {
    const TimelineHit hit = hitTest(pos);
    const Trace* t = m_state->trace();
    if (t && hit.row && hit.row->kind == LayoutRowKind::Utilization) {
        const GpuUtilization* u = m_geometry.utilization(hit.row->deviceId);
        if (!u)
            return utilizationPendingText(t);
        const TimeMapping m = mapping();
        const TimeNs threshold = m_state->idleThresholdNs();
        return utilizationTooltip(*t, *u, m_geometry.idleGaps(hit.row->deviceId, threshold),
                                  {m.toTime(pos.x()), m.toTime(pos.x() + 1)}, threshold);
    }
    if (!t || !hit.item)
        return {};
    if (hit.row->kind == LayoutRowKind::ProjectedNvtx)
        return hit.item->isFolded
                   ? QString::number(hit.item->count) + QStringLiteral(" projected NVTX ranges")
                   : QStringLiteral("Projected onto the GPU\n") +
                         eventTooltip(*t, hit.event, m_nvtxNames.get());
    if (hit.item->isFolded)
        return foldedTooltip(*t, hit.row->lane, hit.row->row, *hit.item);
    return eventTooltip(*t, hit.event, m_nvtxNames.get());
}

std::vector<DrawItem> TimelineView::rowItems(std::uint32_t lane, std::uint16_t row) {
    return m_geometry.rowItems(frame(), lane, row);
}

std::optional<QRectF> TimelineView::eventRect(EventRef ref) const {
    return m_geometry.eventRect(frame(), ref);
}

std::vector<TimeRange> TimelineView::idleMarks(std::uint32_t deviceId) {
    return m_geometry.idleMarks(frame(), deviceId);
}

void TimelineView::zoomAt(double x, double factor) {
    const Trace* t = m_state->trace();
    if (!t)
        return;
    const TimeNs anchor = mapping().toTime(x);
    m_state->setVisibleRange(
        navigation::zoomAround(m_state->visibleRange(), anchor, factor, t->timeRange()));
}

void TimelineView::panPixels(double dx, bool record) {
    const Trace* t = m_state->trace();
    if (!t)
        return;
    const auto delta = TimeNs(std::llround(mapping().toDuration(dx)));
    m_state->setVisibleRange(navigation::panBy(m_state->visibleRange(), delta, t->timeRange()),
                             record);
}

void TimelineView::fitAll() {
    m_state->fitAll();
}

bool TimelineView::undoZoom() {
    return m_state->undoZoom();
}

void TimelineView::zoomToSelectedRange() {
    if (const auto r = m_state->selectedRange(); r && r->duration() > 0)
        m_state->setVisibleRange(*r);
}

void TimelineView::revealEvent(EventRef ref) {
    const Trace* t = m_state->trace();
    if (!t || !ref.isValid() || ref.lane >= t->lanes().size() ||
        ref.index >= t->lane(ref.lane).size())
        return;
    const Lane& l = t->lane(ref.lane);
    const TimeRange ev{l.start(ref.index), effectiveEnd(l.start(ref.index), l.end(ref.index))};
    m_state->setVisibleRange(navigation::revealRange(
        m_state->visibleRange(), ev, canvasSize().width(), TimelineGeometry::kMinPx));
    scrollToEventRow(ref);
    m_state->setSelection(ref);
    repaintAll();
}

void TimelineView::scrollToEventRow(EventRef ref) {
    const Lane& l = m_state->trace()->lane(ref.lane);
    if (m_layout.hideIdle() && !m_layout.ensureShown(ref.lane))
        m_layout.setHideIdle(false);
    m_layout.ensureShown(ref.lane);
    updateScrollBar();
    if (const LayoutRow* r = m_layout.findLaneRow(ref.lane, l.row(ref.index)); r && !r->pinned) {
        const int page = canvasSize().height() - m_layout.pinnedHeight();
        if (r->y < m_scrollY || r->y + r->height > m_scrollY + page)
            setScrollY(r->y - page / 2);
    }
}

void TimelineView::showSearchMatch(EventRef ref) {
    const Trace* t = m_state->trace();
    if (!t || !ref.isValid() || ref.lane >= t->lanes().size() ||
        ref.index >= t->lane(ref.lane).size())
        return;
    // A match narrower than kMinPx (it would fold with its neighbours) is zoomed in on until it
    // is kMatchPx wide.
    constexpr double kMatchPx = 12.0;
    const Lane& l = t->lane(ref.lane);
    const TimeNs start = l.start(ref.index);
    const TimeNs dur = std::max<TimeNs>(1, effectiveEnd(start, l.end(ref.index)) - start);
    const double width = std::max(1, canvasSize().width());
    const TimeRange view = m_state->visibleRange();
    TimeNs span = std::max<TimeNs>(1, view.duration());
    if (double(dur) / double(span) * width < TimelineGeometry::kMinPx)
        span = std::max<TimeNs>(navigation::kMinSpan, TimeNs(double(dur) * width / kMatchPx));
    else if (dur * 10 > span * 9)
        span = dur + dur / 4; // wider than the view: all of it, with margins
    const TimeNs centre = start + dur / 2;
    m_state->setVisibleRange(
        navigation::clampView({centre - span / 2, centre - span / 2 + span}, t->timeRange()));
    scrollToEventRow(ref);
    m_state->setSelection(ref);
    repaintAll();
}

void TimelineView::setHovered(EventRef ref) {
    if (ref == m_hover)
        return;
    m_hover = ref;
    m_canvas->update();
}

void TimelineView::setHideIdleLanes(bool hide) {
    m_layout.setHideIdle(hide);
    layoutChanged();
}

void TimelineView::setHideIdleGpus(bool hide) {
    m_layout.setHideIdleGpus(hide);
    layoutChanged();
}

void TimelineView::setLaneHidden(std::uint32_t lane, bool hidden) {
    m_layout.setLaneHidden(lane, hidden);
    layoutChanged();
}

void TimelineView::setLanePinned(std::uint32_t lane, bool pinned) {
    m_layout.setLanePinned(lane, pinned);
    layoutChanged();
}

void TimelineView::setGroupExpanded(std::uint32_t group, bool expanded) {
    m_layout.setExpanded(group, expanded);
    layoutChanged();
}

void TimelineView::setShowProjectedNvtx(bool show) {
    if (show == m_showProjected)
        return;
    m_showProjected = show;
    updateProjectedNvtx();
    layoutChanged();
}

void TimelineView::updateProjectedNvtx() {
    const Trace* t = m_state->trace();
    m_geometry.setProjectedNvtx(nullptr);
    m_projected = m_showProjected && t ? buildProjectedNvtx(*t) : std::vector<ProjectedNvtxLane>{};
    std::map<std::uint32_t, std::uint16_t> rows;
    for (const ProjectedNvtxLane& p : m_projected)
        rows[p.deviceId] = p.lane.rowCount();
    m_geometry.setProjectedNvtx(m_projected.empty() ? nullptr : &m_projected);
    m_layout.setProjectedNvtxRows(std::move(rows));
}

void TimelineView::showAllLanes() {
    m_layout.showAllLanes();
    layoutChanged();
}

} // namespace strobe
