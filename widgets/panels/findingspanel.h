// SPDX-License-Identifier: MIT
#pragma once

#include "widgets/findinganalysis.h"

#include <QWidget>
#include <memory>

class QLabel;
class QSortFilterProxyModel;
class QSplitter;
class QTableView;

namespace strobe {

class BackgroundTask;
class EventSearchResult;
class FindingTableModel;
class ReportTableModel;
class ViewState;

// The findings of the trace on screen (docs/FINDINGS.md), ranked by the time at stake: one row
// per finding (position, rule, time at stake, share, the sentence saying what the data shows),
// the rules that could not run below them, one muted line each. Selecting a finding shows its
// words (what the data shows, what to try) and its evidence table (the rule's columns,
// evidenceTable, built on a worker) below; double-clicking an evidence row shows its event on
// the timeline and selects it, or zooms to its stretch of time (a gap, a chunk) and selects that
// range. The selected finding's events are offered to the timeline to mark (highlight()), as the
// search marks its matches. The findings come with the trace's FindingAnalysis (setAnalysis, from
// the main window).
class FindingsPanel : public QWidget {
    Q_OBJECT
public:
    explicit FindingsPanel(ViewState* state, QWidget* parent = nullptr);
    ~FindingsPanel() override;

    // The findings of the trace on screen (null: none yet); those of another trace are ignored
    // until that trace is shown.
    void setAnalysis(std::shared_ptr<const FindingAnalysis> analysis);
    const FindingAnalysis* analysis() const { return m_analysis.get(); }
    // A job's findings (model/job/jobfindings.h) shown instead of a trace's while a job is on
    // screen (null: back to the trace's); `origin` is the job clock's start, which the evidence's
    // moments are read from. Their evidence rows are stretches of the job's time: activating one
    // emits jobEvidenceActivated.
    void setJobFindings(std::shared_ptr<const Findings> findings, TimeNs origin = 0);
    const Findings* jobFindings() const { return m_jobFindings.get(); }

    FindingTableModel* model() const { return m_model; }
    QTableView* view() const { return m_view; } // through a sort proxy
    ReportTableModel* evidenceModel() const { return m_evidence; }
    QTableView* evidenceView() const { return m_evidenceView; } // through a sort proxy
    // The line shown instead of the findings table ("No findings: …", "No trace loaded."), or
    // "" while the table is shown.
    QString message() const;
    // One sentence per rule that could not run (skippedRuleText), in rule order.
    QStringList skippedLines() const { return m_skippedLines; }
    // The selected finding's words as plain text: title, what the data shows, what to try.
    QString detailsText() const;

    // The finding (index into Findings::findings) shown at view row `row`, or -1.
    int findingAtRow(int row) const;
    // Selects the row of finding `index` (its evidence follows), as a click on it does.
    void selectFinding(int index);
    // The finding selected (index into Findings::findings), or -1.
    int selectedFinding() const;
    // Goes to the evidence at view row `row` of the evidence table, as a double-click does.
    void activateEvidenceRow(int row);
    // The selected finding's evidence events, for the timeline to mark; null when it has none
    // (or while they are being collected).
    std::shared_ptr<const EventSearchResult> highlight() const { return m_highlight; }
    // True while the findings of the trace on screen have not arrived, or the selected
    // finding's evidence is being built.
    bool isComputing() const;

signals:
    // The tables reflect the trace and the selection (after each computation).
    void ready();
    // An evidence row was activated: its event (invalid for a stretch of time) and extent.
    void evidenceActivated(strobe::EventRef event, strobe::TimeRange range);
    // highlight() changed.
    void highlightChanged();
    // An evidence row of a job's finding was activated: its stretch on the job's clock.
    void jobEvidenceActivated(strobe::TimeRange range);

private:
    void onTraceChanged();
    void updateMessage();
    void showSelected();
    void finishedStep();
    void setHighlight(std::shared_ptr<const EventSearchResult> marks);

    ViewState* m_state;
    std::shared_ptr<const FindingAnalysis> m_analysis;
    std::shared_ptr<const Findings> m_jobFindings;
    TimeNs m_jobOrigin = 0;
    FindingTableModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QTableView* m_view;
    ReportTableModel* m_evidence;
    QSortFilterProxyModel* m_evidenceProxy;
    QTableView* m_evidenceView;
    QLabel* m_message;
    QLabel* m_skipped;
    QLabel* m_details;
    QWidget* m_lower;
    QSplitter* m_splitter;
    BackgroundTask* m_evidenceTask;
    QStringList m_skippedLines;
    std::shared_ptr<const EventSearchResult> m_highlight;
    int m_shownFinding = -1; // whose evidence the evidence table holds (or is being built)
};

} // namespace strobe
