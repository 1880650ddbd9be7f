// SPDX-License-Identifier: MIT
#pragma once

// Exact conversions of JSON number text. Kineto writes times in microseconds, as integers or as
// decimals with three (sometimes more) fractional digits, at magnitudes up to 1.7e15 us: going
// through a double would lose nanoseconds, so the decimal text is read digit by digit.

#include <cstdint>
#include <optional>
#include <string_view>

namespace strobe::kineto {

// `text` is a JSON number (sign, digits, optional fraction and exponent; surrounding blanks are
// ignored) in microseconds. Returns it in integer nanoseconds, rounded half to even past the third
// fractional digit; nullopt when the text is not a number or the result does not fit int64.
std::optional<std::int64_t> microsecondsToNs(std::string_view text);

// `text` is a JSON number or the digits of one; returns it when it is an integer (a zero
// fraction such as "5.0" counts) that fits int64; nullopt otherwise.
std::optional<std::int64_t> exactInteger(std::string_view text);

} // namespace strobe::kineto
