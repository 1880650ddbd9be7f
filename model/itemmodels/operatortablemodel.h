// SPDX-License-Identifier: MIT
#pragma once

#include "model/analysis/operators.h"

#include <QAbstractTableModel>

namespace strobe {

// The operator statistics (operatorTable) as a table, one row per operator name (and input
// shapes), in the table's order (device self time, descending). Small: sort it with a
// QSortFilterProxyModel on SortRole (NameFilterProxy). The Input shapes column exists only when
// the table is grouped by shapes.
class OperatorTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        Name,
        Shapes, // grouped by name and input shapes only
        Calls,
        HostSelf,
        HostTotal,
        DeviceSelf,
        DeviceTotal,
        DevicePercent,
        ColumnCount
    };

    explicit OperatorTableModel(QObject* parent = nullptr);

    // Shows `table`; O(1) besides the reset.
    void setTable(OperatorTable table);
    const OperatorTable& table() const { return m_table; }
    OperatorGrouping grouping() const { return m_table.grouping; }
    const OperatorRow* rowAt(int row) const;
    // The column shown at `section` (Shapes is left out when grouped by name).
    Column columnAt(int section) const;
    // The section that shows `column`, or -1 when it is not shown.
    int sectionOf(Column column) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    OperatorTable m_table;
};

} // namespace strobe
