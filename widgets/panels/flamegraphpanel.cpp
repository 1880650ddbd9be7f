// SPDX-License-Identifier: MIT
#include "widgets/panels/flamegraphpanel.h"

#include "model/timeformat.h"
#include "widgets/backgroundtask.h"
#include "widgets/panels/flamegraphview.h"
#include "widgets/viewstate.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QScrollArea>
#include <QStringBuilder>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>
#include <memory>

namespace strobe {

namespace {

// The graph follows zoom and pan once they stop for this long.
constexpr int kSettleMs = 250;

} // namespace

FlameGraphPanel::FlameGraphPanel(ViewState* state, QWidget* parent)
    : QWidget(parent)
    , m_state(state)
    , m_scopeCombo(new QComboBox(this))
    , m_status(new QLabel(this))
    , m_scroll(new QScrollArea(this))
    , m_view(new FlameGraphView)
    , m_task(new BackgroundTask(this))
    , m_settle(new QTimer(this)) {
    m_scopeCombo->addItem(tr("Visible range"), int(Scope::VisibleRange));
    m_scopeCombo->addItem(tr("Selected range or step"), int(Scope::SelectedRange));
    m_scopeCombo->addItem(tr("Whole trace"), int(Scope::WholeTrace));
    m_scopeCombo->setToolTip(tr("Which time the flame graph covers: what the timeline shows, "
                                "the range selected on the ruler or a step picked on the "
                                "Overview's chart, or the whole trace"));
    m_status->setTextFormat(Qt::PlainText);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Scope:"), this));
    bar->addWidget(m_scopeCombo);
    bar->addWidget(m_status, 1);
    m_scroll->setWidget(m_view);
    m_scroll->setWidgetResizable(true);
    m_scroll->setFrameShape(QFrame::NoFrame);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(bar);
    layout->addWidget(m_scroll, 1);

    m_settle->setSingleShot(true);
    m_settle->setInterval(kSettleMs);
    connect(m_settle, &QTimer::timeout, this, &FlameGraphPanel::recompute);
    connect(m_scopeCombo, &QComboBox::activated, this,
            [this](int i) { setScope(Scope(m_scopeCombo->itemData(i).toInt())); });
    connect(m_state, &ViewState::traceChanged, this, &FlameGraphPanel::recompute);
    connect(m_state, &ViewState::visibleRangeChanged, this, [this] {
        if (m_scope == Scope::VisibleRange)
            schedule();
    });
    connect(m_state, &ViewState::selectedRangeChanged, this, [this] {
        if (m_scope == Scope::SelectedRange)
            schedule();
    });
    connect(m_view, &FlameGraphView::rangeActivated, this, &FlameGraphPanel::activate);
    recompute();
}

FlameGraphPanel::~FlameGraphPanel() = default;

void FlameGraphPanel::setScope(Scope scope) {
    m_scope = scope;
    m_scopeCombo->setCurrentIndex(m_scopeCombo->findData(int(scope)));
    recompute();
}

QString FlameGraphPanel::status() const {
    return m_status->text();
}

bool FlameGraphPanel::isComputing() const {
    return m_task->isRunning() || m_settle->isActive();
}

void FlameGraphPanel::schedule() {
    m_settle->start();
}

void FlameGraphPanel::recompute() {
    m_settle->stop();
    std::shared_ptr<const Trace> trace = m_state->sharedTrace();
    if (!trace) {
        m_task->cancel();
        m_view->setFlameGraph({});
        m_status->setText(tr("No trace."));
        return;
    }
    std::optional<TimeRange> window;
    switch (m_scope) {
    case Scope::VisibleRange:
        window = m_state->visibleRange();
        break;
    case Scope::SelectedRange:
        window = m_state->selectedRange();
        break;
    case Scope::WholeTrace:
        window = trace->timeRange();
        break;
    }
    if (!window || window->isEmpty()) {
        m_task->cancel();
        m_view->setFlameGraph({});
        m_status->setText(tr("Select a range on the ruler, or a step on the Overview's chart."));
        return;
    }
    m_status->setText(tr("Computing…"));
    const TimeRange w = *window;
    m_task->start([trace, w] { return buildFlameGraph(*trace, w); },
                  [this](FlameGraph graph) {
                      const QLocale locale;
                      if (graph.isEmpty()) {
                          m_status->setText(
                              tr("No CPU operators, annotations, NVTX ranges or Python frames run "
                                 "in this range."));
                      } else {
                          const FlameNode& root = graph.nodes.front();
                          m_status->setText(
                              tr("%1 in CPU ranges, all threads added, over a %2 window (%3 "
                                 "top-level calls, %4 paths)")
                                  .arg(formatDuration(root.total),
                                       formatDuration(graph.window.duration()),
                                       locale.toString(qulonglong(root.calls)),
                                       locale.toString(qulonglong(graph.nodes.size() - 1))));
                      }
                      m_view->setFlameGraph(std::move(graph));
                  });
}

void FlameGraphPanel::activate(EventRef event, TimeRange range) {
    if (!m_state->trace() || !event.isValid())
        return;
    m_state->setVisibleRange(widened(range, 5));
    m_state->reveal(event);
}

} // namespace strobe
