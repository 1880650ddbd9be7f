// SPDX-License-Identifier: MIT
#include "widgets/panels/windowedtableview.h"

#include "widgets/panels/rowwindowmodel.h"

#include <QGuiApplication>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QScopedValueRollback>
#include <QScrollBar>
#include <QTimer>
#include <algorithm>
#include <utility>
#include <vector>

namespace strobe {

WindowedTableView::WindowedTableView(QWidget* parent)
    : QTableView(parent)
    , m_window(new RowWindowModel(this))
    , m_rowBar(new QScrollBar(Qt::Vertical, this)) {
    // The view's child (and hidden) until the owner lays it out, which makes it the owner's.
    m_rowBar->hide();
    QTableView::setModel(m_window);
    // Scrolling by items: the view's bar value is the window row at the top.
    setVerticalScrollMode(ScrollPerItem);
    QScrollBar* own = verticalScrollBar();
    connect(own, &QScrollBar::valueChanged, this, [this] {
        if (m_syncing)
            return;
        updateRowBar();
        scheduleFollow();
    });
    connect(m_rowBar, &QScrollBar::valueChanged, this, [this](int top) {
        if (m_syncing)
            return;
        const int inWindow = top - m_window->windowStart();
        QScrollBar* own = verticalScrollBar();
        if (inWindow >= 0 && inWindow <= own->maximum()) {
            const QScopedValueRollback guard(m_syncing, true);
            own->setValue(inWindow);
        } else {
            moveWindow(m_window->centredStart(top), top);
        }
        scheduleFollow();
    });
    connect(m_window, &QAbstractItemModel::modelReset, this, [this] {
        if (!m_syncing) { // the source changed: its rows are others now
            m_parked.clear();
            m_current.reset();
        }
        updateRowBar();
    });
    QItemSelectionModel* selection = selectionModel();
    connect(selection, &QItemSelectionModel::currentChanged, this, [this](const QModelIndex& i) {
        if (!m_syncing && i.isValid())
            m_current = std::pair(sourceRow(i), i.column());
    });
    connect(selection, &QItemSelectionModel::selectionChanged, this, [this] {
        // A new selection (no Ctrl or Shift) replaces the one kept outside the window too.
        const auto extending = Qt::ControlModifier | Qt::ShiftModifier;
        if (!m_syncing && !(QGuiApplication::keyboardModifiers() & extending))
            m_parked.clear();
    });
}

WindowedTableView::~WindowedTableView() {
    // The bars and the window outlive this part of the view while Qt's bases are destroyed.
    verticalScrollBar()->disconnect(this);
    m_window->disconnect(this);
    if (selectionModel())
        selectionModel()->disconnect(this);
    if (m_rowBar)
        m_rowBar->disconnect(this);
}

void WindowedTableView::setSourceModel(QAbstractItemModel* source) {
    m_window->setSourceModel(source);
}

QAbstractItemModel* WindowedTableView::sourceModel() const {
    return m_window->sourceModel();
}

void WindowedTableView::setWindowRows(int rows) {
    m_window->setWindowRows(rows);
}

int WindowedTableView::windowRows() const {
    return m_window->windowRows();
}

int WindowedTableView::windowStart() const {
    return m_window->windowStart();
}

int WindowedTableView::sourceRow(const QModelIndex& index) const {
    return index.isValid() && index.model() == m_window ? m_window->windowStart() + index.row()
                                                        : -1;
}

QModelIndex WindowedTableView::windowIndex(int row, int column) {
    if (row < 0 || row >= m_window->sourceRows())
        return {};
    const int start = m_window->windowStart();
    if (row < start || row >= start + m_window->rowCount())
        moveWindow(m_window->centredStart(row), row);
    return m_window->index(row - m_window->windowStart(), column);
}

void WindowedTableView::scrollToSourceTop() {
    if (m_window->windowStart() != 0)
        moveWindow(0, 0);
    scrollToTop();
}

QModelIndex WindowedTableView::moveCursor(CursorAction action, Qt::KeyboardModifiers modifiers) {
    if (!m_window->holdsAll()) {
        const bool toEnd =
            (action == MoveEnd || action == MoveHome) && (modifiers & Qt::ControlModifier);
        if (toEnd) {
            // The view's own answer would be the window's end. Qt's column: the last for End.
            const int target = action == MoveEnd ? m_window->sourceRows() - 1 : 0;
            moveWindow(m_window->centredStart(target), target);
            return m_window->index(target - m_window->windowStart(),
                                   action == MoveEnd ? m_window->columnCount() - 1 : 0);
        }
        if (!currentIndex().isValid() && m_current) {
            // The current row was scrolled out of the window: keys go on from it, as they do
            // from a current row scrolled out of view.
            const int row = m_current->first;
            moveWindow(m_window->centredStart(row),
                       std::max(0, row - verticalScrollBar()->pageStep() / 2));
        }
        if (const int current = sourceRow(currentIndex()); current >= 0) {
            // A page or a row from the current one must lie in the window.
            const int reach = std::max(1, verticalScrollBar()->pageStep()) + 1;
            if (leavesWindow(current - reach, current + reach))
                moveWindow(m_window->centredStart(current),
                           m_window->windowStart() + verticalScrollBar()->value());
        }
    }
    return QTableView::moveCursor(action, modifiers);
}

void WindowedTableView::updateGeometries() {
    QTableView::updateGeometries(); // sets the view's bar: range, then page step
    updateRowBar();
}

void WindowedTableView::scheduleFollow() {
    // After the event that scrolled: a reset inside Qt's own key or mouse handling would
    // invalidate the indexes it still holds (the new current one, the Shift anchor).
    if (std::exchange(m_followPending, true))
        return;
    QTimer::singleShot(0, this, [this] {
        m_followPending = false;
        followRowsInView();
    });
}

void WindowedTableView::followRowsInView() {
    // Not while the mouse drags a selection: its anchor is a position in the window.
    if (m_window->holdsAll() || state() == DragSelectingState)
        return;
    // A quarter of the window on either side of the rows in view, so that wheel, keys and
    // dragging a selection rarely meet an end of the window before it moves.
    const int top = m_window->windowStart() + verticalScrollBar()->value();
    const int margin = m_window->windowRows() / 4;
    const int bottom = top + verticalScrollBar()->pageStep(); // one past the last row in view
    if (leavesWindow(top - margin, bottom + margin - 1))
        moveWindow(m_window->centredStart(top), top);
}

bool WindowedTableView::leavesWindow(int first, int last) const {
    const int start = m_window->windowStart(), end = start + m_window->rowCount();
    return (first < start && start > 0) || (last >= end && end < m_window->sourceRows());
}

std::vector<std::pair<int, int>> WindowedTableView::selectedRanges() const {
    std::vector<std::pair<int, int>> ranges = m_parked;
    const int start = m_window->windowStart();
    for (const QItemSelectionRange& r : selectionModel()->selection())
        ranges.emplace_back(start + r.top(), start + r.bottom());
    std::sort(ranges.begin(), ranges.end());
    std::vector<std::pair<int, int>> merged; // ranges of rows, ascending, apart
    for (const auto& [first, last] : ranges) {
        if (!merged.empty() && first <= merged.back().second + 1)
            merged.back().second = std::max(merged.back().second, last);
        else
            merged.emplace_back(first, last);
    }
    return merged;
}

std::vector<int> WindowedTableView::selectedSourceRows() const {
    std::vector<int> rows;
    for (const auto& [first, last] : selectedRanges()) {
        for (int r = first; r <= last; ++r)
            rows.push_back(r);
    }
    return rows;
}

void WindowedTableView::selectAll() {
    QTableView::selectAll();
    if (selectionMode() != MultiSelection && selectionMode() != ExtendedSelection)
        return;
    // Every row, not only the window's: the rest are kept aside until the window reaches them.
    m_parked.clear();
    const int start = m_window->windowStart(), end = start + m_window->rowCount();
    if (start > 0)
        m_parked.emplace_back(0, start - 1);
    if (end < m_window->sourceRows())
        m_parked.emplace_back(end, m_window->sourceRows() - 1);
}

void WindowedTableView::moveWindow(int start, int topRow) {
    const int oldStart = m_window->windowStart();
    if (m_window->clampedStart(start) == oldStart)
        return;
    const std::vector<std::pair<int, int>> selected = selectedRanges();
    const QScopedValueRollback guard(m_syncing, true);
    m_window->setWindowStart(start);
    const int newStart = m_window->windowStart();
    const int last = newStart + m_window->rowCount() - 1;
    // The selection in the new window is shown; the rest is kept aside (m_parked).
    QItemSelection kept;
    m_parked.clear();
    const int lastColumn = m_window->columnCount() - 1;
    for (const auto& [first, end] : selected) {
        const int a = std::max(first, newStart), b = std::min(end, last);
        if (a <= b && lastColumn >= 0)
            kept.select(m_window->index(a - newStart, 0),
                        m_window->index(b - newStart, lastColumn));
        if (first < newStart)
            m_parked.emplace_back(first, std::min(end, newStart - 1));
        if (end > last)
            m_parked.emplace_back(std::max(first, last + 1), end);
    }
    QItemSelectionModel* selection = selectionModel();
    selection->select(kept, QItemSelectionModel::ClearAndSelect);
    // Final, not the provisional selection a Shift+arrow would replace.
    selection->select(QItemSelection(), QItemSelectionModel::Select);
    if (m_current && m_current->first >= newStart && m_current->first <= last)
        selection->setCurrentIndex(m_window->index(m_current->first - newStart, m_current->second),
                                   QItemSelectionModel::NoUpdate);
    executeDelayedItemsLayout(); // the view's bar gets the new window's range now
    verticalScrollBar()->setValue(topRow - newStart);
    updateRowBar();
}

void WindowedTableView::updateRowBar() {
    const bool windowed = !m_window->holdsAll();
    const Qt::ScrollBarPolicy policy = windowed ? Qt::ScrollBarAlwaysOff : Qt::ScrollBarAsNeeded;
    if (verticalScrollBarPolicy() != policy)
        setVerticalScrollBarPolicy(policy);
    if (!m_rowBar)
        return;
    m_rowBar->setVisible(windowed && m_rowBar->parentWidget() != this);
    if (!windowed)
        return;
    // The window's bar stretched over every row: its last top row is the source's.
    const QScrollBar* own = verticalScrollBar();
    const int start = m_window->windowStart();
    const QScopedValueRollback guard(m_syncing, true);
    m_rowBar->setRange(0, m_window->sourceRows() - m_window->rowCount() + own->maximum());
    m_rowBar->setPageStep(own->pageStep());
    m_rowBar->setSingleStep(own->singleStep());
    m_rowBar->setValue(start + own->value());
}

} // namespace strobe
