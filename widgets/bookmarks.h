// SPDX-License-Identifier: MIT
#pragma once

#include "model/bookmarks.h"

#include <QObject>
#include <QString>
#include <optional>

namespace strobe {

class ViewState;

// The open trace's bookmarks, saved to the store on every change. The views (panel, ruler, the
// main window's keys) observe `changed`.
class Bookmarks : public QObject {
    Q_OBJECT
public:
    // `store` nullptr: kept in memory only.
    explicit Bookmarks(std::optional<BookmarkStore> store, QObject* parent = nullptr);

    // Switches to the bookmarks of `tracePath` (empty: none, in memory). Returns the store's
    // warning, or empty.
    QString openTrace(const QString& tracePath);
    QString tracePath() const { return m_path; }
    const BookmarkSet& set() const { return m_set; }

    // Slot `slot` (1..9) holds `state`'s visible range and `scrollY`.
    void storeView(int slot, const ViewState& state, int scrollY);
    // Moves `state` to slot `slot` (1..9); returns the scroll to apply, nullopt when it is empty.
    std::optional<int> recallView(int slot, ViewState& state) const;
    void clearSlot(int slot);

    void addNote(BookmarkNote note);
    void removeNote(int index);

    // A sentence when the last save failed, else empty.
    QString lastError() const { return m_error; }

signals:
    void changed();

private:
    void commit();

    std::optional<BookmarkStore> m_store;
    QString m_path;
    BookmarkSet m_set;
    QString m_error;
};

} // namespace strobe
