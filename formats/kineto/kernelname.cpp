// SPDX-License-Identifier: MIT
#include "formats/kineto/kernelname.h"

namespace strobe::kineto {

namespace {

constexpr std::string_view kAnonymous = "(anonymous namespace)";

bool opens(char c) {
    return c == '<' || c == '(' || c == '[' || c == '{';
}

bool closes(char c) {
    return c == '>' || c == ')' || c == ']' || c == '}';
}

// Where the parameter list starts: the first '(' outside brackets that is not part of
// "(anonymous namespace)"; the end when there is none.
std::size_t parameterListStart(std::string_view s) {
    int depth = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        if (depth == 0 && c == '(') {
            if (s.substr(i, kAnonymous.size()) == kAnonymous) {
                i += kAnonymous.size() - 1;
                continue;
            }
            if (i >= 8 && s.substr(i - 8, 8) == "operator")
                return s.size(); // "operator()" and friends: keep the name as written
            return i;
        }
        if (opens(c))
            ++depth;
        else if (closes(c) && depth > 0)
            --depth;
    }
    return s.size();
}

} // namespace

std::string_view deriveShortKernelName(std::string_view full) {
    std::string_view base = full.substr(0, parameterListStart(full));
    while (!base.empty() && base.back() == ' ')
        base.remove_suffix(1);
    if (!base.empty() && base.back() == '>') { // trailing template arguments
        int depth = 0;
        for (std::size_t j = base.size(); j-- > 0;) {
            if (base[j] == '>')
                ++depth;
            else if (base[j] == '<' && --depth == 0) {
                base = base.substr(0, j);
                break;
            }
        }
    }
    // The last component outside brackets, after namespaces and the return type.
    std::size_t from = 0;
    int depth = 0;
    for (std::size_t i = 0; i < base.size(); ++i) {
        const char c = base[i];
        if (opens(c))
            ++depth;
        else if (closes(c) && depth > 0)
            --depth;
        else if (depth == 0 && c == ' ')
            from = i + 1;
        else if (depth == 0 && c == ':' && i + 1 < base.size() && base[i + 1] == ':')
            from = i + 2;
    }
    const std::string_view name = base.substr(from);
    return name.empty() ? full : name;
}

} // namespace strobe::kineto
