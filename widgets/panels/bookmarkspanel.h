// SPDX-License-Identifier: MIT
#pragma once

#include <QWidget>

class QTreeWidget;

namespace strobe {

class Bookmarks;
class ViewState;

// The Bookmarks panel: the open trace's view slots (1 to 9) and notes, one row each, with the
// time range (from the trace start) and the note. Double-click or Enter goes there: a slot
// restores its view (the scroll through scrollRequested), a note shows its range with a margin
// and selects it as the measured range. Delete removes the selected rows.
class BookmarksPanel : public QWidget {
    Q_OBJECT
public:
    BookmarksPanel(Bookmarks* bookmarks, ViewState* state, QWidget* parent = nullptr);

    QTreeWidget* tree() const { return m_tree; }
    // Goes to the bookmark at `row` (as a double-click does).
    void activateRow(int row);
    // Removes the selected slots and notes.
    void removeSelected();

signals:
    // A recalled slot asks the timeline for this vertical scroll.
    void scrollRequested(int scrollY);

private:
    void rebuild();

    Bookmarks* m_bookmarks;
    ViewState* m_state;
    QTreeWidget* m_tree = nullptr;
};

} // namespace strobe
