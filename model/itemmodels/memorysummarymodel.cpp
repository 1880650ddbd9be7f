// SPDX-License-Identifier: MIT
#include "model/itemmodels/memorysummarymodel.h"

#include "model/itemmodels/tableroles.h"
#include "model/reports/labels.h"
#include "model/valueformat.h"

namespace strobe {

MemorySummaryModel::MemorySummaryModel(QObject* parent)
    : QAbstractTableModel(parent) {}

void MemorySummaryModel::setTrace(const std::shared_ptr<const Trace>& trace) {
    setPrecomputed(trace ? summarizeMemory(*trace) : std::vector<MemorySummaryRow>{});
}

void MemorySummaryModel::setPrecomputed(std::vector<MemorySummaryRow> rows) {
    beginResetModel();
    m_rows.swap(rows);
    endResetModel();
}

int MemorySummaryModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_rows.size());
}

int MemorySummaryModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(ColumnCount);
}

QVariant MemorySummaryModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const MemorySummaryRow& r = m_rows[std::size_t(index.row())];
    const auto col = Column(index.column());
    if (role == Qt::TextAlignmentRole)
        return col == Direction ? QVariant(int(Qt::AlignLeft | Qt::AlignVCenter))
                                : QVariant(int(Qt::AlignRight | Qt::AlignVCenter));
    const bool raw = role == SortRole || role == ExportRole;
    if (!raw && role != Qt::DisplayRole)
        return {};
    switch (col) {
    case Direction:
        return role == ExportRole ? memoryDirectionKey(r.direction)
                                  : memoryDirectionLabel(r.direction);
    case Count:
        return raw ? QVariant(qulonglong(r.count)) : QVariant(QString::number(r.count));
    case TotalBytes:
        return raw ? QVariant(qulonglong(r.totalBytes)) : QVariant(formatBytes(r.totalBytes));
    case TotalTime:
        return raw ? QVariant(qlonglong(r.totalNs)) : QVariant(formatDuration(r.totalNs));
    case AverageBandwidth:
        return raw ? QVariant(QString::number(r.avgBandwidthGBps, 'f', 3).toDouble())
                   : QVariant(formatBandwidth(r.avgBandwidthGBps));
    case PeakBandwidth:
        return raw ? QVariant(QString::number(r.peakBandwidthGBps, 'f', 3).toDouble())
                   : QVariant(formatBandwidth(r.peakBandwidthGBps));
    case ColumnCount:
        break;
    }
    return {};
}

QVariant MemorySummaryModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation == Qt::Horizontal && role == Qt::InitialSortOrderRole)
        return initialSortOrder(section != Direction);
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 ||
        section >= ColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    static const char* const names[] = {"Direction",  "Operations",        "Total bytes",
                                        "Total time", "Average bandwidth", "Peak bandwidth"};
    return QString::fromLatin1(names[section]);
}

} // namespace strobe
