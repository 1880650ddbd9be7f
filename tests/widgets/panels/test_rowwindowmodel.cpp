// SPDX-License-Identifier: MIT
#include "tests/widgets/panels/numberedtable.h"
#include "widgets/panels/rowwindowmodel.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <gtest/gtest.h>

using namespace strobe;
using namespace strobe::test;

namespace {

struct Window {
    explicit Window(int sourceRows, int windowRows)
        : source(sourceRows) {
        window.setWindowRows(windowRows);
        window.setSourceModel(&source);
    }
    int cell(int row, int column) const { return window.index(row, column).data().toInt(); }

    NumberedTable source;
    RowWindowModel window;
    QAbstractItemModelTester tester{&window, QAbstractItemModelTester::FailureReportingMode::Fatal};
};

TEST(RowWindowModel, ShowsTheRowsFromItsStartNumberedAsTheSources) {
    Window w(1000, 100);
    EXPECT_EQ(w.window.rowCount(), 100);
    EXPECT_EQ(w.window.columnCount(), 3);
    EXPECT_FALSE(w.window.holdsAll());
    w.window.setWindowStart(250);
    EXPECT_EQ(w.window.windowStart(), 250);
    EXPECT_EQ(w.cell(0, 1), 2501);
    EXPECT_EQ(w.cell(99, 2), 3492);
    EXPECT_FALSE(w.window.index(100, 0).isValid());
    EXPECT_EQ(w.window.headerData(0, Qt::Vertical).toString(), QStringLiteral("row 250"));
    EXPECT_EQ(w.window.headerData(2, Qt::Horizontal).toString(), QStringLiteral("column 2"));
    EXPECT_EQ(w.window.mapToSource(w.window.index(5, 1)), w.source.index(255, 1));
    EXPECT_EQ(w.window.mapFromSource(w.source.index(349, 0)), w.window.index(99, 0));
    EXPECT_FALSE(w.window.mapFromSource(w.source.index(350, 0)).isValid());
    EXPECT_FALSE(w.window.mapFromSource(w.source.index(249, 0)).isValid());
}

TEST(RowWindowModel, TheStartClampsSoTheWindowStaysFull) {
    Window w(1000, 100);
    w.window.setWindowStart(980);
    EXPECT_EQ(w.window.windowStart(), 900);
    EXPECT_EQ(w.cell(99, 0), 9990);
    w.window.setWindowStart(-5);
    EXPECT_EQ(w.window.windowStart(), 0);
    EXPECT_EQ(w.window.centredStart(500), 450);
    EXPECT_EQ(w.window.centredStart(10), 0);
    EXPECT_EQ(w.window.centredStart(995), 900);

    // The source shrinks under a window near its end: the window moves back to stay full.
    w.window.setWindowStart(900);
    w.source.resetTo(950);
    EXPECT_EQ(w.window.windowStart(), 850);
    EXPECT_EQ(w.window.rowCount(), 100);
    EXPECT_EQ(w.cell(99, 0), 9490);
    // ...and below the window's size, it holds every row from row 0.
    w.source.resetTo(40);
    EXPECT_EQ(w.window.windowStart(), 0);
    EXPECT_EQ(w.window.rowCount(), 40);
    EXPECT_TRUE(w.window.holdsAll());
    w.source.resetTo(0);
    EXPECT_EQ(w.window.rowCount(), 0);
    EXPECT_EQ(w.window.headerData(1, Qt::Horizontal).toString(), QStringLiteral("column 1"));
}

TEST(RowWindowModel, MovingTheWindowOrChangingTheSourceIsOneReset) {
    Window w(1000, 100);
    QSignalSpy resets(&w.window, &QAbstractItemModel::modelReset);
    w.window.setWindowStart(300);
    EXPECT_EQ(resets.count(), 1);
    w.window.setWindowStart(300); // already there
    EXPECT_EQ(resets.count(), 1);
    w.source.append(50);
    EXPECT_EQ(resets.count(), 2);
    EXPECT_EQ(w.window.sourceRows(), 1050);
    EXPECT_EQ(w.window.windowStart(), 300);
    w.source.resetTo(500);
    EXPECT_EQ(resets.count(), 3);
    w.window.setWindowRows(200);
    EXPECT_EQ(resets.count(), 4);
    EXPECT_EQ(w.window.windowStart(), 300);
    EXPECT_EQ(w.window.rowCount(), 200);
}

TEST(RowWindowModel, ALayoutChangeWithoutItsAnnouncementIsAResetToo) {
    Window w(1000, 100);
    w.window.setWindowStart(950); // clamps to 900
    QSignalSpy resets(&w.window, &QAbstractItemModel::modelReset);
    w.source.shrinkQuietly(950); // rows gone, then only layoutChanged
    EXPECT_EQ(resets.count(), 1);
    EXPECT_EQ(w.window.windowStart(), 850);
    EXPECT_EQ(w.cell(99, 0), 9490);
}

TEST(RowWindowModel, DataChangesReachOnlyTheRowsInTheWindow) {
    Window w(1000, 100);
    w.window.setWindowStart(250);
    QSignalSpy changes(&w.window, &QAbstractItemModel::dataChanged);
    w.source.changed(240, 260); // overlaps the window's first rows
    ASSERT_EQ(changes.count(), 1);
    EXPECT_EQ(changes.at(0).at(0).toModelIndex(), w.window.index(0, 0));
    EXPECT_EQ(changes.at(0).at(1).toModelIndex(), w.window.index(10, 2));
    w.source.changed(340, 400); // overlaps its last rows
    ASSERT_EQ(changes.count(), 2);
    EXPECT_EQ(changes.at(1).at(0).toModelIndex(), w.window.index(90, 0));
    EXPECT_EQ(changes.at(1).at(1).toModelIndex(), w.window.index(99, 2));
    w.source.changed(10, 20);   // before the window
    w.source.changed(350, 360); // after it
    EXPECT_EQ(changes.count(), 2);
}

TEST(RowWindowModel, SortingTheWindowSortsTheSource) {
    Window w(1000, 100);
    w.window.sort(2, Qt::DescendingOrder);
    EXPECT_EQ(w.source.sortedBy, 2);
    EXPECT_EQ(w.source.sortedOrder, Qt::DescendingOrder);
}

TEST(RowWindowModel, ASourceDestroyedLeavesAnEmptyWindow) {
    RowWindowModel window;
    {
        NumberedTable source(10);
        window.setSourceModel(&source);
        EXPECT_EQ(window.rowCount(), 10);
    }
    EXPECT_EQ(window.sourceModel(), nullptr);
    EXPECT_EQ(window.rowCount(), 0);
    EXPECT_EQ(window.columnCount(), 0);
}

} // namespace
