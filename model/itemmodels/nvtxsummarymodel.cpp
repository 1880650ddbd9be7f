// SPDX-License-Identifier: MIT
#include "model/itemmodels/nvtxsummarymodel.h"

#include "model/itemmodels/tableroles.h"
#include "model/valueformat.h"

namespace strobe {

NvtxSummary summarizeNvtxWithGpu(const Trace& trace, RangeNaming naming) {
    NvtxSummary summary = summarizeNvtx(trace, naming);
    addGpuProjection(trace, summary);
    return summary;
}

NvtxSummaryModel::NvtxSummaryModel(QObject* parent)
    : QAbstractTableModel(parent) {}

void NvtxSummaryModel::setTrace(std::shared_ptr<const Trace> trace, RangeNaming naming) {
    NvtxSummary summary = trace ? summarizeNvtxWithGpu(*trace, naming) : NvtxSummary{};
    setPrecomputed(std::move(trace), std::move(summary));
}

void NvtxSummaryModel::setPrecomputed(std::shared_ptr<const Trace> trace, NvtxSummary summary) {
    beginResetModel();
    m_trace = std::move(trace);
    std::swap(m_summary, summary);
    endResetModel();
}

int NvtxSummaryModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_summary.rows.size());
}

int NvtxSummaryModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(ColumnCount);
}

QVariant NvtxSummaryModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const NvtxSummaryRow& r = m_summary.rows[std::size_t(index.row())];
    const DurationStats& s = r.stats;
    const auto col = Column(index.column());
    if (role == Qt::TextAlignmentRole)
        return col <= Style ? QVariant(int(Qt::AlignLeft | Qt::AlignVCenter))
                            : QVariant(int(Qt::AlignRight | Qt::AlignVCenter));
    if (role == Qt::ToolTipRole && col == Range && r.rawNames > 1)
        return tr("%1: %2 recorded names, per-call ids (\", op_id = N\", \", seq = N\"...) "
                  "removed")
            .arg(r.range)
            .arg(r.rawNames);
    const bool raw = role == SortRole || role == ExportRole;
    if (!raw && role != Qt::DisplayRole)
        return {};
    auto duration = [&](TimeNs v) { return raw ? QVariant(qlonglong(v)) : formatDuration(v); };
    auto fractional = [&](double v) {
        return raw ? QVariant(QString::number(v, 'f', 1).toDouble())
                   : QVariant(formatMeanDuration(v));
    };
    switch (col) {
    case Range:
        return r.range;
    case Style:
        return raw ? nvtxStyleKey(r.style)
                   : (r.style == NvtxStyle::PushPop ? QStringLiteral("push/pop")
                                                    : QStringLiteral("start/end"));
    case Instances:
        return raw ? QVariant(qulonglong(s.count)) : QVariant(QString::number(s.count));
    case Total:
        return duration(s.total);
    case Average:
        return fractional(s.mean);
    case Median:
        return fractional(s.median);
    case Minimum:
        return duration(s.min);
    case Maximum:
        return duration(s.max);
    case StdDev:
        return fractional(s.stddev);
    case WallPercent:
        return raw ? QVariant(QString::number(r.wallPercent, 'f', 2).toDouble())
                   : QVariant(QString::number(r.wallPercent, 'f', 2) + QStringLiteral(" %"));
    case GpuOps:
        return raw ? QVariant(qulonglong(r.gpuOps)) : QVariant(QString::number(r.gpuOps));
    case GpuTime:
        return duration(r.gpuTime);
    case AvgGpuSpan:
        return fractional(r.avgGpuSpan());
    case ColumnCount:
        break;
    }
    return {};
}

QVariant NvtxSummaryModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation == Qt::Horizontal && role == Qt::InitialSortOrderRole)
        return initialSortOrder(section != Range && section != Style);
    if (orientation == Qt::Horizontal && role == Qt::ToolTipRole && section == WallPercent)
        return QStringLiteral("Share of the trace's wall time during which at least one instance "
                              "runs: nested and overlapping instances (other threads, other "
                              "ranks) count once, so it never exceeds 100 %.");
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 ||
        section >= ColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    static const char* const names[] = {
        "Range",   "Style",    "Instances",   "Total",   "Average",
        "Median",  "Minimum",  "Maximum",     "Std dev", "Wall time % (union)",
        "GPU ops", "GPU time", "Avg GPU span"};
    return QString::fromLatin1(names[section]);
}

} // namespace strobe
