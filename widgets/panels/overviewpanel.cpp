// SPDX-License-Identifier: MIT
#include "widgets/panels/overviewpanel.h"

#include "model/itemmodels/iterationtablemodel.h"
#include "model/itemmodels/tableroles.h"
#include "model/reports/overviewtext.h"
#include "model/reports/steptext.h"
#include "model/timeformat.h"
#include "widgets/backgroundtask.h"
#include "widgets/panels/breakdownbars.h"
#include "widgets/panels/stepbreakdownchart.h"
#include "widgets/panels/tablebehaviour.h"
#include "widgets/viewstate.h"

#include <QHeaderView>
#include <QLabel>
#include <QScrollArea>
#include <QSortFilterProxyModel>
#include <QStringBuilder>
#include <QTableView>
#include <QTextDocument>
#include <QVBoxLayout>

namespace strobe {

OverviewPanel::OverviewPanel(ViewState* state, QWidget* parent)
    : QWidget(parent)
    , m_state(state)
    , m_stepChart(new StepBreakdownChart(this))
    , m_gpuMetrics(new QLabel(this))
    , m_scope(new QLabel(this))
    , m_bars(new BreakdownBars(this))
    , m_findings(new QLabel(this))
    , m_iterationTitle(new QLabel(this))
    , m_model(new IterationTableModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_iterations(new QTableView(this))
    , m_task(new BackgroundTask(this)) {
    m_scope->setWordWrap(true);
    for (QLabel* l : {m_scope, m_iterationTitle})
        l->setTextFormat(Qt::PlainText); // the iteration range is named by the file
    m_findings->setWordWrap(true);
    m_findings->setTextFormat(Qt::RichText);
    m_findings->setTextInteractionFlags(Qt::TextBrowserInteraction);
    m_findings->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(SortRole);
    m_iterations->setModel(m_proxy);
    makeSortable(m_iterations, IterationTableModel::Iteration, Qt::AscendingOrder);
    setUpTable(m_iterations, {.wrapText = true, .fixedRows = false});
    // Each column as wide as its texts (showOverview): a stretched last column put the numbers far
    // from their iteration's name, whose column could be cut.
    m_iterations->horizontalHeader()->setStretchLastSection(false);
    m_iterations->setMinimumHeight(6 * (fontMetrics().height() + 6));

    auto* content = new QWidget;
    auto* inner = new QVBoxLayout(content);
    inner->addWidget(m_stepChart);
    m_stepChart->hide(); // until setStepBreakdown
    m_gpuMetrics->setTextFormat(Qt::PlainText);
    m_gpuMetrics->setWordWrap(true);
    m_gpuMetrics->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_gpuMetrics->hide();
    inner->addWidget(m_gpuMetrics);
    inner->addWidget(m_scope);
    inner->addWidget(m_bars);
    inner->addWidget(m_findings);
    inner->addWidget(m_iterationTitle);
    inner->addWidget(m_iterations, 1);
    inner->addStretch(0); // takes the room when there is no iteration table
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(content);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(scroll);

    connect(m_findings, &QLabel::linkActivated, this,
            [this](const QString& link) { openFinding(link.toInt()); });
    onRowActivated(m_iterations, m_state, [this](int row) { activateIteration(row); });
    connect(m_stepChart, &StepBreakdownChart::stepActivated, this, &OverviewPanel::stepActivated);
    connect(m_state, &ViewState::traceChanged, this, [this] {
        m_stepChart->setStepBreakdown({});
        m_stepChart->hide();
        m_gpuMetrics->clear();
        m_gpuMetrics->hide();
    });
    connect(m_state, &ViewState::traceChanged, this, &OverviewPanel::rebuild);
    connect(m_state, &ViewState::selectedRangeChanged, this, &OverviewPanel::rebuild);
    connect(m_state, &ViewState::idleThresholdChanged, this, &OverviewPanel::rebuild);
    rebuild();
}

OverviewPanel::~OverviewPanel() = default;

QAbstractItemModel* OverviewPanel::iterationModel() const {
    return m_model;
}

void OverviewPanel::setStepBreakdown(const StepBreakdown& breakdown) {
    m_stepChart->setStepBreakdown(breakdown);
    bool cpuSide = false;
    for (const StepTimes& s : breakdown.steps)
        cpuSide = cpuSide || s.of(StepCategory::DataLoader) > 0 ||
                  s.of(StepCategory::CpuExec) > 0 || s.of(StepCategory::Communication) > 0;
    const bool steps = breakdown.source != StepSource::WholeTrace && !breakdown.steps.empty();
    m_stepChart->setVisible(steps || cpuSide);
    m_gpuMetrics->setVisible(m_stepChart->isVisibleTo(this) && !m_gpuMetrics->text().isEmpty());
}

void OverviewPanel::setGpuMetrics(const std::vector<GpuStepMetrics>& gpus) {
    QStringList lines;
    for (const GpuStepMetrics& g : gpus)
        lines << strobe::gpuMetricsText(g);
    m_gpuMetrics->setText(lines.join(u'\n'));
    m_gpuMetrics->setVisible(m_stepChart->isVisibleTo(this) && !lines.isEmpty());
}

QString OverviewPanel::gpuMetricsText() const {
    return m_gpuMetrics->text();
}

bool OverviewPanel::isComputing() const {
    return m_task->isRunning();
}

QString OverviewPanel::text() const {
    QTextDocument doc;
    doc.setHtml(m_findings->text());
    return m_scope->text() % u'\n' % doc.toPlainText();
}

void OverviewPanel::rebuild() {
    std::shared_ptr<const Trace> trace = m_state->sharedTrace();
    if (!trace || trace->metadata().stage != TraceStage::Complete) {
        m_task->cancel();
        showOverview(nullptr, {});
        if (trace) // a preview: what starves the GPU is on the CPU side, still being read
            m_scope->setText(tr("Reading the trace: the overview follows once all of it is read."));
        return;
    }
    const std::optional<TimeRange> window = m_state->selectedRange();
    const TimeNs threshold = m_state->idleThresholdNs();
    const KernelClassTable table = KernelClassTable::active();
    m_scope->setText(tr("Computing the breakdown…"));
    m_task->start([trace, window, threshold,
                   table] { return buildOverview(*trace, table, window, threshold); },
                  [this, trace](Overview result) { showOverview(trace, std::move(result)); });
}

void OverviewPanel::showOverview(std::shared_ptr<const Trace> trace, Overview result) {
    m_model->reset(nullptr);
    std::swap(m_overview, result);
    m_trace = std::move(trace);
    m_model->reset(&m_overview);
    m_bars->setBreakdown(m_overview.gpus);
    // No bars or iteration table without a trace (or for a preview): "No GPU work" would be
    // wrong while one is being read.
    for (QWidget* w : {static_cast<QWidget*>(m_bars), static_cast<QWidget*>(m_iterations),
                       static_cast<QWidget*>(m_iterationTitle)})
        w->setVisible(m_trace != nullptr);
    if (!m_trace) {
        m_scope->setText(tr("No trace loaded."));
        m_findings->clear();
        m_iterationTitle->clear();
        emit ready();
        return;
    }
    if (m_overview.window)
        m_scope->setText(tr("Selected range, %1 (clear the selection for the whole trace).")
                             .arg(formatDuration(m_overview.window->duration())));
    else
        m_scope->setText(tr("Whole trace: each GPU from its first to its last work."));
    QString html;
    std::optional<FindingQuestion> lastQuestion;
    for (std::size_t i = 0; i < m_overview.findings.size(); ++i) {
        const OverviewFinding& f = m_overview.findings[i];
        if (f.question != lastQuestion)
            html = html % QStringLiteral("<p><b>") %
                   findingQuestionText(f.question).toHtmlEscaped() % QStringLiteral("</b><br>");
        else
            html += QStringLiteral("<br>");
        lastQuestion = f.question;
        html += findingText(*m_trace, f).toHtmlEscaped();
        if (f.target != FindingTarget::None) {
            const QString link = f.target == FindingTarget::Gaps     ? tr("show the gaps")
                                 : f.target == FindingTarget::Kernel ? tr("show the kernel")
                                 : f.target == FindingTarget::Moment ? tr("show the moment")
                                                                     : tr("show the kernels");
            html = html % QStringLiteral(" <a href=\"") % QString::number(i) %
                   QStringLiteral("\">") % link % QStringLiteral("</a>");
        }
    }
    m_findings->setText(html);
    m_iterationTitle->setText(
        m_overview.iterations.empty()
            ? tr("No iterations found (numbered NVTX ranges such as ProfilerStep#N, Iteration N or "
                 "step N).")
            : tr("%1 iterations (%2 ranges); double-click one to zoom to it.")
                  .arg(m_overview.iterations.size())
                  .arg(m_overview.iterationName));
    m_iterations->setVisible(!m_overview.iterations.empty());
    m_iterations->resizeColumnsToContents();
    emit ready();
}

void OverviewPanel::openFinding(int i) {
    if (i < 0 || i >= int(m_overview.findings.size()))
        return;
    const OverviewFinding& f = m_overview.findings[std::size_t(i)];
    switch (f.target) {
    case FindingTarget::Gaps:
        emit gapsRequested();
        break;
    case FindingTarget::Kernel:
        if (f.event.isValid())
            m_state->reveal(f.event);
        break;
    case FindingTarget::Communication:
        emit kernelFilterRequested(tr("communication kernels"), f.configs);
        break;
    case FindingTarget::Moment: {
        // A hundredth of the trace around the moment, the cursor on it.
        const TimeNs half =
            std::max<TimeNs>(1000, m_trace ? m_trace->timeRange().duration() / 200 : 0);
        m_state->setVisibleRange({f.time - half, f.time + half});
        m_state->setCursorTime(f.time);
        break;
    }
    case FindingTarget::None:
        break;
    }
}

void OverviewPanel::activateIteration(int row) {
    const QModelIndex src = m_proxy->mapToSource(m_proxy->index(row, 0));
    const IterationBreakdown* it = m_model->iterationAt(src.row());
    if (!it)
        return;
    const TimeRange r = it->range;
    m_state->setVisibleRange(widened(r, 20));
    m_state->setSelectedRange(r);
}

} // namespace strobe
