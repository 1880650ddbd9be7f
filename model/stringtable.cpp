// SPDX-License-Identifier: MIT
#include "model/stringtable.h"

namespace strobe {

StringTable::StringTable() {
    m_strings.emplace_back();
    m_ids.insert(QByteArray(), 0);
}

StringId StringTable::intern(std::string_view utf8) {
    const QByteArray key = QByteArray::fromRawData(utf8.data(), qsizetype(utf8.size()));
    if (auto it = m_ids.constFind(key); it != m_ids.constEnd())
        return it.value();
    const auto id = StringId(m_strings.size());
    m_strings.emplace_back(utf8);
    m_ids.insert(QByteArray(utf8.data(), qsizetype(utf8.size())), id);
    return id;
}

std::size_t StringTable::memoryBytes() const {
    std::size_t bytes = m_strings.capacity() * sizeof(std::string);
    for (const auto& s : m_strings)
        bytes += s.capacity() > 15 ? s.capacity() : 0;
    return bytes + std::size_t(m_ids.size()) * 48;
}

} // namespace strobe
