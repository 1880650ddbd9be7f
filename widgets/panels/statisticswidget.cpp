// SPDX-License-Identifier: MIT
#include "widgets/panels/statisticswidget.h"

#include "model/itemmodels/kernelsummarymodel.h"
#include "model/itemmodels/memorysummarymodel.h"
#include "model/itemmodels/namefilterproxy.h"
#include "model/itemmodels/nvtxsummarymodel.h"
#include "model/itemmodels/reporttablemodel.h"
#include "model/itemmodels/tableroles.h"
#include "model/reports/statsreports.h"
#include "widgets/backgroundtask.h"
#include "widgets/panels/namefilteredit.h"
#include "widgets/panels/tablebehaviour.h"
#include "widgets/panels/tableexport.h"
#include "widgets/viewstate.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QShortcut>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

namespace strobe {

namespace {

// A sortable table filtered by name (NameFilterProxy) with a row count, Export and Copy
// buttons, and `extra` controls between the filter and the buttons.
StatisticsWidget::Table addTable(QWidget* page, QAbstractItemModel* model, const QString& fileName,
                                 const QString& placeholder, QLayout* extra = nullptr) {
    StatisticsWidget::Table t;
    t.proxy = new NameFilterProxy(page);
    t.proxy->setSourceModel(model);
    t.filter = new NameFilterEdit(placeholder, page);
    t.count = new QLabel(page);
    auto* proxy = t.proxy;
    auto* view = t.view = new QTableView(page);
    view->setModel(proxy);
    makeSortable(view, -1, Qt::AscendingOrder); // model order: by total, descending
    setUpTable(view, {.oneLineRows = false, .fixedRows = false});
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
    QLabel* count = t.count;
    auto updateCount = [proxy, model, count] {
        count->setText(QObject::tr("%1 of %2 rows").arg(proxy->rowCount()).arg(model->rowCount()));
    };
    QObject::connect(t.filter, &NameFilterEdit::filterChanged, proxy,
                     [proxy, edit = t.filter](const NameFilter& f) {
                         edit->markValid(proxy->setNameFilter(f));
                     });
    QObject::connect(proxy, &QAbstractItemModel::modelReset, count, updateCount);
    QObject::connect(proxy, &QAbstractItemModel::layoutChanged, count, updateCount);
    QObject::connect(proxy, &QAbstractItemModel::rowsInserted, count, updateCount);
    QObject::connect(proxy, &QAbstractItemModel::rowsRemoved, count, updateCount);
    updateCount();
    auto* bar = new QHBoxLayout;
    bar->addWidget(t.filter, 1);
    bar->addWidget(count);
    if (extra)
        bar->addLayout(extra);
    bar->addWidget(copy);
    bar->addWidget(save);
    auto* layout = new QVBoxLayout(page);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(bar);
    layout->addWidget(view, 1);
    return t;
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
    , m_groupPerCallIds(new QCheckBox(tr("Group per-call ids"), this))
    , m_stepLabel(new QLabel(this))
    , m_nvtxNote(new QLabel(this))
    , m_status(new QLabel(this))
    , m_kernelTask(new BackgroundTask(this))
    , m_nvtxTask(new BackgroundTask(this))
    , m_memoryTask(new BackgroundTask(this))
    , m_reportsTask(new BackgroundTask(this)) {
    for (QLabel* l : {m_stepLabel, m_nvtxNote, m_status})
        l->setTextFormat(Qt::PlainText); // range names come from the file
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
    m_tables[KernelsTab] = addTable(kernelPage, m_kernels, QStringLiteral("kernel-summary.csv"),
                                    tr("Filter kernels by name"), kernelBar);
    m_kernelView = m_tables[KernelsTab].view;
    m_kernelProxy = m_tables[KernelsTab].proxy;
    m_tabs->addTab(kernelPage, tr("Kernels"));

    auto* nvtxPage = new QWidget(m_tabs);
    auto* nvtxBar = new QHBoxLayout;
    m_groupPerCallIds->setChecked(true);
    m_groupPerCallIds->setToolTip(
        tr("One row per operation: PyTorch's per-call suffixes (\", seq = N\", \", op_id = N\", "
           "\", sizes = [...]\", \", input_op_ids = [...]\") are cut from the names. Uncheck "
           "for one row per recorded name."));
    nvtxBar->addWidget(m_groupPerCallIds);
    nvtxBar->addWidget(m_nvtxNote);
    m_tables[NvtxTab] = addTable(nvtxPage, m_nvtx, QStringLiteral("nvtx-summary.csv"),
                                 tr("Filter ranges by name"), nvtxBar);
    m_tabs->addTab(nvtxPage, tr("NVTX ranges"));

    auto* memoryPage = new QWidget(m_tabs);
    m_tables[MemoryTab] = addTable(memoryPage, m_memory, QStringLiteral("memory-summary.csv"),
                                   tr("Filter by direction"));
    m_tabs->addTab(memoryPage, tr("Memory operations"));

    // The nsys stats reports: one generic table each, named as strobe-cli names the command.
    struct ReportTab {
        QString title, file, placeholder;
    };
    const std::array<ReportTab, kReportTabs> reportTabs{{
        {tr("CUDA API"), QStringLiteral("api-summary.csv"), tr("Filter calls by name")},
        {tr("OS runtime"), QStringLiteral("osrt-summary.csv"), tr("Filter calls by name")},
        {tr("Memory sizes"), QStringLiteral("memory-size-summary.csv"), tr("Filter by operation")},
        {tr("Kernel launches"), QStringLiteral("launch-summary.csv"), tr("Filter kernels by name")},
        {tr("NVTX on GPU"), QStringLiteral("nvtx-gpu-summary.csv"), tr("Filter ranges by name")},
    }};
    for (int i = 0; i < kReportTabs; ++i) {
        m_reports[std::size_t(i)] = new ReportTableModel(this);
        auto* page = new QWidget(m_tabs);
        m_tables[kFirstReportTab + i] =
            addTable(page, m_reports[std::size_t(i)], reportTabs[std::size_t(i)].file,
                     reportTabs[std::size_t(i)].placeholder);
        m_tabs->addTab(page, reportTabs[std::size_t(i)].title);
    }
    m_status->setContentsMargins(8, 0, 8, 0);
    m_tabs->setCornerWidget(m_status, Qt::TopRightCorner);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_tabs);

    connect(m_grouping, &QComboBox::currentIndexChanged, this,
            [this] { setGrouping(KernelGrouping(m_grouping->currentData().toInt())); });
    onRowActivated(m_kernelView, m_state, [this](int row) { activateKernelRow(row); });
    connect(m_groupPerCallIds, &QCheckBox::toggled, this,
            [this](bool on) { setNvtxNaming(on ? RangeNaming::Grouped : RangeNaming::Raw); });
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
    for (ReportTableModel* m : m_reports)
        m->setTable({});
    m_nvtxNote->clear();
    m_stepKernels.clear();
    m_instance = -1;
    updateStepLabel();
    // The early preview holds the first kernels only: no statistics rather than partial ones.
    if (!trace || trace->metadata().stage == TraceStage::GpuSideBegun) {
        m_kernelTask->cancel();
        m_nvtxTask->cancel();
        m_memoryTask->cancel();
        m_reportsTask->cancel();
        taskDone();
        return;
    }
    computeKernelSummary();
    computeNvtxSummary();
    computeReports();
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

void StatisticsWidget::computeNvtxSummary() {
    std::shared_ptr<const Trace> trace = m_state->sharedTrace();
    if (!trace)
        return;
    const RangeNaming naming = nvtxNaming();
    m_nvtxTask->start([trace, naming] { return summarizeNvtxWithGpu(*trace, naming); },
                      [this, trace](NvtxSummary summary) {
                          const std::uint64_t open = summary.openRanges;
                          m_nvtx->setPrecomputed(trace, std::move(summary));
                          m_nvtxNote->setText(
                              open ? tr("%1 ranges without an end are left out.").arg(open)
                                   : QString());
                          taskDone();
                      });
}

void StatisticsWidget::computeReports() {
    std::shared_ptr<const Trace> trace = m_state->sharedTrace();
    if (!trace)
        return;
    const RangeNaming naming = nvtxNaming();
    m_reportsTask->start(
        [trace, naming] {
            return std::array<ReportTable, kReportTabs>{
                callSummaryReport(summarizeCalls(*trace, CallFamily::CudaApi)),
                callSummaryReport(summarizeCalls(*trace, CallFamily::Osrt)),
                memorySizeSummaryReport(summarizeMemorySizes(*trace)),
                launchSummaryReport(summarizeLaunches(*trace)),
                nvtxGpuSummaryReport(summarizeNvtxGpu(*trace, naming))};
        },
        [this](std::array<ReportTable, kReportTabs> tables) {
            for (int i = 0; i < kReportTabs; ++i)
                m_reports[std::size_t(i)]->setTable(std::move(tables[std::size_t(i)]));
            taskDone();
        });
}

ReportTableModel* StatisticsWidget::reportModel(Tab tab) const {
    return tab >= kFirstReportTab && tab < TabCount ? m_reports[std::size_t(tab - kFirstReportTab)]
                                                    : nullptr;
}

RangeNaming StatisticsWidget::nvtxNaming() const {
    return m_groupPerCallIds->isChecked() ? RangeNaming::Grouped : RangeNaming::Raw;
}

void StatisticsWidget::setNvtxNaming(RangeNaming naming) {
    if (nvtxNaming() != naming) {
        m_groupPerCallIds->setChecked(naming == RangeNaming::Grouped); // re-enters via toggled
        return;
    }
    if (!m_state->sharedTrace() || (m_nvtx->summary().naming == naming && !m_nvtxTask->isRunning()))
        return;
    // The rows shown stay until the renamed ones arrive.
    computeNvtxSummary();
    computeReports(); // the NVTX-on-GPU tab names its ranges the same way
    taskDone();
}

void StatisticsWidget::setNameFilter(Tab tab, const QString& text, bool regex) {
    const Table& t = m_tables[tab];
    t.filter->setFilter(text, regex);
    t.filter->markValid(t.proxy->setNameFilter(t.filter->filter()));
}

StatisticsWidget::NameFilters StatisticsWidget::nameFilters() const {
    NameFilters filters;
    for (int tab = 0; tab < TabCount; ++tab)
        filters[tab] = m_tables[tab].filter->filter();
    return filters;
}

void StatisticsWidget::setNameFilters(const NameFilters& filters) {
    for (int tab = 0; tab < TabCount; ++tab)
        setNameFilter(Tab(tab), filters[tab].text(), filters[tab].isRegex());
}

void StatisticsWidget::clearNameFilters() {
    for (int tab = 0; tab < TabCount; ++tab)
        setNameFilter(Tab(tab), QString(), m_tables[tab].filter->filter().isRegex());
}

bool StatisticsWidget::isComputing() const {
    return m_kernelTask->isRunning() || m_nvtxTask->isRunning() || m_memoryTask->isRunning() ||
           m_reportsTask->isRunning();
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
