// SPDX-License-Identifier: MIT
#include "widgets/panels/rowwindowmodel.h"

#include <algorithm>
#include <utility>

namespace strobe {

RowWindowModel::RowWindowModel(QObject* parent)
    : QAbstractTableModel(parent) {}

void RowWindowModel::setSourceModel(QAbstractItemModel* source) {
    beginResetModel();
    for (const auto& c : std::as_const(m_connections))
        disconnect(c);
    m_connections.clear();
    m_source = source;
    m_start = 0;
    if (source) {
        using M = QAbstractItemModel;
        const auto begin = [this] { beginSourceChange(); };
        const auto end = [this] { endSourceChange(); };
        m_connections = {
            connect(source, &M::modelAboutToBeReset, this, begin),
            connect(source, &M::modelReset, this, end),
            connect(source, &M::rowsAboutToBeInserted, this, begin),
            connect(source, &M::rowsInserted, this, end),
            connect(source, &M::rowsAboutToBeRemoved, this, begin),
            connect(source, &M::rowsRemoved, this, end),
            connect(source, &M::rowsAboutToBeMoved, this, begin),
            connect(source, &M::rowsMoved, this, end),
            connect(source, &M::columnsAboutToBeInserted, this, begin),
            connect(source, &M::columnsInserted, this, end),
            connect(source, &M::columnsAboutToBeRemoved, this, begin),
            connect(source, &M::columnsRemoved, this, end),
            connect(source, &M::columnsAboutToBeMoved, this, begin),
            connect(source, &M::columnsMoved, this, end),
            connect(source, &M::layoutAboutToBeChanged, this, begin),
            connect(source, &M::layoutChanged, this, end),
            connect(source, &QObject::destroyed, this, [this] { setSourceModel(nullptr); }),
            connect(source, &M::dataChanged, this,
                    [this](const QModelIndex& topLeft, const QModelIndex& bottomRight,
                           const QList<int>& roles) {
                        const int first = std::max(topLeft.row(), m_start);
                        const int last = std::min(bottomRight.row(), m_start + rowCount() - 1);
                        if (first <= last)
                            emit dataChanged(index(first - m_start, topLeft.column()),
                                             index(last - m_start, bottomRight.column()), roles);
                    }),
            connect(source, &M::headerDataChanged, this,
                    [this](Qt::Orientation orientation, int first, int last) {
                        if (orientation == Qt::Horizontal) {
                            emit headerDataChanged(orientation, first, last);
                            return;
                        }
                        first = std::max(first, m_start) - m_start;
                        last = std::min(last - m_start, rowCount() - 1);
                        if (first <= last)
                            emit headerDataChanged(orientation, first, last);
                    }),
        };
    }
    endResetModel();
}

void RowWindowModel::beginSourceChange() {
    if (std::exchange(m_resetting, true))
        return;
    beginResetModel();
}

void RowWindowModel::endSourceChange() {
    // A layoutChanged may come without its "about to": the rows changed already, reset now.
    if (!std::exchange(m_resetting, false))
        beginResetModel();
    m_start = clampedStart(m_start);
    endResetModel();
}

void RowWindowModel::setWindowRows(int rows) {
    rows = std::max(1, rows);
    if (rows == m_windowRows)
        return;
    beginResetModel();
    m_windowRows = rows;
    m_start = clampedStart(m_start);
    endResetModel();
}

void RowWindowModel::setWindowStart(int start) {
    start = clampedStart(start);
    if (start == m_start)
        return;
    beginResetModel();
    m_start = start;
    endResetModel();
}

int RowWindowModel::sourceRows() const {
    return m_source ? m_source->rowCount() : 0;
}

int RowWindowModel::clampedStart(int start) const {
    return std::clamp(start, 0, std::max(0, sourceRows() - m_windowRows));
}

int RowWindowModel::centredStart(int sourceRow) const {
    return clampedStart(sourceRow - m_windowRows / 2);
}

QModelIndex RowWindowModel::mapToSource(const QModelIndex& windowIndex) const {
    if (!windowIndex.isValid() || windowIndex.model() != this || !m_source)
        return {};
    return m_source->index(windowIndex.row() + m_start, windowIndex.column());
}

QModelIndex RowWindowModel::mapFromSource(const QModelIndex& sourceIndex) const {
    if (!sourceIndex.isValid() || sourceIndex.model() != m_source)
        return {};
    return index(sourceIndex.row() - m_start, sourceIndex.column());
}

int RowWindowModel::rowCount(const QModelIndex& parent) const {
    // Between a source change's "about to" and its end, the source may already have its new
    // rows while the view still holds the old window: the count clamps to what the source has.
    if (parent.isValid())
        return 0;
    return std::clamp(sourceRows() - m_start, 0, m_windowRows);
}

int RowWindowModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() || !m_source ? 0 : m_source->columnCount();
}

QVariant RowWindowModel::data(const QModelIndex& index, int role) const {
    return m_source ? m_source->data(mapToSource(index), role) : QVariant();
}

Qt::ItemFlags RowWindowModel::flags(const QModelIndex& index) const {
    return m_source ? m_source->flags(mapToSource(index)) : Qt::NoItemFlags;
}

QVariant RowWindowModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (!m_source)
        return {};
    // Columns are the source's, also when the window is empty; rows are numbered as the source's.
    return m_source->headerData(orientation == Qt::Horizontal ? section : section + m_start,
                                orientation, role);
}

void RowWindowModel::sort(int column, Qt::SortOrder order) {
    if (m_source)
        m_source->sort(column, order);
}

} // namespace strobe
