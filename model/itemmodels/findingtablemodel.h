// SPDX-License-Identifier: MIT
#pragma once

#include "model/reports/findingtext.h"

#include <QAbstractTableModel>

namespace strobe {

// The findings of a trace (computeFindings) as a table, one row per finding in their rank
// (the time at stake, descending): position, rule title, time at stake, share of its base and
// the sentence saying what the data shows (its tooltip adds what to try). The words are made once
// per reset (findingWords). SortRole gives raw numbers (ns, the percentage as a double); the
// trace and findings must outlive the model or be replaced through reset().
class FindingTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Position, Rule, Time, Share, Sentence, ColumnCount };

    explicit FindingTableModel(QObject* parent = nullptr);

    // Shows `findings` of `trace` (both null: no rows).
    void reset(const Trace* trace, const Findings* findings);
    // Shows a job's findings (model/job/jobfindings.h), worded by jobFindingWords (null: no rows).
    void resetJob(const Findings* findings);
    // The finding at `row` (its index in Findings::findings), or null when out of range.
    const Finding* findingAt(int row) const;
    // Its words; empty when out of range.
    FindingWords wordsAt(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    // What a finding's share is a share of: "of the trace's span", "of the average step", ...
    static QString shareBaseText(ShareBase base);

private:
    const Findings* m_findings = nullptr;
    std::vector<FindingWords> m_words; // per finding
    std::vector<QString> m_titles;     // per finding
};

} // namespace strobe
