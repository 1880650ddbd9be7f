// SPDX-License-Identifier: MIT
#include "widgets/panels/findingspanel.h"

#include "model/analysis/eventsearch.h"
#include "model/itemmodels/findingtablemodel.h"
#include "model/itemmodels/reporttablemodel.h"
#include "model/itemmodels/tableroles.h"
#include "model/reports/findingtext.h"
#include "widgets/backgroundtask.h"
#include "widgets/panels/tablebehaviour.h"
#include "widgets/panels/tableexport.h"
#include "widgets/viewstate.h"

#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QShortcut>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStringBuilder>
#include <QTableView>
#include <QTextDocument>
#include <QVBoxLayout>

namespace strobe {

namespace {

// What the evidence worker makes of the selected finding: its table and its events' marks.
struct Evidence {
    ReportTable table;
    std::shared_ptr<const EventSearchResult> marks; // null when no row names an event
};

// The column that takes the evidence table's spare width: its last text column (a kernel's or
// a call's name), so the numbers stay beside each other; else the last column.
int textColumnToStretch(const ReportTable& table) {
    const int columns = int(table.columns.size());
    if (!table.rows.empty())
        for (int c = std::min(columns, int(table.rows.front().size())) - 1; c >= 0; --c)
            if (table.rows.front()[std::size_t(c)].kind == ReportCell::Kind::Text)
                return c;
    return columns - 1;
}

} // namespace

FindingsPanel::FindingsPanel(ViewState* state, QWidget* parent)
    : QWidget(parent)
    , m_state(state)
    , m_model(new FindingTableModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_view(new QTableView(this))
    , m_evidence(new ReportTableModel(this))
    , m_evidenceProxy(new QSortFilterProxyModel(this))
    , m_evidenceView(new QTableView(this))
    , m_message(new QLabel(this))
    , m_skipped(new QLabel(this))
    , m_details(new QLabel(this))
    , m_lower(new QWidget(this))
    , m_splitter(new QSplitter(Qt::Vertical, this))
    , m_evidenceTask(new BackgroundTask(this)) {
    for (QLabel* l : {m_message, m_skipped}) {
        l->setTextFormat(Qt::PlainText);
        l->setWordWrap(true);
        l->setAlignment(Qt::AlignLeft | Qt::AlignTop);
        l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    }
    m_message->setContentsMargins(4, 4, 4, 4);
    m_skipped->setContentsMargins(4, 2, 4, 2);
    QPalette muted = m_skipped->palette();
    muted.setColor(QPalette::WindowText, muted.color(QPalette::PlaceholderText));
    m_skipped->setPalette(muted);
    // The words name the file's kernels and calls: escaped into rich text (showSelected).
    m_details->setTextFormat(Qt::RichText);
    m_details->setWordWrap(true);
    m_details->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_details->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_details->setContentsMargins(4, 4, 4, 4);

    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(SortRole);
    m_view->setModel(m_proxy);
    makeSortable(m_view, -1, Qt::AscendingOrder); // the model's order: the ranking
    setUpTable(m_view);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->horizontalHeader()->setStretchLastSection(true);
    // Room for the header and six findings (most traces have fewer) before the evidence.
    m_view->setMinimumHeight(7 * (fontMetrics().height() + 6));

    m_evidenceProxy->setSourceModel(m_evidence);
    m_evidenceProxy->setSortRole(SortRole);
    m_evidenceView->setModel(m_evidenceProxy);
    makeSortable(m_evidenceView, -1, Qt::AscendingOrder); // the rule's order
    setUpTable(m_evidenceView);
    m_evidenceView->horizontalHeader()->setStretchLastSection(true);

    auto* upper = new QWidget(this);
    auto* upperLayout = new QVBoxLayout(upper);
    upperLayout->setContentsMargins(0, 0, 0, 0);
    upperLayout->setSpacing(2);
    upperLayout->addWidget(m_message);
    upperLayout->addWidget(m_view, 1);
    upperLayout->addWidget(m_skipped);
    upperLayout->addStretch(0); // takes the room when there is no table
    auto* lowerLayout = new QVBoxLayout(m_lower);
    lowerLayout->setContentsMargins(0, 0, 0, 0);
    lowerLayout->setSpacing(2);
    lowerLayout->addWidget(m_details);
    lowerLayout->addWidget(m_evidenceView, 1);
    m_splitter->addWidget(upper);
    m_splitter->addWidget(m_lower);
    m_splitter->setStretchFactor(0, 3);
    m_splitter->setStretchFactor(1, 2);
    m_splitter->setChildrenCollapsible(false);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_splitter, 1);

    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this] { showSelected(); });
    onRowActivated(m_evidenceView, m_state, [this](int row) { activateEvidenceRow(row); });
    // Ctrl+C copies the selected rows (or all) of either table as CSV, as the other panels do.
    for (QTableView* table : {m_view, m_evidenceView}) {
        auto* copy = new QShortcut(QKeySequence::Copy, table, nullptr, nullptr,
                                   Qt::WidgetWithChildrenShortcut);
        connect(copy, &QShortcut::activated, this, [table] { copyViewRowsToClipboard(*table); });
    }
    connect(m_state, &ViewState::traceChanged, this, &FindingsPanel::onTraceChanged);
    onTraceChanged();
}

FindingsPanel::~FindingsPanel() = default;

void FindingsPanel::setAnalysis(std::shared_ptr<const FindingAnalysis> analysis) {
    m_analysis = std::move(analysis);
    onTraceChanged();
}

void FindingsPanel::setJobFindings(std::shared_ptr<const Findings> findings, TimeNs origin) {
    m_jobFindings = std::move(findings);
    m_jobOrigin = origin;
    onTraceChanged();
}

void FindingsPanel::onTraceChanged() {
    m_evidenceTask->cancel();
    m_shownFinding = -1;
    const bool current = !m_jobFindings && m_analysis && m_analysis->describes(m_state->trace());
    m_evidence->setTable({});
    if (m_jobFindings)
        m_model->resetJob(m_jobFindings.get());
    else
        m_model->reset(current ? &m_analysis->trace() : nullptr,
                       current ? &m_analysis->findings : nullptr);
    m_skippedLines.clear();
    if (m_jobFindings)
        for (const SkippedRule& s : m_jobFindings->skipped)
            m_skippedLines << jobSkippedRuleText(s);
    else if (current)
        for (const SkippedRule& s : m_analysis->findings.skipped)
            m_skippedLines << skippedRuleText(s);
    m_skipped->setText(m_skippedLines.join(u'\n'));
    m_skipped->setVisible(!m_skippedLines.isEmpty());
    m_view->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    fitColumns(m_view, FindingTableModel::Sentence);
    updateMessage();
    if (m_proxy->rowCount() > 0) // the top finding's evidence is what one wants to see first
        selectFinding(findingAtRow(0));
    else
        showSelected();
    finishedStep();
}

void FindingsPanel::updateMessage() {
    const Trace* t = m_state->trace();
    QString text;
    if (m_jobFindings)
        text = m_jobFindings->findings.empty()
                   ? tr("No findings for the job: no rank is consistently late.")
                   : QString();
    else if (!t)
        text = tr("No trace loaded.");
    else if (t->metadata().stage != TraceStage::Complete)
        text = tr("Reading the trace: its findings follow once all of it is read.");
    else if (!m_analysis || !m_analysis->describes(t))
        text = tr("Looking for findings…");
    else if (m_analysis->findings.findings.empty())
        text = tr("No findings: no rule found anything to report.");
    m_message->setText(text);
    m_message->setVisible(!text.isEmpty());
    m_view->setVisible(text.isEmpty());
    m_lower->setVisible(text.isEmpty());
}

QString FindingsPanel::message() const {
    return m_message->isHidden() ? QString() : m_message->text();
}

QString FindingsPanel::detailsText() const {
    QTextDocument doc;
    doc.setHtml(m_details->text());
    return doc.toPlainText();
}

int FindingsPanel::findingAtRow(int row) const {
    const QModelIndex source = m_proxy->mapToSource(m_proxy->index(row, 0));
    return source.isValid() && m_model->findingAt(source.row()) ? source.row() : -1;
}

int FindingsPanel::selectedFinding() const {
    const QModelIndex current = m_view->selectionModel()->currentIndex();
    return current.isValid() ? findingAtRow(current.row()) : -1;
}

void FindingsPanel::selectFinding(int index) {
    const QModelIndex i = m_proxy->mapFromSource(m_model->index(index, 0));
    if (!i.isValid())
        return;
    m_view->selectionModel()->setCurrentIndex(i, QItemSelectionModel::ClearAndSelect |
                                                     QItemSelectionModel::Rows);
    m_view->scrollTo(i);
}

void FindingsPanel::showSelected() {
    const int index = selectedFinding();
    const Finding* f = m_model->findingAt(index);
    if (index == m_shownFinding && f)
        return;
    m_evidenceTask->cancel();
    m_shownFinding = -1;
    m_evidence->setTable({});
    setHighlight(nullptr);
    if (!f || (!m_jobFindings && (!m_analysis || !m_analysis->describes(m_state->trace())))) {
        m_details->clear();
        return;
    }
    m_shownFinding = index;
    const FindingWords words = m_model->wordsAt(index);
    QString html = QStringLiteral("<b>") % findingRuleTitle(f->rule).toHtmlEscaped() %
                   QStringLiteral("</b> (") % findingRuleId(f->rule).toHtmlEscaped() %
                   QStringLiteral(")<br>") % words.finding.toHtmlEscaped();
    if (!words.nextStep.isEmpty())
        html = html % QStringLiteral("<br><i>") % words.nextStep.toHtmlEscaped() %
               QStringLiteral("</i>");
    const std::size_t rows = f->evidence.size();
    if (rows > 0)
        html +=
            QStringLiteral("<br>") %
            (m_jobFindings && rows == 1
                 ? tr("1 piece of evidence; double-click it to show it in the job view.")
             : m_jobFindings
                 ? tr("%1 pieces of evidence; double-click one to show it in the job view.")
                       .arg(rows)
             : rows == 1 ? tr("1 piece of evidence; double-click it to show it on the timeline.")
                         : tr("%1 pieces of evidence; double-click one to show it on the timeline.")
                               .arg(rows))
                .toHtmlEscaped();
    m_details->setText(html);
    m_evidenceView->setVisible(rows > 0);
    if (rows == 0)
        return;
    if (m_jobFindings) { // a row per late collective, no trace to read: at once
        m_evidence->setTimeOrigin(m_jobOrigin);
        m_evidence->setTable(jobEvidenceTable(*f));
        m_evidenceView->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
        fitColumns(m_evidenceView, textColumnToStretch(m_evidence->table()));
        return;
    }
    // A rule may prove itself with many events (every synchronising call): their rows are
    // formatted off the GUI thread.
    m_evidenceTask->start(
        [analysis = m_analysis, index] {
            const Finding& finding = analysis->findings.findings[std::size_t(index)];
            Evidence e{evidenceTable(analysis->trace(), finding), nullptr};
            std::vector<EventRef> events;
            for (const FindingEvidence& row : finding.evidence)
                if (row.event.isValid())
                    events.push_back(row.event);
            if (!events.empty())
                e.marks = std::make_shared<const EventSearchResult>(
                    eventSetOf(analysis->trace(), events));
            return e;
        },
        [this](Evidence e) {
            m_evidence->setTimeOrigin(
                m_analysis ? std::optional(m_analysis->trace().timeRange().start) : std::nullopt);
            m_evidence->setTable(std::move(e.table));
            setHighlight(std::move(e.marks));
            m_evidenceView->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
            fitColumns(m_evidenceView, textColumnToStretch(m_evidence->table()));
            finishedStep();
        });
}

void FindingsPanel::setHighlight(std::shared_ptr<const EventSearchResult> marks) {
    if (!marks && !m_highlight)
        return;
    m_highlight = std::move(marks);
    emit highlightChanged();
}

void FindingsPanel::activateEvidenceRow(int row) {
    const Finding* f = m_model->findingAt(m_shownFinding);
    if (f && m_jobFindings) {
        const QModelIndex source = m_evidenceProxy->mapToSource(m_evidenceProxy->index(row, 0));
        const int i = source.isValid() ? source.row() : row;
        if (i >= 0 && std::size_t(i) < f->evidence.size() &&
            !f->evidence[std::size_t(i)].range.isEmpty())
            emit jobEvidenceActivated(f->evidence[std::size_t(i)].range);
        return;
    }
    const Trace* t = m_state->trace();
    if (!f || !t || !m_analysis || !m_analysis->describes(t))
        return;
    // The evidence table's rows are the finding's evidence, in its order, when unsorted.
    const QModelIndex source = m_evidenceProxy->mapToSource(m_evidenceProxy->index(row, 0));
    const int i = source.isValid() ? source.row() : row;
    if (i < 0 || std::size_t(i) >= f->evidence.size())
        return;
    const FindingEvidence& e = f->evidence[std::size_t(i)];
    if (e.event.isValid() && e.event.lane < t->lanes().size() &&
        e.event.index < t->lane(e.event.lane).size()) {
        emit evidenceActivated(e.event, e.range);
        m_state->reveal(e.event);
    } else if (!e.range.isEmpty()) {
        emit evidenceActivated(EventRef{}, e.range);
        m_state->setVisibleRange(widened(e.range, 20));
        m_state->setSelectedRange(e.range);
    }
}

bool FindingsPanel::isComputing() const {
    if (m_jobFindings)
        return false;
    const Trace* t = m_state->trace();
    const bool awaitingAnalysis = t && t->metadata().stage == TraceStage::Complete &&
                                  (!m_analysis || !m_analysis->describes(t));
    return awaitingAnalysis || m_evidenceTask->isRunning();
}

void FindingsPanel::finishedStep() {
    if (!isComputing())
        emit ready();
}

} // namespace strobe
