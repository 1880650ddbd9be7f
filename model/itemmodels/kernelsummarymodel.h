// SPDX-License-Identifier: MIT
#pragma once

#include "model/analysis/kernelstats.h"

#include <QAbstractTableModel>
#include <memory>

namespace strobe {

// The kernel summary as a table. Small (one row per kernel name or configuration): sort it
// with a QSortFilterProxyModel on SortRole.
class KernelSummaryModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        Name,
        TimePercent,
        Total,
        Instances,
        Average,
        Median,
        Minimum,
        Maximum,
        StdDev,
        Grid, // the last four only when grouped by launch configuration
        Block,
        Registers,
        SharedMemory,
        ColumnCount
    };

    explicit KernelSummaryModel(QObject* parent = nullptr);

    // Both summarise here: O(kernels log kernels). The widget summarises on a worker instead
    // and hands the rows over with setPrecomputed.
    void setTrace(std::shared_ptr<const Trace> trace);
    void setGrouping(KernelGrouping grouping);
    // Shows `rows` = summarizeKernels(*trace, grouping) computed elsewhere; O(1) besides the reset.
    void setPrecomputed(std::shared_ptr<const Trace> trace, KernelGrouping grouping,
                        std::vector<KernelSummaryRow> rows);
    KernelGrouping grouping() const { return m_grouping; }
    const std::vector<KernelSummaryRow>& rows() const { return m_rows; }
    const KernelSummaryRow* rowAt(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    void rebuild();
    std::shared_ptr<const Trace> m_trace;
    KernelGrouping m_grouping = KernelGrouping::DemangledName;
    std::vector<KernelSummaryRow> m_rows;
};

} // namespace strobe
