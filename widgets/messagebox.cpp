// SPDX-License-Identifier: MIT
#include "widgets/messagebox.h"

#include "model/analysis/reporttable.h"

namespace strobe {

QString escapeControlsKeepingLines(const QString& text) {
    QStringList lines = text.split(u'\n');
    for (QString& line : lines)
        line = escapeControls(line);
    return lines.join(u'\n');
}

QMessageBox* plainMessageBox(QMessageBox::Icon icon, const QString& title, const QString& text,
                             QMessageBox::StandardButtons buttons, QWidget* parent) {
    auto* box = new QMessageBox(icon, title, QString(), buttons, parent);
    box->setTextFormat(Qt::PlainText);
    box->setText(escapeControlsKeepingLines(text));
    box->setAttribute(Qt::WA_DeleteOnClose);
    return box;
}

} // namespace strobe
