// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <limits>

namespace strobe {

// Nanoseconds on the trace's own timeline (nsys session time; may be negative).
using TimeNs = std::int64_t;
// Index of a string in the trace's StringTable.
using StringId = std::uint32_t;

inline constexpr StringId kNoString = 0; // StringTable reserves id 0 for the empty string

// Half-open time interval [start, end).
struct TimeRange {
    TimeNs start = 0;
    TimeNs end = 0;
    TimeNs duration() const { return end - start; }
    bool isEmpty() const { return end <= start; }
    friend bool operator==(const TimeRange&, const TimeRange&) = default;
};

// Zero-length events are points: for overlap and stabbing they behave as [start, start + 1).
inline constexpr TimeNs effectiveEnd(TimeNs start, TimeNs end) {
    return end > start ? end : start + 1;
}

enum class LaneKind : std::uint8_t {
    CudaApi,      // CUDA runtime and driver API calls of one thread
    Osrt,         // OS runtime calls of one thread
    Nvtx,         // NVTX push/pop ranges and marks of one thread and domain
    NvtxStartEnd, // NVTX start/end ranges of one process and domain, packed into rows
    CpuOps,       // framework operators of one thread (PyTorch cpu_op), nested by containment
    Python,       // Python function frames of one thread, nested by containment
    Kernels,      // kernels of one (device, context, stream)
    Memcpy,       // memcpys of one (device, context, stream)
    Memset,       // memsets of one (device, context, stream)
    Uvm,          // unified-memory migrations of one device
};

// Lanes of the kinds before Kernels live on a CPU thread (or process); the rest on a GPU.
inline constexpr bool isGpuLane(LaneKind k) {
    return k >= LaneKind::Kernels;
}

// Identifies one event of a trace: a lane and the event's index in that lane's start order.
struct EventRef {
    std::uint32_t lane = std::numeric_limits<std::uint32_t>::max();
    std::uint32_t index = std::numeric_limits<std::uint32_t>::max();
    bool isValid() const { return lane != std::numeric_limits<std::uint32_t>::max(); }
    friend bool operator==(const EventRef&, const EventRef&) = default;
};

} // namespace strobe
