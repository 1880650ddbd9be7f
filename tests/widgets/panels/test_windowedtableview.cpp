// SPDX-License-Identifier: MIT
#include "tests/widgets/panels/numberedtable.h"
#include "widgets/panels/windowedtableview.h"

#include <QApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QScrollBar>
#include <QTest>
#include <gtest/gtest.h>

using namespace strobe;
using namespace strobe::test;

namespace {

// A shown view of `rows` numbered rows through a window of `window`, its row bar beside it as
// an owner lays it out.
struct Shown {
    Shown(int rows, int window)
        : source(rows) {
        view = new WindowedTableView(&owner);
        view->setWindowRows(window);
        view->setSourceModel(&source);
        view->setSelectionBehavior(QAbstractItemView::SelectRows);
        view->setSelectionMode(QAbstractItemView::ExtendedSelection);
        view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
        view->verticalHeader()->setDefaultSectionSize(20);
        auto* layout = new QHBoxLayout(&owner);
        layout->addWidget(view, 1);
        layout->addWidget(view->rowScrollBar());
        owner.resize(600, 400);
        owner.show();
        ok = QTest::qWaitForWindowExposed(&owner);
        QApplication::processEvents();
    }
    // The source row shown at the top of the view.
    int topRow() const { return view->sourceRow(view->indexAt(QPoint(1, 1))); }
    int currentRow() const { return view->sourceRow(view->currentIndex()); }

    NumberedTable source;
    QWidget owner;
    WindowedTableView* view = nullptr;
    bool ok = false;
};

TEST(WindowedTableView, AManyRowTableCostsTheViewOnlyItsWindow) {
    Shown s(10'000, 500);
    ASSERT_TRUE(s.ok);
    // Qt's header holds a section per row of its model: the window's, not the source's.
    EXPECT_EQ(s.view->verticalHeader()->count(), 500);
    EXPECT_EQ(s.view->model()->rowCount(), 500);
    QScrollBar* bar = s.view->rowScrollBar();
    EXPECT_TRUE(bar->isVisible());
    EXPECT_EQ(s.view->verticalScrollBarPolicy(), Qt::ScrollBarAlwaysOff);
    // The bar spans every row: its last value puts the last source row at the bottom.
    const int page = s.view->verticalScrollBar()->pageStep();
    EXPECT_GT(page, 5);
    EXPECT_EQ(bar->maximum(), 10'000 - page);
    EXPECT_EQ(bar->pageStep(), page);
    EXPECT_EQ(s.topRow(), 0);
}

TEST(WindowedTableView, UpToTheWindowItIsAPlainTableView) {
    Shown s(300, 500);
    ASSERT_TRUE(s.ok);
    EXPECT_EQ(s.view->verticalHeader()->count(), 300);
    EXPECT_FALSE(s.view->rowScrollBar()->isVisible());
    EXPECT_EQ(s.view->verticalScrollBarPolicy(), Qt::ScrollBarAsNeeded);
    EXPECT_EQ(s.view->windowIndex(299).row(), 299);
    // Growing past the window turns the row bar on.
    s.source.append(1000);
    QApplication::processEvents();
    EXPECT_TRUE(s.view->rowScrollBar()->isVisible());
    EXPECT_EQ(s.view->verticalHeader()->count(), 500);
}

TEST(WindowedTableView, TheRowBarShowsAnyRowAtTheTop) {
    Shown s(10'000, 500);
    ASSERT_TRUE(s.ok);
    QScrollBar* bar = s.view->rowScrollBar();
    bar->setValue(7'000); // far outside the window: the window moves
    QApplication::processEvents();
    EXPECT_EQ(s.topRow(), 7'000);
    EXPECT_LE(s.view->windowStart(), 7'000);
    EXPECT_EQ(s.view->indexAt(QPoint(1, 1)).data().toInt(), 70'000); // the cell says so too
    bar->setValue(7'010);                                            // inside it: the window stays
    const int start = s.view->windowStart();
    QApplication::processEvents();
    EXPECT_EQ(s.topRow(), 7'010);
    EXPECT_EQ(s.view->windowStart(), start);
    bar->setValue(bar->maximum());
    QApplication::processEvents();
    // The end of the bar shows the last row whole at the bottom of the view.
    const int bottom = s.view->viewport()->height() - 2;
    EXPECT_EQ(s.view->sourceRow(s.view->indexAt(QPoint(1, bottom))), 9'999);
    EXPECT_EQ(s.view->windowStart(), 10'000 - 500);
    bar->setValue(0);
    QApplication::processEvents();
    EXPECT_EQ(s.topRow(), 0);
    EXPECT_EQ(s.view->windowStart(), 0);
}

TEST(WindowedTableView, ScrollingTheViewMovesTheWindowBeforeItsEnd) {
    Shown s(10'000, 500);
    ASSERT_TRUE(s.ok);
    // The wheel scrolls the view's own (hidden) bar; near the window's end the window moves
    // on, and the rows in view and the row bar stay where they were.
    QScrollBar* own = s.view->verticalScrollBar();
    own->setValue(400);
    QApplication::processEvents();
    EXPECT_EQ(s.topRow(), 400);
    EXPECT_GT(s.view->windowStart(), 0);
    EXPECT_EQ(s.view->rowScrollBar()->value(), 400);
    for (int i = 0; i < 40; ++i)
        QTest::keyClick(s.view, Qt::Key_PageDown);
    const int current = s.currentRow();
    EXPECT_GT(current, 500) << "paging went on past the first window";
    EXPECT_GE(current, s.view->windowStart());
    EXPECT_LT(current, s.view->windowStart() + 500);
}

TEST(WindowedTableView, KeysReachEveryRowAndBothEnds) {
    Shown s(10'000, 500);
    ASSERT_TRUE(s.ok);
    s.view->setFocus();
    s.view->setCurrentIndex(s.view->windowIndex(495));
    for (int i = 0; i < 10; ++i)
        QTest::keyClick(s.view, Qt::Key_Down);
    EXPECT_EQ(s.currentRow(), 505);
    QTest::keyClick(s.view, Qt::Key_End, Qt::ControlModifier);
    EXPECT_EQ(s.currentRow(), 9'999);
    EXPECT_EQ(s.view->currentIndex().data().toInt(), 99'992) << "Qt's Ctrl+End: the last cell";
    QTest::keyClick(s.view, Qt::Key_Up);
    EXPECT_EQ(s.currentRow(), 9'998);
    QTest::keyClick(s.view, Qt::Key_Home, Qt::ControlModifier);
    EXPECT_EQ(s.currentRow(), 0);
    EXPECT_EQ(s.view->windowStart(), 0);
    EXPECT_EQ(s.topRow(), 0);
}

TEST(WindowedTableView, AWindowMoveKeepsTheCurrentRowAndTheSelectionItStillHolds) {
    Shown s(10'000, 500);
    ASSERT_TRUE(s.ok);
    QItemSelectionModel* sel = s.view->selectionModel();
    const QModelIndex first = s.view->windowIndex(300), last = s.view->windowIndex(320, 2);
    sel->select(QItemSelection(first, last), QItemSelectionModel::ClearAndSelect);
    sel->setCurrentIndex(s.view->windowIndex(310), QItemSelectionModel::NoUpdate);
    // Row 560 is outside [0, 500): the window centres on it, [310, 810).
    const QModelIndex far = s.view->windowIndex(560);
    ASSERT_EQ(s.view->windowStart(), 310);
    EXPECT_EQ(s.view->sourceRow(far), 560);
    EXPECT_EQ(s.currentRow(), 310);
    QList<int> selected;
    for (const QModelIndex& i : sel->selectedRows())
        selected << s.view->sourceRow(i);
    std::sort(selected.begin(), selected.end());
    QList<int> expected;
    for (int r = 310; r <= 320; ++r)
        expected << r;
    EXPECT_EQ(selected, expected) << "rows 300 to 309 left the window";
}

TEST(WindowedTableView, ASelectionLeftBehindComesBackWithTheWindow) {
    Shown s(10'000, 500);
    ASSERT_TRUE(s.ok);
    QItemSelectionModel* sel = s.view->selectionModel();
    sel->select(QItemSelection(s.view->windowIndex(100), s.view->windowIndex(120, 2)),
                QItemSelectionModel::ClearAndSelect);
    sel->setCurrentIndex(s.view->windowIndex(110, 1), QItemSelectionModel::NoUpdate);
    std::vector<int> expected;
    for (int r = 100; r <= 120; ++r)
        expected.push_back(r);
    s.view->rowScrollBar()->setValue(7'000); // the window leaves rows 100 to 120 behind
    QApplication::processEvents();
    ASSERT_GT(s.view->windowStart(), 120);
    EXPECT_TRUE(sel->selection().isEmpty());
    EXPECT_FALSE(s.view->currentIndex().isValid());
    EXPECT_EQ(s.view->selectedSourceRows(), expected) << "kept aside, still selected";
    s.view->rowScrollBar()->setValue(0); // and back
    QApplication::processEvents();
    ASSERT_EQ(s.view->windowStart(), 0);
    EXPECT_EQ(s.view->selectedSourceRows(), expected);
    EXPECT_EQ(sel->selectedRows().size(), 21);
    EXPECT_EQ(s.currentRow(), 110);
    EXPECT_EQ(s.view->currentIndex().column(), 1);
    // Away again, a key goes on from the current row, not from the window's first.
    s.view->rowScrollBar()->setValue(7'000);
    QApplication::processEvents();
    s.view->setFocus();
    QTest::keyClick(s.view, Qt::Key_Down);
    EXPECT_EQ(s.currentRow(), 111);
    EXPECT_EQ(s.view->selectedSourceRows(), std::vector<int>{111}) << "a new selection";
}

TEST(WindowedTableView, AShiftSelectionCrossingAWindowMoveStaysWhole) {
    Shown s(10'000, 500);
    ASSERT_TRUE(s.ok);
    s.view->setFocus();
    s.view->setCurrentIndex(s.view->windowIndex(0));
    for (int i = 0; i < 450; ++i) { // the window moves on near row 375
        QTest::keyClick(s.view, Qt::Key_Down, Qt::ShiftModifier);
        QApplication::processEvents();
    }
    EXPECT_GT(s.view->windowStart(), 0);
    EXPECT_EQ(s.currentRow(), 450);
    const std::vector<int> rows = s.view->selectedSourceRows();
    ASSERT_EQ(rows.size(), 451u);
    EXPECT_EQ(rows.front(), 0);
    EXPECT_EQ(rows.back(), 450);
}

TEST(WindowedTableView, SelectAllSelectsEverySourceRow) {
    Shown s(10'000, 500);
    ASSERT_TRUE(s.ok);
    s.view->rowScrollBar()->setValue(5'000);
    QApplication::processEvents();
    s.view->selectAll();
    EXPECT_EQ(s.view->selectedSourceRows().size(), 10'000u);
    s.view->rowScrollBar()->setValue(0);
    QApplication::processEvents();
    EXPECT_EQ(s.view->selectionModel()->selectedRows().size(), 500) << "the window's, shown";
    EXPECT_EQ(s.view->selectedSourceRows().size(), 10'000u);
}

TEST(WindowedTableView, SourceRowsOfIndexesAndRowsOutOfRange) {
    Shown s(10'000, 500);
    ASSERT_TRUE(s.ok);
    EXPECT_EQ(s.view->sourceRow({}), -1);
    EXPECT_EQ(s.view->sourceRow(s.source.index(3, 0)), -1) << "a source index is not a window one";
    EXPECT_FALSE(s.view->windowIndex(-1).isValid());
    EXPECT_FALSE(s.view->windowIndex(10'000).isValid());
    EXPECT_EQ(s.view->windowStart(), 0) << "an invalid row moves nothing";
    s.view->rowScrollBar()->setValue(5'000);
    s.view->scrollToSourceTop();
    QApplication::processEvents();
    EXPECT_EQ(s.topRow(), 0);
    EXPECT_EQ(s.view->rowScrollBar()->value(), 0);
}

} // namespace
