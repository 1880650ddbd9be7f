// SPDX-License-Identifier: MIT
#include "widgets/panels/statisticswidget.h"

#include "model/analysis/kernelsummarymodel.h"
#include "model/analysis/memorysummarymodel.h"
#include "model/analysis/nvtxsummarymodel.h"
#include "model/analysis/tableroles.h"
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
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

namespace strobe {

namespace {

// A sortable table with Export and Copy buttons under `extra` controls.
QTableView* addTable(QWidget* page, QAbstractItemModel* model, const QString& fileName,
                     QLayout* extra = nullptr) {
    auto* proxy = new QSortFilterProxyModel(page);
    proxy->setSourceModel(model);
    proxy->setSortRole(SortRole);
    auto* view = new QTableView(page);
    view->setModel(proxy);
    makeSortable(view, -1, Qt::AscendingOrder); // model order: by total, descending
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setAlternatingRowColors(true);
    view->setWordWrap(false);
    view->verticalHeader()->hide();
    view->horizontalHeader()->setStretchLastSection(true);
    view->horizontalHeader()->resizeSection(0, 420);
    auto* save = new QPushButton(QObject::tr("Export CSV…"), page);
    auto* copy = new QPushButton(QObject::tr("Copy rows"), page);
    copy->setToolTip(QObject::tr("Copy the selected rows (or all) as CSV"));
    QObject::connect(save, &QPushButton::clicked, page,
                     [page, proxy, fileName] { saveModelAsCsv(page, *proxy, fileName); });
    QObject::connect(copy, &QPushButton::clicked, page, [view] { copyViewRowsToClipboard(*view); });
    auto* shortcut =
        new QShortcut(QKeySequence::Copy, view, nullptr, nullptr, Qt::WidgetWithChildrenShortcut);
    QObject::connect(shortcut, &QShortcut::activated, view,
                     [view] { copyViewRowsToClipboard(*view); });
    auto* bar = new QHBoxLayout;
    if (extra)
        bar->addLayout(extra);
    bar->addStretch(1);
    bar->addWidget(copy);
    bar->addWidget(save);
    auto* layout = new QVBoxLayout(page);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(bar);
    layout->addWidget(view, 1);
    return view;
}

} // namespace

StatisticsWidget::StatisticsWidget(ViewState* state, QWidget* parent)
    : QWidget(parent)
    , m_state(state)
    , m_tabs(new QTabWidget(this))
    , m_kernels(new KernelSummaryModel(this))
    , m_nvtx(new NvtxSummaryModel(this))
    , m_memory(new MemorySummaryModel(this))
    , m_grouping(new QComboBox(this))
    , m_stepLabel(new QLabel(this))
    , m_nvtxNote(new QLabel(this))
    , m_status(new QLabel(this))
    , m_kernelTask(new BackgroundTask(this))
    , m_nvtxTask(new BackgroundTask(this))
    , m_memoryTask(new BackgroundTask(this)) {
    m_grouping->addItem(tr("By name"), int(KernelGrouping::DemangledName));
    m_grouping->addItem(tr("By base name"), int(KernelGrouping::ShortName));
    m_grouping->addItem(tr("By launch configuration"), int(KernelGrouping::LaunchConfig));
    auto* prev = new QPushButton(tr("◀ Previous"), this);
    auto* next = new QPushButton(tr("Next ▶"), this);
    prev->setToolTip(tr("Previous instance of the kernel on the timeline"));
    next->setToolTip(tr("Next instance of the kernel on the timeline"));
    auto* kernelBar = new QHBoxLayout;
    kernelBar->addWidget(new QLabel(tr("Group:"), this));
    kernelBar->addWidget(m_grouping);
    kernelBar->addSpacing(12);
    kernelBar->addWidget(prev);
    kernelBar->addWidget(next);
    kernelBar->addWidget(m_stepLabel);

    auto* kernelPage = new QWidget(m_tabs);
    m_kernelView = addTable(kernelPage, m_kernels, QStringLiteral("kernel-summary.csv"), kernelBar);
    m_kernelProxy = static_cast<QSortFilterProxyModel*>(m_kernelView->model());
    m_tabs->addTab(kernelPage, tr("Kernels"));

    auto* nvtxPage = new QWidget(m_tabs);
    auto* nvtxBar = new QHBoxLayout;
    nvtxBar->addWidget(m_nvtxNote);
    addTable(nvtxPage, m_nvtx, QStringLiteral("nvtx-summary.csv"), nvtxBar);
    m_tabs->addTab(nvtxPage, tr("NVTX ranges"));

    auto* memoryPage = new QWidget(m_tabs);
    addTable(memoryPage, m_memory, QStringLiteral("memory-summary.csv"));
    m_tabs->addTab(memoryPage, tr("Memory operations"));
    m_status->setContentsMargins(8, 0, 8, 0);
    m_tabs->setCornerWidget(m_status, Qt::TopRightCorner);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_tabs);

    connect(m_grouping, &QComboBox::currentIndexChanged, this,
            [this] { setGrouping(KernelGrouping(m_grouping->currentData().toInt())); });
    onRowActivated(m_kernelView, m_state, [this](int row) { activateKernelRow(row); });
    connect(prev, &QPushButton::clicked, this, [this] { stepInstance(-1); });
    connect(next, &QPushButton::clicked, this, [this] { stepInstance(+1); });
    connect(m_state, &ViewState::traceChanged, this, &StatisticsWidget::rebuild);
    rebuild();
}

void StatisticsWidget::rebuild() {
    std::shared_ptr<const Trace> trace = m_state->sharedTrace();
    // Empty tables at once (O(1)): the old rows name the old trace's kernels and ranges.
    m_kernels->setPrecomputed(nullptr, m_kernels->grouping(), {});
    m_nvtx->setPrecomputed(nullptr, {});
    m_memory->setPrecomputed({});
    m_nvtxNote->clear();
    m_stepKernels.clear();
    m_instance = -1;
    updateStepLabel();
    if (!trace) {
        m_kernelTask->cancel();
        m_nvtxTask->cancel();
        m_memoryTask->cancel();
        taskDone();
        return;
    }
    computeKernelSummary();
    m_nvtxTask->start([trace] { return summarizeNvtxWithGpu(*trace); },
                      [this, trace](NvtxSummary summary) {
                          const std::uint64_t open = summary.openRanges;
                          m_nvtx->setPrecomputed(trace, std::move(summary));
                          m_nvtxNote->setText(
                              open ? tr("%1 ranges without an end are left out.").arg(open)
                                   : QString());
                          taskDone();
                      });
    m_memoryTask->start([trace] { return summarizeMemory(*trace); },
                        [this](std::vector<MemorySummaryRow> rows) {
                            m_memory->setPrecomputed(std::move(rows));
                            taskDone();
                        });
    taskDone();
}

void StatisticsWidget::computeKernelSummary() {
    std::shared_ptr<const Trace> trace = m_state->sharedTrace();
    const auto grouping = KernelGrouping(m_grouping->currentData().toInt());
    if (!trace) {
        m_kernels->setPrecomputed(nullptr, grouping, {});
        return;
    }
    m_kernelTask->start([trace, grouping] { return summarizeKernels(*trace, grouping); },
                        [this, trace, grouping](std::vector<KernelSummaryRow> rows) {
                            m_kernels->setPrecomputed(trace, grouping, std::move(rows));
                            taskDone();
                        });
}

bool StatisticsWidget::isComputing() const {
    return m_kernelTask->isRunning() || m_nvtxTask->isRunning() || m_memoryTask->isRunning();
}

void StatisticsWidget::taskDone() {
    m_status->setText(isComputing() ? tr("Computing…") : QString());
    if (!isComputing())
        emit ready();
}

void StatisticsWidget::setGrouping(KernelGrouping grouping) {
    const int i = m_grouping->findData(int(grouping));
    if (m_grouping->currentIndex() != i) {
        m_grouping->setCurrentIndex(i); // re-enters through currentIndexChanged
        return;
    }
    if (grouping == m_kernels->grouping() && !m_kernelTask->isRunning())
        return;
    // The rows shown stay (and stay consistent) until the regrouped ones arrive.
    computeKernelSummary();
    taskDone();
}

void StatisticsWidget::activateKernelRow(int viewRow) {
    const QModelIndex source = m_kernelProxy->mapToSource(m_kernelProxy->index(viewRow, 0));
    const KernelSummaryRow* row = m_kernels->rowAt(source.row());
    if (!row)
        return;
    m_stepKernels = row->instances;
    m_instance = -1;
    emit kernelFilterRequested(row->name, row->configs);
    stepInstance(+1);
}

void StatisticsWidget::stepInstance(int delta) {
    const Trace* t = m_state->trace();
    if (!t || m_stepKernels.empty())
        return;
    const int n = int(m_stepKernels.size());
    m_instance = m_instance < 0 ? 0 : ((m_instance + delta) % n + n) % n;
    m_state->reveal(t->kernels()[m_stepKernels[std::size_t(m_instance)]].self);
    updateStepLabel();
}

void StatisticsWidget::updateStepLabel() {
    m_stepLabel->setText(
        m_instance < 0 ? tr("Double-click a kernel to step through it")
                       : tr("Instance %1 of %2").arg(m_instance + 1).arg(m_stepKernels.size()));
}

} // namespace strobe
