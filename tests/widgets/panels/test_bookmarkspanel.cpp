// SPDX-License-Identifier: MIT
// The Bookmarks panel lists a trace's slots and notes, goes to them and removes them.
#include "widgets/panels/bookmarkspanel.h"

#include "model/timeformat.h"
#include "tests/widgets/timeline/synthtraces.h"
#include "widgets/bookmarks.h"
#include "widgets/viewstate.h"

#include <QSignalSpy>
#include <QTest>
#include <QTreeWidget>
#include <gtest/gtest.h>

using namespace strobe;

namespace {

struct Fixture {
    ViewState state;
    Bookmarks marks{std::nullopt}; // in memory
    BookmarksPanel panel{&marks, &state};
    Fixture() {
        state.setTrace(synth_traces::smallTrace()); // 0 to 10,000 ns
        state.setVisibleRange({2'000, 4'000});
        marks.storeView(2, state, 75);
        marks.addNote(BookmarkNote{TimeRange{1'000, 3'000}, QStringLiteral("the GEMM")});
        marks.addNote(BookmarkNote{TimeRange{6'000, 6'000}, QStringLiteral("an instant")});
    }
    QString cell(int row, int column) const {
        return panel.tree()->topLevelItem(row)->text(column);
    }
};

} // namespace

TEST(BookmarksPanel, ListsSlotsThenNotesWithTheirRanges) {
    Fixture f;
    ASSERT_EQ(f.panel.tree()->topLevelItemCount(), 3);
    EXPECT_EQ(f.cell(0, 0), QStringLiteral("View 2"));
    EXPECT_EQ(f.cell(0, 1), formatTimestamp(2'000, 0) + QStringLiteral(" to ") +
                                formatTimestamp(4'000, 0) + QStringLiteral(" (") +
                                formatDuration(2'000) + QStringLiteral(")"));
    EXPECT_EQ(f.cell(1, 0), QStringLiteral("Note"));
    EXPECT_EQ(f.cell(1, 2), QStringLiteral("the GEMM"));
    EXPECT_EQ(f.cell(2, 1), formatTimestamp(6'000, 0));
    f.marks.addNote(BookmarkNote{TimeRange{5, 9}, QStringLiteral("new")});
    EXPECT_EQ(f.panel.tree()->topLevelItemCount(), 4); // follows the set's changes
}

TEST(BookmarksPanel, ActivatingGoesToTheSlotOrTheNote) {
    Fixture f;
    QSignalSpy scroll(&f.panel, &BookmarksPanel::scrollRequested);
    f.state.setVisibleRange({0, 10'000});
    f.panel.activateRow(0);
    EXPECT_EQ(f.state.visibleRange(), (TimeRange{2'000, 4'000}));
    ASSERT_EQ(scroll.count(), 1);
    EXPECT_EQ(scroll.at(0).at(0).toInt(), 75);

    f.panel.activateRow(1); // the note's range with a fifth of it on each side, selected
    EXPECT_EQ(f.state.visibleRange(), (TimeRange{600, 3'400}));
    EXPECT_EQ(f.state.selectedRange(), std::optional<TimeRange>(TimeRange{1'000, 3'000}));

    f.panel.activateRow(2); // an instant: centred at the current zoom (2,800 ns wide)
    EXPECT_EQ(f.state.visibleRange(), (TimeRange{4'600, 7'400}));
    EXPECT_EQ(scroll.count(), 1);

    // A double-click is an activation.
    QTreeWidget* tree = f.panel.tree();
    f.panel.resize(600, 300);
    f.panel.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&f.panel));
    const QRect r = tree->visualItemRect(tree->topLevelItem(0));
    QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, r.center());
    QTest::mouseDClick(tree->viewport(), Qt::LeftButton, {}, r.center());
    EXPECT_EQ(f.state.visibleRange(), (TimeRange{2'000, 4'000}));
}

TEST(BookmarksPanel, DeleteRemovesTheSelectedRows) {
    Fixture f;
    f.panel.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&f.panel));
    QTreeWidget* tree = f.panel.tree();
    tree->topLevelItem(0)->setSelected(true);
    tree->topLevelItem(2)->setSelected(true);
    tree->setFocus();
    f.panel.activateWindow();
    QTest::keyClick(tree, Qt::Key_Delete);
    EXPECT_FALSE(f.marks.set().views[1].has_value());
    ASSERT_EQ(f.marks.set().notes.size(), 1u);
    EXPECT_EQ(f.marks.set().notes[0].text, QStringLiteral("the GEMM"));
    EXPECT_EQ(tree->topLevelItemCount(), 1);
}
