// SPDX-License-Identifier: MIT
#pragma once

#include "model/types.h"

#include <QObject>
#include <optional>

class QMainWindow;

namespace strobe {

class Bookmarks;
class BookmarksPanel;
class TimelineView;
class ViewState;

// The main window's bookmarks: the open trace's set (kept in `directory`, the configuration
// folder), its panel, its flags on the timeline's ruler and the window's keys: Ctrl+1..9 store
// the view in a slot, 1..9 go back to it, M marks the measured range (else the selected event)
// with a note asked for in a small dialog. A bookmarks file that cannot be used is said once in
// the status bar.
class BookmarkController : public QObject {
    Q_OBJECT
public:
    BookmarkController(ViewState* state, TimelineView* timeline, const QString& directory,
                       QMainWindow* window);

    Bookmarks* bookmarks() const { return m_bookmarks; }
    BookmarksPanel* panel() const { return m_panel; }

    // What M marks: the measured range, else the selected event's extent; nullopt: neither.
    std::optional<TimeRange> markableRange() const;
    // Marks markableRange() with `note`; false when there is nothing to mark.
    bool markSelection(const QString& note);
    // Asks for the note in a dialog, then marks (what M does).
    void askAndMark();
    void storeView(int slot);
    void recallView(int slot);

private:
    void followTrace();

    QMainWindow* m_window;
    ViewState* m_state;
    TimelineView* m_timeline;
    Bookmarks* m_bookmarks;
    BookmarksPanel* m_panel;
};

} // namespace strobe
