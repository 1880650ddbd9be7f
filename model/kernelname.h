// SPDX-License-Identifier: MIT
#pragma once

// Reading a kernel's full demangled name: its base name (as nsys shows it) and the template
// arguments of the kernel function, which the kernel classes (kernelclass.h) look at when the
// base name says nothing.

#include <string_view>

namespace strobe {

// The base name of a kernel from its full demangled name, as nsys would show it: no return type,
// namespaces, template arguments or parameters. "void at::native::elementwise_kernel<128, 4,
// F>(int, F)" -> "elementwise_kernel". A generic launcher (isGenericKernelLauncher) is named by
// what it runs, its first template argument's base name: "void cutlass::Kernel<cutlass_80_
// tensorop_s1688gemm_64x64_16x6_tn_align4>(P)" -> "cutlass_80_tensorop_s1688gemm_64x64_16x6_tn_
// align4". Returns a view into `full`; `full` itself when nothing can be stripped. Lambdas,
// "(anonymous namespace)" and operator names are kept whole.
std::string_view deriveShortKernelName(std::string_view full);

// The template arguments of the kernel function in `full`, without the outer angle brackets:
// "128, 4, F" for "void at::native::elementwise_kernel<128, 4, F>(int, F)"; empty when the
// function has none (the return type's and the parameters' are not its own).
std::string_view kernelTemplateArguments(std::string_view full);

// True for the base names of kernels that only run the class given as their template argument
// (CUTLASS's Kernel, Kernel2 and device_kernel): their own name says nothing about the kernel.
bool isGenericKernelLauncher(std::string_view baseName);

} // namespace strobe
