// SPDX-License-Identifier: MIT
#include "formats/kineto/inputshapes.h"

namespace strobe::kineto {

namespace {
bool isBlankChar(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}
bool isDigit(char c) {
    return c >= '0' && c <= '9';
}
} // namespace

InputShapesResult normaliseInputShapes(std::string_view json, std::string& out,
                                       std::size_t maxBytes) {
    out.clear();
    std::size_t i = 0;
    auto skipBlanks = [&] {
        while (i < json.size() && isBlankChar(json[i]))
            ++i;
    };
    // After '[' or ',' a value is due; after a value, ',' or ']'. Depth counts open lists.
    std::size_t depth = 0;
    bool valueDue = true, firstInList = false;
    skipBlanks();
    if (i == json.size() || json[i] != '[')
        return InputShapesResult::Malformed;
    while (i < json.size()) {
        const char c = json[i];
        if (valueDue) {
            if (c == '[') {
                out += '[';
                ++depth;
                ++i;
                firstInList = true; // "[]" is a whole value; "[," is not
            } else if (c == ']' && firstInList) {
                out += ']';
                --depth;
                ++i;
                valueDue = false;
                firstInList = false;
            } else if (c == '-' || isDigit(c)) {
                // A JSON integer: -?(0|[1-9][0-9]*), not followed by a fraction or an exponent.
                std::size_t j = i + (c == '-' ? 1 : 0);
                const std::size_t digits = j;
                while (j < json.size() && isDigit(json[j]))
                    ++j;
                const std::size_t n = j - digits;
                if (n == 0 || (n > 1 && json[digits] == '0'))
                    return InputShapesResult::Malformed;
                if (j < json.size() && (json[j] == '.' || json[j] == 'e' || json[j] == 'E'))
                    return InputShapesResult::Malformed;
                if (n == 1 && json[digits] == '0')
                    out += '0'; // "-0" is 0, as Python's int prints it
                else
                    out.append(json.substr(i, j - i));
                i = j;
                valueDue = false;
                firstInList = false;
            } else {
                return InputShapesResult::Malformed;
            }
        } else if (c == ',') {
            out += ", ";
            ++i;
            valueDue = true;
        } else if (c == ']') {
            out += ']';
            --depth;
            ++i;
        } else {
            return InputShapesResult::Malformed;
        }
        if (out.size() > maxBytes)
            return InputShapesResult::TooLong;
        skipBlanks();
        if (depth == 0)
            break;
    }
    if (depth != 0 || i != json.size())
        return InputShapesResult::Malformed;
    return InputShapesResult::Ok;
}

} // namespace strobe::kineto
