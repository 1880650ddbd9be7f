// SPDX-License-Identifier: MIT
#pragma once

#include <QDialog>
#include <QList>
#include <QPair>

namespace strobe {

// Help > Keyboard and Mouse (F1): every control of the timeline and the window.
class ShortcutsDialog : public QDialog {
    Q_OBJECT
public:
    explicit ShortcutsDialog(QWidget* parent = nullptr);
    // (keys or mouse gesture, what it does), in display order.
    static QList<QPair<QString, QString>> controls();
};

} // namespace strobe
