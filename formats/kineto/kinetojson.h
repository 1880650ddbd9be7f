// SPDX-License-Identifier: MIT
#pragma once

// The few ways the Kineto reader looks at simdjson's on-demand values, shared by the document
// level (kinetoreader.cpp) and the event walk (kinetoparse.cpp). Inline: they run per member.

#include "formats/kineto/kinetonumber.h"

#include <cstring>
#include <optional>
#include <simdjson.h>
#include <string_view>

namespace strobe::kineto {

namespace od = simdjson::ondemand;

// The value of an on-demand result; parse errors become simdjson_error, caught at the top.
template <typename T> T take(simdjson::simdjson_result<T>&& r) {
    T v;
    if (const auto err = std::move(r).get(v))
        throw simdjson::simdjson_error(err);
    return v;
}

// A member name as written (no escapes, at most 40 bytes: every name the mapping knows);
// empty for anything else, which is then skipped.
inline std::string_view rawKey(od::raw_json_string key) {
    const char* p = key.raw();
    for (std::size_t n = 0; n < 40; ++n) {
        if (p[n] == '"')
            return {p, n};
        if (p[n] == '\\')
            return {};
    }
    return {};
}

// True when the raw key `raw` (the bytes after its opening quote) is exactly `name`: the name's
// bytes followed by the closing quote. The document's padding keeps the read in bounds.
template <std::size_t N> bool keyIs(const char* raw, const char (&name)[N]) {
    return std::memcmp(raw, name, N - 1) == 0 && raw[N - 1] == '"';
}

// Calls visit(key, value) for each member of `object`, in document order, with the key as
// rawKey gives it. A value the visitor does not read is skipped by the iteration.
template <typename Visit> void forEachMember(od::object object, Visit&& visit) {
    for (auto member : object) {
        od::field f = take(std::move(member));
        od::value v = f.value();
        visit(rawKey(f.key()), v);
    }
}

inline bool isBlank(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

// A string value's characters: in the document itself when it has no escapes (the usual case,
// sparing the copy into the parser's buffer), else unescaped by simdjson into the parser's
// string buffer. Both stay valid until the parser parses another document. Empty for values
// that are not strings.
inline std::string_view stringOr(od::value& v) {
    std::string_view token = v.raw_json_token();
    if (token.empty() || token.front() != '"')
        return {};
    // The token runs from the opening quote to the next structural character: the string and
    // the blanks after it (stage 1 puts no structural inside a string).
    while (token.size() > 1 && isBlank(token.back()))
        token.remove_suffix(1);
    if (token.size() >= 2 && token.back() == '"') {
        const std::string_view inner = token.substr(1, token.size() - 2);
        if (std::memchr(inner.data(), '\\', inner.size()) == nullptr)
            return inner;
    }
    return take(v.get_string());
}

// An integer written as a JSON number or as a string of digits; nullopt otherwise.
inline std::optional<std::int64_t> integerOf(od::value& v) {
    const std::string_view token = v.raw_json_token();
    if (token.empty())
        return std::nullopt;
    if (token.front() == '"') {
        const std::string_view s = stringOr(v);
        return s.empty() ? std::nullopt : exactInteger(s);
    }
    if (token.front() == '-' || (token.front() >= '0' && token.front() <= '9'))
        return exactInteger(token);
    return std::nullopt;
}

} // namespace strobe::kineto
