// SPDX-License-Identifier: MIT
#pragma once

#include <QFlags>

namespace strobe {

// The parts of a trace a reader can leave out (LoadOptions::parts) and that a Trace says it holds
// (TraceMetadata::loadedParts). Strings, metadata, processes, threads, GPUs and streams are not
// parts: they are always read (every part needs them, and they are small).
enum class TracePart : unsigned {
    Kernels = 1u << 0,
    Memcpys = 1u << 1, // unified memory migrations included
    Memsets = 1u << 2,
    CudaApi = 1u << 3, // CUDA runtime and driver API calls
    Syncs = 1u << 4,   // synchronisation records
    Nvtx = 1u << 5,    // NVTX ranges and marks, and the thread names NVTX gives
    Osrt = 1u << 6,    // OS runtime calls
    GpuMemory = 1u << 7,
    CpuOps = 1u << 8, // framework operators and Python functions (Kineto)
    // Of the kernels, more than their names and times: launch configurations (grid, block,
    // registers, shared and local memory...), correlation and graph node ids. Without it a
    // kernel's configuration reads as not recorded and it links to no API call.
    KernelDetail = 1u << 9,
};
Q_DECLARE_FLAGS(TraceParts, TracePart)
Q_DECLARE_OPERATORS_FOR_FLAGS(TraceParts)

inline constexpr TraceParts kGpuWorkParts =
    TracePart::Kernels | TracePart::KernelDetail | TracePart::Memcpys | TracePart::Memsets;
inline constexpr TraceParts kAllTraceParts = kGpuWorkParts | TracePart::CudaApi | TracePart::Syncs |
                                             TracePart::Nvtx | TracePart::Osrt |
                                             TracePart::GpuMemory | TracePart::CpuOps;

} // namespace strobe
