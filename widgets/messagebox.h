// SPDX-License-Identifier: MIT
#pragma once

#include <QMessageBox>

namespace strobe {

// A message that carries text from a file or its name: shown as plain text (QMessageBox
// auto-detects rich text, so a file named "<a href=...>" would show a live link) with control
// characters escaped as the CLI escapes them ("\xHH"); line breaks stay. Not yet shown: the
// caller opens it (open(), not exec(), keeps the event loop running). Deleted on close.
QMessageBox* plainMessageBox(QMessageBox::Icon icon, const QString& title, const QString& text,
                             QMessageBox::StandardButtons buttons, QWidget* parent);

} // namespace strobe
