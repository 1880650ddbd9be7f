// SPDX-License-Identifier: MIT
#pragma once

#include "model/types.h"

#include <QByteArray>
#include <QHash>
#include <QString>
#include <string_view>
#include <vector>

namespace strobe {

// Interned UTF-8 strings. Id 0 is the empty string. Frozen with the trace.
class StringTable {
public:
    StringTable();

    // Returns the id of `utf8`, adding it when new.
    StringId intern(std::string_view utf8);
    // Returns the UTF-8 bytes of `id`; id must be < size().
    std::string_view view(StringId id) const { return m_strings[id]; }
    QString string(StringId id) const { return QString::fromUtf8(m_strings[id]); }
    std::size_t size() const { return m_strings.size(); }
    std::size_t memoryBytes() const;

private:
    friend class TraceCodec; // the reopen cache (formats/cache) stores the strings
    std::vector<std::string> m_strings;
    QHash<QByteArray, StringId> m_ids;
};

} // namespace strobe
