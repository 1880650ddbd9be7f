// SPDX-License-Identifier: MIT
#include "model/analysis/nvtxprojection.h"

#include <algorithm>
#include <map>

namespace strobe {

NvtxProjector::NvtxProjector(const Trace& trace)
    : m_t(trace) {
    m_apiLanes.resize(trace.threads().size());
    for (std::uint32_t li = 0; li < trace.lanes().size(); ++li) {
        const Lane& l = trace.lane(li);
        if (l.kind() == LaneKind::CudaApi && l.owner() < m_apiLanes.size())
            m_apiLanes[l.owner()].push_back(li);
    }
}

NvtxGpuWork NvtxProjector::project(EventRef range, std::optional<std::uint32_t> deviceId,
                                   bool withOps) const {
    NvtxGpuWork out;
    if (!range.isValid() || range.lane >= m_t.lanes().size())
        return out;
    const Lane& nl = m_t.lane(range.lane);
    if ((nl.kind() != LaneKind::Nvtx && nl.kind() != LaneKind::NvtxStartEnd) ||
        range.index >= nl.size())
        return out;
    const NvtxRecord& rec = m_t.nvtx()[nl.payload(range.index)];
    if (rec.style == NvtxStyle::Mark || rec.thread >= m_apiLanes.size())
        return out;
    const TimeNs rs = nl.start(range.index), re = nl.end(range.index);
    TimeNs first = 0, last = 0;
    for (std::uint32_t li : m_apiLanes[rec.thread]) {
        const Lane& al = m_t.lane(li);
        // API calls are start-sorted within their lane: those starting in [rs, re).
        const auto starts = al.starts();
        auto i = std::uint32_t(std::lower_bound(starts.begin(), starts.end(), rs) - starts.begin());
        for (; i < al.size() && al.start(i) < re; ++i) {
            const EventRef op = m_t.apiGpuOp(al.payload(i));
            if (!op.isValid())
                continue;
            const Lane& gl = m_t.lane(op.lane);
            if (gl.kind() == LaneKind::Uvm)
                continue;
            if (deviceId && m_t.streams()[gl.owner()].deviceId != *deviceId)
                continue;
            const TimeNs s = gl.start(op.index), e = gl.end(op.index);
            first = out.count == 0 ? s : std::min(first, s);
            last = out.count == 0 ? e : std::max(last, e);
            ++out.count;
            out.gpuTime = saturatingAdd(out.gpuTime, saturatingSub(e, s));
            if (withOps)
                out.ops.push_back(op);
        }
    }
    if (out.count > 0)
        out.span = {first, last};
    if (withOps) // launch order across the thread's lanes
        std::sort(out.ops.begin(), out.ops.end(), [&](EventRef a, EventRef b) {
            const EventRef pa = m_t.partnerOf(a), pb = m_t.partnerOf(b);
            return m_t.lane(pa.lane).start(pa.index) < m_t.lane(pb.lane).start(pb.index);
        });
    return out;
}

NvtxGpuWork projectNvtxRange(const Trace& trace, EventRef range) {
    return NvtxProjector(trace).project(range);
}

std::vector<ProjectedNvtxLane> buildProjectedNvtx(const Trace& trace, RangeNaming naming) {
    std::map<std::uint32_t, std::size_t> byDevice;
    std::vector<ProjectedNvtxLane> out;
    std::vector<std::uint32_t> devices;
    for (const StreamInfo& s : trace.streams())
        devices.push_back(s.deviceId);
    std::sort(devices.begin(), devices.end());
    devices.erase(std::unique(devices.begin(), devices.end()), devices.end());
    if (devices.empty())
        return out;
    for (std::uint32_t d : devices) {
        byDevice.emplace(d, out.size());
        ProjectedNvtxLane p;
        p.deviceId = d;
        p.lane = Lane(LaneKind::Nvtx, d);
        out.push_back(std::move(p));
    }
    const NvtxProjector projector(trace);
    // Labels are few (one per operator when grouped): built once per text, shared by all lanes.
    std::map<StringId, std::uint32_t> labelOfText;
    std::map<QString, std::uint32_t> labelIndex;
    std::vector<QString> labels;
    for (std::uint32_t li = 0; li < trace.lanes().size(); ++li) {
        const Lane& l = trace.lane(li);
        if (l.kind() != LaneKind::Nvtx && l.kind() != LaneKind::NvtxStartEnd)
            continue;
        for (std::uint32_t i = 0; i < l.size(); ++i) {
            if (trace.nvtxStyle(l.payload(i)) == NvtxStyle::Mark)
                continue;
            std::optional<std::uint32_t> label;
            for (ProjectedNvtxLane& p : out) {
                const NvtxGpuWork w = projector.project({li, i}, p.deviceId);
                if (w.isEmpty())
                    continue;
                if (!label) {
                    auto it = labelOfText.find(l.nameId(i));
                    if (it == labelOfText.end()) {
                        QString text = rangeName(trace.string(l.nameId(i)), naming);
                        const auto [at, added] =
                            labelIndex.try_emplace(text, std::uint32_t(labels.size()));
                        if (added)
                            labels.push_back(std::move(text));
                        it = labelOfText.emplace(l.nameId(i), at->second).first;
                    }
                    label = it->second;
                }
                p.lane.append(w.span.start, w.span.end, l.nameId(i),
                              std::uint32_t(p.source.size()));
                p.source.push_back({li, i});
                p.labelOf.push_back(*label);
            }
        }
    }
    for (ProjectedNvtxLane& p : out) {
        p.lane.finalize(RowPolicy::Nesting);
        p.labels = labels; // implicitly shared strings: a copy of the handles
    }
    out.erase(std::remove_if(out.begin(), out.end(),
                             [](const ProjectedNvtxLane& p) { return p.lane.isEmpty(); }),
              out.end());
    return out;
}

} // namespace strobe
