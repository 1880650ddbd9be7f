// SPDX-License-Identifier: MIT
#include "model/analysis/nvtxstats.h"

#include "model/analysis/nvtxprojection.h"

#include <QStringBuilder>
#include <map>

namespace strobe {

QString nvtxStyleKey(NvtxStyle style) {
    switch (style) {
    case NvtxStyle::PushPop:
        return QStringLiteral("pushpop");
    case NvtxStyle::StartEnd:
        return QStringLiteral("startend");
    case NvtxStyle::Mark:
        return QStringLiteral("mark");
    }
    return {};
}

QString nvtxRangeName(const Trace& trace, StringId domain, StringId text) {
    if (domain == kNoString)
        return trace.string(text);
    return trace.string(domain) % u':' % trace.string(text);
}

NvtxSummary summarizeNvtx(const Trace& trace) {
    NvtxSummary out;
    // Rows are per qualified name and style; (domain, text, style) caches the lookup so each
    // name is built once.
    std::map<std::tuple<StringId, StringId, int>, std::size_t> cache;
    std::map<std::pair<QString, int>, std::size_t> groups;
    std::vector<std::vector<TimeNs>> durations;
    for (std::uint32_t li = 0; li < trace.lanes().size(); ++li) {
        const Lane& lane = trace.lane(li);
        if (lane.kind() != LaneKind::Nvtx && lane.kind() != LaneKind::NvtxStartEnd)
            continue;
        for (std::uint32_t i = 0; i < lane.size(); ++i) {
            const NvtxRecord& rec = trace.nvtx()[lane.payload(i)];
            if (rec.style == NvtxStyle::Mark)
                continue;
            if (!rec.hasEnd) {
                ++out.openRanges;
                continue;
            }
            const auto key = std::make_tuple(lane.domain(), lane.nameId(i), int(rec.style));
            auto cached = cache.find(key);
            if (cached == cache.end()) {
                QString name = nvtxRangeName(trace, lane.domain(), lane.nameId(i));
                auto [it, added] =
                    groups.try_emplace(std::make_pair(name, int(rec.style)), out.rows.size());
                if (added) {
                    NvtxSummaryRow row;
                    row.range = std::move(name);
                    row.style = rec.style;
                    out.rows.push_back(std::move(row));
                    durations.emplace_back();
                }
                cached = cache.emplace(key, it->second).first;
            }
            durations[cached->second].push_back(lane.end(i) - lane.start(i));
            out.rows[cached->second].instances.push_back(EventRef{li, i});
        }
    }
    const TimeNs wall = trace.timeRange().duration();
    for (std::size_t g = 0; g < out.rows.size(); ++g) {
        out.rows[g].stats = durationStats(durations[g]);
        out.rows[g].wallPercent =
            wall > 0 ? 100.0 * double(out.rows[g].stats.total) / double(wall) : 0.0;
    }
    std::stable_sort(out.rows.begin(), out.rows.end(), [](const auto& a, const auto& b) {
        if (a.stats.total != b.stats.total)
            return a.stats.total > b.stats.total;
        if (a.range != b.range)
            return a.range < b.range;
        return a.style < b.style;
    });
    return out;
}

void addGpuProjection(const Trace& trace, NvtxSummary& summary) {
    const NvtxProjector projector(trace);
    for (NvtxSummaryRow& row : summary.rows) {
        row.gpuOps = 0;
        row.gpuTime = row.gpuSpanTotal = 0;
        row.instancesWithGpu = 0;
        for (EventRef ref : row.instances) {
            const NvtxGpuWork w = projector.project(ref);
            if (w.isEmpty())
                continue;
            row.gpuOps += w.count;
            row.gpuTime = saturatingAdd(row.gpuTime, w.gpuTime);
            row.gpuSpanTotal = saturatingAdd(row.gpuSpanTotal, w.span.duration());
            ++row.instancesWithGpu;
        }
    }
}

} // namespace strobe
