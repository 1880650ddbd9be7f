// SPDX-License-Identifier: MIT
#include "widgets/panels/namefilteredit.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QLineEdit>

namespace strobe {

NameFilterEdit::NameFilterEdit(const QString& placeholder, QWidget* parent)
    : QWidget(parent)
    , m_edit(new QLineEdit(this))
    , m_regex(new QCheckBox(tr("Regex"), this)) {
    m_edit->setPlaceholderText(placeholder);
    m_edit->setClearButtonEnabled(true);
    m_regex->setToolTip(tr("Match a regular expression (case-insensitive) instead of plain text"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_edit, 1);
    layout->addWidget(m_regex);
    auto changed = [this] {
        if (!m_setting)
            emit filterChanged(filter());
    };
    connect(m_edit, &QLineEdit::textChanged, this, changed);
    connect(m_regex, &QCheckBox::toggled, this, changed);
}

NameFilter NameFilterEdit::filter() const {
    return NameFilter(m_edit->text(), m_regex->isChecked());
}

void NameFilterEdit::setFilter(const QString& text, bool regex) {
    m_setting = true;
    if (m_edit->text() != text)
        m_edit->setText(text);
    if (m_regex->isChecked() != regex)
        m_regex->setChecked(regex);
    m_setting = false;
}

void NameFilterEdit::markValid(bool valid) {
    m_edit->setStyleSheet(valid ? QString() : QStringLiteral("color: #c62828"));
    m_edit->setToolTip(valid ? QString() : tr("Invalid regular expression"));
}

} // namespace strobe
