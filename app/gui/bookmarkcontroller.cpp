// SPDX-License-Identifier: MIT
#include "app/gui/bookmarkcontroller.h"

#include "model/trace.h"
#include "widgets/bookmarks.h"
#include "widgets/panels/bookmarkspanel.h"
#include "widgets/timeline/timelineview.h"
#include "widgets/timeline/timeruler.h"
#include "widgets/viewstate.h"

#include <QAction>
#include <QInputDialog>
#include <QMainWindow>
#include <QStatusBar>

namespace strobe {

BookmarkController::BookmarkController(ViewState* state, TimelineView* timeline,
                                       const QString& directory, QMainWindow* window)
    : QObject(window)
    , m_window(window)
    , m_state(state)
    , m_timeline(timeline)
    , m_bookmarks(new Bookmarks(BookmarkStore(directory), this))
    , m_panel(new BookmarksPanel(m_bookmarks, state, window)) {
    timeline->ruler()->setBookmarks(m_bookmarks);
    connect(m_panel, &BookmarksPanel::scrollRequested, timeline, &TimelineView::setScrollY);
    connect(state, &ViewState::traceChanged, this, &BookmarkController::followTrace);
    // The keys are the window's (keybindings.cpp lists them): a text field keeps its digits.
    for (int slot = 1; slot <= kBookmarkSlots; ++slot) {
        auto* store = new QAction(tr("Store the View in Slot %1").arg(slot), window);
        store->setShortcut(QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_0 + slot)));
        connect(store, &QAction::triggered, this, [this, slot] { storeView(slot); });
        auto* recall = new QAction(tr("Go to Slot %1").arg(slot), window);
        recall->setShortcut(QKeySequence(Qt::Key(Qt::Key_0 + slot)));
        connect(recall, &QAction::triggered, this, [this, slot] { recallView(slot); });
        window->addAction(store);
        window->addAction(recall);
    }
    auto* mark = new QAction(tr("Mark the Selection With a Note…"), window);
    mark->setShortcut(QKeySequence(Qt::Key_M));
    connect(mark, &QAction::triggered, this, &BookmarkController::askAndMark);
    window->addAction(mark);
}

void BookmarkController::followTrace() {
    const Trace* trace = m_state->trace();
    const QString warning = m_bookmarks->openTrace(trace ? trace->filePath() : QString());
    if (!warning.isEmpty())
        m_window->statusBar()->showMessage(warning, 10000);
}

std::optional<TimeRange> BookmarkController::markableRange() const {
    if (const auto r = m_state->selectedRange())
        return r;
    const Trace* t = m_state->trace();
    const EventRef ref = m_state->selection();
    if (!t || !ref.isValid() || ref.lane >= t->lanes().size() ||
        ref.index >= t->lane(ref.lane).size())
        return std::nullopt;
    const Lane& l = t->lane(ref.lane);
    return TimeRange{l.start(ref.index), std::max(l.start(ref.index), l.end(ref.index))};
}

bool BookmarkController::markSelection(const QString& note) {
    const auto range = markableRange();
    if (!range)
        return false;
    m_bookmarks->addNote(BookmarkNote{*range, note});
    if (!m_bookmarks->lastError().isEmpty())
        m_window->statusBar()->showMessage(m_bookmarks->lastError(), 10000);
    return true;
}

void BookmarkController::askAndMark() {
    if (!markableRange()) {
        m_window->statusBar()->showMessage(
            tr("Select an event or measure a range on the ruler first, then press M."), 5000);
        return;
    }
    QInputDialog dialog(m_window);
    dialog.setWindowTitle(tr("Mark With a Note"));
    dialog.setLabelText(tr("Note for the marked range (shown on the ruler):"));
    dialog.setMinimumWidth(420); // room for a sentence
    if (dialog.exec() == QDialog::Accepted)
        markSelection(dialog.textValue().trimmed());
}

void BookmarkController::storeView(int slot) {
    if (!m_state->trace())
        return;
    m_bookmarks->storeView(slot, *m_state, m_timeline->scrollY());
    m_window->statusBar()->showMessage(
        m_bookmarks->lastError().isEmpty()
            ? tr("The view is in slot %1: press %1 to come back to it.").arg(slot)
            : m_bookmarks->lastError(),
        5000);
}

void BookmarkController::recallView(int slot) {
    if (const auto scroll = m_bookmarks->recallView(slot, *m_state))
        m_timeline->setScrollY(*scroll);
    else if (m_state->trace())
        m_window->statusBar()->showMessage(
            tr("Slot %1 is empty: Ctrl+%1 stores the view there.").arg(slot), 5000);
}

} // namespace strobe
