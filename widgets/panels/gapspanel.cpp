// SPDX-License-Identifier: MIT
#include "widgets/panels/gapspanel.h"

#include "model/itemmodels/gaptablemodel.h"
#include "model/itemmodels/tableroles.h"
#include "model/reports/gapsummarytext.h"
#include "model/timeformat.h"
#include "widgets/backgroundtask.h"
#include "widgets/panels/tablebehaviour.h"
#include "widgets/panels/tableexport.h"
#include "widgets/viewstate.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QShortcut>
#include <QSortFilterProxyModel>
#include <QStringBuilder>
#include <QTableView>
#include <QVBoxLayout>

namespace strobe {

namespace {

class GapSortProxy final : public QSortFilterProxyModel {
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;

protected:
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override {
        const auto* m = static_cast<const GapTableModel*>(sourceModel());
        return m->lessThan(left.column(), left.row(), right.row());
    }
};

} // namespace

GapsPanel::GapsPanel(ViewState* state, QWidget* parent)
    : QWidget(parent)
    , m_state(state)
    , m_model(new GapTableModel(this))
    , m_proxy(new GapSortProxy(this))
    , m_view(new QTableView(this))
    , m_totals(new QLabel(this))
    , m_busyCombo(new QComboBox(this))
    , m_task(new BackgroundTask(this)) {
    m_totals->setWordWrap(true);
    m_totals->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_totals->setTextFormat(Qt::PlainText); // names the file's ranges
    m_busyCombo->addItem(tr("Busy: all GPU work"), int(BusyWork::All));
    m_busyCombo->addItem(tr("Busy: kernels only"), int(BusyWork::Kernels));
    m_busyCombo->setToolTip(tr("What keeps a GPU busy. Kernels only: a GPU that only copies "
                               "data counts as idle, so copy-bound stretches become gaps."));
    auto* exportCsv = new QPushButton(tr("Export CSV…"), this);
    auto* bar = new QHBoxLayout;
    bar->addWidget(m_totals, 1);
    auto* controls = new QVBoxLayout;
    controls->addWidget(m_busyCombo);
    controls->addWidget(exportCsv);
    controls->addStretch(1);
    bar->addLayout(controls);

    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(SortRole);
    m_view->setModel(m_proxy);
    makeSortable(m_view, GapTableModel::Duration, Qt::DescendingOrder);
    setUpTable(m_view);
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->horizontalHeader()->resizeSection(GapTableModel::Device, 60);
    m_view->horizontalHeader()->resizeSection(GapTableModel::Start, 100);
    m_view->horizontalHeader()->resizeSection(GapTableModel::Duration, 90);
    m_view->horizontalHeader()->resizeSection(GapTableModel::Cause, 120);
    m_view->horizontalHeader()->resizeSection(GapTableModel::NvtxRange, 160);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(bar);
    layout->addWidget(m_view, 1);

    connect(exportCsv, &QPushButton::clicked, this,
            [this] { saveModelAsCsv(this, *m_model, QStringLiteral("gaps.csv")); });
    onRowActivated(m_view, m_state, [this](int row) { activateRow(row); });
    auto* copy =
        new QShortcut(QKeySequence::Copy, m_view, nullptr, nullptr, Qt::WidgetWithChildrenShortcut);
    connect(copy, &QShortcut::activated, this, [this] { copyViewRowsToClipboard(*m_view); });
    connect(m_busyCombo, &QComboBox::currentIndexChanged, this,
            [this](int i) { setBusyWork(BusyWork(m_busyCombo->itemData(i).toInt())); });
    connect(m_state, &ViewState::traceChanged, this, &GapsPanel::rebuild);
    connect(m_state, &ViewState::idleThresholdChanged, this, &GapsPanel::rebuild);
    rebuild();
}

GapsPanel::~GapsPanel() = default;

QAbstractItemModel* GapsPanel::model() const {
    return m_model;
}

QString GapsPanel::totalsText() const {
    return m_totals->text();
}

void GapsPanel::setBusyWork(BusyWork busy) {
    const int index = m_busyCombo->findData(int(busy));
    if (index < 0 || busy == m_busy)
        return;
    m_busy = busy;
    {
        const QSignalBlocker block(m_busyCombo);
        m_busyCombo->setCurrentIndex(index);
    }
    rebuild();
}

bool GapsPanel::isComputing() const {
    return m_task->isRunning();
}

void GapsPanel::rebuild() {
    std::shared_ptr<const Trace> trace = m_state->sharedTrace();
    const TimeNs threshold = m_state->idleThresholdNs();
    const BusyWork busy = m_busy;
    if (!trace || trace->metadata().stage != TraceStage::Complete) {
        m_task->cancel();
        showAnalysis(nullptr, {});
        if (trace) // a preview: a gap's causes are on the CPU side, still being read
            m_totals->setText(tr("Reading the trace: its gaps follow once all of it is read."));
        return;
    }
    m_model->reset(nullptr, nullptr);
    m_analysis = {};
    m_trace.reset();
    m_totals->setText(tr("Finding gaps of at least %1…").arg(formatDuration(threshold)));
    m_task->start([trace, threshold, busy] { return findGaps(*trace, threshold, busy); },
                  [this, trace](GapAnalysis result) { showAnalysis(trace, std::move(result)); });
}

void GapsPanel::showAnalysis(std::shared_ptr<const Trace> trace, GapAnalysis result) {
    m_model->reset(nullptr, nullptr);
    std::swap(m_analysis, result);
    m_trace = std::move(trace);
    m_model->reset(m_trace.get(), &m_analysis);
    if (!m_trace) {
        m_totals->setText(tr("No trace loaded."));
        emit ready();
        return;
    }
    // One line per GPU, each idle end on a line of its own: they are not gaps.
    QStringList lines{gapsHeadline(m_analysis)};
    for (const DeviceIdleSummary& d : m_analysis.devices) {
        lines << gpuWorkLine(d, m_analysis.busy, m_analysis.threshold);
        if (d.busySpan)
            lines << QStringLiteral("    ") % idleBeforeLine(d)
                  << QStringLiteral("    ") % idleAfterLine(d);
    }
    if (m_analysis.devices.empty())
        lines << tr("No GPU in this trace.");
    m_totals->setText(lines.join(u'\n'));
    emit ready();
}

const GpuGap* GapsPanel::gapAtRow(int row) const {
    const QModelIndex src = m_proxy->mapToSource(m_proxy->index(row, 0));
    if (!src.isValid())
        return nullptr;
    return &m_analysis.gaps[std::size_t(src.row())];
}

TimeRange GapsPanel::zoomRangeFor(const Trace& trace, const GpuGap& gap) {
    TimeRange r = gap.range;
    if (gap.event.isValid() && gap.event.lane < trace.lanes().size()) {
        const Lane& l = trace.lane(gap.event.lane);
        const TimeNs s = l.start(gap.event.index), e = effectiveEnd(s, l.end(gap.event.index));
        if (e - s <= 4 * std::max<TimeNs>(1, gap.duration()))
            r = {std::min(r.start, s), std::max(r.end, e)};
    }
    const TimeNs margin = std::max<TimeNs>(1, r.duration() / 5);
    return {r.start - margin, r.end + margin};
}

void GapsPanel::activateRow(int row) {
    const GpuGap* g = gapAtRow(row);
    const Trace* t = m_state->trace();
    if (!g || !t)
        return;
    const TimeRange view = zoomRangeFor(*t, *g);
    m_state->setVisibleRange(view);
    m_state->setSelectedRange(g->range);
    const EventRef ref = g->event.isValid() ? g->event : g->after;
    if (!ref.isValid())
        return;
    const Lane& l = t->lane(ref.lane);
    const TimeNs s = l.start(ref.index), e = effectiveEnd(s, l.end(ref.index));
    // Reveal (which also scrolls to the lane) only when it keeps this zoom: the event fits.
    if (s >= view.start && e <= view.end)
        m_state->reveal(ref);
    else
        m_state->setSelection(ref);
}

} // namespace strobe
