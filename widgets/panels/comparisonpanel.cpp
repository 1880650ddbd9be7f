// SPDX-License-Identifier: MIT
#include "widgets/panels/comparisonpanel.h"

#include "model/itemmodels/comparisonmodels.h"
#include "model/itemmodels/tableroles.h"
#include "model/reports/comparisonreports.h"
#include "model/timeformat.h"
#include "widgets/backgroundtask.h"
#include "widgets/panels/tablebehaviour.h"
#include "widgets/panels/tableexport.h"
#include "widgets/viewstate.h"

#include <QComboBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPalette>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QStringBuilder>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

namespace strobe {

const QString ComparisonPanel::kAutoRange = QStringLiteral("(auto-detect)");
const QString ComparisonPanel::kWholeTraces = QStringLiteral("(whole traces)");

namespace {

// Sorts by SortRole, filters on the name column, and colours cells by their delta tone: green
// for better, red for worse, in shades that read on the widget's light or dark palette.
class DiffProxy final : public QSortFilterProxyModel {
public:
    explicit DiffProxy(QWidget* owner)
        : QSortFilterProxyModel(owner)
        , m_owner(owner) {
        setSortRole(SortRole);
        setFilterKeyColumn(0);
        setFilterCaseSensitivity(Qt::CaseInsensitive);
    }
    QVariant data(const QModelIndex& index, int role) const override {
        if (role != Qt::ForegroundRole)
            return QSortFilterProxyModel::data(index, role);
        const int tone = QSortFilterProxyModel::data(index, DeltaToneRole).toInt();
        if (tone == 0)
            return {};
        const bool dark = m_owner->palette().color(QPalette::Window).lightness() < 128;
        if (tone < 0)
            return dark ? QColor(0x6c, 0xd6, 0x7c) : QColor(0x1a, 0x7f, 0x37);
        return dark ? QColor(0xff, 0x7b, 0x72) : QColor(0xcf, 0x22, 0x2e);
    }

private:
    QWidget* m_owner;
};

QString fileName(const QString& path) {
    return QFileInfo(path).fileName();
}

} // namespace

ComparisonPanel::ComparisonPanel(ViewState* a, ViewState* b, QWidget* parent)
    : QWidget(parent)
    , m_a(a)
    , m_b(b)
    , m_kernels(new KernelDiffModel(this))
    , m_ranges(new RangeDiffModel(this))
    , m_gpus(new GpuDiffModel(this))
    , m_kernelProxy(new DiffProxy(this))
    , m_rangeProxy(new DiffProxy(this))
    , m_gpuProxy(new DiffProxy(this))
    , m_tabs(new QTabWidget(this))
    , m_summary(new QLabel(this))
    , m_range(new QComboBox(this))
    , m_grouping(new QComboBox(this))
    , m_filter(new QLineEdit(this))
    , m_task(new BackgroundTask(this)) {
    m_kernelProxy->setSourceModel(m_kernels);
    m_rangeProxy->setSourceModel(m_ranges);
    m_gpuProxy->setSourceModel(m_gpus);
    m_kernelView = addTable(m_kernelProxy, tr("Kernels"));
    m_rangeView = addTable(m_rangeProxy, tr("NVTX ranges"));
    m_gpuView = addTable(m_gpuProxy, tr("GPUs"));

    m_range->setEditable(true);
    m_range->addItems({kAutoRange, kWholeTraces});
    m_range->setInsertPolicy(QComboBox::NoInsert);
    m_range->setToolTip(tr("Compare per instance of this range (a name or a prefix)"));
    m_range->setMinimumContentsLength(14);
    m_grouping->addItems({tr("Demangled name"), tr("Base name"), tr("Name + launch config")});
    m_filter->setPlaceholderText(tr("Filter by name"));
    m_filter->setClearButtonEnabled(true);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->setTextFormat(Qt::PlainText); // names the traces and their ranges
    auto* exportCsv = new QPushButton(tr("Export CSV…"), this);

    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Per instance of"), this));
    bar->addWidget(m_range);
    bar->addWidget(new QLabel(tr("Match kernels by"), this));
    bar->addWidget(m_grouping);
    bar->addWidget(m_filter, 1);
    bar->addWidget(exportCsv);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(bar);
    layout->addWidget(m_summary);
    layout->addWidget(m_tabs, 1);

    connect(m_range->lineEdit(), &QLineEdit::editingFinished, this, &ComparisonPanel::rebuild);
    connect(m_range, &QComboBox::activated, this, &ComparisonPanel::rebuild);
    connect(m_grouping, &QComboBox::currentIndexChanged, this, &ComparisonPanel::rebuild);
    connect(m_filter, &QLineEdit::textChanged, this, &ComparisonPanel::setFilter);
    connect(exportCsv, &QPushButton::clicked, this, [this] {
        const auto* view = qobject_cast<QTableView*>(m_tabs->currentWidget());
        const QString name = view == m_kernelView  ? QStringLiteral("diff-kernels.csv")
                             : view == m_rangeView ? QStringLiteral("diff-nvtx.csv")
                                                   : QStringLiteral("diff-gpus.csv");
        if (view)
            saveModelAsCsv(this, *view->model(), name);
    });
    onRowActivated(m_kernelView, m_a, [this](int row) { activateKernelRow(row); });
    for (ViewState* s : {m_a, m_b}) {
        // A new pair: a range typed for the old one would match nothing (0 instances, empty
        // tables), so the range is detected again.
        connect(s, &ViewState::traceChanged, this, [this] {
            m_range->setCurrentText(kAutoRange);
            rebuild();
        });
        connect(s, &ViewState::idleThresholdChanged, this, &ComparisonPanel::rebuild);
    }
    rebuild();
}

ComparisonPanel::~ComparisonPanel() = default;

QTableView* ComparisonPanel::addTable(QSortFilterProxyModel* proxy, const QString& title) {
    auto* view = new QTableView(this);
    view->setModel(proxy);
    makeSortable(view, -1, Qt::AscendingOrder); // the comparison's order: |delta| descending
    setUpTable(view);
    view->horizontalHeader()->setDefaultSectionSize(96);
    m_tabs->addTab(view, title);
    return view;
}

QString ComparisonPanel::summaryText() const {
    return m_summary->text();
}

bool ComparisonPanel::isComputing() const {
    return m_task->isRunning();
}

void ComparisonPanel::setRange(const QString& nameOrAuto) {
    m_range->setCurrentText(nameOrAuto.isEmpty() ? kWholeTraces : nameOrAuto);
    rebuild();
}

void ComparisonPanel::setGrouping(KernelGrouping grouping) {
    m_grouping->setCurrentIndex(int(grouping)); // rebuilds through currentIndexChanged
}

void ComparisonPanel::setFilter(const QString& text) {
    if (m_filter->text() != text)
        m_filter->setText(text);
    for (QSortFilterProxyModel* p : {m_kernelProxy, m_rangeProxy, m_gpuProxy})
        p->setFilterFixedString(text);
}

ComparisonOptions ComparisonPanel::options() const {
    ComparisonOptions o;
    o.grouping = KernelGrouping(m_grouping->currentIndex());
    o.idleThresholdNs = m_a->idleThresholdNs();
    const QString range = m_range->currentText().trimmed();
    if (range == kAutoRange)
        o.detectRange = true;
    else if (range != kWholeTraces)
        o.range = range;
    return o;
}

void ComparisonPanel::rebuild() {
    std::shared_ptr<const Trace> a = m_a->sharedTrace(), b = m_b->sharedTrace();
    if (!a || !b) {
        m_task->cancel();
        show(nullptr);
        return;
    }
    m_summary->setText(
        tr("Comparing %1 with %2…").arg(fileName(b->filePath()), fileName(a->filePath())));
    m_task->start(
        [a, b, o = options()] {
            return std::make_shared<const Comparison>(compareTraces(*a, *b, o));
        },
        [this](std::shared_ptr<const Comparison> c) { show(std::move(c)); });
}

void ComparisonPanel::show(std::shared_ptr<const Comparison> c) {
    m_comparison = std::move(c);
    m_kernels->setComparison(m_comparison);
    m_ranges->setComparison(m_comparison);
    m_gpus->setComparison(m_comparison);
    if (!m_comparison) {
        m_summary->setText(tr("Open a second trace with File > Compare With… to compare it with "
                              "this one."));
        emit ready();
        return;
    }
    const Comparison& k = *m_comparison;
    QString text = tr("A (baseline): %1 (%2)  \u00b7  B: %3 (%4)")
                       .arg(fileName(k.a.file), formatDuration(k.a.span.duration()),
                            fileName(k.b.file), formatDuration(k.b.span.duration()));
    if (k.hasRange()) {
        text +=
            u'\n' % tr("Per instance of '%1'%2: %3 in A, %4 in B; mean %5 vs %6, %7 vs %8 kernels, "
                       "GPU idle %9 vs %10 per instance.")
                        .arg(k.rangeName, k.rangeDetected ? tr(" (detected)") : QString())
                        .arg(k.a.instanceCount())
                        .arg(k.b.instanceCount())
                        .arg(formatDuration(TimeNs(k.a.meanInstanceNs())),
                             formatDuration(TimeNs(k.b.meanInstanceNs())))
                        .arg(k.a.perInstance(double(k.a.kernels)), 0, 'f', 1)
                        .arg(k.b.perInstance(double(k.b.kernels)), 0, 'f', 1)
                        .arg(formatDuration(TimeNs(k.a.perInstance(double(k.a.gpuIdle)))),
                             formatDuration(TimeNs(k.b.perInstance(double(k.b.gpuIdle)))));
    } else if (m_range->currentText() == kAutoRange) {
        text += u'\n' % tr("No iteration range detected: whole traces compared.");
    } else if (m_range->currentText() != kWholeTraces) {
        text += u'\n' % tr("No range named '%1' in either trace: whole traces compared.")
                            .arg(m_range->currentText());
    }
    // What differs (GPU model, rank), how GPUs were paired, what the colours compare.
    for (const QString& note : comparisonNotes(k))
        text += u'\n' % note;
    m_summary->setText(text);
    for (QTableView* v : {m_kernelView, m_rangeView})
        v->sortByColumn(-1, Qt::AscendingOrder); // the comparison's order: |delta| descending
    m_kernelView->horizontalHeader()->resizeSection(0, 320);
    m_rangeView->horizontalHeader()->resizeSection(0, 240);
    m_gpuView->resizeColumnsToContents(); // one row per GPU: cheap, and the headers are long
    emit ready();
}

void ComparisonPanel::activateKernelRow(int row) {
    const QModelIndex src = m_kernelProxy->mapToSource(m_kernelProxy->index(row, 0));
    const KernelDiffRow* r = src.isValid() ? m_kernels->rowAt(src.row()) : nullptr;
    const Trace* ta = m_a->trace();
    const Trace* tb = m_b->trace();
    if (!r || !ta || !tb)
        return;
    const EventRef a = r->a.longest ? ta->kernels()[*r->a.longest].self : EventRef{};
    const EventRef b = r->b.longest ? tb->kernels()[*r->b.longest].self : EventRef{};
    if (a.isValid())
        m_a->setSelection(a);
    if (b.isValid())
        m_b->setSelection(b);
    emit kernelInstancesRequested(a, b);
}

} // namespace strobe
