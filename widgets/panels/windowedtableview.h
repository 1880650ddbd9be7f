// SPDX-License-Identifier: MIT
#pragma once

#include <QPointer>
#include <QScrollBar>
#include <QTableView>
#include <optional>
#include <utility>
#include <vector>

namespace strobe {

class RowWindowModel;

// A table view of any number of rows at the cost of a window of them. Qt's QTableView keeps
// one header section per row and rebuilds them on every reset: at 30 million rows a reset
// stalls the GUI thread for seconds. This view shows its source model through a RowWindowModel
// of windowRows() rows (RowWindowModel::kDefaultWindowRows unless set); up to that many rows it
// is a plain QTableView. Beyond, its own scroll
// bar is hidden and rowScrollBar() (which the owner lays out beside it) spans every source row;
// the window follows the rows in view, the current row, Ctrl+Home and Ctrl+End, keeping the
// current row and the selection that lies in the new window. Indexes of the view (model(),
// currentIndex(), the selection) are window indexes: sourceRow() and windowIndex() convert.
class WindowedTableView : public QTableView {
    Q_OBJECT
public:
    explicit WindowedTableView(QWidget* parent = nullptr);
    ~WindowedTableView() override;

    void setSourceModel(QAbstractItemModel* source);
    QAbstractItemModel* sourceModel() const;
    void setWindowRows(int rows);
    int windowRows() const;
    // The first source row of the window.
    int windowStart() const;

    // Spans every source row while the window holds only some of them; hidden otherwise.
    QScrollBar* rowScrollBar() const { return m_rowBar; }

    // The source row of a window index; -1 for an invalid one.
    int sourceRow(const QModelIndex& index) const;
    // The window index of source row `row`, moving the window to hold it if needed; invalid for
    // a row the source does not have.
    QModelIndex windowIndex(int row, int column = 0);
    // Scrolls to source row 0.
    void scrollToSourceTop();
    // The selected source rows, ascending, also those outside the window: a selection is kept
    // whole while the window moves (rows leaving it are kept aside and selected again when it
    // comes back), until the user makes a new one.
    std::vector<int> selectedSourceRows() const;
    // Selects every source row (Ctrl+A).
    void selectAll() override;

protected:
    QModelIndex moveCursor(CursorAction action, Qt::KeyboardModifiers modifiers) override;
    void updateGeometries() override;

private:
    // Moves the window to start at `start`, keeping the current row, the selection inside the
    // new window and the source row at the top of the view.
    void moveWindow(int start, int topRow);
    // Moves the window when the rows in view come near one of its ends, after this event.
    void scheduleFollow();
    void followRowsInView();
    // True when source rows [first, last] reach past an end of the window that could move.
    bool leavesWindow(int first, int last) const;
    void updateRowBar();
    // The selection in source rows, the window's and the kept-aside, merged and ascending.
    std::vector<std::pair<int, int>> selectedRanges() const;

    RowWindowModel* m_window;
    QPointer<QScrollBar> m_rowBar;
    std::vector<std::pair<int, int>> m_parked;    // selected source rows outside the window
    std::optional<std::pair<int, int>> m_current; // the current cell, in source rows
    bool m_syncing = false;                       // the window or the bars are being set to agree
    bool m_followPending = false;                 // followRowsInView is queued
};

} // namespace strobe
