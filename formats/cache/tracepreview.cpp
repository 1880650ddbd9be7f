// SPDX-License-Identifier: MIT
#include "formats/cache/tracepreview.h"

#include "model/trace.h"
#include "model/tracebuilder.h"

#include <algorithm>
#include <optional>
#include <vector>

namespace strobe {

namespace {

// The GPU lanes with events, and how many of each start before `t`.
std::uint64_t eventsBefore(const Trace& trace, const std::vector<std::uint32_t>& lanes, TimeNs t) {
    std::uint64_t n = 0;
    for (std::uint32_t li : lanes) {
        const LaneTimes starts = trace.lane(li).starts();
        n += std::uint64_t(std::lower_bound(starts.begin(), starts.end(), t) - starts.begin());
    }
    return n;
}

} // namespace

std::uint64_t laneEventCount(const Trace& trace) {
    std::uint64_t n = 0;
    for (const Lane& l : trace.lanes())
        n += l.size();
    return n;
}

std::unique_ptr<Trace> cachePreviewOf(const Trace& trace, std::uint64_t maxEvents) {
    std::vector<std::uint32_t> lanes;
    for (std::uint32_t li = 0; li < trace.lanes().size(); ++li) {
        if (isGpuLane(trace.lane(li).kind()) && !trace.lane(li).isEmpty())
            lanes.push_back(li);
    }
    const TimeRange range = trace.timeRange();
    const std::uint64_t all = eventsBefore(trace, lanes, kMaxTime);
    if (all == 0)
        return nullptr;
    // The latest cut with at most maxEvents before it (the count grows with the cut).
    TimeNs cut = kMaxTime;
    if (all > maxEvents) {
        TimeNs lo = range.start, hi = range.end; // none start before range.start
        while (lo < hi) {
            const TimeNs mid = lo + (hi - lo + 1) / 2;
            if (eventsBefore(trace, lanes, mid) <= maxEvents)
                lo = mid;
            else
                hi = mid - 1;
        }
        cut = lo;
        if (eventsBefore(trace, lanes, cut) == 0)
            return nullptr; // more than maxEvents start at the first moment
    }

    TraceBuilder b(trace.filePath());
    b.strings() = trace.strings(); // every id stays as it is
    b.metadata() = trace.metadata();
    for (const ProcessInfo& p : trace.processes())
        b.setProcessName(p.pid, p.name);
    for (const GpuInfo& g : trace.gpus())
        b.addGpu(g);
    for (const StreamInfo& s : trace.streams())
        b.setStreamInfo(s.pid, s.contextId, s.streamId, s.priority, s.flag);
    std::vector<std::optional<std::uint32_t>> configs(trace.kernelConfigs().size());
    TraceCounts& counts = b.counts();
    for (std::uint32_t li : lanes) {
        const Lane& l = trace.lane(li);
        const LaneTimes starts = l.starts();
        const auto n =
            std::uint32_t(std::lower_bound(starts.begin(), starts.end(), cut) - starts.begin());
        for (std::uint32_t i = 0; i < n; ++i) {
            const std::uint32_t record = l.payload(i);
            const TimeNs start = l.start(i), end = l.end(i);
            if (l.kind() == LaneKind::Kernels) {
                const KernelRecord k = trace.kernels()[record];
                const StreamInfo& s = trace.streams()[k.stream];
                std::optional<std::uint32_t>& config = configs[k.config];
                if (!config)
                    config = b.kernelConfig(trace.kernelConfigs()[k.config]);
                b.addKernel(s.pid, s.deviceId, s.contextId, s.streamId, start, end, *config,
                            k.correlationId, k.graphNodeId);
                b.setLastKernelCollective(k.processGroup, k.messageBytes);
                ++counts.kernels;
            } else if (l.kind() == LaneKind::Memset) {
                MemsetRecord m = trace.memsets()[record];
                const StreamInfo& s = trace.streams()[m.stream];
                m.self = m.api = EventRef{};
                b.addMemset(s.pid, s.deviceId, s.contextId, s.streamId, start, end, l.nameId(i), m);
                ++counts.memsets;
            } else { // Memcpy, Uvm (a migration names its device's first stream)
                MemcpyRecord m = trace.memcpys()[record];
                const StreamInfo& s = trace.streams()[m.stream];
                m.self = m.api = EventRef{};
                b.addMemcpy(s.pid, s.deviceId, s.contextId, s.streamId, start, end, l.nameId(i), m);
                ++counts.memcpys;
            }
        }
    }
    std::unique_ptr<Trace> preview = b.finish();
    if (preview) {
        TraceBuilder::markGpuPreview(
            *preview, cut == kMaxTime ? TraceStage::GpuSide : TraceStage::GpuSideBegun, range);
    }
    return preview;
}

} // namespace strobe
