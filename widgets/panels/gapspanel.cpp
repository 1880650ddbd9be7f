// SPDX-License-Identifier: MIT
#include "widgets/panels/gapspanel.h"

#include "model/analysis/nvtxstats.h"
#include "model/analysis/tableroles.h"
#include "model/timeformat.h"
#include "widgets/backgroundtask.h"
#include "widgets/panels/tableexport.h"
#include "widgets/viewstate.h"

#include <QAbstractTableModel>
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

// The gaps as a table; rows in GapAnalysis order, SortRole and ExportRole give raw values.
class GapTableModel : public QAbstractTableModel {
public:
    enum Column { Device, Start, Duration, Cause, NvtxRange, Detail, ColumnCount };

    using QAbstractTableModel::QAbstractTableModel;

    void reset(const Trace* trace, const GapAnalysis* analysis) {
        beginResetModel();
        m_trace = trace;
        m_analysis = analysis;
        endResetModel();
    }

    int rowCount(const QModelIndex& parent = {}) const override {
        return parent.isValid() || !m_analysis ? 0 : int(m_analysis->gaps.size());
    }
    int columnCount(const QModelIndex& parent = {}) const override {
        return parent.isValid() ? 0 : int(ColumnCount);
    }

    QString nvtxName(const GpuGap& g) const {
        if (!g.enclosingNvtx.isValid())
            return {};
        const Lane& l = m_trace->lane(g.enclosingNvtx.lane);
        return nvtxRangeName(*m_trace, l.domain(), l.nameId(g.enclosingNvtx.index));
    }

    QVariant data(const QModelIndex& index, int role) const override {
        if (!checkIndex(index, CheckIndexOption::IndexIsValid) || !m_trace)
            return {};
        const GpuGap& g = m_analysis->gaps[std::size_t(index.row())];
        const auto col = Column(index.column());
        if (role == Qt::TextAlignmentRole)
            return col == Start || col == Duration
                       ? QVariant(int(Qt::AlignRight | Qt::AlignVCenter))
                       : QVariant(int(Qt::AlignLeft | Qt::AlignVCenter));
        if (role == Qt::ToolTipRole)
            return g.detail;
        const bool raw = role == SortRole || role == ExportRole;
        if (!raw && role != Qt::DisplayRole)
            return {};
        switch (col) {
        case Device:
            return raw ? QVariant(qulonglong(g.deviceId))
                       : QVariant(QStringLiteral("GPU ") % QString::number(g.deviceId));
        case Start:
            return raw ? QVariant(qlonglong(g.range.start))
                       : QVariant(formatTimestamp(g.range.start, m_trace->timeRange().start));
        case Duration:
            return raw ? QVariant(qlonglong(g.duration())) : QVariant(formatDuration(g.duration()));
        case Cause:
            return raw && role == ExportRole ? gapCauseKey(g.cause) : gapCauseLabel(g.cause);
        case NvtxRange:
            return nvtxName(g);
        case Detail:
            return g.detail;
        case ColumnCount:
            break;
        }
        return {};
    }

    // SortRole's order without a QVariant per comparison: a fresh analysis (tens of thousands
    // of gaps at 10M events) is sorted on the GUI thread when it arrives, in a few ms.
    bool lessThan(int column, int a, int b) const {
        const GpuGap& x = m_analysis->gaps[std::size_t(a)];
        const GpuGap& y = m_analysis->gaps[std::size_t(b)];
        switch (Column(column)) {
        case Device:
            return x.deviceId < y.deviceId;
        case Start:
            return x.range.start < y.range.start;
        case Duration:
            return x.duration() < y.duration();
        case Cause:
            return gapCauseLabel(x.cause) < gapCauseLabel(y.cause);
        case NvtxRange:
            return nvtxName(x) < nvtxName(y);
        case Detail:
            return x.detail < y.detail;
        case ColumnCount:
            break;
        }
        return false;
    }

    QVariant headerData(int section, Qt::Orientation o, int role) const override {
        if (o != Qt::Horizontal || role != Qt::DisplayRole || section < 0 || section >= ColumnCount)
            return QAbstractTableModel::headerData(section, o, role);
        static const char* const names[] = {"Device", "Start",      "Duration",
                                            "Cause",  "NVTX range", "Detail"};
        return QString::fromLatin1(names[section]);
    }

private:
    const Trace* m_trace = nullptr;
    const GapAnalysis* m_analysis = nullptr;
};

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
    , m_task(new BackgroundTask(this)) {
    m_totals->setWordWrap(true);
    m_totals->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* exportCsv = new QPushButton(tr("Export CSV…"), this);
    auto* bar = new QHBoxLayout;
    bar->addWidget(m_totals, 1);
    bar->addWidget(exportCsv);

    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(SortRole);
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(GapTableModel::Duration, Qt::DescendingOrder);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setAlternatingRowColors(true);
    m_view->setWordWrap(false);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_view->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
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
    connect(m_view, &QTableView::doubleClicked, this,
            [this](const QModelIndex& i) { activateRow(i.row()); });
    auto* copy =
        new QShortcut(QKeySequence::Copy, m_view, nullptr, nullptr, Qt::WidgetWithChildrenShortcut);
    connect(copy, &QShortcut::activated, this, [this] { copyViewRowsToClipboard(*m_view); });
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

bool GapsPanel::isComputing() const {
    return m_task->isRunning();
}

void GapsPanel::rebuild() {
    std::shared_ptr<const Trace> trace = m_state->sharedTrace();
    const TimeNs threshold = m_state->idleThresholdNs();
    if (!trace) {
        m_task->cancel();
        showAnalysis(nullptr, {});
        return;
    }
    m_model->reset(nullptr, nullptr);
    m_analysis = {};
    m_trace.reset();
    m_totals->setText(tr("Finding gaps of at least %1…").arg(formatDuration(threshold)));
    m_task->start([trace, threshold] { return findGaps(*trace, threshold); },
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
    QStringList parts;
    for (const DeviceIdleSummary& d : m_analysis.devices) {
        parts << tr("GPU %1: %2 idle in %3 gaps (%4 % of the trace)")
                     .arg(d.deviceId)
                     .arg(formatDuration(d.idleNs))
                     .arg(d.gapCount)
                     .arg(QString::number(d.tracePercent, 'f', 1));
    }
    if (parts.isEmpty())
        parts << tr("No GPU work in this trace.");
    m_totals->setText(tr("Gaps of at least %1.  ").arg(formatDuration(m_analysis.threshold)) %
                      parts.join(QStringLiteral("  \u00b7  ")));
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
