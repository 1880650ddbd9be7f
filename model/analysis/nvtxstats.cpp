// SPDX-License-Identifier: MIT
#include "model/analysis/nvtxstats.h"

#include "model/analysis/nvtxprojection.h"

#include <QStringBuilder>
#include <algorithm>
#include <map>
#include <numeric>

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

namespace {

// The time covered by at least one of the ranges: nested instances and those on other threads
// count once.
TimeNs coveredTime(const Trace& trace, const std::vector<EventRef>& instances) {
    std::vector<TimeRange> spans;
    spans.reserve(instances.size());
    for (const EventRef& r : instances) {
        const Lane& lane = trace.lane(r.lane);
        spans.push_back({lane.start(r.index), lane.end(r.index)});
    }
    std::sort(spans.begin(), spans.end(),
              [](const TimeRange& a, const TimeRange& b) { return a.start < b.start; });
    TimeNs covered = 0;
    std::optional<TimeRange> run;
    for (const TimeRange& s : spans) {
        if (run && s.start <= run->end) {
            run->end = std::max(run->end, s.end);
            continue;
        }
        if (run)
            covered += run->end - run->start;
        run = s;
    }
    return run ? covered + (run->end - run->start) : covered;
}

} // namespace

NvtxSummary summarizeNvtx(const Trace& trace, RangeNaming naming) {
    NvtxSummary out;
    out.naming = naming;
    // Rows are per (grouped) qualified name and style; rowOfName caches (domain, text, style) so
    // each recorded name is built and grouped once.
    std::map<std::pair<QString, int>, std::size_t> groups;
    std::vector<std::vector<TimeNs>> durations;
    for (std::uint32_t li = 0; li < trace.lanes().size(); ++li) {
        const Lane& lane = trace.lane(li);
        if (lane.kind() != LaneKind::Nvtx && lane.kind() != LaneKind::NvtxStartEnd)
            continue;
        for (std::uint32_t i = 0; i < lane.size(); ++i) {
            const std::uint32_t p = lane.payload(i);
            const NvtxStyle style = trace.nvtxStyle(p);
            if (style == NvtxStyle::Mark)
                continue;
            if (!trace.nvtxHasEnd(p)) {
                ++out.openRanges;
                continue;
            }
            const auto key = std::make_tuple(lane.domain(), lane.nameId(i), int(style));
            auto cached = out.rowOfName.find(key);
            if (cached == out.rowOfName.end()) {
                QString name =
                    summaryRangeName(nvtxRangeName(trace, lane.domain(), lane.nameId(i)), naming);
                auto [it, added] =
                    groups.try_emplace(std::make_pair(name, int(style)), out.rows.size());
                if (added) {
                    NvtxSummaryRow row;
                    row.range = std::move(name);
                    row.style = style;
                    out.rows.push_back(std::move(row));
                    durations.emplace_back();
                }
                ++out.rows[it->second].rawNames;
                cached = out.rowOfName.emplace(key, it->second).first;
            }
            durations[cached->second].push_back(lane.end(i) - lane.start(i));
            out.rows[cached->second].instances.push_back(EventRef{li, i});
        }
    }
    const TimeNs wall = trace.timeRange().duration();
    for (std::size_t g = 0; g < out.rows.size(); ++g) {
        out.rows[g].stats = durationStats(durations[g]);
        out.rows[g].wallPercent =
            wall > 0 ? 100.0 * double(coveredTime(trace, out.rows[g].instances)) / double(wall)
                     : 0.0;
    }
    std::vector<std::size_t> order(out.rows.size());
    std::iota(order.begin(), order.end(), std::size_t(0));
    std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
        const NvtxSummaryRow &a = out.rows[x], &b = out.rows[y];
        if (a.stats.total != b.stats.total)
            return a.stats.total > b.stats.total;
        if (a.range != b.range)
            return a.range < b.range;
        return a.style < b.style;
    });
    std::vector<std::size_t> newIndex(order.size());
    std::vector<NvtxSummaryRow> sorted;
    sorted.reserve(order.size());
    for (std::size_t k = 0; k < order.size(); ++k) {
        newIndex[order[k]] = k;
        sorted.push_back(std::move(out.rows[order[k]]));
    }
    out.rows = std::move(sorted);
    for (auto& [key, row] : out.rowOfName)
        row = newIndex[row];
    return out;
}

std::optional<std::size_t> NvtxSummary::rowOf(const Trace& trace, EventRef ref) const {
    if (!ref.isValid() || ref.lane >= trace.lanes().size())
        return std::nullopt;
    const Lane& lane = trace.lane(ref.lane);
    if ((lane.kind() != LaneKind::Nvtx && lane.kind() != LaneKind::NvtxStartEnd) ||
        ref.index >= lane.size())
        return std::nullopt;
    const NvtxRecord& rec = trace.nvtx()[lane.payload(ref.index)];
    if (rec.style == NvtxStyle::Mark || !rec.hasEnd)
        return std::nullopt;
    const auto it =
        rowOfName.find(std::make_tuple(lane.domain(), lane.nameId(ref.index), int(rec.style)));
    if (it == rowOfName.end())
        return std::nullopt;
    return it->second;
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
