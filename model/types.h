// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>

namespace strobe {

// Nanoseconds on the trace's own timeline (nsys session time; may be negative).
using TimeNs = std::int64_t;
// Index of a string in the trace's StringTable.
using StringId = std::uint32_t;

inline constexpr StringId kNoString = 0; // StringTable reserves id 0 for the empty string

// The representable time range: |t| <= kMaxTime (just under 2^62 ns, 146 years). Loaders clamp
// times outside it with a counted warning, so that the difference of any two times fits TimeNs;
// durations and sums still saturate instead of wrapping, for data that did not come through one.
inline constexpr TimeNs kMaxTime = (TimeNs(1) << 62) - 1;
inline constexpr TimeNs kMinTime = -kMaxTime;

// a - b, clamped to the TimeNs range instead of overflowing.
inline constexpr TimeNs saturatingSub(TimeNs a, TimeNs b) {
    TimeNs r = 0;
    if (__builtin_sub_overflow(a, b, &r))
        return b < 0 ? std::numeric_limits<TimeNs>::max() : std::numeric_limits<TimeNs>::min();
    return r;
}
// a + b, clamped to the TimeNs range instead of overflowing.
inline constexpr TimeNs saturatingAdd(TimeNs a, TimeNs b) {
    TimeNs r = 0;
    if (__builtin_add_overflow(a, b, &r))
        return a < 0 ? std::numeric_limits<TimeNs>::min() : std::numeric_limits<TimeNs>::max();
    return r;
}
// `t` moved into [kMinTime, kMaxTime].
inline constexpr TimeNs clampTime(TimeNs t) {
    return t < kMinTime ? kMinTime : t > kMaxTime ? kMaxTime : t;
}

// Half-open time interval [start, end).
struct TimeRange {
    TimeNs start = 0;
    TimeNs end = 0;
    // end - start, saturated (never wraps to a negative length).
    TimeNs duration() const { return saturatingSub(end, start); }
    bool isEmpty() const { return end <= start; }
    friend bool operator==(const TimeRange&, const TimeRange&) = default;
};

// `r` with its duration / `divisor` (at least 1 ns) added on each side, saturated: how a view
// shows a range with room around it (a fifth, a twentieth of it).
inline TimeRange widened(TimeRange r, TimeNs divisor) {
    const TimeNs margin = r.duration() / divisor > 1 ? r.duration() / divisor : 1;
    return {saturatingSub(r.start, margin), saturatingAdd(r.end, margin)};
}

// Zero-length events are points: for overlap and stabbing they behave as [start, start + 1).
inline constexpr TimeNs effectiveEnd(TimeNs start, TimeNs end) {
    return end > start ? end : start == std::numeric_limits<TimeNs>::max() ? start : start + 1;
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

// What a lane's owner() indexes, by its kind: the one place that says which kinds belong to a
// thread, a process, a stream or a device.
enum class LaneOwner : std::uint8_t {
    Thread,  // an index into Trace::threads()
    Process, // an index into Trace::processes()
    Stream,  // an index into Trace::streams()
    Device,  // a device id (GpuInfo::id), looked up by value
};
inline constexpr LaneOwner ownerOf(LaneKind k) {
    switch (k) {
    case LaneKind::CudaApi:
    case LaneKind::Osrt:
    case LaneKind::Nvtx:
    case LaneKind::CpuOps:
    case LaneKind::Python:
        return LaneOwner::Thread;
    case LaneKind::NvtxStartEnd:
        return LaneOwner::Process;
    case LaneKind::Kernels:
    case LaneKind::Memcpy:
    case LaneKind::Memset:
        return LaneOwner::Stream;
    case LaneKind::Uvm:
        break;
    }
    return LaneOwner::Device;
}
static_assert(ownerOf(LaneKind::Python) == LaneOwner::Thread &&
                  ownerOf(LaneKind::Kernels) == LaneOwner::Stream,
              "a thread's lanes are the CPU kinds before Kernels (isGpuLane)");

// Lanes whose events' records share one table of the Trace.
enum class LaneFamily : std::uint8_t { Kernels, Memcpys, Memsets, ApiCalls, Osrt, Nvtx, CpuOps };
inline constexpr std::size_t kLaneFamilies = 7;
inline constexpr LaneFamily familyOf(LaneKind k) {
    switch (k) {
    case LaneKind::CudaApi:
        return LaneFamily::ApiCalls;
    case LaneKind::Osrt:
        return LaneFamily::Osrt;
    case LaneKind::Nvtx:
    case LaneKind::NvtxStartEnd:
        return LaneFamily::Nvtx;
    case LaneKind::CpuOps:
    case LaneKind::Python:
        return LaneFamily::CpuOps;
    case LaneKind::Kernels:
        return LaneFamily::Kernels;
    case LaneKind::Memcpy:
    case LaneKind::Uvm:
        return LaneFamily::Memcpys;
    case LaneKind::Memset:
        return LaneFamily::Memsets;
    }
    return LaneFamily::ApiCalls;
}

// Identifies one event of a trace: a lane and the event's index in that lane's start order.
struct EventRef {
    std::uint32_t lane = std::numeric_limits<std::uint32_t>::max();
    std::uint32_t index = std::numeric_limits<std::uint32_t>::max();
    bool isValid() const { return lane != std::numeric_limits<std::uint32_t>::max(); }
    friend bool operator==(const EventRef&, const EventRef&) = default;
};

} // namespace strobe
