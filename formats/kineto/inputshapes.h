// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace strobe::kineto {

// The longest input-shapes text kept (bytes of the normalised text): the longest a real trace
// holds is under 4 KB (an operator taking a list of a hundred tensors).
inline constexpr std::size_t kMaxInputShapesBytes = 4096;

enum class InputShapesResult : unsigned char { Ok, Malformed, TooLong };

// Writes `json`, the raw JSON text of an operator's `Input Dims` (a list of lists of integers,
// nested to any depth, blanks anywhere a JSON value allows them), into `out` the way Python's
// str() prints it, TensorBoard's grouping key: no blanks but one space after each comma, integers
// as written ("-0" as "0"): "[ [32,3],[ ] ]" -> "[[32, 3], []]". Anything else (strings, decimals,
// objects, a top level that is not a list, text after it) is Malformed; a text longer than
// `maxBytes` is TooLong. `out` holds a prefix of the text when the result is not Ok.
InputShapesResult normaliseInputShapes(std::string_view json, std::string& out,
                                       std::size_t maxBytes = kMaxInputShapesBytes);

} // namespace strobe::kineto
