// SPDX-License-Identifier: MIT
#pragma once

// Kernel names as nsys stores them: the raw (mangled) symbol, its demangled form, and the short
// base name used in summaries.

#include <string>

namespace strobe::capture {

struct KernelNames {
    std::string shortName;     // "gemm_tiled_kernel"
    std::string demangledName; // "void gemm_tiled_kernel<16>(float const*, ...)"
    std::string mangledName;   // "_Z17gemm_tiled_kernelILi16EEvPKfS1_Pfiii"
};

// Demangles with abi::__cxa_demangle; names that are not mangled (extern "C" kernels) are used
// as they are for all three.
KernelNames kernelNames(const std::string& symbol);

// The base function name of a demangled signature: no return type, namespaces, template
// arguments or parameters ("void ns::k<int>(float*)" -> "k"). Returns the input when it has no
// recognisable structure.
std::string shortKernelName(const std::string& demangled);

} // namespace strobe::capture
