// SPDX-License-Identifier: MIT
// The F1 dialog shows the one list of controls, and the window's own keys in it are real
// shortcuts of the main window.
#include "app/gui/appsettings.h"
#include "app/gui/mainwindow.h"
#include "app/gui/shortcutsdialog.h"
#include "widgets/timeline/keybindings.h"

#include <QAction>
#include <QCoreApplication>
#include <QShortcut>
#include <QTableWidget>
#include <QTemporaryDir>
#include <gtest/gtest.h>

#include <algorithm>

using namespace strobe;

TEST(ShortcutsDialog, ShowsEveryBindingOfTheList) {
    ShortcutsDialog d;
    const QTableWidget* t = d.table();
    const QList<KeyBinding>& list = keyBindings();
    ASSERT_EQ(t->rowCount(), list.size());
    ASSERT_EQ(t->columnCount(), 3);
    for (int i = 0; i < t->rowCount(); ++i) {
        EXPECT_EQ(t->item(i, 0)->text(), QLatin1String(list[i].action));
        EXPECT_EQ(t->item(i, 1)->text(), QLatin1String(list[i].mouse));
        EXPECT_EQ(t->item(i, 2)->text(), QLatin1String(list[i].keyboard));
    }
    // What the old dialog left out is there now.
    QStringList keyboard;
    for (int i = 0; i < t->rowCount(); ++i)
        keyboard << t->item(i, 2)->text();
    const QString all = keyboard.join(u'\n');
    for (const char* k : {"Z or Enter", "Esc", "Page Up / Page Down"})
        EXPECT_TRUE(all.contains(QLatin1String(k))) << k;
}

// Issue 44, item 12: rows were sized before the dialog had its width (one row about 320 px for
// two lines). Shown at its size, every row fits its wrapped text in at most three lines, and
// holds at least one.
TEST(ShortcutsDialog, RowsAreAtMostThreeLinesHigh) {
    ShortcutsDialog d;
    d.show();
    QCoreApplication::processEvents();
    const QTableWidget* t = d.table();
    const int line = t->fontMetrics().lineSpacing();
    int tallest = 0;
    for (int i = 0; i < t->rowCount(); ++i) {
        EXPECT_GE(t->rowHeight(i), line) << i;
        EXPECT_LE(t->rowHeight(i), 3 * line + 8)
            << "row " << i << ": " << t->item(i, 0)->text().toStdString();
        tallest = std::max(tallest, t->rowHeight(i));
    }
    // A wider dialog never makes rows taller.
    d.resize(d.width() + 300, d.height());
    QCoreApplication::processEvents();
    for (int i = 0; i < t->rowCount(); ++i)
        EXPECT_LE(t->rowHeight(i), tallest) << i;
}

TEST(ShortcutsDialog, WindowKeysAreShortcutsOfTheMainWindow) {
    QTemporaryDir dir;
    AppSettings settings(dir.filePath(QStringLiteral("s.ini")));
    MainWindow w(&settings);
    QList<QKeySequence> shortcuts;
    for (const QAction* a : w.findChildren<QAction*>())
        shortcuts << a->shortcuts();
    for (const QShortcut* s : w.findChildren<QShortcut*>()) // the panels' Ctrl+C
        shortcuts << s->key();
    int checked = 0;
    for (const KeyBinding& b : keyBindings()) {
        if (b.scope != KeyBinding::Scope::Window)
            continue;
        for (const QKeySequence& k : b.keys) {
            EXPECT_TRUE(shortcuts.contains(k)) << k.toString().toStdString();
            ++checked;
        }
    }
    // Ctrl+C, Ctrl+O, Ctrl+W, Ctrl+Shift+W, Ctrl+I, F1, Ctrl+Q; the bookmarks: Ctrl+1..9, 1..9, M,
    // Delete
    EXPECT_EQ(checked, 27);
}
