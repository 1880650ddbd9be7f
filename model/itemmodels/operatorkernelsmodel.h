// SPDX-License-Identifier: MIT
#pragma once

#include "model/analysis/operators.h"

#include <QAbstractTableModel>
#include <optional>
#include <vector>

namespace strobe {

// The kernels one operator launched (kernelsOfOperator), one row per kernel name: the
// Operators panel's second table. Each row may carry its longest launch (an index into
// Trace::kernelAt), which a double-click selects. Small: sort it through a proxy on SortRole.
class OperatorKernelsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Kernel, Count, Total, Longest, ColumnCount };

    explicit OperatorKernelsModel(QObject* parent = nullptr);

    // Shows `rows`; `longestLaunch[i]`, when given, is row i's longest launch.
    void setRows(std::vector<OperatorKernelRow> rows,
                 std::vector<std::optional<std::uint32_t>> longestLaunch = {});
    const std::vector<OperatorKernelRow>& rows() const { return m_rows; }
    // Row `row`'s longest launch (a kernel index), if known.
    std::optional<std::uint32_t> longestLaunchAt(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    std::vector<OperatorKernelRow> m_rows;
    std::vector<std::optional<std::uint32_t>> m_longest;
};

} // namespace strobe
