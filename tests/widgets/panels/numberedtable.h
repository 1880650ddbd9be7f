// SPDX-License-Identifier: MIT
#pragma once

#include <QAbstractTableModel>

namespace strobe::test {

// A table of `rows` x 3 whose cell (r, c) holds r * 10 + c and whose row header is "row r":
// any window of it says which source rows it shows. sort() records its call.
class NumberedTable : public QAbstractTableModel {
public:
    explicit NumberedTable(int rows, QObject* parent = nullptr)
        : QAbstractTableModel(parent)
        , m_rows(rows) {}

    void resetTo(int rows) {
        beginResetModel();
        m_rows = rows;
        endResetModel();
    }
    void append(int rows) {
        beginInsertRows({}, m_rows, m_rows + rows - 1);
        m_rows += rows;
        endInsertRows();
    }
    // Fewer rows announced by layoutChanged alone, which Qt allows.
    void shrinkQuietly(int rows) {
        m_rows = rows;
        emit layoutChanged();
    }
    void changed(int first, int last) { emit dataChanged(index(first, 0), index(last, 2)); }

    int rowCount(const QModelIndex& parent = {}) const override {
        return parent.isValid() ? 0 : m_rows;
    }
    int columnCount(const QModelIndex& parent = {}) const override {
        return parent.isValid() ? 0 : 3;
    }
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override {
        if (!index.isValid() || role != Qt::DisplayRole)
            return {};
        return index.row() * 10 + index.column();
    }
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override {
        if (role != Qt::DisplayRole)
            return {};
        return orientation == Qt::Horizontal ? QStringLiteral("column %1").arg(section)
                                             : QStringLiteral("row %1").arg(section);
    }
    void sort(int column, Qt::SortOrder order) override {
        sortedBy = column;
        sortedOrder = order;
    }

    int sortedBy = -1;
    Qt::SortOrder sortedOrder = Qt::AscendingOrder;

private:
    int m_rows;
};

} // namespace strobe::test
