// SPDX-License-Identifier: MIT
#include "model/itemmodels/comparisonmodels.h"

#include "model/itemmodels/tableroles.h"
#include "model/valueformat.h"

#include <QStringBuilder>
#include <cstdlib>

namespace strobe {

namespace {

int sign(double v) {
    return v > 0 ? 1 : (v < 0 ? -1 : 0);
}

QString signedDuration(TimeNs d) {
    const QString body = formatDuration(std::abs(d));
    return d > 0 ? u'+' % body : (d < 0 ? QString(QChar(0x2212)) % body : body);
}

QString percentText(const QVariant& v, bool signedValue) {
    if (!v.isValid())
        return QStringLiteral("new");
    const double p = v.toDouble();
    const QString body = QString::number(std::abs(p), 'f', 1) % u'%';
    if (!signedValue)
        return QString::number(p, 'f', 1) % u'%';
    return p > 0 ? u'+' % body : (p < 0 ? QString(QChar(0x2212)) % body : body);
}

QVariant optionalPercent(std::optional<double> p) {
    return p ? QVariant(*p) : QVariant();
}

} // namespace

void ComparisonTableModel::setComparison(std::shared_ptr<const Comparison> comparison) {
    beginResetModel();
    m_c = std::move(comparison);
    m_columns = m_c ? columns(*m_c) : std::vector<ColumnSpec>{};
    endResetModel();
}

int ComparisonTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() || !m_c ? 0 : int(rows(*m_c));
}

int ComparisonTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_columns.size());
}

QVariant ComparisonTableModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid) || !m_c)
        return {};
    const ColumnSpec& col = m_columns[std::size_t(index.column())];
    const auto row = std::size_t(index.row());
    switch (role) {
    case Qt::TextAlignmentRole:
        return col.kind == Kind::Text ? QVariant(int(Qt::AlignLeft | Qt::AlignVCenter))
                                      : QVariant(int(Qt::AlignRight | Qt::AlignVCenter));
    case DeltaToneRole:
        return col.tone ? col.tone(row) : 0;
    case SortRole: {
        const QVariant v = col.value(row);
        // A percent of a kernel new in B sorts above every finite change.
        return v.isValid() ? v : QVariant(1e300);
    }
    case ExportRole:
        return col.value(row);
    case Qt::ToolTipRole:
        return col.kind == Kind::Text ? col.value(row) : QVariant();
    case Qt::DisplayRole:
        break;
    default:
        return {};
    }
    const QVariant v = col.value(row);
    switch (col.kind) {
    case Kind::Text:
    case Kind::Count:
        return v;
    case Kind::Duration:
        return formatDuration(v.toLongLong());
    case Kind::SignedDuration:
        return signedDuration(v.toLongLong());
    case Kind::Mean:
        return formatMeanDuration(v.toDouble());
    case Kind::Percent:
        return percentText(v, false);
    case Kind::SignedPercent:
        return percentText(v, true);
    }
    return {};
}

QVariant ComparisonTableModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o == Qt::Horizontal && role == Qt::InitialSortOrderRole && section >= 0 &&
        section < int(m_columns.size()))
        return initialSortOrder(m_columns[std::size_t(section)].kind != Kind::Text);
    if (o != Qt::Horizontal || role != Qt::DisplayRole || section < 0 ||
        section >= int(m_columns.size()))
        return QAbstractTableModel::headerData(section, o, role);
    return m_columns[std::size_t(section)].header;
}

const KernelDiffRow* KernelDiffModel::rowAt(int row) const {
    const Comparison* c = comparison();
    if (!c || row < 0 || std::size_t(row) >= c->kernels.size())
        return nullptr;
    return &c->kernels[std::size_t(row)];
}

// The columns capture the shared comparison by pointer: setComparison rebuilds them with it.
std::vector<ComparisonTableModel::ColumnSpec> KernelDiffModel::columns(const Comparison& c) const {
    const auto* k = &c.kernels;
    auto delta = [k](std::size_t r) { return sign(double((*k)[r].delta())); };
    std::vector<ColumnSpec> cols{
        {QStringLiteral("Kernel"),
         Kind::Text,
         [k](std::size_t r) { return QVariant((*k)[r].name); },
         {}},
        {QStringLiteral("Count A"),
         Kind::Count,
         [k](std::size_t r) { return QVariant(qulonglong((*k)[r].a.count)); },
         {}},
        {QStringLiteral("Count B"),
         Kind::Count,
         [k](std::size_t r) { return QVariant(qulonglong((*k)[r].b.count)); },
         {}},
        {QStringLiteral("Total A"),
         Kind::Duration,
         [k](std::size_t r) { return QVariant(qlonglong((*k)[r].a.total)); },
         {}},
        {QStringLiteral("Total B"),
         Kind::Duration,
         [k](std::size_t r) { return QVariant(qlonglong((*k)[r].b.total)); },
         {}},
        {QStringLiteral("\u0394 total"), Kind::SignedDuration,
         [k](std::size_t r) { return QVariant(qlonglong((*k)[r].delta())); }, delta},
        {QStringLiteral("\u0394 %"), Kind::SignedPercent,
         [k](std::size_t r) { return optionalPercent((*k)[r].deltaPercent()); }, delta},
        {QStringLiteral("Median A"),
         Kind::Mean,
         [k](std::size_t r) { return QVariant((*k)[r].a.median); },
         {}},
        {QStringLiteral("Median B"),
         Kind::Mean,
         [k](std::size_t r) { return QVariant((*k)[r].b.median); },
         {}},
    };
    if (c.hasRange()) {
        const Comparison* cp = &c;
        cols.push_back({QStringLiteral("Per instance A"),
                        Kind::Mean,
                        [k, cp](std::size_t r) {
                            return QVariant(cp->a.perInstance(double((*k)[r].a.total)));
                        },
                        {}});
        cols.push_back({QStringLiteral("Per instance B"), Kind::Mean,
                        [k, cp](std::size_t r) {
                            return QVariant(cp->b.perInstance(double((*k)[r].b.total)));
                        },
                        [k, cp](std::size_t r) {
                            return sign(cp->b.perInstance(double((*k)[r].b.total)) -
                                        cp->a.perInstance(double((*k)[r].a.total)));
                        }});
    }
    return cols;
}

std::vector<ComparisonTableModel::ColumnSpec> RangeDiffModel::columns(const Comparison& c) const {
    const auto* g = &c.ranges;
    auto delta = [g](std::size_t r) { return sign(double((*g)[r].delta())); };
    std::vector<ColumnSpec> cols{
        {QStringLiteral("Range"),
         Kind::Text,
         [g](std::size_t r) { return QVariant((*g)[r].range); },
         {}},
        {QStringLiteral("Count A"),
         Kind::Count,
         [g](std::size_t r) { return QVariant(qulonglong((*g)[r].a.count)); },
         {}},
        {QStringLiteral("Count B"),
         Kind::Count,
         [g](std::size_t r) { return QVariant(qulonglong((*g)[r].b.count)); },
         {}},
        {QStringLiteral("Total A"),
         Kind::Duration,
         [g](std::size_t r) { return QVariant(qlonglong((*g)[r].a.total)); },
         {}},
        {QStringLiteral("Total B"),
         Kind::Duration,
         [g](std::size_t r) { return QVariant(qlonglong((*g)[r].b.total)); },
         {}},
        {QStringLiteral("\u0394 total"), Kind::SignedDuration,
         [g](std::size_t r) { return QVariant(qlonglong((*g)[r].delta())); }, delta},
        {QStringLiteral("\u0394 %"), Kind::SignedPercent,
         [g](std::size_t r) { return optionalPercent((*g)[r].deltaPercent()); }, delta},
        {QStringLiteral("Wall % A"),
         Kind::Percent,
         [g](std::size_t r) { return QVariant((*g)[r].a.wallPercent); },
         {}},
        {QStringLiteral("Wall % B"),
         Kind::Percent,
         [g](std::size_t r) { return QVariant((*g)[r].b.wallPercent); },
         {}},
    };
    if (c.hasRange()) {
        const Comparison* cp = &c;
        cols.push_back({QStringLiteral("Per instance A"),
                        Kind::Mean,
                        [g, cp](std::size_t r) {
                            return QVariant(cp->a.perInstance(double((*g)[r].a.total)));
                        },
                        {}});
        cols.push_back({QStringLiteral("Per instance B"), Kind::Mean,
                        [g, cp](std::size_t r) {
                            return QVariant(cp->b.perInstance(double((*g)[r].b.total)));
                        },
                        [g, cp](std::size_t r) {
                            return sign(cp->b.perInstance(double((*g)[r].b.total)) -
                                        cp->a.perInstance(double((*g)[r].a.total)));
                        }});
    }
    return cols;
}

std::vector<ComparisonTableModel::ColumnSpec> GpuDiffModel::columns(const Comparison& c) const {
    const auto* g = &c.gpus;
    auto ns = [g](TimeNs GpuSide::*m, bool b) {
        return [g, m, b](std::size_t r) {
            return QVariant(qlonglong(((*g)[r].*(b ? &GpuDiffRow::b : &GpuDiffRow::a)).*m));
        };
    };
    auto gaps = [g](bool b) {
        return [g, b](std::size_t r) {
            return QVariant(qulonglong(b ? (*g)[r].b.gaps : (*g)[r].a.gaps));
        };
    };
    auto util = [g](bool b) {
        return [g, b](std::size_t r) {
            return QVariant(b ? (*g)[r].b.utilizationPercent : (*g)[r].a.utilizationPercent);
        };
    };
    std::vector<ColumnSpec> cols{
        {QStringLiteral("GPU"),
         Kind::Text,
         [g](std::size_t r) {
             return QVariant(QStringLiteral("GPU ") % QString::number((*g)[r].deviceId));
         },
         {}},
        {QStringLiteral("Kernels A"), Kind::Duration, ns(&GpuSide::kernelBusy, false), {}},
        {QStringLiteral("Kernels B"), Kind::Duration, ns(&GpuSide::kernelBusy, true), {}},
        {QStringLiteral("Copies A"), Kind::Duration, ns(&GpuSide::copyBusy, false), {}},
        {QStringLiteral("Copies B"), Kind::Duration, ns(&GpuSide::copyBusy, true), {}},
        {QStringLiteral("Idle A"), Kind::Duration, ns(&GpuSide::idle, false), {}},
        {QStringLiteral("Idle B"), Kind::Duration, ns(&GpuSide::idle, true),
         [g](std::size_t r) { return sign(double((*g)[r].b.idle - (*g)[r].a.idle)); }},
        {QStringLiteral("Gaps A"), Kind::Count, gaps(false), {}},
        {QStringLiteral("Gaps B"), Kind::Count, gaps(true), {}},
        {QStringLiteral("Utilisation A"), Kind::Percent, util(false), {}},
        // More utilisation is better: the tone is the opposite sign of the change.
        {QStringLiteral("Utilisation B"), Kind::Percent, util(true),
         [g](std::size_t r) {
             return -sign((*g)[r].b.utilizationPercent - (*g)[r].a.utilizationPercent);
         }},
    };
    if (c.hasRange()) {
        const Comparison* cp = &c;
        cols.push_back(
            {QStringLiteral("Idle per instance A"),
             Kind::Mean,
             [g, cp](std::size_t r) { return QVariant(cp->a.perInstance(double((*g)[r].a.idle))); },
             {}});
        cols.push_back(
            {QStringLiteral("Idle per instance B"), Kind::Mean,
             [g, cp](std::size_t r) { return QVariant(cp->b.perInstance(double((*g)[r].b.idle))); },
             [g, cp](std::size_t r) {
                 return sign(cp->b.perInstance(double((*g)[r].b.idle)) -
                             cp->a.perInstance(double((*g)[r].a.idle)));
             }});
    }
    return cols;
}

} // namespace strobe
