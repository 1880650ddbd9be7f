// SPDX-License-Identifier: MIT
#include "model/itemmodels/reporttablemodel.h"

#include "model/itemmodels/tableroles.h"
#include "model/timeformat.h"
#include "model/valueformat.h"

#include <QStringBuilder>
#include <algorithm>
#include <cmath>
#include <limits>

namespace strobe {

ReportTableModel::Unit ReportTableModel::unitOf(const QString& name) {
    if (name.endsWith(u"start_ns") || name.endsWith(u"end_ns") || name == u"Start (ns)")
        return Unit::Timestamp;
    if (name.endsWith(u"_ns") || name == u"Duration (ns)")
        return Unit::Duration;
    if (name.endsWith(u"_bytes"))
        return Unit::Bytes;
    if (name.endsWith(u"_percent"))
        return Unit::Percent;
    if (name == u"instances" || name.endsWith(u"_instances") || name.endsWith(u"_ops"))
        return Unit::Count;
    return Unit::Text;
}

QString ReportTableModel::headerOf(const QString& name) {
    if (name.endsWith(u" (ns)")) // nsys's "Start (ns)": the unit is in the cells
        return name.chopped(5);
    QStringList words = name.split(u'_');
    if (words.size() > 1 && (words.back() == u"ns" || words.back() == u"bytes"))
        words.removeLast();
    for (QString& w : words) {
        if (w == u"avg")
            w = QStringLiteral("average");
        else if (w == u"med")
            w = QStringLiteral("median");
        else if (w == u"stddev")
            w = QStringLiteral("std dev");
        else if (w == u"proj")
            w = QStringLiteral("projected");
        else if (w == u"percent")
            w = QStringLiteral("%");
        else if (w == u"api" || w == u"gpu" || w == u"cpu")
            w = w.toUpper();
    }
    QString header = words.join(u' ');
    if (!header.isEmpty())
        header[0] = header[0].toUpper();
    return header;
}

ReportTableModel::ReportTableModel(QObject* parent)
    : QAbstractTableModel(parent) {}

void ReportTableModel::setTimeOrigin(std::optional<TimeNs> origin) {
    beginResetModel();
    m_origin = origin;
    endResetModel();
}

void ReportTableModel::setTable(ReportTable table) {
    Q_ASSERT(!table.fillRow);
    beginResetModel();
    m_table = std::move(table);
    m_units.clear();
    for (const QString& c : m_table.columns)
        m_units.push_back(unitOf(c));
    endResetModel();
}

int ReportTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_table.rows.size());
}

int ReportTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_table.columns.size());
}

QVariant ReportTableModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const auto& row = m_table.rows[std::size_t(index.row())];
    if (std::size_t(index.column()) >= row.size())
        return {};
    const ReportCell& cell = row[std::size_t(index.column())];
    const Unit unit = m_units[std::size_t(index.column())];
    if (role == Qt::TextAlignmentRole)
        return unit == Unit::Text ? int(Qt::AlignLeft | Qt::AlignVCenter)
                                  : int(Qt::AlignRight | Qt::AlignVCenter);
    const bool number = cell.kind == ReportCell::Kind::Number;
    if (role == ExportRole) {
        if (!number)
            return cell.text; // empty for null
        // A number stays one (not quoted in JSON); integers exact, decimals as the CLI's.
        bool integral = false;
        const qlonglong i = cell.text.toLongLong(&integral);
        return integral ? QVariant(i) : QVariant(cell.text.toDouble());
    }
    if (role == SortRole) {
        if (cell.kind == ReportCell::Kind::Text)
            return cell.text;
        return number ? cell.text.toDouble() : std::numeric_limits<double>::lowest();
    }
    if (role != Qt::DisplayRole)
        return {};
    if (!number)
        return cell.text; // text, or empty for a statistic over no values
    const double v = cell.text.toDouble();
    switch (unit) {
    case Unit::Timestamp:
        if (m_origin)
            return formatTimestamp(TimeNs(std::llround(v)), *m_origin);
        return formatMeanDuration(v);
    case Unit::Duration:
        return formatMeanDuration(v);
    case Unit::Bytes:
        return formatBytes(std::uint64_t(std::llround(std::max(0.0, v))));
    case Unit::Percent:
        return QString(cell.text % u" %");
    case Unit::Count:
    case Unit::Text:
        break;
    }
    return cell.text;
}

QVariant ReportTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= m_table.columns.size())
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::InitialSortOrderRole)
        return initialSortOrder(m_units[std::size_t(section)] != Unit::Text);
    if (role == Qt::DisplayRole)
        return headerOf(m_table.columns[section]);
    if (role == Qt::ToolTipRole)
        return m_table.columns[section]; // the CLI's and the CSV export's name
    return QAbstractTableModel::headerData(section, orientation, role);
}

} // namespace strobe
