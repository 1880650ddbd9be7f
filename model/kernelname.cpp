// SPDX-License-Identifier: MIT
#include "model/kernelname.h"

namespace strobe {

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

// The name before its parameter list: return type, namespaces, name and template arguments.
std::string_view functionPart(std::string_view full) {
    std::string_view f = full.substr(0, parameterListStart(full));
    while (!f.empty() && f.back() == ' ')
        f.remove_suffix(1);
    return f;
}

// Where the template argument list that ends `s` opens; npos when `s` does not end with one.
std::size_t trailingTemplateStart(std::string_view s) {
    if (s.empty() || s.back() != '>')
        return std::string_view::npos;
    int depth = 0;
    for (std::size_t j = s.size(); j-- > 0;) {
        if (s[j] == '>')
            ++depth;
        else if (s[j] == '<' && --depth == 0)
            return j;
    }
    return std::string_view::npos;
}

// The arguments of the template argument list that ends `s`, without its brackets.
std::string_view trailingTemplateArguments(std::string_view s) {
    const std::size_t open = trailingTemplateStart(s);
    return open == std::string_view::npos ? std::string_view{}
                                          : s.substr(open + 1, s.size() - open - 2);
}

// The last component outside brackets, after namespaces and the return type, of `s` without its
// trailing template arguments.
std::string_view baseName(std::string_view s) {
    if (const std::size_t open = trailingTemplateStart(s); open != std::string_view::npos)
        s = s.substr(0, open);
    std::size_t from = 0;
    int depth = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        if (opens(c))
            ++depth;
        else if (closes(c) && depth > 0)
            --depth;
        else if (depth == 0 && c == ' ')
            from = i + 1;
        else if (depth == 0 && c == ':' && i + 1 < s.size() && s[i + 1] == ':')
            from = i + 2;
    }
    return s.substr(from);
}

// The first of comma-separated template arguments, without surrounding spaces.
std::string_view firstArgument(std::string_view args) {
    int depth = 0;
    std::size_t end = args.size();
    for (std::size_t i = 0; i < args.size(); ++i) {
        const char c = args[i];
        if (opens(c))
            ++depth;
        else if (closes(c) && depth > 0)
            --depth;
        else if (depth == 0 && c == ',') {
            end = i;
            break;
        }
    }
    std::string_view a = args.substr(0, end);
    while (!a.empty() && a.front() == ' ')
        a.remove_prefix(1);
    while (!a.empty() && a.back() == ' ')
        a.remove_suffix(1);
    return a;
}

bool startsIdentifier(std::string_view s) {
    return !s.empty() &&
           ((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z') || s[0] == '_');
}

} // namespace

bool isGenericKernelLauncher(std::string_view baseName) {
    return baseName == "Kernel" || baseName == "Kernel2" || baseName == "device_kernel";
}

std::string_view kernelTemplateArguments(std::string_view full) {
    return trailingTemplateArguments(functionPart(full));
}

std::string_view deriveShortKernelName(std::string_view full) {
    const std::string_view function = functionPart(full);
    std::string_view name = baseName(function);
    if (isGenericKernelLauncher(name)) {
        std::string_view argument = firstArgument(trailingTemplateArguments(function));
        // Wrappers that only gate the architecture ("flash::enable_sm90_or_later<K>") are looked
        // through, a few levels at most.
        for (int level = 0; level < 4; ++level) {
            const std::string_view inner = baseName(argument);
            const std::string_view wrapped = trailingTemplateArguments(argument);
            if (inner.starts_with("enable_") && !wrapped.empty()) {
                argument = firstArgument(wrapped);
                continue;
            }
            if (startsIdentifier(inner)) // a type, not a number
                name = inner;
            break;
        }
    }
    return name.empty() ? full : name;
}

} // namespace strobe
