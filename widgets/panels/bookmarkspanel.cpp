// SPDX-License-Identifier: MIT
#include "widgets/panels/bookmarkspanel.h"

#include "model/timeformat.h"
#include "model/trace.h"
#include "widgets/bookmarks.h"
#include "widgets/viewstate.h"

#include <QHeaderView>
#include <QShortcut>
#include <QStringBuilder>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <algorithm>

namespace strobe {

namespace {

// A row's bookmark: a slot (1..9) or a note (its index), in the item's user role.
constexpr int kSlotRole = Qt::UserRole;
constexpr int kNoteRole = Qt::UserRole + 1;

} // namespace

BookmarksPanel::BookmarksPanel(Bookmarks* bookmarks, ViewState* state, QWidget* parent)
    : QWidget(parent)
    , m_bookmarks(bookmarks)
    , m_state(state)
    , m_tree(new QTreeWidget(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_tree);
    m_tree->setColumnCount(3);
    m_tree->setHeaderLabels({tr("Bookmark"), tr("Range"), tr("Note")});
    m_tree->setRootIsDecorated(false);
    m_tree->setUniformRowHeights(true);
    m_tree->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_tree->header()->setStretchLastSection(true);
    m_tree->setToolTip(tr("Ctrl+1 to Ctrl+9 store the view in a slot, 1 to 9 go back to it; M "
                          "marks the measured range or the selected event with a note. "
                          "Double-click goes there, Delete removes."));
    connect(m_tree, &QTreeWidget::itemActivated, this,
            [this](QTreeWidgetItem* item) { activateRow(m_tree->indexOfTopLevelItem(item)); });
    auto* del = new QShortcut(QKeySequence::Delete, m_tree, this, &BookmarksPanel::removeSelected,
                              Qt::WidgetWithChildrenShortcut);
    del->setObjectName(QStringLiteral("bookmarksDelete"));
    connect(bookmarks, &Bookmarks::changed, this, &BookmarksPanel::rebuild);
    connect(state, &ViewState::traceChanged, this, &BookmarksPanel::rebuild);
    rebuild();
}

void BookmarksPanel::rebuild() {
    m_tree->clear();
    const Trace* trace = m_state->trace();
    const TimeNs origin = trace ? trace->timeRange().start : 0;
    const auto rangeText = [origin](TimeRange r) -> QString {
        if (r.end <= r.start)
            return formatTimestamp(r.start, origin);
        return formatTimestamp(r.start, origin) % QStringLiteral(" to ") %
               formatTimestamp(r.end, origin) % QStringLiteral(" (") %
               formatDuration(r.duration()) % u')';
    };
    const BookmarkSet& set = m_bookmarks->set();
    for (int i = 0; i < kBookmarkSlots; ++i) {
        const auto& v = set.views[size_t(i)];
        if (!v)
            continue;
        auto* item =
            new QTreeWidgetItem(m_tree, {tr("View %1").arg(i + 1), rangeText(v->range), QString()});
        item->setData(0, kSlotRole, i + 1);
    }
    for (std::size_t i = 0; i < set.notes.size(); ++i) {
        const BookmarkNote& n = set.notes[i];
        auto* item = new QTreeWidgetItem(m_tree, {tr("Note"), rangeText(n.range), n.text});
        item->setData(0, kNoteRole, int(i));
        item->setToolTip(2, n.text);
    }
    m_tree->resizeColumnToContents(0);
    m_tree->resizeColumnToContents(1);
}

void BookmarksPanel::activateRow(int row) {
    const QTreeWidgetItem* item = m_tree->topLevelItem(row);
    if (!item || !m_state->trace())
        return;
    if (const QVariant slot = item->data(0, kSlotRole); slot.isValid()) {
        if (const auto scroll = m_bookmarks->recallView(slot.toInt(), *m_state))
            emit scrollRequested(*scroll);
    } else if (const QVariant note = item->data(0, kNoteRole); note.isValid()) {
        const BookmarkNote& n = m_bookmarks->set().notes.at(size_t(note.toInt()));
        if (n.range.end > n.range.start) {
            m_state->setVisibleRange(widened(n.range, 5));
            m_state->setSelectedRange(n.range);
        } else { // an instant: centred, at the current zoom
            const TimeNs half = std::max<TimeNs>(1, m_state->visibleRange().duration() / 2);
            m_state->setVisibleRange({n.range.start - half, n.range.start + half});
        }
    }
    m_state->requestTimelineFocus();
}

void BookmarksPanel::removeSelected() {
    std::vector<int> slotNumbers, notes;
    for (const QTreeWidgetItem* item : m_tree->selectedItems()) {
        if (const QVariant s = item->data(0, kSlotRole); s.isValid())
            slotNumbers.push_back(s.toInt());
        else if (const QVariant n = item->data(0, kNoteRole); n.isValid())
            notes.push_back(n.toInt());
    }
    // Notes from the last, so the indices of the others stay put.
    std::sort(notes.rbegin(), notes.rend());
    for (int s : slotNumbers)
        m_bookmarks->clearSlot(s);
    for (int n : notes)
        m_bookmarks->removeNote(n);
}

} // namespace strobe
