// SPDX-License-Identifier: MIT
#include "model/itemmodels/comparisonmodels.h"

#include "model/itemmodels/tableroles.h"
#include "model/valueformat.h"

#include <QStringBuilder>
#include <cstdlib>

namespace strobe {

namespace {

using Kind = ComparisonTableModel::Kind;
using ColumnSpec = ComparisonTableModel::ColumnSpec;

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

// How a pair's B column is coloured: not at all, by the sign of B - A (more is worse), or by its
// opposite (more is better).
enum class Tone : std::uint8_t { None, MoreIsWorse, MoreIsBetter };

// `get` of a row's side A or B.
template <typename Get> auto onSide(Get get) {
    return [get](const auto& row, bool b) { return get(b ? row.b : row.a); };
}

// The columns "<header> A" and "<header> B" of `rows`: `value(row, isB)` is the raw value
// (qulonglong, qlonglong or double). The columns capture the shared rows by pointer:
// setComparison rebuilds them with the comparison.
template <typename Row, typename Value>
void addPair(std::vector<ColumnSpec>& cols, const std::vector<Row>* rows, const QString& header,
             Kind kind, Value value, Tone tone = Tone::None) {
    std::function<int(std::size_t)> toneOfB;
    if (tone != Tone::None) {
        const int more = tone == Tone::MoreIsWorse ? 1 : -1;
        toneOfB = [rows, value, more](std::size_t r) {
            const Row& row = (*rows)[r];
            return more * sign(double(value(row, true) - value(row, false)));
        };
    }
    for (const bool b : {false, true})
        cols.push_back({header % (b ? QStringLiteral(" B") : QStringLiteral(" A")), kind,
                        [rows, value, b](std::size_t r) { return QVariant(value((*rows)[r], b)); },
                        b ? toneOfB : std::function<int(std::size_t)>{}});
}

// With a range, the pair "<header> A", "<header> B": `total(side)` per instance of the range on
// that side, more being worse. Without one, nothing.
template <typename Row, typename Total>
void addPerInstancePair(std::vector<ColumnSpec>& cols, const Comparison& c,
                        const std::vector<Row>* rows, const QString& header, Total total) {
    if (!c.hasRange())
        return;
    const Comparison* cp = &c;
    addPair(
        cols, rows, header, Kind::Mean,
        [cp, total](const Row& row, bool b) {
            return (b ? cp->b : cp->a).perInstance(double(total(b ? row.b : row.a)));
        },
        Tone::MoreIsWorse);
}

// The kernel and the range tables (CountedDiffModel::Column): the name, counts, totals, the
// change, the rows' own pair and, with a range, the totals per instance, without one the launches
// per second of wall time. Totals are coloured only with a range: without one they follow how
// long each trace ran, and `ownTone` (the sign of the own pair's change that counts, more being
// worse) colours the own B column instead.
template <typename Row, typename Own, typename OwnTone>
std::vector<ColumnSpec> countedColumns(const Comparison& c, const std::vector<Row>* rows,
                                       const QString& nameHeader, QString Row::*name,
                                       const QString& ownHeader, Kind ownKind, Own own,
                                       OwnTone ownTone) {
    std::function<int(std::size_t)> delta;
    if (c.hasRange())
        delta = [rows](std::size_t r) { return sign(double((*rows)[r].delta())); };
    std::vector<ColumnSpec> cols{
        {nameHeader,
         Kind::Text,
         [rows, name](std::size_t r) { return QVariant((*rows)[r].*name); },
         {}}};
    addPair(cols, rows, QStringLiteral("Count"), Kind::Count,
            onSide([](const auto& s) { return qulonglong(s.count); }));
    addPair(cols, rows, QStringLiteral("Total"), Kind::Duration,
            onSide([](const auto& s) { return qlonglong(s.total); }));
    cols.push_back({QStringLiteral("\u0394 total"), Kind::SignedDuration,
                    [rows](std::size_t r) { return QVariant(qlonglong((*rows)[r].delta())); },
                    delta});
    cols.push_back({QStringLiteral("\u0394 %"), Kind::SignedPercent,
                    [rows](std::size_t r) { return optionalPercent((*rows)[r].deltaPercent()); },
                    delta});
    addPair(cols, rows, ownHeader, ownKind, onSide(own));
    if (!c.hasRange())
        cols.back().tone = [rows, ownTone](std::size_t r) { return ownTone((*rows)[r]); };
    addPerInstancePair(cols, c, rows, QStringLiteral("Per instance"),
                       [](const auto& s) { return s.total; });
    if (!c.hasRange()) {
        const Comparison* cp = &c;
        addPair(cols, rows, QStringLiteral("Per second"), Kind::Rate, [cp](const Row& row, bool b) {
            return (b ? cp->b : cp->a).perSecond(double((b ? row.b : row.a).count));
        });
    }
    return cols;
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
    QVariant v = col.value(row); // (not const: returned by move)
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
    case Kind::Rate:
        return QString(QString::number(v.toDouble(), 'f', 1) % QStringLiteral("/s"));
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

std::vector<ColumnSpec> KernelDiffModel::columns(const Comparison& c) const {
    // A kernel on one side only: more work when new, less when removed.
    return countedColumns(
        c, &c.kernels, QStringLiteral("Kernel"), &KernelDiffRow::name, QStringLiteral("Median"),
        Kind::Mean, [](const KernelSide& s) { return s.median; },
        [](const KernelDiffRow& r) {
            return r.a.count && r.b.count ? sign(r.b.median - r.a.median) : sign(double(r.delta()));
        });
}

std::vector<ColumnSpec> RangeDiffModel::columns(const Comparison& c) const {
    return countedColumns(
        c, &c.ranges, QStringLiteral("Range"), &RangeDiffRow::range, QStringLiteral("Wall %"),
        Kind::Percent, [](const RangeSide& s) { return s.wallPercent; },
        [](const RangeDiffRow& r) { return sign(r.b.wallPercent - r.a.wallPercent); });
}

std::vector<ColumnSpec> GpuDiffModel::columns(const Comparison& c) const {
    const auto* g = &c.gpus;
    // "GPU 3 / GPU 1" (A's, B's) when any row pairs different ids, "GPU 3" otherwise.
    const bool across = c.pairsAcrossIds();
    std::vector<ColumnSpec> cols{
        {QStringLiteral("GPU"),
         Kind::Text,
         [g, across](std::size_t r) {
             const GpuDiffRow& row = (*g)[r];
             if (!across)
                 return QVariant(QStringLiteral("GPU ") % QString::number(row.deviceId));
             auto side = [](bool present, std::uint32_t id) {
                 return present ? QStringLiteral("GPU ") % QString::number(id)
                                : QString(QChar(0x2014));
             };
             return QVariant(side(row.a.present, row.deviceId) % QStringLiteral(" / ") %
                             side(row.b.present, row.deviceIdB));
         },
         {}}};
    addPair(cols, g, QStringLiteral("Kernels"), Kind::Duration,
            onSide([](const GpuSide& s) { return qlonglong(s.kernelBusy); }));
    addPair(cols, g, QStringLiteral("Copies"), Kind::Duration,
            onSide([](const GpuSide& s) { return qlonglong(s.copyBusy); }));
    addPair(cols, g, QStringLiteral("Idle"), Kind::Duration,
            onSide([](const GpuSide& s) { return qlonglong(s.idle); }),
            c.hasRange() ? Tone::MoreIsWorse : Tone::None); // without: follows the length
    addPair(cols, g, QStringLiteral("Gaps"), Kind::Count,
            onSide([](const GpuSide& s) { return qulonglong(s.gaps); }));
    addPair(cols, g, QStringLiteral("Utilisation"), Kind::Percent,
            onSide([](const GpuSide& s) { return s.utilizationPercent; }), Tone::MoreIsBetter);
    addPerInstancePair(cols, c, g, QStringLiteral("Idle per instance"),
                       [](const GpuSide& s) { return s.idle; });
    return cols;
}

} // namespace strobe
