// SPDX-License-Identifier: MIT
#pragma once

// Every mouse and keyboard control of the window, in one list: the F1 dialog shows it and
// docs/TIMELINE.md's table is generated from it (keyBindingsMarkdown), so they cannot drift
// apart; tests check that the keys listed do what the list says.

#include <QKeySequence>
#include <QList>
#include <QString>

namespace strobe {

struct KeyBinding {
    enum class Scope {
        Timeline, // handled by the timeline's lane canvas (keys need focus on the lanes)
        Window,   // a menu action of the main window or a shortcut of a panel
    };
    Scope scope;
    const char* action;   // untranslated; translate in context "strobe::KeyBinding"
    const char* mouse;    // empty when no mouse gesture does it
    const char* keyboard; // the keys as people read them; empty when none
    // The keys that `keyboard` names, for the tests (each one appears in it).
    QList<QKeySequence> keys;
};

const QList<KeyBinding>& keyBindings();

// A binding's texts as shown: translated, in the order action, mouse, keyboard.
QString keyBindingText(const char* text);

// The list as a Markdown table with the columns Action | Mouse | Keyboard (what
// docs/TIMELINE.md holds between its key-bindings markers).
QString keyBindingsMarkdown();

} // namespace strobe
