// SPDX-License-Identifier: MIT
// Bookmarks in the main window (issue 44, item 17): the keys store and recall views and mark
// the selection with a note, the set survives a new window, the export draws the notes' flags.
#include "app/gui/appsettings.h"
#include "app/gui/bookmarkcontroller.h"
#include "app/gui/mainwindow.h"
#include "model/trace.h"
#include "render/paint/headerpainter.h"
#include "tests/support/sqlitequery.h"
#include "widgets/bookmarks.h"
#include "widgets/panels/bookmarkspanel.h"
#include "widgets/timeline/timelineview.h"
#include "widgets/viewstate.h"

#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QImage>
#include <QInputDialog>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QTreeWidget>
#include <gtest/gtest.h>

using namespace strobe;

namespace {

const QString kTrace = QString::fromStdString(test::fixturePath("nsys2024.5-cloverleaf.sqlite"));

std::unique_ptr<MainWindow> openWindow(AppSettings& settings) {
    auto w = std::make_unique<MainWindow>(&settings);
    w->resize(1000, 560); // lanes taller than the canvas: the scroll counts
    w->show();
    EXPECT_TRUE(QTest::qWaitForWindowActive(w.get()));
    QSignalSpy spy(w.get(), &MainWindow::loadFinished);
    w->openFile(kTrace);
    EXPECT_TRUE(spy.wait(30000));
    w->timeline()->canvas()->setFocus();
    return w;
}

void press(MainWindow& w, int key, Qt::KeyboardModifiers mods = {}) {
    QTest::keyClick(w.timeline()->canvas(), Qt::Key(key), mods);
}

// Answers the next note dialog with `text`.
void answerNoteDialog(const QString& text) {
    QTimer::singleShot(0, [text] {
        auto* dialog = qobject_cast<QInputDialog*>(QApplication::activeModalWidget());
        ASSERT_NE(dialog, nullptr);
        dialog->setTextValue(text);
        dialog->accept();
    });
}

} // namespace

TEST(BookmarkKeys, CtrlDigitStoresDigitRecallsAndMMarksTheMeasuredRange) {
    QTemporaryDir dir;
    AppSettings settings(dir.filePath(QStringLiteral("strobe.ini")));
    {
        auto w = openWindow(settings);
        ViewState* state = w->viewState();
        auto* controller = w->findChild<BookmarkController*>();
        ASSERT_NE(controller, nullptr);
        const TimeRange all = w->trace()->timeRange();
        const TimeRange chosen{all.start + all.duration() / 4, all.start + all.duration() / 2};
        state->setVisibleRange(chosen);
        w->timeline()->setScrollY(30);
        const int scroll = w->timeline()->scrollY(); // as far as the lanes go
        EXPECT_GT(scroll, 0);
        press(*w, Qt::Key_3, Qt::ControlModifier);
        ASSERT_TRUE(controller->bookmarks()->set().views[2]);
        EXPECT_EQ(controller->bookmarks()->set().views[2]->range, chosen);

        state->fitAll();
        w->timeline()->setScrollY(0);
        press(*w, Qt::Key_3);
        EXPECT_EQ(state->visibleRange(), chosen);
        EXPECT_EQ(w->timeline()->scrollY(), scroll);
        press(*w, Qt::Key_5); // an empty slot leaves the view as it is
        EXPECT_EQ(state->visibleRange(), chosen);

        const TimeRange measured{chosen.start + 1000, chosen.start + chosen.duration() / 2};
        state->setSelectedRange(measured);
        answerNoteDialog(QStringLiteral("the slow halo exchange"));
        press(*w, Qt::Key_M);
        ASSERT_EQ(controller->bookmarks()->set().notes.size(), 1u);
        EXPECT_EQ(controller->bookmarks()->set().notes[0].range, measured);
        EXPECT_EQ(controller->bookmarks()->set().notes[0].text,
                  QStringLiteral("the slow halo exchange"));
        EXPECT_EQ(controller->panel()->tree()->topLevelItemCount(), 2); // View 3, the note
        auto* dock = w->findChild<QDockWidget*>(QStringLiteral("bookmarksDock"));
        ASSERT_NE(dock, nullptr);
        EXPECT_EQ(dock->widget(), controller->panel());
    }
    // A new window on the same trace finds them in the configuration folder.
    auto w = openWindow(settings);
    const BookmarkSet& set = w->findChild<BookmarkController*>()->bookmarks()->set();
    EXPECT_TRUE(set.views[2].has_value());
    EXPECT_EQ(set.notes.size(), 1u);
    EXPECT_EQ(QDir(dir.filePath(QStringLiteral("bookmarks"))).entryList(QDir::Files).size(), 1);
}

TEST(BookmarkKeys, WithoutAMeasuredRangeMMarksTheSelectedEvent) {
    QTemporaryDir dir;
    AppSettings settings(dir.filePath(QStringLiteral("strobe.ini")));
    auto w = openWindow(settings);
    auto* controller = w->findChild<BookmarkController*>();
    const Trace& t = *w->trace();
    ASSERT_GT(t.kernelCount(), 10u);
    const EventRef kernel = t.kernelRef(10);
    w->viewState()->setSelection(kernel);
    const TimeRange extent{t.lane(kernel.lane).start(kernel.index),
                           t.lane(kernel.lane).end(kernel.index)};
    EXPECT_GT(extent.duration(), 0);
    EXPECT_EQ(controller->markableRange(), std::optional<TimeRange>(extent));
    answerNoteDialog(QStringLiteral("kernel 10"));
    press(*w, Qt::Key_M);
    ASSERT_EQ(controller->bookmarks()->set().notes.size(), 1u);
    EXPECT_EQ(controller->bookmarks()->set().notes[0].range, extent);
    // A measured range wins over the selected event.
    w->viewState()->setSelectedRange(TimeRange{extent.start - 5, extent.end + 5});
    EXPECT_EQ(controller->markableRange(),
              std::optional<TimeRange>(TimeRange{extent.start - 5, extent.end + 5}));
}

TEST(BookmarkKeys, MWithoutASelectionAsksNothingAndMarksNothing) {
    QTemporaryDir dir;
    AppSettings settings(dir.filePath(QStringLiteral("strobe.ini")));
    auto w = openWindow(settings);
    auto* controller = w->findChild<BookmarkController*>();
    EXPECT_EQ(controller->markableRange(), std::nullopt);
    press(*w, Qt::Key_M); // a dialog here would block the test
    EXPECT_TRUE(controller->bookmarks()->set().notes.empty());
}

TEST(BookmarkKeys, TheExportedPictureCarriesTheNotesFlags) {
    QTemporaryDir dir;
    AppSettings settings(dir.filePath(QStringLiteral("strobe.ini")));
    auto w = openWindow(settings);
    auto* controller = w->findChild<BookmarkController*>();
    const TimeRange view = w->viewState()->visibleRange();
    // A note at 40 % of the view: its flag's pole at 40 % of the picture's ruler.
    const TimeNs at = view.start + view.duration() * 2 / 5;
    const QSize size(1260, 600);
    const QString plain = dir.filePath(QStringLiteral("plain.png"));
    const QString marked = dir.filePath(QStringLiteral("marked.png"));
    ASSERT_EQ(w->exportImage(plain, size), QString());
    controller->bookmarks()->addNote(BookmarkNote{TimeRange{at, at + view.duration() / 10}, {}});
    ASSERT_EQ(w->exportImage(marked, size), QString());
    const QImage a(plain), b(marked);
    ASSERT_EQ(a.size(), b.size());
    const int x = kLaneHeaderWidth + (size.width() - kLaneHeaderWidth) * 2 / 5;
    int changedNearFlag = 0;
    for (int dx = -1; dx <= 1; ++dx)
        changedNearFlag += a.pixel(x + dx, 20) != b.pixel(x + dx, 20);
    EXPECT_GE(changedNearFlag, 1);
    EXPECT_EQ(a.pixel(x - 40, 20), b.pixel(x - 40, 20));
    EXPECT_EQ(a.copy(0, 40, size.width(), 400), b.copy(0, 40, size.width(), 400)); // lanes alike
}
