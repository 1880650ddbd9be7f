// SPDX-License-Identifier: MIT
// The F1 dialog shows the one list of controls, and the window's own keys in it are real
// shortcuts of the main window.
#include "app/gui/appsettings.h"
#include "app/gui/mainwindow.h"
#include "app/gui/shortcutsdialog.h"
#include "widgets/timeline/keybindings.h"

#include <QAction>
#include <QShortcut>
#include <QTableWidget>
#include <QTemporaryDir>
#include <gtest/gtest.h>

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
    EXPECT_EQ(checked, 5); // Ctrl+C, Ctrl+O, Ctrl+I, F1, Ctrl+Q
}
