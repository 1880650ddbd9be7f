// SPDX-License-Identifier: MIT
#pragma once

#include <QAbstractTableModel>
#include <QPointer>

namespace strobe {

// A window of at most windowRows() consecutive rows of a flat table model, from windowStart():
// what a view of a table with tens of millions of rows shows, so that the view's per-row
// structures (Qt's header keeps one section per row, rebuilt on every reset) stay as small as
// the window. Moving the window is a reset of this model only; any structural change of the
// source (reset, rows inserted, removed or moved, layout changed) is a reset too, with the start
// clamped so the window stays full where the source has the rows (a layoutChanged without its
// "about to" too). Data changes map to the rows in the window. For read-only tables: editing,
// lazy fetching and drag and drop are not passed on.
class RowWindowModel : public QAbstractTableModel {
    Q_OBJECT
public:
    explicit RowWindowModel(QObject* parent = nullptr);

    // The table shown; not owned. Sorting the window sorts it.
    void setSourceModel(QAbstractItemModel* source);
    QAbstractItemModel* sourceModel() const { return m_source; }

    static constexpr int kDefaultWindowRows = 1 << 16; // a reset of this many rows: ~0.5 ms

    // The window's size; at least 1. A change is a reset.
    void setWindowRows(int rows);
    int windowRows() const { return m_windowRows; }
    // Moves the window so it starts at source row `start`, clamped to [0, sourceRows() - rows].
    void setWindowStart(int start);
    int windowStart() const { return m_start; }
    int sourceRows() const;
    // The window start that holds `sourceRow` with the window centred on it, clamped.
    int centredStart(int sourceRow) const;
    // `start` clamped to [0, sourceRows() - windowRows()] (0 when the source has fewer rows).
    int clampedStart(int start) const;
    // True when every source row is in the window.
    bool holdsAll() const { return sourceRows() <= m_windowRows; }

    QModelIndex mapToSource(const QModelIndex& windowIndex) const;
    // Invalid for a source row outside the window.
    QModelIndex mapFromSource(const QModelIndex& sourceIndex) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

private:
    void beginSourceChange();
    void endSourceChange();

    int m_windowRows = kDefaultWindowRows;
    int m_start = 0;
    QPointer<QAbstractItemModel> m_source;
    bool m_resetting = false; // between a source change's "about to" and its end
    QList<QMetaObject::Connection> m_connections;
};

} // namespace strobe
