// SPDX-License-Identifier: MIT
#pragma once

#include "model/lod/rowsummary.h"
#include "model/lod/utilization.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <vector>

namespace strobe {

class Trace;

// What an event's colour depends on, the theme aside: kind and name (copy kind for memcpys), or
// an NVTX range's own colour. Events with equal identities are drawn in the same colour.
std::uint64_t colorIdentity(const Trace& trace, std::uint32_t lane, std::uint32_t index);

// The level-of-detail data the timeline paints from, per trace: the summary of every row dense
// enough to need one (RowSummary::kMinEvents) and the utilisation of every GPU. build() runs once
// on a worker thread while the GUI thread reads what is ready: each lane's summaries and the
// utilisation appear as soon as they are done (release/acquire flags; nothing is rewritten).
class TimelineLod {
public:
    // `idleThreshold`: the idle gaps of this threshold are found with the utilisation (on the
    // worker), so the first frame of the idle marks need not; negative finds none.
    explicit TimelineLod(std::shared_ptr<const Trace> trace, TimeNs idleThreshold = -1);

    const Trace* trace() const { return m_trace.get(); }
    // The summary of (lane, row); nullptr while not built yet or when the row is too small. Its
    // representatives are colour classes of the lane: see colorClasses.
    const RowSummary* rowSummary(std::uint32_t lane, std::uint16_t row) const;
    // Per colour class of a lane, the lane index of one event of that class (same colorIdentity);
    // empty until the lane's summaries are ready.
    std::span<const std::uint32_t> colorClasses(std::uint32_t lane) const;
    // One GpuUtilization per GPU (Trace::gpus() order); nullptr until built.
    const std::vector<GpuUtilization>* utilization() const;
    // The idle gaps (utilization.h: idleGaps) of GPU `deviceId` at least `threshold` long, when
    // build() found them: the utilisation is ready and `threshold` is the one it was given.
    const std::vector<TimeRange>* idleGaps(std::uint32_t deviceId, TimeNs threshold) const;
    bool isComplete() const { return m_complete.load(std::memory_order_acquire); }
    // Bytes held by the summaries built so far (utilisation's busy intervals not counted).
    std::size_t memoryBytes() const;

    // Worker side, called once: summaries (biggest lanes first), then utilisation. Stops early
    // once `cancelled` is true; `progress` runs on the worker after each stage.
    void build(const std::atomic<bool>& cancelled, const std::function<void()>& progress = {});

private:
    std::shared_ptr<const Trace> m_trace;
    std::vector<std::vector<RowSummary>> m_rows; // per lane, per row; sized once, filled by build
    std::vector<std::vector<std::uint32_t>> m_classes; // per lane: an example event per class
    std::unique_ptr<std::atomic<bool>[]> m_laneReady;
    std::vector<GpuUtilization> m_util;
    TimeNs m_idleThreshold = -1;
    std::vector<std::vector<TimeRange>> m_idleGaps; // per m_util entry, for m_idleThreshold
    std::atomic<bool> m_utilReady{false};
    std::atomic<bool> m_complete{false};
};

} // namespace strobe
