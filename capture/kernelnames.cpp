// SPDX-License-Identifier: MIT
#include "capture/kernelnames.h"

#include <cstdlib>
#include <cxxabi.h>

namespace strobe::capture {

namespace {

// Index of the bracket that opens the one closing at `close`, scanning backwards over nested
// (), <> and []; npos when unbalanced.
std::size_t matchingOpen(const std::string& s, std::size_t close) {
    int depth = 0;
    for (std::size_t i = close + 1; i-- > 0;) {
        const char c = s[i];
        if (c == ')' || c == '>' || c == ']')
            ++depth;
        else if (c == '(' || c == '<' || c == '[')
            --depth;
        if (depth == 0)
            return i;
    }
    return std::string::npos;
}

bool endsWith(const std::string& s, const std::string& suffix) {
    return s.size() >= suffix.size() &&
           s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

} // namespace

std::string shortKernelName(const std::string& demangled) {
    std::string s = demangled;
    // Trailing qualifiers of member functions ("... const").
    while (endsWith(s, " const") || endsWith(s, " volatile"))
        s.erase(s.rfind(' '));
    // Parameters, then template arguments: both are balanced groups at the end.
    if (!s.empty() && s.back() == ')') {
        const auto open = matchingOpen(s, s.size() - 1);
        if (open == std::string::npos || open == 0)
            return demangled;
        s.erase(open);
    }
    while (!s.empty() && s.back() == '>') {
        // "operator>" and friends are names, not template argument lists.
        if (endsWith(s, "operator>") || endsWith(s, "operator>>") || endsWith(s, "operator->"))
            break;
        const auto open = matchingOpen(s, s.size() - 1);
        if (open == std::string::npos || open == 0)
            return demangled;
        s.erase(open);
    }
    // The base name starts after the last "::" or space outside brackets (namespaces, return type).
    int depth = 0;
    std::size_t start = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        if (c == '(' || c == '<' || c == '[')
            ++depth;
        else if (c == ')' || c == '>' || c == ']')
            --depth;
        else if (depth == 0 && c == ':' && i + 1 < s.size() && s[i + 1] == ':')
            start = i + 2;
        else if (depth == 0 && c == ' ' && s.compare(i + 1, 8, "operator") != 0 &&
                 !endsWith(s.substr(0, i), "operator"))
            start = i + 1;
    }
    std::string base = s.substr(start);
    return base.empty() ? demangled : base;
}

KernelNames kernelNames(const std::string& symbol) {
    KernelNames names;
    names.mangledName = symbol;
    int status = -1;
    char* demangled = nullptr;
    if (symbol.rfind("_Z", 0) == 0)
        demangled = abi::__cxa_demangle(symbol.c_str(), nullptr, nullptr, &status);
    if (demangled && status == 0) {
        names.demangledName = demangled;
        names.shortName = shortKernelName(names.demangledName);
    } else {
        names.demangledName = symbol;
        names.shortName = symbol;
    }
    std::free(demangled);
    return names;
}

} // namespace strobe::capture
