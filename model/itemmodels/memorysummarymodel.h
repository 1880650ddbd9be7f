// SPDX-License-Identifier: MIT
#pragma once

#include "model/analysis/memorystats.h"

#include <QAbstractTableModel>
#include <memory>

namespace strobe {

// The memory-operation summary as a table (sort with a QSortFilterProxyModel on SortRole).
class MemorySummaryModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        Direction,
        Count,
        TotalBytes,
        TotalTime,
        AverageBandwidth,
        PeakBandwidth,
        ColumnCount
    };

    explicit MemorySummaryModel(QObject* parent = nullptr);
    void setTrace(const std::shared_ptr<const Trace>& trace);
    // Shows `rows` = summarizeMemory(trace) computed elsewhere.
    void setPrecomputed(std::vector<MemorySummaryRow> rows);
    const std::vector<MemorySummaryRow>& rows() const { return m_rows; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    std::vector<MemorySummaryRow> m_rows;
};

} // namespace strobe
