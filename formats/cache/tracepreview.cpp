// SPDX-License-Identifier: MIT
#include "formats/cache/tracepreview.h"

#include "model/trace.h"
#include "model/tracebuilder.h"

#include <algorithm>
#include <optional>
#include <vector>

namespace strobe {

namespace {

// Of a lane of `n` events in blocks of `block`, those of the blocks whose index is a multiple of
// `stride` (the last block may be short).
std::uint64_t sampledOf(std::uint64_t n, std::uint64_t block, std::uint64_t stride) {
    if (n == 0)
        return 0;
    const std::uint64_t blocks = (n + block - 1) / block;
    const std::uint64_t kept = (blocks + stride - 1) / stride; // blocks 0, stride, 2 stride...
    const std::uint64_t last = (kept - 1) * stride;
    return last == blocks - 1 ? (kept - 1) * block + (n - last * block) : kept * block;
}

} // namespace

std::uint64_t laneEventCount(const Trace& trace) {
    std::uint64_t n = 0;
    for (const Lane& l : trace.lanes())
        n += l.size();
    return n;
}

std::unique_ptr<Trace> cachePreviewOf(const Trace& trace, std::uint64_t maxEvents,
                                      std::uint32_t blockEvents) {
    std::vector<std::uint32_t> lanes;
    for (std::uint32_t li = 0; li < trace.lanes().size(); ++li) {
        if (isGpuLane(trace.lane(li).kind()) && !trace.lane(li).isEmpty())
            lanes.push_back(li);
    }
    if (lanes.empty())
        return nullptr;
    const std::uint64_t block = std::max<std::uint32_t>(blockEvents, 1);
    auto kept = [&](std::uint64_t stride) {
        std::uint64_t n = 0;
        for (std::uint32_t li : lanes)
            n += sampledOf(trace.lane(li).size(), block, stride);
        return n;
    };
    // The smallest power of two that keeps at most maxEvents. A lane has under 2^32 events, so
    // from 2^32 on each keeps its first block alone.
    std::uint64_t stride = 1;
    while (kept(stride) > maxEvents) {
        if (stride >= (std::uint64_t(1) << 32))
            return nullptr; // the first blocks alone are too many
        stride *= 2;
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
        for (std::uint64_t first = 0; first < l.size(); first += block * stride) {
            const auto end = std::uint32_t(std::min<std::uint64_t>(first + block, l.size()));
            for (auto i = std::uint32_t(first); i < end; ++i) {
                const std::uint32_t record = l.payload(i);
                const TimeNs start = l.start(i), stop = l.end(i);
                if (l.kind() == LaneKind::Kernels) {
                    const KernelRecord k = trace.kernels()[record];
                    const StreamInfo& s = trace.streams()[k.stream];
                    std::optional<std::uint32_t>& config = configs[k.config];
                    if (!config)
                        config = b.kernelConfig(trace.kernelConfigs()[k.config]);
                    b.addKernel(s.pid, s.deviceId, s.contextId, s.streamId, start, stop, *config,
                                k.correlationId, k.graphNodeId);
                    b.setLastKernelCollective(k.processGroup, k.messageBytes);
                    ++counts.kernels;
                } else if (l.kind() == LaneKind::Memset) {
                    MemsetRecord m = trace.memsets()[record];
                    const StreamInfo& s = trace.streams()[m.stream];
                    m.self = m.api = EventRef{};
                    b.addMemset(s.pid, s.deviceId, s.contextId, s.streamId, start, stop,
                                l.nameId(i), m);
                    ++counts.memsets;
                } else { // Memcpy, Uvm (a migration names its device's first stream)
                    MemcpyRecord m = trace.memcpys()[record];
                    const StreamInfo& s = trace.streams()[m.stream];
                    m.self = m.api = EventRef{};
                    b.addMemcpy(s.pid, s.deviceId, s.contextId, s.streamId, start, stop,
                                l.nameId(i), m);
                    ++counts.memcpys;
                }
            }
        }
    }
    b.metadata().gpuSampleStride = std::uint32_t(std::min<std::uint64_t>(stride, 1u << 31));
    std::unique_ptr<Trace> preview = b.finish();
    if (preview) {
        TraceBuilder::markGpuPreview(*preview,
                                     stride == 1 ? TraceStage::GpuSide : TraceStage::GpuSideBegun,
                                     trace.timeRange());
    }
    return preview;
}

} // namespace strobe
