// SPDX-License-Identifier: MIT
// Bookmarks: the open trace's set over the store (tests/model/test_bookmarkstore.cpp tests the
// store itself) and the view slots on a ViewState.
#include "widgets/bookmarks.h"

#include "tests/model/bookmarktestdata.h"
#include "tests/widgets/timeline/synthtraces.h"
#include "widgets/viewstate.h"

#include <QFile>
#include <QFileInfo>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <gtest/gtest.h>

using namespace strobe;
using test::writeFile;

TEST(Bookmarks, OpeningATraceWithADamagedFileWarnsOnceAndStartsEmpty) {
    QTemporaryDir dir;
    const QString trace = writeFile(dir, QStringLiteral("t.sqlite"), "x");
    const BookmarkStore store(dir.filePath(QStringLiteral("cfg")));
    ASSERT_EQ(store.save(trace, test::sampleBookmarks()), QString());
    writeFile(dir, QStringLiteral("cfg/") + QFileInfo(store.fileFor(trace)).fileName(), "{ oops");
    Bookmarks marks(store);
    QSignalSpy changed(&marks, &Bookmarks::changed);
    EXPECT_NE(marks.openTrace(trace), QString());
    EXPECT_EQ(changed.count(), 1);
    EXPECT_TRUE(marks.set().isEmpty());
    // The next change replaces the damaged file with a good one.
    marks.addNote(BookmarkNote{TimeRange{1, 2}, QStringLiteral("n")});
    EXPECT_EQ(store.load(trace).warning, QString());
    EXPECT_EQ(store.load(trace).set.notes.size(), 1u);
}

TEST(Bookmarks, SlotsStoreAndRecallTheViewAndScroll) {
    QTemporaryDir dir;
    const QString trace = writeFile(dir, QStringLiteral("t.sqlite"), "x");
    ViewState state;
    state.setTrace(synth_traces::smallTrace());
    Bookmarks marks(BookmarkStore(dir.filePath(QStringLiteral("cfg"))));
    marks.openTrace(trace);
    state.setVisibleRange(TimeRange{2'000, 3'000});
    marks.storeView(3, state, 120);
    state.setVisibleRange(TimeRange{0, 500});
    EXPECT_EQ(marks.recallView(3, state), std::optional<int>(120));
    EXPECT_EQ(state.visibleRange(), (TimeRange{2'000, 3'000}));
    EXPECT_TRUE(state.canUndoZoom()); // recalling is one undoable step
    EXPECT_EQ(marks.recallView(4, state), std::nullopt);
    EXPECT_EQ(marks.recallView(0, state), std::nullopt);
    EXPECT_EQ(marks.recallView(10, state), std::nullopt);
    EXPECT_EQ(state.visibleRange(), (TimeRange{2'000, 3'000}));

    // Another session of the same trace finds the slot.
    Bookmarks again(BookmarkStore(dir.filePath(QStringLiteral("cfg"))));
    EXPECT_EQ(again.openTrace(trace), QString());
    ASSERT_TRUE(again.set().views[2]);
    EXPECT_EQ(again.set().views[2]->scrollY, 120);
    again.clearSlot(3);
    EXPECT_TRUE(again.set().isEmpty());
}
