// SPDX-License-Identifier: MIT
#pragma once

#include "model/analysis/gaps.h"

#include <QAbstractTableModel>
#include <vector>

namespace strobe {

class Trace;

// The gaps of a GapAnalysis as a table, rows in the analysis's order. SortRole and ExportRole
// give raw values (ns, device ids, cause keys); DisplayRole gives formatted text. The trace and
// the analysis must outlive the model or be replaced through reset().
class GapTableModel : public QAbstractTableModel {
public:
    enum Column { Device, Start, Duration, Cause, NvtxRange, Detail, ColumnCount };

    using QAbstractTableModel::QAbstractTableModel;

    void reset(const Trace* trace, const GapAnalysis* analysis);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation o, int role) const override;

    // SortRole's order without a QVariant per comparison: a fresh analysis (tens of thousands
    // of gaps at 10M events) is sorted on the GUI thread when it arrives, in a few ms.
    bool lessThan(int column, int a, int b) const;

private:
    QString nvtxName(const GpuGap& g) const;
    // Row `row`'s gapDetailText, made on first use: a view shows a few rows of many.
    const QString& detail(int row) const;

    const Trace* m_trace = nullptr;
    const GapAnalysis* m_analysis = nullptr;
    mutable std::vector<QString> m_details;
    mutable std::vector<bool> m_detailMade;
};

} // namespace strobe
