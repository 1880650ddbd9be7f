// SPDX-License-Identifier: MIT
#pragma once

#include "model/lod/rowsummary.h"
#include "model/types.h"

#include <atomic>
#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

namespace strobe {

class Trace;

// What counts as work when asking whether a GPU is busy. Copies are memcpys and memsets (a memset
// fills memory through the copy path as far as a profile shows); unified-memory migrations are
// not stream work and never count.
enum class BusyWork : std::uint8_t {
    All,     // kernels, memcpys and memsets
    Kernels, // kernels only: a GPU that only copies is idle
    Copies,  // memcpys and memsets only
};

// Sorted, merged intervals during which device `deviceId` runs at least one operation of `work`
// on any of its streams. Touching intervals merge; zero-length events count as 1 ns.
// O(lanes of the trace) to find the device's lanes: for many devices, use deviceWorkLanes once.
std::vector<TimeRange> busyIntervals(const Trace& trace, std::uint32_t deviceId,
                                     BusyWork work = BusyWork::All);
// The kernel, memcpy and memset lanes of each device that has any, by device id, each list in
// lane order.
using DeviceWorkLanes = std::unordered_map<std::uint32_t, std::vector<std::uint32_t>>;
DeviceWorkLanes deviceWorkLanes(const Trace& trace);
// The same as busyIntervals(trace, deviceId, work) for `lanes`, the device's from
// deviceWorkLanes (lanes of other kinds are skipped).
std::vector<TimeRange> busyIntervals(const Trace& trace, std::span<const std::uint32_t> lanes,
                                     BusyWork work);

// The union of two sorted, merged interval lists (touching intervals merge), in O(a + b).
std::vector<TimeRange> uniteIntervals(const std::vector<TimeRange>& a,
                                      const std::vector<TimeRange>& b);
// Total duration of a sorted, merged interval list.
TimeNs totalDuration(const std::vector<TimeRange>& intervals);

// The stretches between consecutive busy intervals lasting at least `minDuration`; nothing
// before the first or after the last busy moment.
std::vector<TimeRange> idleGaps(const std::vector<TimeRange>& busy, TimeNs minDuration);

// Busy intervals of one device with prefix sums, so busy time in any window costs O(log n):
// the utilisation strip asks for one fraction per pixel at any zoom level.
class DeviceUtilization {
public:
    DeviceUtilization() = default;
    DeviceUtilization(std::uint32_t deviceId, std::vector<TimeRange> busy);

    std::uint32_t deviceId() const { return m_deviceId; }
    const std::vector<TimeRange>& busy() const { return m_busy; }
    // Busy nanoseconds inside [a, b).
    TimeNs busyTime(TimeNs a, TimeNs b) const;
    // Busy fraction (0..1) of each of `buckets` consecutive windows of `nsPerBucket` from `start`.
    // Exact, unless the windows hold more than kSummaryIntervalsPerBucket intervals on average:
    // then it comes from the summary pyramid in O(buckets), windows start at
    // start + floor(i * nsPerBucket), and each window is exact in whether it is zero and
    // within two pyramid buckets of busy time otherwise.
    std::vector<float> busyFractions(TimeNs start, double nsPerBucket, int buckets) const;
    static constexpr int kSummaryIntervalsPerBucket = 4;

private:
    std::uint32_t m_deviceId = 0;
    std::vector<TimeRange> m_busy;
    std::vector<TimeNs> m_prefix; // m_prefix[i]: busy time of intervals before i
    RowSummary m_summary;         // of m_busy, for strips zoomed far out
};

// A GPU's utilisation three ways: all its work (what the strip's idle marks and the gaps use),
// its kernels and its copies, so the strip can tell compute from data movement.
struct GpuUtilization {
    std::uint32_t deviceId = 0;
    DeviceUtilization all, kernels, copies;
    const DeviceUtilization& of(BusyWork work) const {
        return work == BusyWork::Kernels ? kernels : work == BusyWork::Copies ? copies : all;
    }
};

// One GpuUtilization per GPU of the trace, in Trace::gpus() order. Built once per trace, in
// O(events log lanes + lanes); empty once `cancel` is true.
std::vector<GpuUtilization> buildUtilization(const Trace& trace,
                                             const std::atomic<bool>* cancel = nullptr);

} // namespace strobe
