// SPDX-License-Identifier: MIT
#include "model/itemmodels/kernelsummarymodel.h"

#include "model/itemmodels/tableroles.h"
#include "model/valueformat.h"

namespace strobe {

KernelSummaryModel::KernelSummaryModel(QObject* parent)
    : QAbstractTableModel(parent) {}

void KernelSummaryModel::setTrace(std::shared_ptr<const Trace> trace) {
    m_trace = std::move(trace);
    rebuild();
}

void KernelSummaryModel::setGrouping(KernelGrouping grouping) {
    if (grouping == m_grouping)
        return;
    m_grouping = grouping;
    rebuild();
}

void KernelSummaryModel::setPrecomputed(std::shared_ptr<const Trace> trace, KernelGrouping grouping,
                                        std::vector<KernelSummaryRow> rows) {
    beginResetModel();
    m_trace = std::move(trace);
    m_grouping = grouping;
    m_rows.swap(rows);
    endResetModel();
}

void KernelSummaryModel::rebuild() {
    beginResetModel();
    m_rows = m_trace ? summarizeKernels(*m_trace, m_grouping) : std::vector<KernelSummaryRow>{};
    endResetModel();
}

const KernelSummaryRow* KernelSummaryModel::rowAt(int row) const {
    return row >= 0 && std::size_t(row) < m_rows.size() ? &m_rows[std::size_t(row)] : nullptr;
}

int KernelSummaryModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_rows.size());
}

int KernelSummaryModel::columnCount(const QModelIndex& parent) const {
    if (parent.isValid())
        return 0;
    return m_grouping == KernelGrouping::LaunchConfig ? int(ColumnCount) : int(Grid);
}

QVariant KernelSummaryModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const KernelSummaryRow& r = m_rows[std::size_t(index.row())];
    const DurationStats& s = r.stats;
    const auto col = Column(index.column());
    if (role == Qt::TextAlignmentRole)
        return col == Name ? QVariant(int(Qt::AlignLeft | Qt::AlignVCenter))
                           : QVariant(int(Qt::AlignRight | Qt::AlignVCenter));
    if (role == Qt::ToolTipRole && col == Name)
        return r.name;
    const bool raw = role == SortRole || role == ExportRole;
    if (!raw && role != Qt::DisplayRole)
        return {};
    auto duration = [&](TimeNs v) { return raw ? QVariant(qlonglong(v)) : formatDuration(v); };
    auto fractional = [&](double v, int decimals) {
        return raw ? QVariant(QString::number(v, 'f', decimals).toDouble())
                   : QVariant(formatMeanDuration(v));
    };
    switch (col) {
    case Name:
        return r.name;
    case TimePercent:
        return raw ? QVariant(QString::number(r.timePercent, 'f', 2).toDouble())
                   : QVariant(QString::number(r.timePercent, 'f', 2) + QStringLiteral(" %"));
    case Total:
        return duration(s.total);
    case Instances:
        return raw ? QVariant(qulonglong(s.count)) : QVariant(QString::number(s.count));
    case Average:
        return fractional(s.mean, 1);
    case Median:
        return fractional(s.median, 1);
    case Minimum:
        return duration(s.min);
    case Maximum:
        return duration(s.max);
    case StdDev:
        return fractional(s.stddev, 1);
    case Grid:
        return role == SortRole ? QVariant(qlonglong(r.grid[0]) * r.grid[1] * r.grid[2])
                                : QVariant(formatDim3(r.grid));
    case Block:
        return role == SortRole ? QVariant(qlonglong(r.block[0]) * r.block[1] * r.block[2])
                                : QVariant(formatDim3(r.block));
    case Registers:
        return raw ? QVariant(qulonglong(r.registersPerThread))
                   : QVariant(QString::number(r.registersPerThread));
    case SharedMemory:
        return raw ? QVariant(qulonglong(r.sharedBytes))
                   : QVariant(QString::number(r.sharedBytes) + QStringLiteral(" B"));
    case ColumnCount:
        break;
    }
    return {};
}

QVariant KernelSummaryModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation == Qt::Horizontal && role == Qt::InitialSortOrderRole)
        return initialSortOrder(section != Name);
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 ||
        section >= columnCount())
        return QAbstractTableModel::headerData(section, orientation, role);
    static const char* const names[] = {
        "Name",    "Time %",  "Total", "Instances", "Average",   "Median",       "Minimum",
        "Maximum", "Std dev", "Grid",  "Block",     "Registers", "Shared memory"};
    return QString::fromLatin1(names[section]);
}

} // namespace strobe
