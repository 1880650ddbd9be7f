// SPDX-License-Identifier: MIT
#include "widgets/panels/overviewpanel.h"

#include "model/itemmodels/iterationtablemodel.h"
#include "model/itemmodels/tableroles.h"
#include "model/job/jobfindings.h"
#include "model/reports/findingtext.h"
#include "model/reports/joboverviewtext.h"
#include "model/reports/jobreports.h"
#include "model/reports/overviewtext.h"
#include "model/reports/steptext.h"
#include "model/timeformat.h"
#include "widgets/backgroundtask.h"
#include "widgets/findinganalysis.h"
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
    , m_topFindings(new QLabel(this))
    , m_job(new QLabel(this))
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
    m_topFindings->setWordWrap(true);
    m_topFindings->setTextFormat(Qt::RichText);
    m_topFindings->setTextInteractionFlags(Qt::TextBrowserInteraction);
    m_topFindings->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_topFindings->hide(); // until setFindings
    m_job->setWordWrap(true);
    m_job->setTextFormat(Qt::RichText);
    m_job->setTextInteractionFlags(Qt::TextBrowserInteraction);
    m_job->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_job->hide(); // until setJob
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
    inner->addWidget(m_job);
    inner->addWidget(m_topFindings);
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

    connect(m_findings, &QLabel::linkActivated, this, &OverviewPanel::openLink);
    connect(m_topFindings, &QLabel::linkActivated, this, &OverviewPanel::openLink);
    connect(m_job, &QLabel::linkActivated, this, &OverviewPanel::openLink);
    onRowActivated(m_iterations, m_state, [this](int row) { activateIteration(row); });
    connect(m_stepChart, &StepBreakdownChart::stepActivated, this, &OverviewPanel::stepActivated);
    connect(m_state, &ViewState::traceChanged, this, [this] {
        m_stepChart->setStepBreakdown({});
        m_stepChart->hide();
        m_gpuMetrics->clear();
        m_gpuMetrics->hide();
        showTopFindings(); // the previous trace's findings go
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

void OverviewPanel::setFindings(std::shared_ptr<const FindingAnalysis> analysis) {
    m_findingAnalysis = std::move(analysis);
    showTopFindings();
    showAnswers();
}

const FindingAnalysis* OverviewPanel::currentFindings() const {
    return m_findingAnalysis && m_findingAnalysis->describes(m_state->trace())
               ? m_findingAnalysis.get()
               : nullptr;
}

QString OverviewPanel::topFindingsText() const {
    if (m_topFindings->isHidden())
        return {};
    QTextDocument doc;
    doc.setHtml(m_topFindings->text());
    return doc.toPlainText();
}

int OverviewPanel::findingForQuestion(FindingQuestion question) const {
    const FindingAnalysis* a = currentFindings();
    if (!a)
        return -1;
    const auto concerns = [question](FindingRule rule) {
        switch (question) {
        case FindingQuestion::Starved:
            return rule == FindingRule::GpuGaps || rule == FindingRule::DataLoading ||
                   rule == FindingRule::GpuUtilization;
        case FindingQuestion::Fill:
            return rule == FindingRule::SmallGrid;
        case FindingQuestion::Communication:
            return rule == FindingRule::Communication || rule == FindingRule::ExposedCommunication;
        case FindingQuestion::Memory:
            return rule == FindingRule::MemoryPeak;
        }
        return false;
    };
    const std::vector<Finding>& all = a->findings.findings;
    for (std::size_t i = 0; i < all.size(); ++i) // ranked: the first is the highest
        if (concerns(all[i].rule))
            return int(i);
    return -1;
}

void OverviewPanel::openLink(const QString& link) {
    static const QString kFinding = QStringLiteral("finding:");
    static const QString kJobFinding = QStringLiteral("jobfinding:");
    static const QString kRank = QStringLiteral("rank:");
    if (link == QStringLiteral("ranks")) {
        emit rankRequested(std::nullopt);
        return;
    }
    if (link.startsWith(kRank)) {
        bool ok = false;
        const qsizetype index = link.mid(kRank.size()).toLongLong(&ok);
        if (ok && m_jobData && index >= 0 && std::size_t(index) < m_jobData->ranks.size())
            emit rankRequested(std::size_t(index));
        return;
    }
    if (link.startsWith(kJobFinding)) {
        bool ok = false;
        const int index = link.mid(kJobFinding.size()).toInt(&ok);
        if (ok && m_jobFindings && index >= 0 &&
            std::size_t(index) < m_jobFindings->findings.size())
            emit findingRequested(index);
        return;
    }
    if (link.startsWith(kFinding)) {
        bool ok = false;
        const int index = link.mid(kFinding.size()).toInt(&ok);
        const FindingAnalysis* a = currentFindings();
        if (ok && a && index >= 0 && std::size_t(index) < a->findings.findings.size())
            emit findingRequested(index);
        return;
    }
    openFinding(link.toInt());
}

void OverviewPanel::showTopFindings() {
    const FindingAnalysis* a = currentFindings();
    if (!a) {
        m_topFindings->clear();
        m_topFindings->hide();
        return;
    }
    const std::vector<Finding>& all = a->findings.findings;
    QString html =
        QStringLiteral("<p><b>") % tr("Top findings").toHtmlEscaped() % QStringLiteral("</b>");
    if (all.empty())
        html += QStringLiteral("<br>") %
                tr("No findings: no rule found anything to report.").toHtmlEscaped();
    for (std::size_t i = 0; i < std::min<std::size_t>(all.size(), 3); ++i) {
        const Finding& f = all[i];
        const FindingWords words = findingWords(a->trace(), f);
        html = html % QStringLiteral("<br>") % QString::number(i + 1) % QStringLiteral(". <b>") %
               findingRuleTitle(f.rule).toHtmlEscaped() % QStringLiteral("</b> ") %
               words.finding.toHtmlEscaped();
        if (!words.nextStep.isEmpty())
            html = html % QStringLiteral(" <i>") % words.nextStep.toHtmlEscaped() %
                   QStringLiteral("</i>");
        html = html % QStringLiteral(" <a href=\"finding:") % QString::number(i) %
               QStringLiteral("\">") % tr("show in Findings") % QStringLiteral("</a>");
    }
    if (all.size() > 3)
        html = html % QStringLiteral("<br>") %
               tr("%1 more in the Findings tab.").arg(all.size() - 3).toHtmlEscaped();
    m_topFindings->setText(html % QStringLiteral("</p>"));
    m_topFindings->show();
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
        m_scope->setText(m_jobData ? QString() : tr("No trace loaded."));
        m_scope->setVisible(!m_jobData);
        m_findings->clear();
        m_iterationTitle->clear();
        emit ready();
        return;
    }
    m_scope->show();
    if (m_overview.window)
        m_scope->setText(tr("Selected range, %1 (clear the selection for the whole trace).")
                             .arg(formatDuration(m_overview.window->duration())));
    else
        m_scope->setText(tr("Whole trace: each GPU from its first to its last work."));
    showAnswers();
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

void OverviewPanel::showAnswers() {
    if (!m_trace) {
        m_findings->clear();
        return;
    }
    QString html;
    std::optional<FindingQuestion> lastQuestion;
    for (std::size_t i = 0; i < m_overview.findings.size(); ++i) {
        const OverviewFinding& f = m_overview.findings[i];
        if (f.question != lastQuestion) {
            html = html % QStringLiteral("<p><b>") %
                   findingQuestionText(f.question).toHtmlEscaped() % QStringLiteral("</b>");
            // The finding about the same thing, over the whole trace.
            if (const int k = findingForQuestion(f.question); k >= 0)
                html = html % QStringLiteral(" <a href=\"finding:") % QString::number(k) %
                       QStringLiteral("\">") %
                       tr("finding %1: %2")
                           .arg(k + 1)
                           .arg(findingRuleTitle(
                               currentFindings()->findings.findings[std::size_t(k)].rule))
                           .toHtmlEscaped() %
                       QStringLiteral("</a>");
            html += QStringLiteral("<br>");
        } else {
            html += QStringLiteral("<br>");
        }
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

void OverviewPanel::setJob(std::shared_ptr<const Job> job,
                           std::shared_ptr<const JobAnalysis> analysis,
                           std::shared_ptr<const Findings> findings) {
    m_jobData = std::move(job);
    m_jobAnalysis = m_jobData ? std::move(analysis) : nullptr;
    m_jobFindings = m_jobData ? std::move(findings) : nullptr;
    showJob();
    if (!m_trace) {
        m_scope->setText(m_jobData ? QString() : tr("No trace loaded."));
        m_scope->setVisible(!m_jobData);
    }
}

QString OverviewPanel::jobText() const {
    if (m_job->isHidden())
        return {};
    QTextDocument doc;
    doc.setHtml(m_job->text());
    return doc.toPlainText();
}

void OverviewPanel::showJob() {
    if (!m_jobData || !m_jobAnalysis) {
        m_job->clear();
        m_job->hide();
        return;
    }
    const Job& job = *m_jobData;
    const JobHeadline h = jobHeadline(job);
    const auto link = [](const QString& href, const QString& text) -> QString {
        return QStringLiteral("<a href=\"") % href % QStringLiteral("\">") % text.toHtmlEscaped() %
               QStringLiteral("</a>");
    };
    const auto rankLink = [&](std::size_t index) -> QString {
        return QStringLiteral(" ") % link(QStringLiteral("rank:%1").arg(index),
                                          tr("show rank %1's row").arg(job.ranks[index].rank));
    };
    QString html =
        QStringLiteral("<p><b>") % tr("Job: %1").arg(jobRanksText(job, h)).toHtmlEscaped() %
        QStringLiteral("</b> ") % link(QStringLiteral("ranks"), tr("show the Ranks panel"));
    // The verdict, and the late rank's row.
    QString verdict = stragglerVerdict(job, *m_jobAnalysis);
    if (!verdict.isEmpty())
        verdict[0] = verdict[0].toUpper();
    html += QStringLiteral("<br>") % verdict.toHtmlEscaped() % u'.';
    if (const auto late = m_jobAnalysis->stragglers.rank) {
        for (std::size_t r = 0; r < job.ranks.size(); ++r)
            if (job.ranks[r].rank == *late)
                html += rankLink(r);
    }
    if (m_jobFindings && !m_jobFindings->findings.empty())
        html = html % QStringLiteral(" ") %
               link(QStringLiteral("jobfinding:0"), tr("show the finding"));
    // The per-rank headline.
    QString slowest = slowestRankText(job, h);
    if (!slowest.isEmpty())
        slowest[0] = slowest[0].toUpper();
    html = html % QStringLiteral("<br>") % slowest.toHtmlEscaped();
    if (h.slowestRank && h.slowestMeanStep != h.fastestMeanStep)
        html += rankLink(*h.slowestRank);
    html = html % QStringLiteral("<br>") % exposedCommunicationText(job, h).toHtmlEscaped();
    if (h.mostExposedRank)
        html += rankLink(*h.mostExposedRank);
    if (const auto n = job.warnings.size(); n > 0)
        html = html % QStringLiteral("<br>") %
               tr("%n warning(s), listed in the Ranks panel.", nullptr, int(n)).toHtmlEscaped();
    m_job->setText(html % QStringLiteral("</p>"));
    m_job->show();
}

} // namespace strobe
