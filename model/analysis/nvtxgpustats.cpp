// SPDX-License-Identifier: MIT
#include "model/analysis/nvtxgpustats.h"

#include "model/analysis/nvtxstats.h"

#include <algorithm>
#include <map>

namespace strobe {

namespace {

// A GPU operation seen from its launching call.
struct Launched {
    TimeNs apiStart, apiEnd, gpuStart, gpuEnd;
};

// Per thread (index into Trace::threads()), the GPU operations launched from it, by call start.
std::vector<std::vector<Launched>> launchesByThread(const Trace& trace) {
    std::vector<std::vector<Launched>> out(trace.threads().size());
    auto add = [&](EventRef api, EventRef self) {
        if (!api.isValid() || api.lane >= trace.lanes().size())
            return;
        const Lane& al = trace.lane(api.lane);
        if (al.kind() != LaneKind::CudaApi || al.owner() >= out.size())
            return;
        const Lane& gl = trace.lane(self.lane);
        out[al.owner()].push_back(
            {al.start(api.index), al.end(api.index), gl.start(self.index), gl.end(self.index)});
    };
    const auto kernels = trace.kernels();
    for (std::uint32_t k = 0; k < trace.kernelCount(); ++k) {
        const KernelRecord rec = kernels[k];
        add(rec.api, rec.self);
    }
    for (const MemcpyRecord& m : trace.memcpys())
        add(m.api, m.self);
    for (const MemsetRecord& m : trace.memsets())
        add(m.api, m.self);
    for (auto& calls : out)
        std::sort(calls.begin(), calls.end(),
                  [](const Launched& a, const Launched& b) { return a.apiStart < b.apiStart; });
    return out;
}

} // namespace

std::vector<NvtxGpuSummaryRow> summarizeNvtxGpu(const Trace& trace, RangeNaming naming) {
    const std::vector<std::vector<Launched>> launches = launchesByThread(trace);
    std::map<std::tuple<StringId, StringId, int>, std::size_t> rowOfName;
    std::map<std::pair<QString, int>, std::size_t> rowOfShown;
    std::vector<NvtxGpuSummaryRow> rows;
    std::vector<std::vector<TimeNs>> projected;
    const auto nvtx = trace.nvtx();
    for (std::uint32_t li = 0; li < trace.lanes().size(); ++li) {
        const Lane& lane = trace.lane(li);
        if (lane.kind() != LaneKind::Nvtx && lane.kind() != LaneKind::NvtxStartEnd)
            continue;
        for (std::uint32_t i = 0; i < lane.size(); ++i) {
            const NvtxRecord rec = nvtx[lane.payload(i)];
            if (rec.style == NvtxStyle::Mark || !rec.hasEnd || rec.thread >= launches.size() ||
                (rec.endThread && *rec.endThread != rec.thread))
                continue;
            const TimeNs rs = lane.start(i), re = lane.end(i);
            const std::vector<Launched>& calls = launches[rec.thread];
            auto c = std::lower_bound(calls.begin(), calls.end(), rs,
                                      [](const Launched& l, TimeNs t) { return l.apiStart < t; });
            std::uint64_t ops = 0;
            TimeNs first = 0, last = 0;
            for (; c != calls.end() && c->apiStart <= re; ++c) {
                if (c->apiEnd > re)
                    continue;
                first = ops == 0 ? c->gpuStart : std::min(first, c->gpuStart);
                last = ops == 0 ? c->gpuEnd : std::max(last, c->gpuEnd);
                ++ops;
            }
            if (ops == 0)
                continue;
            const auto key = std::make_tuple(lane.domain(), lane.nameId(i), int(rec.style));
            auto it = rowOfName.find(key);
            if (it == rowOfName.end()) {
                QString name =
                    summaryRangeName(nvtxRangeName(trace, lane.domain(), lane.nameId(i)), naming);
                const auto [at, added] =
                    rowOfShown.try_emplace(std::make_pair(name, int(rec.style)), rows.size());
                if (added) {
                    NvtxGpuSummaryRow row;
                    row.range = std::move(name);
                    row.style = rec.style;
                    rows.push_back(std::move(row));
                    projected.emplace_back();
                }
                it = rowOfName.emplace(key, at->second).first;
            }
            NvtxGpuSummaryRow& row = rows[it->second];
            projected[it->second].push_back(saturatingSub(last, first));
            row.totalRangeNs = saturatingAdd(row.totalRangeNs, saturatingSub(re, rs));
            row.gpuOps += ops;
            row.instances.push_back({li, i});
        }
    }
    for (std::size_t r = 0; r < rows.size(); ++r)
        rows[r].projected = durationStats(projected[r]);
    std::sort(rows.begin(), rows.end(), [](const NvtxGpuSummaryRow& a, const NvtxGpuSummaryRow& b) {
        if (a.projected.total != b.projected.total)
            return a.projected.total > b.projected.total;
        if (a.range != b.range)
            return a.range < b.range;
        return a.style < b.style;
    });
    return rows;
}

} // namespace strobe
