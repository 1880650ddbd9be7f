// SPDX-License-Identifier: MIT
#pragma once

// Where the GPU time went: per GPU, compute, communication, memory and idle time over one span.
// The definitions are in docs/BREAKDOWN.md; the Overview panel and `strobe-cli breakdown` print
// what computeBreakdown returns.

#include "model/analysis/intervalset.h"
#include "model/kernelclass.h"
#include "model/trace.h"

#include <array>
#include <optional>
#include <vector>

namespace strobe {

// Copy directions the memory time is split into.
enum class CopyDirection : std::uint8_t { HtoD, DtoH, DtoD, PtoP, Other };
inline constexpr int kCopyDirectionCount = 5;
// "htod", "dtoh", "dtod", "ptop", "other".
QString copyDirectionKey(CopyDirection d);
CopyDirection copyDirectionOf(MemcpyKind kind);

// The breakdown of one GPU. Every duration is an exact union of half-open intervals in ns,
// clipped to `span`; zero-length operations count as [start, start + 1).
struct GpuBreakdown {
    std::uint32_t deviceId = 0;
    TimeRange span;                  // the GPU's first start to last end, or the window asked for
    TimeNs compute = 0;              // union of the non-communication kernels
    TimeNs communication = 0;        // union of the communication (NCCL) kernels
    TimeNs exposedCommunication = 0; // communication not overlapped by compute
    TimeNs memory = 0;               // union of memcpys (migrations excluded) and memsets
    TimeNs memoryOnly = 0;           // memory overlapped by neither compute nor communication
    TimeNs idle = 0;                 // span minus the union of all of the above
    // Compute split by class: each instant of compute goes to the first class in the table's
    // order with a kernel running then, so the classes add up to `compute` exactly.
    std::array<TimeNs, kKernelClassCount> classes{};
    // Union of the copies of each direction (they may overlap each other); memset separately.
    std::array<TimeNs, kCopyDirectionCount> copies{};
    TimeNs memset = 0;

    TimeNs busy() const { return span.duration() - idle; }
    // Share of communication hidden under compute, 0..100; 0 without communication.
    double overlapPercent() const;
    TimeNs classTime(KernelClass c) const { return classes[std::size_t(c)]; }
};

// The GPU work of a trace sorted into categories once, so that a breakdown of any window
// costs O(log n + intervals in the window). Holds no reference to the trace.
class BreakdownSource {
public:
    // With `launchedBefore`, only the GPU operations whose launching call starts before it are
    // counted (HTA's window: every ProfilerStep but the last); operations with no recorded call
    // are then left out.
    BreakdownSource(const Trace& trace, const KernelClassTable& table,
                    std::optional<TimeNs> launchedBefore = std::nullopt);

    // One entry per GPU with GPU work, by device id. With a window, each GPU's span is the
    // window and its work is clipped to it (a GPU without work there is all idle); without,
    // the span is the GPU's first start to last end.
    std::vector<GpuBreakdown> breakdown(std::optional<TimeRange> window = std::nullopt) const;
    std::vector<std::uint32_t> deviceIds() const;
    // Per GPU, in deviceIds()'s order, the communication not overlapped by compute inside
    // `window`: breakdown(window)[i].exposedCommunication without the rest of the breakdown
    // (O(log n + intervals in the window), nothing allocated but the result).
    std::vector<TimeNs> exposedCommunication(TimeRange window) const;

private:
    struct Device {
        std::uint32_t id = 0;
        std::array<IntervalSet, kKernelClassCount> byClass;
        std::array<IntervalSet, kCopyDirectionCount> copies;
        IntervalSet compute, communication, memset, memory, all;
        IntervalSet exposed; // communication minus compute
    };
    GpuBreakdown breakdownOf(const Device& d, std::optional<TimeRange> window) const;

    std::vector<Device> m_devices;
    std::vector<KernelClass> m_classOrder; // precedence of the classes, from the table
};

// BreakdownSource(trace, table).breakdown(window).
std::vector<GpuBreakdown> computeBreakdown(const Trace& trace, const KernelClassTable& table,
                                           std::optional<TimeRange> window = std::nullopt);

} // namespace strobe
