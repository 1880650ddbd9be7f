// SPDX-License-Identifier: MIT
#pragma once

// NVTX ranges projected onto the GPU: the kernels, memcpys and memsets whose launching API call
// started inside a range, on the range's thread (as Nsight Systems' "NVTX (projected)" rows).

#include "model/analysis/rangegrouping.h"
#include "model/trace.h"

#include <QString>
#include <optional>
#include <vector>

namespace strobe {

// The GPU work one NVTX range launched.
struct NvtxGpuWork {
    std::vector<EventRef> ops; // in launch order; filled only when asked for
    std::uint64_t count = 0;
    TimeNs gpuTime = 0; // sum of the operations' durations
    TimeRange span;     // first start to last end; {0, 0} when count == 0
    bool isEmpty() const { return count == 0; }
};

// Answers projection queries for one trace; lookups cost O(lanes of the thread x log n + k).
class NvtxProjector {
public:
    explicit NvtxProjector(const Trace& trace);

    // The GPU work launched inside the NVTX range at `range` (push/pop or start/end; the
    // range's starting thread), on every device or only on `deviceId`. Empty for marks and
    // other lane kinds.
    NvtxGpuWork project(EventRef range, std::optional<std::uint32_t> deviceId = std::nullopt,
                        bool withOps = false) const;

private:
    const Trace& m_t;
    std::vector<std::vector<std::uint32_t>> m_apiLanes; // CUDA API lanes per thread
};

// Shortcut for one range (tooltips, details): builds a projector and asks it.
NvtxGpuWork projectNvtxRange(const Trace& trace, EventRef range);

// The projected ranges of one GPU as a lane of their own: each event is the GPU span of one
// NVTX range with GPU work on that device, named like the range (Lane::nameId), rows by nesting.
struct ProjectedNvtxLane {
    std::uint32_t deviceId = 0;
    Lane lane{LaneKind::Nvtx, 0};
    std::vector<EventRef> source;       // the NVTX range of each event, indexed by Lane::payload
    std::vector<QString> labels;        // distinct labels (the range text, grouped or raw)
    std::vector<std::uint32_t> labelOf; // per event (Lane::payload): index into labels
    // The text drawn on the event with this payload.
    const QString& label(std::uint32_t payload) const { return labels[labelOf[payload]]; }
};

// One lane per GPU that has projected ranges, by device id. Events are labelled with the range
// text, per-call ids removed unless `naming` is Raw (the summary's rule: rangegrouping.h), so a
// PyTorch operator reads the same on every call; the CPU-side range keeps its recorded name.
std::vector<ProjectedNvtxLane> buildProjectedNvtx(const Trace& trace,
                                                  RangeNaming naming = RangeNaming::Grouped);

} // namespace strobe
