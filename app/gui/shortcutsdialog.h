// SPDX-License-Identifier: MIT
#pragma once

#include <QDialog>

class QTableWidget;

namespace strobe {

// Help > Keyboard and Mouse (F1): every control of the timeline and the window, one row per
// entry of keyBindings() (widgets/timeline/keybindings.h), the list docs/TIMELINE.md shows too.
class ShortcutsDialog : public QDialog {
    Q_OBJECT
public:
    explicit ShortcutsDialog(QWidget* parent = nullptr);
    // Columns: action, mouse, keyboard.
    const QTableWidget* table() const { return m_table; }

private:
    QTableWidget* m_table;
};

} // namespace strobe
