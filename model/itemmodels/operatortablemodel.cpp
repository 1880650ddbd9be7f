// SPDX-License-Identifier: MIT
#include "model/itemmodels/operatortablemodel.h"

#include "model/itemmodels/tableroles.h"
#include "model/timeformat.h"

#include <QStringBuilder>

namespace strobe {

OperatorTableModel::OperatorTableModel(QObject* parent)
    : QAbstractTableModel(parent) {}

void OperatorTableModel::setTable(OperatorTable table) {
    beginResetModel();
    std::swap(m_table, table);
    endResetModel();
}

const OperatorRow* OperatorTableModel::rowAt(int row) const {
    return row >= 0 && std::size_t(row) < m_table.rows.size() ? &m_table.rows[std::size_t(row)]
                                                              : nullptr;
}

OperatorTableModel::Column OperatorTableModel::columnAt(int section) const {
    if (m_table.grouping == OperatorGrouping::Name && section >= Shapes)
        return Column(section + 1);
    return Column(section);
}

int OperatorTableModel::sectionOf(Column column) const {
    if (m_table.grouping == OperatorGrouping::NameAndShapes || column < Shapes)
        return column;
    return column == Shapes ? -1 : column - 1;
}

int OperatorTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_table.rows.size());
}

int OperatorTableModel::columnCount(const QModelIndex& parent) const {
    if (parent.isValid())
        return 0;
    return m_table.grouping == OperatorGrouping::NameAndShapes ? int(ColumnCount)
                                                               : int(ColumnCount) - 1;
}

QVariant OperatorTableModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const OperatorRow& r = m_table.rows[std::size_t(index.row())];
    const Column col = columnAt(index.column());
    const bool text = col == Name || col == Shapes;
    if (role == Qt::TextAlignmentRole)
        return text ? QVariant(int(Qt::AlignLeft | Qt::AlignVCenter))
                    : QVariant(int(Qt::AlignRight | Qt::AlignVCenter));
    if (role == Qt::ToolTipRole) {
        if (col == Name)
            return r.noOperator ? tr("GPU work that no operator launched (CUDA runtime calls "
                                     "outside any operator, or work without a recorded launch)")
                                : r.name;
        if (col == Shapes)
            return r.shapes;
        return {};
    }
    const bool raw = role == SortRole || role == ExportRole;
    if (!raw && role != Qt::DisplayRole)
        return {};
    auto duration = [&](TimeNs v) { return raw ? QVariant(qlonglong(v)) : formatDuration(v); };
    switch (col) {
    case Name:
        return r.name;
    case Shapes:
        return r.shapes;
    case Calls:
        return raw ? QVariant(qulonglong(r.calls)) : QVariant(QString::number(r.calls));
    case HostSelf:
        return duration(r.hostSelf);
    case HostTotal:
        return duration(r.hostTotal);
    case DeviceSelf:
        return duration(r.deviceSelf);
    case DeviceTotal:
        return duration(r.deviceTotal);
    case DevicePercent:
        return raw ? QVariant(QString::number(r.devicePercent, 'f', 2).toDouble())
                   : QVariant(QString::number(r.devicePercent, 'f', 2) % QStringLiteral(" %"));
    case ColumnCount:
        break;
    }
    return {};
}

QVariant OperatorTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= columnCount())
        return QAbstractTableModel::headerData(section, orientation, role);
    const Column col = columnAt(section);
    if (role == Qt::InitialSortOrderRole)
        return initialSortOrder(col != Name && col != Shapes);
    if (role == Qt::ToolTipRole) {
        switch (col) {
        case HostSelf:
            return tr("CPU time of the calls, less their child operators and the runtime calls "
                      "they made");
        case HostTotal:
            return tr("CPU time of the calls, children included");
        case DeviceSelf:
            return tr("GPU time of the kernels, copies and sets the calls launched themselves");
        case DeviceTotal:
            return tr("GPU time of the work the calls and their child operators launched");
        case DevicePercent:
            return tr("Device self time as a share of all GPU work in the trace");
        default:
            return {};
        }
    }
    if (role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    static const char* const names[] = {"Name",       "Input shapes", "Calls",        "Host self",
                                        "Host total", "Device self",  "Device total", "Device %"};
    return QString::fromLatin1(names[col]);
}

} // namespace strobe
