// SPDX-License-Identifier: MIT
#include "model/itemmodels/iterationtablemodel.h"

#include "model/itemmodels/tableroles.h"
#include "model/reports/overviewtext.h"
#include "model/timeformat.h"

#include <QStringBuilder>

namespace strobe {

void IterationTableModel::reset(const Overview* overview) {
    beginResetModel();
    m_overview = overview;
    m_rows.clear();
    if (overview) {
        for (std::uint32_t i = 0; i < overview->iterations.size(); ++i) {
            for (std::uint32_t g = 0; g < overview->iterations[i].gpus.size(); ++g)
                m_rows.push_back({i, g});
        }
    }
    endResetModel();
}

const IterationBreakdown* IterationTableModel::iterationAt(int row) const {
    if (!m_overview || row < 0 || row >= int(m_rows.size()))
        return nullptr;
    return &m_overview->iterations[m_rows[std::size_t(row)].first];
}

int IterationTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_rows.size());
}

int IterationTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(ColumnCount);
}

QVariant IterationTableModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid) || !m_overview)
        return {};
    const auto [it, gi] = m_rows[std::size_t(index.row())];
    const IterationBreakdown& iter = m_overview->iterations[it];
    const GpuBreakdown& b = iter.gpus[gi];
    const auto col = Column(index.column());
    if (role == Qt::TextAlignmentRole)
        return col <= Device ? QVariant(int(Qt::AlignLeft | Qt::AlignVCenter))
                             : QVariant(int(Qt::AlignRight | Qt::AlignVCenter));
    const bool raw = role == SortRole || role == ExportRole;
    if (!raw && role != Qt::DisplayRole)
        return {};
    const TimeNs span = b.span.duration();
    const auto share = [&](TimeNs part) {
        return raw ? QVariant(span > 0 ? 100.0 * double(part) / double(span) : 0.0)
                   : QVariant(percentText(part, span));
    };
    switch (col) {
    case Iteration:
        return raw ? QVariant(qulonglong(it))
                   : QVariant(m_overview->iterationName % QStringLiteral(" #") % iter.label);
    case Device:
        return raw ? QVariant(qulonglong(b.deviceId))
                   : QVariant(QStringLiteral("GPU ") % QString::number(b.deviceId));
    case Span:
        return raw ? QVariant(qlonglong(span)) : QVariant(formatDuration(span));
    case Compute:
        return share(b.compute);
    case ExposedComm:
        return share(b.exposedCommunication);
    case Memory:
        return share(b.memory);
    case Idle:
        return share(b.idle);
    case ColumnCount:
        break;
    }
    return {};
}

QVariant IterationTableModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o == Qt::Horizontal && role == Qt::InitialSortOrderRole)
        return initialSortOrder(section != Iteration && section != Device);
    if (o != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (Column(section)) {
    case Iteration:
        return tr("Iteration");
    case Device:
        return tr("GPU");
    case Span:
        return tr("Span");
    case Compute:
        return tr("Compute");
    case ExposedComm:
        return tr("Exposed comm.");
    case Memory:
        return tr("Memory");
    case Idle:
        return tr("Idle");
    case ColumnCount:
        break;
    }
    return {};
}

} // namespace strobe
