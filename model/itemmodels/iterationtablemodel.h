// SPDX-License-Identifier: MIT
#pragma once

#include "model/analysis/overview.h"

#include <QAbstractTableModel>

namespace strobe {

// The Overview's per-iteration table: one row per (iteration, GPU), in start order. Shares are
// of the iteration's span; SortRole gives raw numbers (ns, or the percentage as a double). The
// overview must outlive the model or be replaced through reset().
class IterationTableModel : public QAbstractTableModel {
public:
    enum Column { Iteration, Device, Span, Compute, ExposedComm, Memory, Idle, ColumnCount };

    using QAbstractTableModel::QAbstractTableModel;

    void reset(const Overview* overview);
    // The iteration shown at `row`; nullptr when out of range.
    const IterationBreakdown* iterationAt(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation o, int role) const override;

private:
    const Overview* m_overview = nullptr;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> m_rows; // (iteration, gpu index)
};

} // namespace strobe
