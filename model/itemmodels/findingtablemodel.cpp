// SPDX-License-Identifier: MIT
#include "model/itemmodels/findingtablemodel.h"

#include "model/itemmodels/tableroles.h"
#include "model/timeformat.h"

#include <QStringBuilder>

namespace strobe {

FindingTableModel::FindingTableModel(QObject* parent)
    : QAbstractTableModel(parent) {}

void FindingTableModel::reset(const Trace* trace, const Findings* findings) {
    beginResetModel();
    m_findings = trace ? findings : nullptr;
    m_words.clear();
    m_titles.clear();
    if (m_findings) {
        for (const Finding& f : m_findings->findings) {
            m_words.push_back(findingWords(*trace, f));
            m_titles.push_back(findingRuleTitle(f.rule));
        }
    }
    endResetModel();
}

void FindingTableModel::resetJob(const Findings* findings) {
    beginResetModel();
    m_findings = findings;
    m_words.clear();
    m_titles.clear();
    if (m_findings) {
        for (const Finding& f : m_findings->findings) {
            m_words.push_back(jobFindingWords(f));
            m_titles.push_back(findingRuleTitle(f.rule));
        }
    }
    endResetModel();
}

const Finding* FindingTableModel::findingAt(int row) const {
    return m_findings && row >= 0 && std::size_t(row) < m_findings->findings.size()
               ? &m_findings->findings[std::size_t(row)]
               : nullptr;
}

FindingWords FindingTableModel::wordsAt(int row) const {
    return findingAt(row) ? m_words[std::size_t(row)] : FindingWords{};
}

int FindingTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() || !m_findings ? 0 : int(m_findings->findings.size());
}

int FindingTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(ColumnCount);
}

QString FindingTableModel::shareBaseText(ShareBase base) {
    switch (base) {
    case ShareBase::Span:
        return tr("of the span (first to last event; the GPU's for a rule per GPU)");
    case ShareBase::Step:
        return tr("of the average step");
    case ShareBase::GpuTime:
        return tr("of the GPU time of all kernels");
    }
    return {};
}

QVariant FindingTableModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const std::size_t row = std::size_t(index.row());
    const Finding& f = m_findings->findings[row];
    const auto col = Column(index.column());
    const bool text = col == Rule || col == Sentence;
    if (role == Qt::TextAlignmentRole)
        return text ? int(Qt::AlignLeft | Qt::AlignVCenter)
                    : int(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole) {
        switch (col) {
        case Rule:
            return findingRuleId(f.rule);
        case Share:
            return shareBaseText(f.base);
        case Sentence:
            return m_words[row].nextStep.isEmpty()
                       ? m_words[row].finding
                       : QString(m_words[row].finding % u'\n' % m_words[row].nextStep);
        default:
            return {};
        }
    }
    const bool raw = role == SortRole || role == ExportRole;
    if (!raw && role != Qt::DisplayRole)
        return {};
    switch (col) {
    case Position:
        return raw ? QVariant(qulonglong(row + 1)) : QVariant(QString::number(row + 1));
    case Rule:
        return raw && role == ExportRole ? findingRuleId(f.rule) : m_titles[row];
    case Time:
        return raw ? QVariant(qlonglong(f.timeNs)) : QVariant(formatDuration(f.timeNs));
    case Share:
        return raw ? QVariant(f.sharePercent)
                   : QVariant(QString(QString::number(f.sharePercent, 'f', 1) % u" %"));
    case Sentence:
        return m_words[row].finding;
    case ColumnCount:
        break;
    }
    return {};
}

QVariant FindingTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    const auto col = Column(section);
    if (role == Qt::InitialSortOrderRole)
        return initialSortOrder(col == Time || col == Share);
    if (role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (col) {
    case Position:
        return QStringLiteral("#");
    case Rule:
        return tr("Rule");
    case Time:
        return tr("Time at stake");
    case Share:
        return tr("Share");
    case Sentence:
        return tr("Finding");
    case ColumnCount:
        break;
    }
    return {};
}

} // namespace strobe
