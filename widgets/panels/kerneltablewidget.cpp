// SPDX-License-Identifier: MIT
#include "widgets/panels/kerneltablewidget.h"

#include "model/itemmodels/kerneltablemodel.h"
#include "widgets/backgroundtask.h"
#include "widgets/panels/namefilteredit.h"
#include "widgets/panels/tablebehaviour.h"
#include "widgets/panels/tableexport.h"
#include "widgets/panels/windowedtableview.h"
#include "widgets/viewstate.h"
#include "widgets/workerpriority.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPushButton>
#include <QShortcut>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>
#include <utility>

namespace strobe {

KernelTableWidget::KernelTableWidget(ViewState* state, QWidget* parent)
    : QWidget(parent)
    , m_state(state)
    , m_model(new KernelTableModel(this))
    , m_view(new WindowedTableView(this))
    , m_filter(new NameFilterEdit(tr("Filter kernels by name"), this))
    , m_demangled(new QCheckBox(tr("Demangled"), this))
    , m_range(new QComboBox(this))
    , m_configLabel(new QLabel(this))
    , m_count(new QLabel(this))
    , m_dataTask(new BackgroundTask(this))
    , m_rowsTask(new BackgroundTask(this)) {
    m_model->setDeferredRows(true);
    connect(m_model, &KernelTableModel::rowsRequested, this, &KernelTableWidget::computeRows);
    m_range->addItem(tr("Whole trace"), int(RangeRestriction::All));
    m_range->addItem(tr("Visible range"), int(RangeRestriction::VisibleRange));
    m_range->addItem(tr("Selected range"), int(RangeRestriction::SelectedRange));
    m_configLabel->setVisible(false);
    m_configLabel->setTextFormat(Qt::PlainText); // names the kernel
    auto* clearConfigs = new QToolButton(this);
    clearConfigs->setText(tr("Show all"));
    clearConfigs->setVisible(false);
    auto* exportCsv = new QPushButton(tr("Export CSV…"), this);

    auto* bar = new QHBoxLayout;
    bar->addWidget(m_filter, 1);
    bar->addWidget(m_demangled);
    bar->addWidget(m_range);
    bar->addWidget(m_configLabel);
    bar->addWidget(clearConfigs);
    m_count->setObjectName(QStringLiteral("kernelCount"));
    bar->addWidget(m_count);
    bar->addWidget(exportCsv);

    m_view->setSourceModel(m_model);
    makeSortable(m_view, KernelTableModel::Start, Qt::AscendingOrder);
    setUpTable(m_view);
    fitColumns(m_view, KernelTableModel::Name); // the headers now, the rows when they arrive

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(bar);
    // The view shows a window of the rows; this bar spans all of them (WindowedTableView).
    auto* rows = new QHBoxLayout;
    rows->setSpacing(0);
    rows->addWidget(m_view, 1);
    rows->addWidget(m_view->rowScrollBar());
    layout->addLayout(rows, 1);

    connect(m_filter, &NameFilterEdit::filterChanged, this, &KernelTableWidget::applyNameFilter);
    connect(m_demangled, &QCheckBox::toggled, this, &KernelTableWidget::setShowDemangled);
    connect(m_range, &QComboBox::currentIndexChanged, this, [this] { applyRange(); });
    connect(clearConfigs, &QToolButton::clicked, this, [this] { showOnlyConfigs(QString(), {}); });
    // The worker sorts: the rows of a sort arrive later, and then show the top (makeSortable).
    connect(m_view->horizontalHeader(), &QHeaderView::sortIndicatorChanged, this,
            [this] { m_topAfterSort = true; });
    m_model->setRevealStep(kRevealStep);
    connect(m_model, &QAbstractItemModel::modelReset, this, [this, clearConfigs] {
        clearConfigs->setVisible(m_configLabel->isVisible());
        updateCount();
    });
    // Once every row of a result is in the view (at once, or after the last reveal step).
    connect(m_model, &KernelTableModel::rowsApplied, this, [this] {
        updateCount();
        const bool settled = !m_model->rowsPending();
        followSelection(m_state->selection(), !m_topAfterSort);
        if (m_topAfterSort && settled) {
            m_view->scrollToSourceTop();
            m_topAfterSort = false;
        }
        if (m_fitColumns && settled && m_model->rowCount() > 0) {
            // In a pass of its own: measuring ~250 rows costs as much as the last reveal step.
            m_fitColumns = false;
            m_fitPending = true;
            QTimer::singleShot(0, this, [this, generation = ++m_fitGeneration] {
                if (generation != m_fitGeneration)
                    return; // a new trace came first; it fits its own rows
                m_fitPending = false;
                fitColumns(m_view, KernelTableModel::Name);
                if (std::exchange(m_awaitingReveal, false) && !isComputing())
                    emit ready();
            });
        }
        if (!m_fitPending && std::exchange(m_awaitingReveal, false) && !isComputing())
            emit ready();
    });
    connect(exportCsv, &QPushButton::clicked, this,
            [this] { saveModelAsCsv(this, *m_model, QStringLiteral("kernels.csv")); });
    onRowActivated(m_view, m_state, [this](int row) {
        activateRow(m_view->sourceRow(m_view->model()->index(row, 0)));
    });
    auto* copy =
        new QShortcut(QKeySequence::Copy, m_view, nullptr, nullptr, Qt::WidgetWithChildrenShortcut);
    connect(copy, &QShortcut::activated, this, [this] { copySelectedRows(); });

    connect(m_state, &ViewState::traceChanged, this, &KernelTableWidget::rebuild);
    connect(m_state, &ViewState::selectionChanged, this,
            [this](EventRef ref) { followSelection(ref, true); });
    connect(m_state, &ViewState::visibleRangeChanged, this, [this] {
        if (m_range->currentData().toInt() == int(RangeRestriction::VisibleRange))
            applyRange();
    });
    connect(m_state, &ViewState::selectedRangeChanged, this, [this] {
        if (m_range->currentData().toInt() == int(RangeRestriction::SelectedRange))
            applyRange();
    });
    rebuild();
}

KernelTableWidget::~KernelTableWidget() = default;

void KernelTableWidget::rebuild() {
    m_configLabel->setVisible(false);
    m_fitColumns = true; // a new trace's values have other widths
    m_fitPending = false;
    ++m_fitGeneration;
    m_awaitingReveal = false;
    m_model->setData(nullptr); // empty (O(1)) until the new trace's data arrives
    applyOperators();
    applyRange();
    std::shared_ptr<const Trace> trace = m_state->sharedTrace();
    // The early preview holds the first kernels only, and the GPU-side preview no launch
    // details: no rows rather than a partial list or columns of "unknown" (and no gather of
    // millions of rows competing with the rest of the load).
    m_waitingForTrace =
        trace && (trace->metadata().stage == TraceStage::GpuSideBegun ||
                  (trace->metadata().stage == TraceStage::GpuSide &&
                   !trace->metadata().loadedParts.testFlag(TracePart::KernelDetail)));
    if (!trace || m_waitingForTrace) {
        m_dataTask->cancel();
        updateCount();
        emit ready();
        return;
    }
    m_dataTask->start(
        [trace] { // freed off the GUI thread when a newer trace replaces it
            return std::shared_ptr<const KernelTableData>(shareFreedOffThread(
                std::make_unique<const KernelTableData>(gatherKernelTableData(trace))));
        },
        [this](std::shared_ptr<const KernelTableData> data) {
            m_model->setData(std::move(data)); // asks for rows (computeRows) unless empty
            applyOperators();
            updateCount();
            if (!isComputing())
                emit ready();
        });
    updateCount();
}

void KernelTableWidget::computeRows() {
    m_awaitingReveal = false; // a reveal still running is for rows this request replaces
    m_rowsTask->start([query = m_model->rowQuery()] { return computeKernelRows(query); },
                      [this](KernelRows rows) {
                          const bool applied = m_model->applyRows(std::move(rows));
                          updateCount();
                          if (!isComputing())
                              emit ready();
                          else if (applied)
                              m_awaitingReveal = true; // ready() after the last step and fit
                      });
    updateCount();
}

bool KernelTableWidget::isComputing() const {
    return m_dataTask->isRunning() || m_model->rowsPending() || m_fitPending;
}

void KernelTableWidget::setNameFilter(const QString& text, bool regex) {
    m_filter->setFilter(text, regex);
    applyNameFilter(m_filter->filter());
}

void KernelTableWidget::applyNameFilter(const NameFilter& filter) {
    m_filter->markValid(m_model->setNameFilter(filter.text(), filter.isRegex()));
}

QString KernelTableWidget::nameFilter() const {
    return m_filter->filter().text();
}

bool KernelTableWidget::nameFilterIsRegex() const {
    return m_filter->filter().isRegex();
}

void KernelTableWidget::clearFilters() {
    setNameFilter(QString(), nameFilterIsRegex());
    showOnlyConfigs(QString(), {});
}

void KernelTableWidget::setRangeRestriction(RangeRestriction r) {
    m_range->setCurrentIndex(m_range->findData(int(r)));
    applyRange();
}

void KernelTableWidget::setShowDemangled(bool demangled) {
    if (m_demangled->isChecked() != demangled)
        m_demangled->setChecked(demangled);
    m_model->setShowDemangled(demangled); // re-matches the filter against the shown names
}

void KernelTableWidget::showOnlyConfigs(const QString& label,
                                        const std::vector<std::uint32_t>& configs) {
    m_configLabel->setText(tr("Only: %1").arg(label));
    m_configLabel->setToolTip(label);
    m_configLabel->setVisible(!configs.empty());
    m_model->setConfigFilter(configs);
}

void KernelTableWidget::applyRange() {
    switch (RangeRestriction(m_range->currentData().toInt())) {
    case RangeRestriction::All:
        m_model->setTimeRange(std::nullopt);
        break;
    case RangeRestriction::VisibleRange:
        m_model->setTimeRange(m_state->visibleRange());
        break;
    case RangeRestriction::SelectedRange:
        m_model->setTimeRange(m_state->selectedRange());
        break;
    }
    updateCount();
}

void KernelTableWidget::setOperatorAnalysis(std::shared_ptr<const OperatorAnalysis> analysis) {
    m_operators = std::move(analysis);
    applyOperators();
}

void KernelTableWidget::applyOperators() {
    const bool current = m_operators && m_operators->describes(m_model->trace());
    m_model->setOperators(current ? m_operators->forest : nullptr);
    const bool show = m_model->hasOperators();
    if (m_view->isColumnHidden(KernelTableModel::Operator) == show) {
        m_view->setColumnHidden(KernelTableModel::Operator, !show);
        if (show && m_model->rowCount() > 0)
            fitColumns(m_view, KernelTableModel::Name);
    }
}

void KernelTableWidget::activateRow(int row) {
    const auto k = m_model->kernelAtRow(row);
    if (!k || !m_state->trace())
        return;
    m_state->reveal(m_state->trace()->kernels()[*k].self);
}

void KernelTableWidget::followSelection(EventRef ref, bool scroll) {
    const Trace* t = m_state->trace();
    if (!t || m_model->trace() != t)
        return;
    const auto k = t->kernelIndexOf(ref);
    if (!k)
        return;
    const auto row = m_model->rowOfKernel(*k);
    if (!row)
        return;
    const QModelIndex i = m_view->windowIndex(*row);
    m_view->selectionModel()->setCurrentIndex(i, QItemSelectionModel::ClearAndSelect |
                                                     QItemSelectionModel::Rows);
    if (scroll)
        m_view->scrollTo(i);
}

int KernelTableWidget::copySelectedRows() {
    // The view's selection in the model's rows, also where the window has moved away from it.
    QList<int> rows;
    for (const int r : m_view->selectedSourceRows())
        rows << r;
    return copyRowsToClipboard(*m_model, rows);
}

void KernelTableWidget::updateCount() {
    if (m_waitingForTrace)
        m_count->setText(tr("The kernels follow with their launch details…"));
    else if (m_dataTask->isRunning())
        m_count->setText(tr("Computing…"));
    else if (m_model->rowsPending())
        m_count->setText(tr("Sorting and filtering…"));
    else
        m_count->setText(
            tr("%1 of %2 kernels").arg(m_model->rowCount()).arg(m_model->totalKernels()));
}

} // namespace strobe
