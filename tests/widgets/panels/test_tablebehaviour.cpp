// SPDX-License-Identifier: MIT
// setUpTable: the look every panel table shares, and what each TableLook changes of it.
#include "widgets/panels/tablebehaviour.h"

#include <QHeaderView>
#include <QStandardItemModel>
#include <QTableView>
#include <QWidget>
#include <gtest/gtest.h>

using namespace strobe;

namespace {

// What a look set on a fresh view, in the order the fields read.
struct Seen {
    QAbstractItemView::SelectionBehavior behaviour;
    QAbstractItemView::SelectionMode mode;
    bool alternating, wraps, numbersShown;
    QHeaderView::ResizeMode rowResize;
    int rowHeight;
};

Seen setUp(const TableLook& look) {
    QStandardItemModel rowsAndColumns(3, 2); // a row's resize mode needs the row to exist
    QWidget owner;
    auto* view = new QTableView(&owner);
    view->setModel(&rowsAndColumns);
    setUpTable(view, look);
    QHeaderView* rows = view->verticalHeader();
    return {view->selectionBehavior(), view->selectionMode(), view->alternatingRowColors(),
            view->wordWrap(),          !rows->isHidden(),     rows->sectionResizeMode(0),
            rows->defaultSectionSize()};
}

int styleRowHeight() {
    QWidget owner;
    return (new QTableView(&owner))->verticalHeader()->defaultSectionSize();
}

} // namespace

TEST(TableBehaviour, TheDefaultLookIsOneFixedUnwrappedLinePerRow) {
    QWidget owner;
    const int oneLine = owner.fontMetrics().height() + 6;
    const Seen s = setUp({});
    EXPECT_EQ(s.behaviour, QAbstractItemView::SelectRows);
    EXPECT_EQ(s.mode, QAbstractItemView::ExtendedSelection);
    EXPECT_TRUE(s.alternating);
    EXPECT_FALSE(s.wraps);
    EXPECT_FALSE(s.numbersShown);
    EXPECT_EQ(s.rowResize, QHeaderView::Fixed);
    EXPECT_EQ(s.rowHeight, oneLine);
}

TEST(TableBehaviour, EachFieldChangesOnlyItsOwnProperty) {
    const Seen wrapping = setUp({.wrapText = true});
    EXPECT_TRUE(wrapping.wraps);
    EXPECT_EQ(wrapping.rowResize, QHeaderView::Fixed);

    // The statistics tables: the style's row height, resizable rows, text on one line.
    const Seen styled = setUp({.oneLineRows = false, .fixedRows = false});
    EXPECT_EQ(styled.rowHeight, styleRowHeight());
    EXPECT_EQ(styled.rowResize, QHeaderView::Interactive);
    EXPECT_FALSE(styled.wraps);
    EXPECT_FALSE(styled.numbersShown);
    EXPECT_TRUE(styled.alternating);
    EXPECT_EQ(styled.behaviour, QAbstractItemView::SelectRows);
}
