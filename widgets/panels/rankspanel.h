// SPDX-License-Identifier: MIT
#pragma once

#include "model/job/job.h"
#include "model/reports/reporttable.h"

#include <QWidget>
#include <memory>
#include <optional>
#include <vector>

class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QTabWidget;
class QTableView;

namespace strobe {

class ReportTableModel;

// The Ranks panel of a job (issue 42, docs/JOBS.md): the straggler verdict, the alignment of the
// ranks' clocks (wall, step N, collective) with each rank's offset, and the tables: per rank
// (jobRanksTable: breakdown, offset, overlap, collective wait), per step the slowest rank (the
// one whose late arrivals caused the most wait), per collective kind the sums over ranks, and
// the stragglers. The job's warnings are listed under them.
class RanksPanel : public QWidget {
    Q_OBJECT
public:
    explicit RanksPanel(QWidget* parent = nullptr);

    void setJob(const std::shared_ptr<const Job>& job,
                const std::shared_ptr<const JobAnalysis>& analysis);
    Alignment alignment() const;
    // Sets the alignment the controls show; alignmentChanged follows when it differs.
    void setAlignment(Alignment alignment);
    // The offsets set by hand (per rank, Job::ranks order), when "offsets set by hand" is the
    // choice: they start as the shown analysis's and each edit of one emits offsetsEdited.
    std::optional<std::vector<TimeNs>> manualOffsets() const;
    // Sets rank index `rank`'s offset by hand, as typing it does ("1.5 ms", "-200us"); false
    // (nothing changes) for a time parseTime does not read or a rank the job lacks.
    bool setManualOffset(std::size_t rank, const QString& text);
    QString verdict() const;
    QString warningsText() const;

    ReportTableModel* ranksModel() const { return m_ranks; }
    ReportTableModel* stepsModel() const { return m_steps; }
    ReportTableModel* kindsModel() const { return m_kinds; }
    ReportTableModel* stragglersModel() const { return m_stragglers; }
    QTabWidget* tabs() const { return m_tabs; }

    // step,slowest_rank,wait_caused_ns: per step with matched collectives, the rank whose late
    // arrivals caused the most wait of the others (the lowest rank among equals); a step with no
    // wait has no slowest rank (null).
    static ReportTable slowestRankTable(const Job& job, const JobAnalysis& a);
    // kind,calls,total_bytes,wait_ns,transfer_ns: per collective kind, its matched collectives,
    // the bytes recorded on their calls, and the wait and transfer time summed over the ranks.
    static ReportTable collectiveKindsTable(const Job& job, const JobAnalysis& a);

signals:
    void alignmentChanged(strobe::Alignment alignment);
    // The offsets set by hand changed (and are the choice): analyse with manualOffsets().
    void offsetsEdited();

private:
    void emitAlignment();
    void showManualOffset(); // the chosen rank's offset in the edit
    QTableView* addTable(ReportTableModel* model, const QString& title);

    QLabel* m_verdict;
    QComboBox* m_align;
    QSpinBox* m_step;
    QComboBox* m_offsetRank;
    QLineEdit* m_offsetEdit;
    std::vector<TimeNs> m_manual;
    std::shared_ptr<const Job> m_job;
    QLabel* m_notes;
    QTabWidget* m_tabs;
    ReportTableModel* m_ranks;
    ReportTableModel* m_steps;
    ReportTableModel* m_kinds;
    ReportTableModel* m_stragglers;
    QLabel* m_warnings;
    std::optional<Alignment> m_shown; // the last alignment asked for; none: offsets by hand
};

} // namespace strobe
