// SPDX-License-Identifier: MIT
#include "model/stringtable.h"

namespace strobe {

StringTable::StringTable() {
    m_strings.emplace_back();
    m_ids.insert(QByteArray(), 0);
}

StringId StringTable::intern(std::string_view utf8) {
    StringId& memo = m_memo[std::hash<std::string_view>{}(utf8) & (kMemoSlots - 1)];
    if (m_strings[memo] == utf8)
        return memo;
    const QByteArray key = QByteArray::fromRawData(utf8.data(), qsizetype(utf8.size()));
    if (auto it = m_ids.constFind(key); it != m_ids.constEnd())
        return memo = it.value();
    const auto id = StringId(m_strings.size());
    m_strings.emplace_back(utf8);
    m_ids.insert(QByteArray(utf8.data(), qsizetype(utf8.size())), id);
    return memo = id;
}

std::size_t StringTable::memoryBytes() const {
    std::size_t bytes = m_strings.capacity() * sizeof(std::string);
    for (const auto& s : m_strings)
        bytes += s.capacity() > 15 ? s.capacity() : 0;
    return bytes + std::size_t(m_ids.size()) * 48 + sizeof(m_memo);
}

} // namespace strobe
