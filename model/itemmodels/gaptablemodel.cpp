// SPDX-License-Identifier: MIT
#include "model/itemmodels/gaptablemodel.h"

#include "model/analysis/nvtxstats.h"
#include "model/itemmodels/tableroles.h"
#include "model/reports/gaptext.h"
#include "model/timeformat.h"
#include "model/trace.h"

#include <QStringBuilder>

namespace strobe {

void GapTableModel::reset(const Trace* trace, const GapAnalysis* analysis) {
    beginResetModel();
    m_trace = trace;
    m_analysis = analysis;
    const std::size_t rows = analysis ? analysis->gaps.size() : 0;
    m_details.assign(rows, QString());
    m_detailMade.assign(rows, false);
    endResetModel();
}

const QString& GapTableModel::detail(int row) const {
    const auto r = std::size_t(row);
    if (!m_detailMade[r]) {
        m_details[r] = gapDetailText(*m_trace, m_analysis->gaps[r]);
        m_detailMade[r] = true;
    }
    return m_details[r];
}

int GapTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() || !m_analysis ? 0 : int(m_analysis->gaps.size());
}

int GapTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(ColumnCount);
}

QString GapTableModel::nvtxName(const GpuGap& g) const {
    if (!g.enclosingNvtx.isValid())
        return {};
    const Lane& l = m_trace->lane(g.enclosingNvtx.lane);
    return nvtxRangeName(*m_trace, l.domain(), l.nameId(g.enclosingNvtx.index));
}

QVariant GapTableModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid) || !m_trace)
        return {};
    const GpuGap& g = m_analysis->gaps[std::size_t(index.row())];
    const auto col = Column(index.column());
    if (role == Qt::TextAlignmentRole)
        return col == Start || col == Duration ? QVariant(int(Qt::AlignRight | Qt::AlignVCenter))
                                               : QVariant(int(Qt::AlignLeft | Qt::AlignVCenter));
    if (role == Qt::ToolTipRole)
        return detail(index.row());
    const bool raw = role == SortRole || role == ExportRole;
    if (!raw && role != Qt::DisplayRole)
        return {};
    switch (col) {
    case Device:
        return raw ? QVariant(qulonglong(g.deviceId))
                   : QVariant(QStringLiteral("GPU ") % QString::number(g.deviceId));
    case Start:
        return raw ? QVariant(qlonglong(g.range.start))
                   : QVariant(formatTimestamp(g.range.start, m_trace->timeRange().start));
    case Duration:
        return raw ? QVariant(qlonglong(g.duration())) : QVariant(formatDuration(g.duration()));
    case Cause:
        if (raw && role == ExportRole)
            return gapCauseKey(g.cause);
        return gapCauseText(*m_trace, g); // "CPU waiting in poll"
    case NvtxRange:
        return nvtxName(g);
    case Detail:
        return detail(index.row());
    case ColumnCount:
        break;
    }
    return {};
}

bool GapTableModel::lessThan(int column, int a, int b) const {
    const GpuGap& x = m_analysis->gaps[std::size_t(a)];
    const GpuGap& y = m_analysis->gaps[std::size_t(b)];
    switch (Column(column)) {
    case Device:
        return x.deviceId < y.deviceId;
    case Start:
        return x.range.start < y.range.start;
    case Duration:
        return x.duration() < y.duration();
    case Cause:
        return gapCauseLabel(x.cause) < gapCauseLabel(y.cause);
    case NvtxRange:
        return nvtxName(x) < nvtxName(y);
    case Detail:
        return detail(a) < detail(b);
    case ColumnCount:
        break;
    }
    return false;
}

QVariant GapTableModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o == Qt::Horizontal && role == Qt::InitialSortOrderRole)
        return initialSortOrder(section == Duration);
    if (o != Qt::Horizontal || role != Qt::DisplayRole || section < 0 || section >= ColumnCount)
        return QAbstractTableModel::headerData(section, o, role);
    static const char* const names[] = {"Device", "Start",      "Duration",
                                        "Cause",  "NVTX range", "Detail"};
    return QString::fromLatin1(names[section]);
}

} // namespace strobe
