// SPDX-License-Identifier: MIT
#include "widgets/panels/operatorspanel.h"

#include "model/itemmodels/namefilterproxy.h"
#include "model/itemmodels/operatorkernelsmodel.h"
#include "model/itemmodels/operatortablemodel.h"
#include "model/itemmodels/tableroles.h"
#include "model/reports/steptext.h"
#include "widgets/backgroundtask.h"
#include "widgets/panels/namefilteredit.h"
#include "widgets/panels/tablebehaviour.h"
#include "widgets/panels/tableexport.h"
#include "widgets/viewstate.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPushButton>
#include <QShortcut>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStringBuilder>
#include <QTableView>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace strobe {

struct OperatorsPanel::Selected {
    std::vector<OperatorKernelRow> kernels;
    std::vector<std::optional<std::uint32_t>> longest; // per row of `kernels`
    std::vector<std::pair<QString, EventRef>> python;  // innermost first
};

OperatorsPanel::OperatorsPanel(ViewState* state, QWidget* parent)
    : QWidget(parent)
    , m_state(state)
    , m_model(new OperatorTableModel(this))
    , m_proxy(new NameFilterProxy(this))
    , m_view(new QTableView(this))
    , m_kernels(new OperatorKernelsModel(this))
    , m_kernelsProxy(new QSortFilterProxyModel(this))
    , m_kernelsView(new QTableView(this))
    , m_python(new QTreeWidget(this))
    , m_filter(new NameFilterEdit(tr("Filter operators by name"), this))
    , m_groupCombo(new QComboBox(this))
    , m_count(new QLabel(this))
    , m_message(new QLabel(this))
    , m_kernelsTitle(new QLabel(this))
    , m_splitter(new QSplitter(Qt::Vertical, this))
    , m_lower(new QSplitter(Qt::Horizontal, this))
    , m_tableTask(new BackgroundTask(this))
    , m_selectedTask(new BackgroundTask(this)) {
    for (QLabel* l : {m_count, m_message, m_kernelsTitle})
        l->setTextFormat(Qt::PlainText); // operator names come from the file
    m_message->setContentsMargins(8, 8, 8, 8);
    m_message->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_message->setWordWrap(true);
    m_kernelsTitle->setContentsMargins(4, 4, 4, 0);
    m_groupCombo->addItem(tr("Name"), int(OperatorGrouping::Name));
    m_groupCombo->addItem(tr("Name and input shapes"), int(OperatorGrouping::NameAndShapes));
    m_groupCombo->setToolTip(tr("One row per operator name, or per name and recorded input "
                                "shapes (record_shapes=True)"));
    auto* copy = new QPushButton(tr("Copy rows"), this);
    copy->setToolTip(tr("Copy the selected rows (or all) as CSV"));
    auto* save = new QPushButton(tr("Export CSV…"), this);

    auto* bar = new QHBoxLayout;
    bar->addWidget(m_filter, 1);
    bar->addWidget(m_count);
    bar->addSpacing(8);
    bar->addWidget(new QLabel(tr("Group by:"), this));
    bar->addWidget(m_groupCombo);
    bar->addWidget(copy);
    bar->addWidget(save);

    m_proxy->setSourceModel(m_model);
    m_view->setModel(m_proxy);
    makeSortable(m_view, -1, Qt::AscendingOrder); // the model's order: device self, descending
    setUpTable(m_view);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->horizontalHeader()->setStretchLastSection(false);

    m_kernelsProxy->setSourceModel(m_kernels);
    m_kernelsProxy->setSortRole(SortRole);
    m_kernelsView->setModel(m_kernelsProxy);
    makeSortable(m_kernelsView, -1, Qt::AscendingOrder); // by total, descending
    setUpTable(m_kernelsView);

    m_python->setColumnCount(1);
    m_python->setHeaderLabels({tr("Python stack of the longest call (innermost first)")});
    m_python->setRootIsDecorated(false);
    m_python->setUniformRowHeights(true);
    m_python->setTextElideMode(Qt::ElideLeft); // the function, at the end, matters most

    auto* kernelsBox = new QWidget(this);
    auto* kernelsLayout = new QVBoxLayout(kernelsBox);
    kernelsLayout->setContentsMargins(0, 0, 0, 0);
    kernelsLayout->addWidget(m_kernelsTitle);
    kernelsLayout->addWidget(m_kernelsView, 1);
    m_lower->addWidget(kernelsBox);
    m_lower->addWidget(m_python);
    m_lower->setStretchFactor(0, 3);
    m_lower->setStretchFactor(1, 2);
    m_splitter->addWidget(m_view);
    m_splitter->addWidget(m_lower);
    m_splitter->setStretchFactor(0, 3);
    m_splitter->setStretchFactor(1, 2);
    m_splitter->setChildrenCollapsible(false);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(bar);
    layout->addWidget(m_message);
    layout->addWidget(m_splitter, 1);

    connect(m_filter, &NameFilterEdit::filterChanged, this, [this](const NameFilter& f) {
        m_filter->markValid(m_proxy->setNameFilter(f));
        updateCount();
    });
    connect(m_groupCombo, &QComboBox::currentIndexChanged, this,
            [this] { setGrouping(OperatorGrouping(m_groupCombo->currentData().toInt())); });
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this] { showSelected(); });
    onRowActivated(m_view, m_state, [this](int row) { activateOperatorRow(row); });
    onRowActivated(m_kernelsView, m_state, [this](int row) { activateKernelRow(row); });
    connect(m_python, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem* item) {
        const EventRef ref{item->data(0, Qt::UserRole).toUInt(),
                           item->data(0, Qt::UserRole + 1).toUInt()};
        if (m_state->trace() && ref.isValid())
            m_state->reveal(ref);
    });
    connect(copy, &QPushButton::clicked, this, [this] { copyViewRowsToClipboard(*m_view); });
    connect(save, &QPushButton::clicked, this,
            [this] { saveModelAsCsv(this, *m_proxy, QStringLiteral("operators.csv")); });
    auto* shortcut =
        new QShortcut(QKeySequence::Copy, m_view, nullptr, nullptr, Qt::WidgetWithChildrenShortcut);
    connect(shortcut, &QShortcut::activated, this, [this] { copyViewRowsToClipboard(*m_view); });
    connect(m_state, &ViewState::traceChanged, this, &OperatorsPanel::onTraceChanged);
    onTraceChanged();
}

OperatorsPanel::~OperatorsPanel() = default;

void OperatorsPanel::setAnalysis(std::shared_ptr<const OperatorAnalysis> analysis) {
    m_analysis = std::move(analysis);
    onTraceChanged();
}

void OperatorsPanel::onTraceChanged() {
    m_tableTask->cancel();
    m_selectedTask->cancel();
    const bool current = m_analysis && m_analysis->describes(m_state->trace());
    if (!current || m_grouping == OperatorGrouping::Name) {
        showTable(current ? m_analysis->byName : OperatorTable{});
    } else {
        showTable(OperatorTable{});
        setGrouping(m_grouping); // computes the table grouped by shapes
    }
    finishedStep();
}

void OperatorsPanel::setGrouping(OperatorGrouping grouping) {
    if (const int i = m_groupCombo->findData(int(grouping)); m_groupCombo->currentIndex() != i) {
        m_groupCombo->setCurrentIndex(i); // re-enters through currentIndexChanged
        return;
    }
    m_grouping = grouping;
    if (!m_analysis || !m_analysis->describes(m_state->trace()))
        return;
    if (grouping == OperatorGrouping::Name) {
        m_tableTask->cancel();
        showTable(m_analysis->byName);
        finishedStep();
        return;
    }
    // The rows shown stay until the regrouped ones arrive.
    m_tableTask->start(
        [analysis = m_analysis, grouping] {
            return operatorTable(*analysis->trace, *analysis->forest, grouping);
        },
        [this](OperatorTable table) {
            showTable(std::move(table));
            finishedStep();
        });
    updateMessage();
}

void OperatorsPanel::setNameFilter(const QString& text, bool regex) {
    m_filter->setFilter(text, regex);
    m_filter->markValid(m_proxy->setNameFilter(m_filter->filter()));
    updateCount();
}

void OperatorsPanel::showTable(OperatorTable table) {
    m_model->setTable(std::move(table));
    m_view->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    fitColumns(m_view, OperatorTableModel::Name);
    updateMessage();
    updateCount();
    if (m_proxy->rowCount() > 0) // the top row's kernels are what one wants to see first
        selectOperatorRow(0);
    else
        showSelected();
}

void OperatorsPanel::updateMessage() {
    const Trace* t = m_state->trace();
    QString text;
    if (!t)
        text = tr("No trace loaded.");
    else if (t->metadata().stage != TraceStage::Complete)
        text = tr("Reading the trace: its operators follow once all of it is read.");
    else if (!m_analysis || !m_analysis->describes(t))
        text = tr("Finding the operators…");
    else if (!m_analysis->forest->hasOperators())
        text = tr("No framework operators in this trace: they come from PyTorch profiler traces "
                  "and from nsys exports with PyTorch's NVTX ranges (emit_nvtx).");
    m_message->setText(text);
    m_message->setVisible(!text.isEmpty());
    m_splitter->setVisible(text.isEmpty());
}

QString OperatorsPanel::message() const {
    return m_message->isVisible() || m_splitter->isHidden() ? m_message->text() : QString();
}

QString OperatorsPanel::kernelsTitle() const {
    return m_kernelsTitle->text();
}

void OperatorsPanel::updateCount() {
    QString text = tr("%1 of %2 operators").arg(m_proxy->rowCount()).arg(m_model->rowCount());
    if (m_analysis && m_analysis->forest) {
        const QString warnings = operatorWarningsText(m_analysis->forest->warnings());
        if (!warnings.isEmpty())
            text += QStringLiteral(" \u00b7 ") % warnings;
    }
    m_count->setText(text);
}

const OperatorRow* OperatorsPanel::operatorAtRow(int row) const {
    return m_model->rowAt(m_proxy->mapToSource(m_proxy->index(row, 0)).row());
}

void OperatorsPanel::selectOperatorRow(int row) {
    const QModelIndex i = m_proxy->index(row, 0);
    if (!i.isValid())
        return;
    m_view->selectionModel()->setCurrentIndex(i, QItemSelectionModel::ClearAndSelect |
                                                     QItemSelectionModel::Rows);
    m_view->scrollTo(i);
}

void OperatorsPanel::showSelected() {
    const QModelIndex current = m_view->selectionModel()->currentIndex();
    const OperatorRow* row = current.isValid() ? operatorAtRow(current.row()) : nullptr;
    m_selectedLongest.reset();
    if (!row || !m_analysis || !m_analysis->describes(m_state->trace())) {
        m_selectedTask->cancel();
        m_kernels->setRows({});
        m_python->clear();
        m_python->setVisible(false);
        m_kernelsTitle->setText(QString());
        return;
    }
    if (row->longest != kNoOpNode)
        m_selectedLongest = row->longest;
    const QString shown =
        m_model->grouping() == OperatorGrouping::NameAndShapes && !row->shapes.isEmpty()
            ? row->name % u' ' % row->shapes
            : row->name;
    m_kernelsTitle->setText(
        row->noOperator   ? tr("GPU work that no operator launched")
        : row->calls == 1 ? tr("Kernels launched by %1 (1 call)").arg(shown)
                          : tr("Kernels launched by %1 (%2 calls)").arg(shown).arg(row->calls));
    const std::optional<QString> shapes = m_model->grouping() == OperatorGrouping::NameAndShapes
                                              ? std::optional<QString>(row->shapes)
                                              : std::nullopt;
    m_selectedTask->start(
        [analysis = m_analysis, name = row->name, shapes, longest = m_selectedLongest,
         noOperator = row->noOperator] {
            Selected s;
            if (noOperator)
                return s;
            const Trace& t = *analysis->trace;
            const OperatorForest& f = *analysis->forest;
            s.kernels = kernelsOfOperator(t, f, name, shapes);
            for (const OperatorKernelRow& k : s.kernels)
                s.longest.emplace_back(k.longestLaunch);
            if (longest) {
                const OpNode& node = f.node(*longest);
                for (const EventRef frame : pythonFrames(t, node.thread, node.start))
                    s.python.emplace_back(t.string(t.lane(frame.lane).nameId(frame.index)), frame);
            }
            return s;
        },
        [this](Selected s) {
            showKernels(std::make_shared<const Selected>(std::move(s)));
            finishedStep();
        });
}

void OperatorsPanel::showKernels(const std::shared_ptr<const Selected>& selected) {
    m_kernels->setRows(selected->kernels, selected->longest);
    m_kernelsView->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    fitColumns(m_kernelsView, OperatorKernelsModel::Kernel);
    m_python->clear();
    for (const auto& [name, ref] : selected->python) {
        auto* item = new QTreeWidgetItem(m_python, {name});
        item->setToolTip(0, name);
        item->setData(0, Qt::UserRole, ref.lane);
        item->setData(0, Qt::UserRole + 1, ref.index);
    }
    m_python->setVisible(!selected->python.empty());
}

void OperatorsPanel::activateOperatorRow(int row) {
    const OperatorRow* r = operatorAtRow(row);
    if (!r || r->longest == kNoOpNode || !m_analysis || !m_analysis->describes(m_state->trace()))
        return;
    const OpNode& node = m_analysis->forest->node(r->longest);
    m_state->setVisibleRange(widened({node.start, node.end}, 5));
    m_state->reveal(node.event);
}

void OperatorsPanel::activateKernelRow(int row) {
    const QModelIndex source = m_kernelsProxy->mapToSource(m_kernelsProxy->index(row, 0));
    const auto k = m_kernels->longestLaunchAt(source.row());
    const Trace* t = m_state->trace();
    if (!k || !t || !m_analysis || !m_analysis->describes(t) || *k >= t->kernelCount())
        return;
    m_state->reveal(t->kernelRef(*k));
}

bool OperatorsPanel::isComputing() const {
    const Trace* t = m_state->trace();
    const bool awaitingAnalysis = t && t->metadata().stage == TraceStage::Complete &&
                                  (!m_analysis || !m_analysis->describes(t));
    return awaitingAnalysis || m_tableTask->isRunning() || m_selectedTask->isRunning();
}

void OperatorsPanel::finishedStep() {
    if (!isComputing())
        emit ready();
}

} // namespace strobe
