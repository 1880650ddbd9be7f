// SPDX-License-Identifier: MIT
#pragma once

// Exact conversions of JSON number text. Kineto writes times in microseconds, as integers or as
// decimals with three (sometimes more) fractional digits, at magnitudes up to 1.7e15 us: going
// through a double would lose nanoseconds, so the decimal text is read digit by digit.
//
// The shapes Kineto writes are read inline, in one pass (a load reads tens of millions of
// numbers); anything else goes to the general, out-of-line path, which decides.

#include <cstdint>
#include <limits>
#include <optional>
#include <string_view>

namespace strobe::kineto {

// `text` is a JSON number (sign, digits, optional fraction and exponent; surrounding blanks are
// ignored) in microseconds. Returns it in integer nanoseconds, rounded half to even past the third
// fractional digit; nullopt when the text is not a number or the result does not fit int64.
std::optional<std::int64_t> microsecondsToNs(std::string_view text);

// The same, except that a number beyond int64 nanoseconds saturates (to INT64_MIN or INT64_MAX)
// instead of failing: a time that far out is clamped, with a warning, not dropped. nullopt only
// when the text is not a number.
std::optional<std::int64_t> saturatedMicrosecondsToNs(std::string_view text);

// `text` is a JSON number or the digits of one; returns it when it is an integer (a zero
// fraction such as "5.0" counts) that fits int64; nullopt otherwise.
std::optional<std::int64_t> exactInteger(std::string_view text);

// `text` is a JSON number (blanks after it are ignored); returns its nearest double, nullopt when
// it is not a number or is out of the double's range.
std::optional<double> decimalNumber(std::string_view text);

namespace detail {

std::optional<std::int64_t> microsecondsToNsGeneral(std::string_view text);
std::optional<std::int64_t> saturatedMicrosecondsToNsGeneral(std::string_view text);
std::optional<std::int64_t> exactIntegerGeneral(std::string_view text);
std::optional<double> decimalNumberGeneral(std::string_view text);

inline bool isDigit(char c) {
    return static_cast<unsigned char>(c - '0') < 10;
}

// Where the blanks at the end of [p, end) begin.
inline const char* trimBlanks(const char* p, const char* end) {
    while (end > p && (end[-1] == ' ' || end[-1] == '\n' || end[-1] == '\r' || end[-1] == '\t'))
        --end;
    return end;
}

} // namespace detail

// The same three, writing the value to `out` and saying whether there was one: what the reader's
// hot paths use (an optional returned through inlined code costs a store-forwarding stall).
bool parseMicroseconds(std::string_view text, std::int64_t& out);
bool parseSaturatedMicroseconds(std::string_view text, std::int64_t& out);
bool parseInteger(std::string_view text, std::int64_t& out);
bool parseDecimal(std::string_view text, double& out);

namespace detail {
inline bool assign(const std::optional<std::int64_t>& v, std::int64_t& out) {
    if (v)
        out = *v;
    return v.has_value();
}
} // namespace detail

inline bool parseMicroseconds(std::string_view text, std::int64_t& out) {
    // "1682725898236567", "4458676983543.183", "41.4": up to 16 integer digits and 3 fractional
    // ones, no sign or exponent.
    const char* p = text.data();
    const char* const end = detail::trimBlanks(p, p + text.size());
    const char* const intBegin = p;
    const char* const intLimit = end - p > 17 ? p + 17 : end;
    std::uint64_t v = 0;
    while (p < intLimit && detail::isDigit(*p))
        v = v * 10 + std::uint64_t(*p++ - '0');
    const auto intDigits = p - intBegin;
    if (intDigits == 0 || intDigits > 16)
        return detail::assign(detail::microsecondsToNsGeneral(text), out);
    int frac = 0;
    if (p < end && *p == '.') {
        ++p;
        while (p < end && frac < 3 && detail::isDigit(*p)) {
            v = v * 10 + std::uint64_t(*p++ - '0');
            ++frac;
        }
        if (frac == 0)
            return detail::assign(detail::microsecondsToNsGeneral(text), out);
    }
    if (p != end)
        return detail::assign(detail::microsecondsToNsGeneral(text), out);
    static constexpr std::uint64_t kScale[4] = {1000, 100, 10, 1};
    const std::uint64_t ns = v * kScale[frac]; // < 10^19: no wrap in 64 bits
    if (ns > std::uint64_t(std::numeric_limits<std::int64_t>::max()))
        return detail::assign(detail::microsecondsToNsGeneral(text), out); // "does not fit"
    out = std::int64_t(ns);
    return true;
}

inline bool parseInteger(std::string_view text, std::int64_t& out) {
    // Plain digits (the usual pid, tid, id and argument), at most 18 of them: no overflow.
    const char* p = text.data();
    const char* const end = detail::trimBlanks(p, p + text.size());
    const bool negative = p < end && *p == '-';
    p += negative;
    const char* const digits = p;
    const char* const limit = end - digits > 18 ? digits + 18 : end;
    std::int64_t v = 0;
    while (p < limit && detail::isDigit(*p))
        v = v * 10 + (*p++ - '0');
    if (p != end || p == digits) // more than 18 digits, or not only digits
        return detail::assign(detail::exactIntegerGeneral(text), out);
    out = negative ? -v : v;
    return true;
}

inline bool parseDecimal(std::string_view text, double& out) {
    // At most 15 significant digits and no exponent ("4.740741", "75.851852", "73"): the digits
    // as an integer and the power of ten are both exact doubles, so their quotient is the
    // correctly rounded value (Clinger's fast path).
    static constexpr double kPow10[16] = {1e0, 1e1, 1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                          1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
    const char* p = text.data();
    const char* const end = detail::trimBlanks(p, p + text.size());
    const bool negative = p < end && *p == '-';
    p += negative;
    const char* const digits = p;
    std::uint64_t m = 0; // wraps past 19 digits, which go to the general path anyway
    while (p < end && detail::isDigit(*p))
        m = m * 10 + std::uint64_t(*p++ - '0');
    const auto intDigits = p - digits;
    long fracDigits = 0;
    if (p < end && *p == '.') {
        const char* const fracBegin = ++p;
        while (p < end && detail::isDigit(*p))
            m = m * 10 + std::uint64_t(*p++ - '0');
        fracDigits = p - fracBegin;
    }
    if (p != end || intDigits == 0 || (p[-1] == '.') || intDigits + fracDigits > 15) {
        const auto v = detail::decimalNumberGeneral(text);
        if (v)
            out = *v;
        return v.has_value();
    }
    const double v = double(m) / kPow10[fracDigits];
    out = negative ? -v : v;
    return true;
}

inline bool parseSaturatedMicroseconds(std::string_view text, std::int64_t& out) {
    return parseMicroseconds(text, out) ||
           detail::assign(detail::saturatedMicrosecondsToNsGeneral(text), out);
}

inline std::optional<std::int64_t> saturatedMicrosecondsToNs(std::string_view text) {
    std::int64_t v = 0;
    return parseSaturatedMicroseconds(text, v) ? std::optional<std::int64_t>(v) : std::nullopt;
}

inline std::optional<std::int64_t> microsecondsToNs(std::string_view text) {
    std::int64_t v = 0;
    return parseMicroseconds(text, v) ? std::optional<std::int64_t>(v) : std::nullopt;
}

inline std::optional<std::int64_t> exactInteger(std::string_view text) {
    std::int64_t v = 0;
    return parseInteger(text, v) ? std::optional<std::int64_t>(v) : std::nullopt;
}

inline std::optional<double> decimalNumber(std::string_view text) {
    double v = 0;
    return parseDecimal(text, v) ? std::optional<double>(v) : std::nullopt;
}

} // namespace strobe::kineto
