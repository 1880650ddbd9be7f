// SPDX-License-Identifier: MIT
#include "formats/kineto/kinetonumber.h"

#include <algorithm>
#include <limits>

namespace strobe::kineto {

namespace {

bool isBlank(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

bool isDigit(char c) {
    return c >= '0' && c <= '9';
}

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
    const long long total = static_cast<long long>(intDigits.size() + fracDigits.size());
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

// The shapes Kineto writes ("1682725898236567", "4458676983543.183", "41.4"): up to 16 integer
// digits and 3 fractional ones, no sign or exponent, read in one pass. Anything else: nullopt,
// and the general path decides.
std::optional<std::int64_t> fastMicroseconds(std::string_view text) {
    const char* p = text.data();
    const char* const end = p + text.size();
    std::uint64_t v = 0;
    const char* const intBegin = p;
    while (p < end && isDigit(*p))
        v = v * 10 + std::uint64_t(*p++ - '0');
    const auto intDigits = p - intBegin;
    if (intDigits == 0 || intDigits > 16)
        return std::nullopt;
    int frac = 0;
    if (p < end && *p == '.') {
        ++p;
        while (p < end && isDigit(*p) && frac < 3) {
            v = v * 10 + std::uint64_t(*p++ - '0');
            ++frac;
        }
        if (frac == 0 || (p < end && isDigit(*p)))
            return std::nullopt;
    }
    while (p < end && isBlank(*p))
        ++p;
    if (p != end)
        return std::nullopt;
    for (; frac < 3; ++frac)
        v *= 10;
    if (v > std::uint64_t(std::numeric_limits<std::int64_t>::max()))
        return std::nullopt;
    return std::int64_t(v);
}

std::optional<std::int64_t> microsecondsToNs(std::string_view text) {
    if (const auto fast = fastMicroseconds(text))
        return fast;
    const auto v = scaledDecimal(text, 3);
    return v ? std::optional<std::int64_t>(v->value) : std::nullopt;
}

std::optional<std::int64_t> exactInteger(std::string_view text) {
    // Plain digits (the usual pid, tid, id and argument): no general parse.
    if (!text.empty() && text.size() <= 18) {
        std::int64_t v = 0;
        std::size_t i = text[0] == '-' ? 1 : 0;
        const std::size_t digitsBegin = i;
        while (i < text.size() && isDigit(text[i]))
            v = v * 10 + (text[i++] - '0');
        std::size_t j = i;
        while (j < text.size() && isBlank(text[j]))
            ++j;
        if (i > digitsBegin && j == text.size())
            return digitsBegin ? -v : v;
    }
    const auto v = scaledDecimal(text, 0);
    return v && v->exact ? std::optional<std::int64_t>(v->value) : std::nullopt;
}

} // namespace strobe::kineto
