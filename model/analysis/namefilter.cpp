// SPDX-License-Identifier: MIT
#include "model/analysis/namefilter.h"

namespace strobe {

NameFilter::NameFilter(const QString& text, bool regex)
    : m_text(text)
    , m_isRegex(regex) {
    if (regex)
        m_regex = QRegularExpression(text, QRegularExpression::CaseInsensitiveOption);
}

bool NameFilter::matches(const QString& name) const {
    if (isOpen())
        return true;
    return m_isRegex ? m_regex.match(name).hasMatch() : name.contains(m_text, Qt::CaseInsensitive);
}

} // namespace strobe
