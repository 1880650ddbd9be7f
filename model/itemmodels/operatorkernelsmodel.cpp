// SPDX-License-Identifier: MIT
#include "model/itemmodels/operatorkernelsmodel.h"

#include "model/itemmodels/tableroles.h"
#include "model/timeformat.h"

namespace strobe {

OperatorKernelsModel::OperatorKernelsModel(QObject* parent)
    : QAbstractTableModel(parent) {}

void OperatorKernelsModel::setRows(std::vector<OperatorKernelRow> rows,
                                   std::vector<std::optional<std::uint32_t>> longestLaunch) {
    beginResetModel();
    m_rows = std::move(rows);
    m_longest = std::move(longestLaunch);
    m_longest.resize(m_rows.size());
    endResetModel();
}

std::optional<std::uint32_t> OperatorKernelsModel::longestLaunchAt(int row) const {
    return row >= 0 && std::size_t(row) < m_longest.size() ? m_longest[std::size_t(row)]
                                                           : std::nullopt;
}

int OperatorKernelsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_rows.size());
}

int OperatorKernelsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(ColumnCount);
}

QVariant OperatorKernelsModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const OperatorKernelRow& r = m_rows[std::size_t(index.row())];
    const auto col = Column(index.column());
    if (role == Qt::TextAlignmentRole)
        return col == Kernel ? QVariant(int(Qt::AlignLeft | Qt::AlignVCenter))
                             : QVariant(int(Qt::AlignRight | Qt::AlignVCenter));
    if (role == Qt::ToolTipRole)
        return col == Kernel ? QVariant(r.kernel) : QVariant();
    const bool raw = role == SortRole || role == ExportRole;
    if (!raw && role != Qt::DisplayRole)
        return {};
    auto duration = [&](TimeNs v) { return raw ? QVariant(qlonglong(v)) : formatDuration(v); };
    switch (col) {
    case Kernel:
        return r.kernel;
    case Count:
        return raw ? QVariant(qulonglong(r.count)) : QVariant(QString::number(r.count));
    case Total:
        return duration(r.total);
    case Longest:
        return duration(r.longest);
    case ColumnCount:
        break;
    }
    return {};
}

QVariant OperatorKernelsModel::headerData(int section, Qt::Orientation orientation,
                                          int role) const {
    if (orientation == Qt::Horizontal && role == Qt::InitialSortOrderRole)
        return initialSortOrder(section != Kernel);
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 ||
        section >= ColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    static const char* const names[] = {"Kernel", "Count", "Total", "Longest"};
    return QString::fromLatin1(names[section]);
}

} // namespace strobe
