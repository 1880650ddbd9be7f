// SPDX-License-Identifier: MIT
#include "widgets/timeline/keybindings.h"

#include <QCoreApplication>
#include <QStringBuilder>

namespace strobe {

#define STROBE_KB(text) QT_TRANSLATE_NOOP("strobe::KeyBinding", text)

const QList<KeyBinding>& keyBindings() {
    using S = KeyBinding::Scope;
    using A = TimelineAction;
    static const QList<KeyBinding> list{
        {S::Timeline,
         STROBE_KB("Zoom in / out at the mouse"),
         STROBE_KB("Wheel, or Ctrl+wheel"),
         STROBE_KB("W / S, or Up / Down (at the mouse when it is over the lanes or the ruler, "
                   "else at the middle)"),
         {QKeySequence(Qt::Key_W), QKeySequence(Qt::Key_S), QKeySequence(Qt::Key_Up),
          QKeySequence(Qt::Key_Down)},
         {A::ZoomIn, A::ZoomOut, A::ZoomIn, A::ZoomOut}},
        {S::Timeline,
         STROBE_KB("Pan left / right"),
         STROBE_KB("Drag the lanes; Shift+wheel; horizontal wheel or trackpad"),
         STROBE_KB("A / D, or Left / Right"),
         {QKeySequence(Qt::Key_A), QKeySequence(Qt::Key_D), QKeySequence(Qt::Key_Left),
          QKeySequence(Qt::Key_Right)},
         {A::PanLeft, A::PanRight, A::PanLeft, A::PanRight}},
        {S::Timeline,
         STROBE_KB("Scroll the lanes up / down"),
         STROBE_KB("Wheel over the header column; the scrollbar"),
         STROBE_KB("Page Up / Page Down"),
         {QKeySequence(Qt::Key_PageUp), QKeySequence(Qt::Key_PageDown)},
         {A::ScrollUp, A::ScrollDown}},
        {S::Timeline,
         STROBE_KB("Fit the whole trace"),
         "",
         STROBE_KB("Home or F"),
         {QKeySequence(Qt::Key_Home), QKeySequence(Qt::Key_F)},
         {A::FitAll, A::FitAll}},
        {S::Timeline,
         STROBE_KB("Undo the last zoom (a whole drag is one step)"),
         "",
         STROBE_KB("Backspace"),
         {QKeySequence(Qt::Key_Backspace)},
         {A::UndoZoom}},
        {S::Timeline,
         STROBE_KB("Measure a time range (its duration shows in the ruler)"),
         STROBE_KB("Drag on the time ruler"),
         "",
         {},
         {}},
        {S::Timeline,
         STROBE_KB("Zoom to the measured range"),
         STROBE_KB("Double-click the ruler"),
         STROBE_KB("Z or Enter"),
         {QKeySequence(Qt::Key_Z), QKeySequence(Qt::Key_Return), QKeySequence(Qt::Key_Enter)},
         {A::ZoomToMeasuredRange, A::ZoomToMeasuredRange, A::ZoomToMeasuredRange}},
        {S::Timeline,
         STROBE_KB("Clear the measured range and the selection"),
         STROBE_KB("Click the ruler outside the range (the range only)"),
         STROBE_KB("Esc"),
         {QKeySequence(Qt::Key_Escape)},
         {A::ClearSelection}},
        {S::Timeline,
         STROBE_KB("Select an event (the kernel table and the detail pane follow)"),
         STROBE_KB("Click it"),
         "",
         {},
         {}},
        {S::Timeline,
         STROBE_KB("Zoom to an event and select it"),
         STROBE_KB("Double-click it"),
         "",
         {},
         {}},
        {S::Timeline, STROBE_KB("Event details"), STROBE_KB("Hover: tooltip"), "", {}, {}},
        {S::Timeline,
         STROBE_KB("Expand / collapse a group"),
         STROBE_KB("Click its header"),
         "",
         {},
         {}},
        {S::Timeline,
         STROBE_KB("Hide, show or pin lanes; hide idle threads; expand or collapse all"),
         STROBE_KB("Right-click the header column"),
         "",
         {},
         {}},
        {S::Search,
         STROBE_KB("Find events by name (every lane); the matches are highlighted"),
         "",
         STROBE_KB("Ctrl+F (the timeline focused)"),
         {QKeySequence(Qt::CTRL | Qt::Key_F)},
         {}},
        {S::Search,
         STROBE_KB("Go to the next / previous match and select it"),
         STROBE_KB("The search bar's arrows"),
         STROBE_KB("Enter / Shift+Enter in the search bar, or F3 / Shift+F3"),
         {QKeySequence(Qt::Key_Return), QKeySequence(Qt::SHIFT | Qt::Key_Return),
          QKeySequence(Qt::Key_F3), QKeySequence(Qt::SHIFT | Qt::Key_F3)},
         {}},
        {S::Search,
         STROBE_KB("Close the search bar (the highlights go with it)"),
         STROBE_KB("Its close button"),
         STROBE_KB("Esc in the search bar"),
         {QKeySequence(Qt::Key_Escape)},
         {}},
        {S::Window,
         STROBE_KB("Store the view (visible range and scroll) in bookmark slot 1 to 9"),
         "",
         STROBE_KB("Ctrl+1, Ctrl+2, Ctrl+3, Ctrl+4, Ctrl+5, Ctrl+6, Ctrl+7, Ctrl+8, Ctrl+9"),
         {QKeySequence(Qt::CTRL | Qt::Key_1), QKeySequence(Qt::CTRL | Qt::Key_2),
          QKeySequence(Qt::CTRL | Qt::Key_3), QKeySequence(Qt::CTRL | Qt::Key_4),
          QKeySequence(Qt::CTRL | Qt::Key_5), QKeySequence(Qt::CTRL | Qt::Key_6),
          QKeySequence(Qt::CTRL | Qt::Key_7), QKeySequence(Qt::CTRL | Qt::Key_8),
          QKeySequence(Qt::CTRL | Qt::Key_9)},
         {}},
        {S::Window,
         STROBE_KB("Go back to the view in bookmark slot 1 to 9"),
         STROBE_KB("Double-click its row in the Bookmarks panel"),
         STROBE_KB("1, 2, 3, 4, 5, 6, 7, 8 or 9"),
         {QKeySequence(Qt::Key_1), QKeySequence(Qt::Key_2), QKeySequence(Qt::Key_3),
          QKeySequence(Qt::Key_4), QKeySequence(Qt::Key_5), QKeySequence(Qt::Key_6),
          QKeySequence(Qt::Key_7), QKeySequence(Qt::Key_8), QKeySequence(Qt::Key_9)},
         {}},
        {S::Window,
         STROBE_KB("Mark the measured range, or else the selected event, with a note (a flag on "
                   "the ruler)"),
         "",
         STROBE_KB("M"),
         {QKeySequence(Qt::Key_M)},
         {}},
        {S::Window,
         STROBE_KB("Remove the selected bookmarks or notes"),
         "",
         STROBE_KB("Delete in the Bookmarks panel"),
         {QKeySequence(Qt::Key_Delete)},
         {}},
        {S::Window,
         STROBE_KB("Show a table's event (or gap) in the timeline and the details"),
         STROBE_KB("Double-click its row"),
         "",
         {},
         {}},
        {S::Window,
         STROBE_KB("Copy the selected rows, or the detail pane"),
         "",
         STROBE_KB("Ctrl+C"),
         {QKeySequence(Qt::CTRL | Qt::Key_C)},
         {}},
        {S::Window,
         STROBE_KB("Open a trace"),
         STROBE_KB("Drop the file on the window"),
         STROBE_KB("Ctrl+O"),
         {QKeySequence(Qt::CTRL | Qt::Key_O)},
         {}},
        {S::Window,
         STROBE_KB("Close the trace (and end a comparison)"),
         "",
         STROBE_KB("Ctrl+W"),
         {QKeySequence(Qt::CTRL | Qt::Key_W)},
         {}},
        {S::Window,
         STROBE_KB("Stop comparing: back to the baseline A alone"),
         "",
         STROBE_KB("Ctrl+Shift+W"),
         {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_W)},
         {}},
        {S::Window,
         STROBE_KB("Trace information"),
         "",
         STROBE_KB("Ctrl+I"),
         {QKeySequence(Qt::CTRL | Qt::Key_I)},
         {}},
        {S::Window,
         STROBE_KB("This list of controls"),
         "",
         STROBE_KB("F1"),
         {QKeySequence(Qt::Key_F1)},
         {}},
        {S::Window,
         STROBE_KB("Quit"),
         "",
         STROBE_KB("Ctrl+Q"),
         {QKeySequence(Qt::CTRL | Qt::Key_Q)},
         {}},
    };
    return list;
}

#undef STROBE_KB

std::optional<TimelineAction> timelineKeyAction(int key) {
    for (const KeyBinding& b : keyBindings()) {
        if (b.scope != KeyBinding::Scope::Timeline)
            continue;
        Q_ASSERT(b.actions.size() == b.keys.size());
        for (qsizetype i = 0; i < b.keys.size() && i < b.actions.size(); ++i) {
            if (b.keys[i][0].key() == key)
                return b.actions[i];
        }
    }
    return std::nullopt;
}

QString keyBindingText(const char* text) {
    return QCoreApplication::translate("strobe::KeyBinding", text);
}

QString keyBindingsMarkdown() {
    QString md = QStringLiteral("| Action | Mouse | Keyboard |\n|---|---|---|\n");
    for (const KeyBinding& b : keyBindings())
        md += QStringLiteral("| ") % QLatin1String(b.action) % QStringLiteral(" | ") %
              QLatin1String(b.mouse) % QStringLiteral(" | ") % QLatin1String(b.keyboard) %
              QStringLiteral(" |\n");
    return md;
}

} // namespace strobe
