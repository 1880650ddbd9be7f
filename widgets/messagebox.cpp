// SPDX-License-Identifier: MIT
#include "widgets/messagebox.h"

#include "model/reports/reporttable.h"

namespace strobe {

QMessageBox* plainMessageBox(QMessageBox::Icon icon, const QString& title, const QString& text,
                             QMessageBox::StandardButtons buttons, QWidget* parent) {
    auto* box = new QMessageBox(icon, title, QString(), buttons, parent);
    box->setTextFormat(Qt::PlainText);
    box->setText(escapeControlsKeepingLineFeeds(text));
    box->setAttribute(Qt::WA_DeleteOnClose);
    return box;
}

} // namespace strobe
