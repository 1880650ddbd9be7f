// SPDX-License-Identifier: MIT
#pragma once

#include <string_view>

namespace strobe::kineto {

// The base name of a kernel from its full demangled name, as nsys would show it: no return type,
// namespaces, template arguments or parameters. "void at::native::elementwise_kernel<128, 4,
// F>(int, F)" -> "elementwise_kernel". Returns a view into `full`; `full` itself when nothing can
// be stripped. Lambdas, "(anonymous namespace)" and operator names are kept whole.
std::string_view deriveShortKernelName(std::string_view full);

} // namespace strobe::kineto
