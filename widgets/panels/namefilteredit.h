// SPDX-License-Identifier: MIT
#pragma once

#include "model/analysis/namefilter.h"

#include <QWidget>

class QCheckBox;
class QLineEdit;

namespace strobe {

// The filter field of every table: a line edit (plain text) and a "Regex" box. Emits
// filterChanged on each edit by the user; markValid(false) colours the text red with a tooltip
// saying why.
class NameFilterEdit : public QWidget {
    Q_OBJECT
public:
    explicit NameFilterEdit(const QString& placeholder, QWidget* parent = nullptr);

    NameFilter filter() const;
    // Sets both controls without emitting filterChanged (the caller applies the filter).
    void setFilter(const QString& text, bool regex);
    void markValid(bool valid);
    QLineEdit* lineEdit() const { return m_edit; }
    QCheckBox* regexBox() const { return m_regex; }

signals:
    void filterChanged(const strobe::NameFilter& filter); // (qualified for moc's type names)

private:
    QLineEdit* m_edit;
    QCheckBox* m_regex;
    bool m_setting = false;
};

} // namespace strobe
