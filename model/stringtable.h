// SPDX-License-Identifier: MIT
#pragma once

#include "model/types.h"

#include <QByteArray>
#include <QHash>
#include <QString>
#include <array>
#include <string_view>
#include <vector>

namespace strobe {

// The longest name a reader keeps: kernel names of heavily templated code run to a few KiB, and
// a file's longer ones are cut (with a counted warning) so that no table or report of the trace
// repeats megabytes per event.
inline constexpr std::size_t kMaxNameBytes = std::size_t{64} * 1024;

// `s`, or its first `maxBytes` bytes without cutting a UTF-8 sequence.
inline std::string_view cutName(std::string_view s, std::size_t maxBytes = kMaxNameBytes) {
    if (s.size() <= maxBytes)
        return s;
    std::size_t n = maxBytes;
    while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80)
        --n;
    return s.substr(0, n);
}

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
    // The id last interned per slot of an unseeded hash: names repeat, and a hit is then one
    // comparison instead of QHash's seeded hash (which also guards the table against crafted
    // collisions: a wrong guess here costs one comparison, never a longer search).
    static constexpr std::size_t kMemoSlots = 4096;
    std::array<StringId, kMemoSlots> m_memo{};
};

} // namespace strobe
