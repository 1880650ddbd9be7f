// SPDX-License-Identifier: MIT
#pragma once

#include <QRegularExpression>
#include <QString>

namespace strobe {

// The name filter every table offers (kernel table, statistics tabs): plain text matches as a
// case-insensitive substring; a regular expression is searched case-insensitively anywhere in
// the name. An empty or invalid filter lets every name through (the widget marks it invalid).
class NameFilter {
public:
    NameFilter() = default;
    NameFilter(const QString& text, bool regex);

    const QString& text() const { return m_text; }
    bool isRegex() const { return m_isRegex; }
    // False only for a regular expression that does not compile.
    bool isValid() const { return !m_isRegex || m_regex.isValid(); }
    // True when every name passes (empty or invalid): callers may skip matching.
    bool isOpen() const { return m_text.isEmpty() || !isValid(); }
    bool matches(const QString& name) const;

private:
    QString m_text;
    QRegularExpression m_regex;
    bool m_isRegex = false;
};

} // namespace strobe
