// SPDX-License-Identifier: MIT
#pragma once

#include <QDialog>

namespace strobe {

class Trace;

// File > Trace Information: file, versions, capture command, GPUs, processes, counts, warnings.
class TraceInfoDialog : public QDialog {
    Q_OBJECT
public:
    TraceInfoDialog(const Trace& trace, const QString& title, QWidget* parent = nullptr);
    // The dialog's content as HTML (also what Copy puts on the clipboard as text).
    static QString html(const Trace& trace, const QString& title);
};

} // namespace strobe
