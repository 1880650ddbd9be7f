// SPDX-License-Identifier: MIT
#include "widgets/bookmarks.h"

#include "widgets/viewstate.h"

#include <algorithm>

namespace strobe {

Bookmarks::Bookmarks(std::optional<BookmarkStore> store, QObject* parent)
    : QObject(parent)
    , m_store(std::move(store)) {}

QString Bookmarks::openTrace(const QString& tracePath) {
    if (tracePath == m_path && !tracePath.isEmpty())
        return {};
    m_path = tracePath;
    BookmarkLoad loaded;
    if (m_store && !tracePath.isEmpty())
        loaded = m_store->load(tracePath);
    m_set = std::move(loaded.set);
    m_error.clear();
    emit changed();
    return loaded.warning;
}

void Bookmarks::storeView(int slot, const ViewState& state, int scrollY) {
    if (slot < 1 || slot > kBookmarkSlots || !state.trace())
        return;
    m_set.views[size_t(slot - 1)] = ViewBookmark{state.visibleRange(), std::max(0, scrollY)};
    commit();
}

std::optional<int> Bookmarks::recallView(int slot, ViewState& state) const {
    if (slot < 1 || slot > kBookmarkSlots || !state.trace())
        return std::nullopt;
    const auto& b = m_set.views[size_t(slot - 1)];
    if (!b)
        return std::nullopt;
    state.setVisibleRange(b->range);
    return b->scrollY;
}

void Bookmarks::clearSlot(int slot) {
    if (slot < 1 || slot > kBookmarkSlots || !m_set.views[size_t(slot - 1)])
        return;
    m_set.views[size_t(slot - 1)].reset();
    commit();
}

void Bookmarks::addNote(BookmarkNote note) {
    if (int(m_set.notes.size()) >= kMaxBookmarkNotes)
        return;
    note.text = note.text.left(kMaxBookmarkNoteChars);
    m_set.notes.push_back(std::move(note));
    commit();
}

void Bookmarks::removeNote(int index) {
    if (index < 0 || index >= int(m_set.notes.size()))
        return;
    m_set.notes.erase(m_set.notes.begin() + index);
    commit();
}

void Bookmarks::commit() {
    if (m_store && !m_path.isEmpty())
        m_error = m_store->save(m_path, m_set);
    emit changed();
}

} // namespace strobe
