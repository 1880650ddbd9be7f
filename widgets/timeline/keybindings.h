// SPDX-License-Identifier: MIT
#pragma once

// Every mouse and keyboard control of the window, in one list: the F1 dialog shows it,
// docs/TIMELINE.md's table is generated from it (keyBindingsMarkdown) and the lane canvas takes
// its keys from it (timelineKeyAction), so they cannot drift apart; tests check that the keys
// listed do what the list says.

#include <QKeySequence>
#include <QList>
#include <QString>
#include <optional>

namespace strobe {

// What a key on the lane canvas does (the view carries it out).
enum class TimelineAction {
    ZoomIn,
    ZoomOut,
    PanLeft,
    PanRight,
    ScrollUp,   // by three quarters of the canvas
    ScrollDown, // by three quarters of the canvas
    FitAll,
    UndoZoom,
    ZoomToMeasuredRange,
    ClearSelection, // the measured range and the selected event
};

struct KeyBinding {
    enum class Scope {
        Timeline, // handled by the timeline's lane canvas (keys need focus on the lanes)
        Window,   // a menu action of the main window or a shortcut of a panel
        Search,   // the timeline's search bar: shortcuts of the timeline view (Ctrl+F, F3) and
                  // keys in the bar's text field (Enter, Esc)
    };
    Scope scope;
    const char* action;   // untranslated; translate in context "strobe::KeyBinding"
    const char* mouse;    // empty when no mouse gesture does it
    const char* keyboard; // the keys as people read them; empty when none
    // The keys that `keyboard` names (each one appears in it).
    QList<QKeySequence> keys;
    // Timeline scope: what each of `keys` does on the lane canvas, one per key.
    QList<TimelineAction> actions;
};

const QList<KeyBinding>& keyBindings();

// The action the lane canvas takes on `key` (a Qt::Key, modifiers ignored), from the Timeline
// bindings of the list; nullopt: the canvas does not handle it.
std::optional<TimelineAction> timelineKeyAction(int key);

// A binding's texts as shown: translated, in the order action, mouse, keyboard.
QString keyBindingText(const char* text);

// The list as a Markdown table with the columns Action | Mouse | Keyboard (what
// docs/TIMELINE.md holds between its key-bindings markers).
QString keyBindingsMarkdown();

} // namespace strobe
