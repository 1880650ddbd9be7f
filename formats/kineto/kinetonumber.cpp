// SPDX-License-Identifier: MIT
#include "formats/kineto/kinetonumber.h"

#include <algorithm>
#include <charconv>
#include <limits>

namespace strobe::kineto {

namespace {

bool isBlank(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

using detail::isDigit;

struct Scaled {
    std::int64_t value = 0;
    bool exact = true; // no non-zero digit was rounded away
};

// The number `text` times 10^scale, rounded half to even to an integer.
std::optional<Scaled> scaledDecimal(std::string_view text, int scale) {
    while (!text.empty() && isBlank(text.front()))
        text.remove_prefix(1);
    while (!text.empty() && isBlank(text.back()))
        text.remove_suffix(1);
    std::size_t i = 0;
    const bool negative = i < text.size() && text[i] == '-';
    if (negative)
        ++i;
    const std::size_t intBegin = i;
    while (i < text.size() && isDigit(text[i]))
        ++i;
    const std::string_view intDigits = text.substr(intBegin, i - intBegin);
    std::string_view fracDigits;
    if (i < text.size() && text[i] == '.') {
        const std::size_t fracBegin = ++i;
        while (i < text.size() && isDigit(text[i]))
            ++i;
        fracDigits = text.substr(fracBegin, i - fracBegin);
        if (fracDigits.empty())
            return std::nullopt;
    }
    if (intDigits.empty())
        return std::nullopt;
    long long exponent = 0;
    if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
        ++i;
        bool expNegative = false;
        if (i < text.size() && (text[i] == '+' || text[i] == '-'))
            expNegative = text[i++] == '-';
        const std::size_t expBegin = i;
        while (i < text.size() && isDigit(text[i])) {
            if (exponent < 100000)
                exponent = exponent * 10 + (text[i] - '0');
            ++i;
        }
        if (i == expBegin)
            return std::nullopt;
        if (expNegative)
            exponent = -exponent;
    }
    if (i != text.size())
        return std::nullopt;

    // The digits intDigits + fracDigits with the decimal point after `point` of them.
    const long long total =
        static_cast<long long>(intDigits.size()) + static_cast<long long>(fracDigits.size());
    const long long point = static_cast<long long>(intDigits.size()) + exponent + scale;
    auto digit = [&](long long k) -> int {
        if (k < 0 || k >= total)
            return 0;
        const auto u = static_cast<std::size_t>(k);
        return u < intDigits.size() ? intDigits[u] - '0' : fracDigits[u - intDigits.size()] - '0';
    };
    std::uint64_t magnitude = 0;
    constexpr std::uint64_t kLimit = std::uint64_t(std::numeric_limits<std::int64_t>::max()) + 1;
    for (long long k = 0; k < point; ++k) {
        const int d = digit(k);
        if (magnitude == 0 && d == 0)
            continue;
        if (magnitude > (kLimit - std::uint64_t(d)) / 10)
            return std::nullopt;
        magnitude = magnitude * 10 + std::uint64_t(d);
    }
    // Round half to even on the digits after the point.
    const int first = digit(point);
    bool rest = false;
    for (long long k = std::max(point + 1, 0LL); k < total && !rest; ++k)
        rest = digit(k) != 0;
    const bool roundUp = first > 5 || (first == 5 && (rest || (magnitude & 1) != 0));
    if (roundUp && ++magnitude > kLimit)
        return std::nullopt;
    if (!negative && magnitude == kLimit)
        return std::nullopt;
    Scaled out;
    out.value =
        negative ? static_cast<std::int64_t>(0 - magnitude) : static_cast<std::int64_t>(magnitude);
    out.exact = first == 0 && !rest;
    return out;
}

} // namespace

std::optional<std::int64_t> detail::microsecondsToNsGeneral(std::string_view text) {
    const auto v = scaledDecimal(text, 3);
    return v ? std::optional<std::int64_t>(v->value) : std::nullopt;
}

namespace {

// Whether `text` (blanks around it aside) is a JSON number: -?digits(.digits)?([eE][+-]?digits)?
bool isJsonNumber(std::string_view text) {
    while (!text.empty() && isBlank(text.front()))
        text.remove_prefix(1);
    while (!text.empty() && isBlank(text.back()))
        text.remove_suffix(1);
    std::size_t i = 0;
    auto digits = [&] {
        const std::size_t from = i;
        while (i < text.size() && isDigit(text[i]))
            ++i;
        return i > from;
    };
    if (i < text.size() && text[i] == '-')
        ++i;
    if (!digits())
        return false;
    if (i < text.size() && text[i] == '.') {
        ++i;
        if (!digits())
            return false;
    }
    if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
        ++i;
        if (i < text.size() && (text[i] == '+' || text[i] == '-'))
            ++i;
        if (!digits())
            return false;
    }
    return i == text.size();
}

} // namespace

std::optional<std::int64_t> detail::saturatedMicrosecondsToNsGeneral(std::string_view text) {
    if (const auto v = microsecondsToNsGeneral(text))
        return v;
    if (!isJsonNumber(text))
        return std::nullopt;
    // A number, but beyond int64 nanoseconds (a tiny one, 1e-400, rounds to zero and fits).
    const std::size_t sign = text.find_first_not_of(" \t\n\r");
    return sign != std::string_view::npos && text[sign] == '-'
               ? std::numeric_limits<std::int64_t>::min()
               : std::numeric_limits<std::int64_t>::max();
}

std::optional<std::int64_t> detail::exactIntegerGeneral(std::string_view text) {
    const auto v = scaledDecimal(text, 0);
    return v && v->exact ? std::optional<std::int64_t>(v->value) : std::nullopt;
}

std::optional<double> detail::decimalNumberGeneral(std::string_view text) {
    while (!text.empty() && isBlank(text.back()))
        text.remove_suffix(1);
    // from_chars also reads "inf", "nan" and hexadecimal digits; a JSON number starts with a digit
    // after its optional minus sign.
    const std::size_t first = !text.empty() && text.front() == '-' ? 1 : 0;
    if (first >= text.size() || !isDigit(text[first]))
        return std::nullopt;
    double v = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (error != std::errc() || end != text.data() + text.size())
        return std::nullopt;
    return v;
}

} // namespace strobe::kineto
