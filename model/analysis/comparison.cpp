// SPDX-License-Identifier: MIT
#include "model/analysis/comparison.h"

#include "model/analysis/nvtxstats.h"
#include "model/analysis/rangegrouping.h"
#include "model/lod/utilization.h"
#include "model/valueformat.h"

#include <QStringBuilder>
#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>
#include <tuple>

namespace strobe {

namespace {

std::optional<double> percentChange(TimeNs a, TimeNs b) {
    if (a == 0)
        return std::nullopt;
    return 100.0 * double(b - a) / double(a);
}

// Everything a side contributes, keyed so the two sides can be matched.
using KernelKey = std::tuple<QString, std::array<std::int32_t, 3>, std::array<std::int32_t, 3>,
                             std::uint32_t, std::uint32_t>;

QString kernelLabel(const KernelSummaryRow& r, KernelGrouping g) {
    if (g != KernelGrouping::LaunchConfig)
        return r.name;
    return r.name % QStringLiteral(" [grid ") % formatDim3(r.grid) % QStringLiteral(", block ") %
           formatDim3(r.block) % QStringLiteral(", ") % QString::number(r.registersPerThread) %
           QStringLiteral(" regs, ") % QString::number(r.sharedBytes) %
           QStringLiteral(" B shared]");
}

// When the kernel was launched: its API call's start, or its own start without one.
TimeNs launchTime(const Trace& t, const KernelRecord& k) {
    if (k.api.isValid())
        return t.lane(k.api.lane).start(k.api.index);
    return t.lane(k.self.lane).start(k.self.index);
}

struct KernelTotals {
    QString label;
    KernelSide side;
};

std::map<KernelKey, KernelTotals> kernelSide(const Trace& t, const ComparisonSide& side,
                                             KernelGrouping g, std::uint64_t& counted) {
    std::map<KernelKey, KernelTotals> out;
    std::vector<TimeNs> durations;
    for (const KernelSummaryRow& r : summarizeKernels(t, g)) {
        durations.clear();
        KernelSide s;
        TimeNs longest = -1;
        for (std::uint32_t k : r.instances) {
            const KernelRecord& rec = t.kernels()[k];
            if (side.range && !side.range->contains(launchTime(t, rec)))
                continue;
            const Lane& l = t.lane(rec.self.lane);
            const TimeNs d = l.end(rec.self.index) - l.start(rec.self.index);
            durations.push_back(d);
            if (d > longest) {
                longest = d;
                s.longest = k;
            }
        }
        if (durations.empty())
            continue;
        const DurationStats st = durationStats(durations);
        s.count = st.count;
        s.total = st.total;
        s.median = st.median;
        counted += st.count;
        const bool config = g == KernelGrouping::LaunchConfig;
        const KernelKey key{r.name, config ? r.grid : std::array<std::int32_t, 3>{},
                            config ? r.block : std::array<std::int32_t, 3>{},
                            config ? r.registersPerThread : 0u, config ? r.sharedBytes : 0u};
        out.emplace(key, KernelTotals{kernelLabel(r, g), s});
    }
    return out;
}

std::map<QString, RangeSide> rangeSide(const Trace& t, const ComparisonSide& side) {
    std::map<QString, RangeSide> out;
    std::map<std::pair<StringId, StringId>, RangeSide*> cache;
    for (const Lane& lane : t.lanes()) {
        if (lane.kind() != LaneKind::Nvtx && lane.kind() != LaneKind::NvtxStartEnd)
            continue;
        for (std::uint32_t i = 0; i < lane.size(); ++i) {
            const std::uint32_t p = lane.payload(i);
            if (t.nvtxStyle(p) == NvtxStyle::Mark || !t.nvtxHasEnd(p))
                continue;
            const TimeNs s = lane.start(i);
            if (side.range && !side.range->contains(s))
                continue;
            const auto key = std::make_pair(lane.domain(), lane.nameId(i));
            auto it = cache.find(key);
            if (it == cache.end()) {
                const QString name =
                    groupedRangeName(nvtxRangeName(t, lane.domain(), lane.nameId(i)));
                it = cache.emplace(key, &out[name]).first;
            }
            ++it->second->count;
            it->second->total += lane.end(i) - s;
        }
    }
    for (auto& [name, r] : out)
        r.wallPercent = side.window > 0 ? 100.0 * double(r.total) / double(side.window) : 0.0;
    return out;
}

// Time of sorted disjoint `a` inside sorted disjoint `windows`; all of `a` without windows.
TimeNs clippedTotal(const std::vector<TimeRange>& a, const std::vector<TimeRange>* windows) {
    TimeNs total = 0;
    if (!windows) {
        for (const TimeRange& r : a)
            total += r.duration();
        return total;
    }
    std::size_t w = 0;
    for (const TimeRange& r : a) {
        while (w < windows->size() && (*windows)[w].end <= r.start)
            ++w;
        for (std::size_t k = w; k < windows->size() && (*windows)[k].start < r.end; ++k)
            total += std::min(r.end, (*windows)[k].end) - std::max(r.start, (*windows)[k].start);
    }
    return total;
}

std::map<std::uint32_t, GpuSide> gpuSide(const Trace& t, ComparisonSide& side, TimeNs threshold) {
    std::map<std::uint32_t, GpuSide> out;
    const GapAnalysis gaps = findGaps(t, threshold);
    const std::vector<TimeRange>* windows = side.range ? &side.range->windows : nullptr;
    for (const DeviceIdleSummary& d : gaps.devices) {
        GpuSide g;
        g.present = true;
        const auto kernels = busyIntervals(t, d.deviceId, BusyWork::Kernels);
        const auto copies = busyIntervals(t, d.deviceId, BusyWork::Copies);
        g.kernelBusy = clippedTotal(kernels, windows);
        g.copyBusy = clippedTotal(copies, windows);
        g.busy = clippedTotal(uniteIntervals(kernels, copies), windows);
        g.utilizationPercent = side.window > 0 ? 100.0 * double(g.busy) / double(side.window) : 0.0;
        out[d.deviceId] = g;
    }
    for (const GpuGap& gap : gaps.gaps) {
        const TimeNs idle = clippedTotal({gap.range}, windows);
        if (idle <= 0)
            continue;
        GpuSide& g = out[gap.deviceId];
        g.idle += idle;
        ++g.gaps;
        side.gpuIdle += idle;
    }
    return out;
}

// The distinct names of the GPUs in `busy` (every GPU listed when `busy` is empty), by id.
QStringList gpuModels(const Trace& t, const std::set<std::uint32_t>& busy) {
    QStringList out;
    for (const GpuInfo& g : t.gpus()) {
        if (!busy.empty() && !busy.count(g.id))
            continue;
        const QString name = t.string(g.name);
        if (!name.isEmpty() && !out.contains(name))
            out << name;
    }
    return out;
}

// The ids of the GPUs that ran work (kernels or copies).
std::set<std::uint32_t> busyGpus(const std::map<std::uint32_t, GpuSide>& side) {
    std::set<std::uint32_t> out;
    for (const auto& [id, g] : side)
        if (g.busy > 0)
            out.insert(id);
    return out;
}

ComparisonSide describe(const Trace& t, const Comparison& c) {
    ComparisonSide s;
    s.file = t.filePath();
    s.format = t.metadata().format;
    s.rank = t.metadata().rank;
    s.worldSize = t.metadata().worldSize;
    s.span = t.timeRange();
    if (c.hasRange())
        s.range = findRangeInstances(t, c.rangeName);
    s.window = s.range ? s.range->windowTotal() : s.span.duration();
    return s;
}

template <typename Row>
bool byDelta(const Row& x, const Row& y, const QString& xn, const QString& yn) {
    const TimeNs dx = std::abs(x.delta()), dy = std::abs(y.delta());
    return dx != dy ? dx > dy : xn < yn;
}

} // namespace

std::optional<double> KernelDiffRow::deltaPercent() const {
    return percentChange(a.total, b.total);
}

std::optional<double> KernelDiffRow::medianPercent() const {
    if (a.count == 0 || b.count == 0 || a.median <= 0)
        return std::nullopt;
    return 100.0 * (b.median - a.median) / a.median;
}

std::optional<double> RangeDiffRow::deltaPercent() const {
    return percentChange(a.total, b.total);
}

double ComparisonSide::perInstance(double total) const {
    const std::uint64_t n = instanceCount();
    return n > 0 ? total / double(n) : 0.0;
}

double ComparisonSide::perSecond(double count) const {
    return window > 0 ? count * 1e9 / double(window) : 0.0;
}

bool Comparison::pairsAcrossIds() const {
    return std::any_of(gpus.begin(), gpus.end(), [](const GpuDiffRow& r) {
        return r.a.present && r.b.present && r.deviceId != r.deviceIdB;
    });
}

double ComparisonSide::meanInstanceNs() const {
    if (!range)
        return 0;
    TimeNs total = 0;
    for (const TimeRange& r : range->instances)
        total += r.duration();
    return perInstance(double(total));
}

Comparison compareTraces(const Trace& ta, const Trace& tb, const ComparisonOptions& options) {
    Comparison c;
    c.idleThresholdNs = std::max<TimeNs>(1, options.idleThresholdNs);
    std::optional<RangeInstances> da, db;
    if (options.detectRange) {
        da = detectIterationRange(ta);
        db = detectIterationRange(tb);
        if (da || db) {
            c.rangeName = da ? da->name : db->name;
            c.rangeDetected = true;
        }
    } else {
        c.rangeName = options.range;
    }
    c.a = describe(ta, c);
    c.b = describe(tb, c);
    // Detection's own instances (one thread), where it chose the same name on that side.
    if (da && da->name == c.rangeName) {
        c.a.range = std::move(*da);
        c.a.window = c.a.range->windowTotal();
    }
    if (db && db->name == c.rangeName) {
        c.b.range = std::move(*db);
        c.b.window = c.b.range->windowTotal();
    }

    // Kernels.
    auto ka = kernelSide(ta, c.a, options.grouping, c.a.kernels);
    auto kb = kernelSide(tb, c.b, options.grouping, c.b.kernels);
    for (auto& [key, v] : ka) {
        KernelDiffRow r;
        r.name = v.label;
        r.a = v.side;
        if (auto it = kb.find(key); it != kb.end()) {
            r.b = it->second.side;
            kb.erase(it);
        }
        c.kernels.push_back(std::move(r));
    }
    for (auto& [key, v] : kb) {
        KernelDiffRow r;
        r.name = v.label;
        r.b = v.side;
        c.kernels.push_back(std::move(r));
    }
    std::sort(c.kernels.begin(), c.kernels.end(),
              [](const auto& x, const auto& y) { return byDelta(x, y, x.name, y.name); });

    // Ranges.
    auto ra = rangeSide(ta, c.a);
    auto rb = rangeSide(tb, c.b);
    std::set<QString> names;
    for (const auto& [n, v] : ra)
        names.insert(n);
    for (const auto& [n, v] : rb)
        names.insert(n);
    for (const QString& n : names) {
        RangeDiffRow r;
        r.range = n;
        if (auto it = ra.find(n); it != ra.end())
            r.a = it->second;
        if (auto it = rb.find(n); it != rb.end())
            r.b = it->second;
        c.ranges.push_back(std::move(r));
    }
    std::sort(c.ranges.begin(), c.ranges.end(),
              [](const auto& x, const auto& y) { return byDelta(x, y, x.range, y.range); });

    // GPUs: the caller's pairs, or the busy GPUs by position when their ids differ; then by id.
    auto ga = gpuSide(ta, c.a, c.idleThresholdNs);
    auto gb = gpuSide(tb, c.b, c.idleThresholdNs);
    const std::set<std::uint32_t> busyA = busyGpus(ga), busyB = busyGpus(gb);
    c.a.gpuModels = gpuModels(ta, busyA);
    c.b.gpuModels = gpuModels(tb, busyB);
    if (!options.gpuPairing.empty()) {
        c.gpuPairing = options.gpuPairing;
    } else if (!busyA.empty() && !busyB.empty() && busyA != busyB) {
        c.gpusByPosition = true;
        for (auto ia = busyA.begin(), ib = busyB.begin(); ia != busyA.end() && ib != busyB.end();
             ++ia, ++ib)
            c.gpuPairing.emplace_back(*ia, *ib);
    }
    std::set<std::uint32_t> usedA, usedB;
    std::vector<GpuDiffRow> paired;
    auto take = [](std::map<std::uint32_t, GpuSide>& side, std::uint32_t id) {
        auto it = side.find(id);
        return it == side.end() ? GpuSide{} : it->second;
    };
    for (const auto& [ia, ib] : c.gpuPairing) {
        if (usedA.count(ia) || usedB.count(ib))
            continue; // a GPU named twice keeps its first pair
        usedA.insert(ia);
        usedB.insert(ib);
        paired.push_back({ia, ib, take(ga, ia), take(gb, ib)});
    }
    for (const auto& [d, v] : ga) {
        if (usedA.count(d))
            continue;
        GpuDiffRow r{d, d, v, {}};
        if (!usedB.count(d)) {
            r.b = take(gb, d);
            usedB.insert(d);
        }
        paired.push_back(r);
    }
    std::sort(paired.begin(), paired.end(),
              [](const GpuDiffRow& x, const GpuDiffRow& y) { return x.deviceId < y.deviceId; });
    c.gpus = std::move(paired);
    for (const auto& [d, v] : gb)
        if (!usedB.count(d))
            c.gpus.push_back({d, d, {}, v});

    // Without a range: one to align on.
    if (!c.hasRange()) {
        std::optional<RangeInstances> it = detectIterationRange(ta);
        if (!it)
            it = detectIterationRange(tb);
        if (it) {
            c.suggestedRange = it->name;
            c.suggestedCounts = {findRangeInstances(ta, it->name).instances.size(),
                                 findRangeInstances(tb, it->name).instances.size()};
        } else {
            const RangeDiffRow* best = nullptr;
            for (const RangeDiffRow& r : c.ranges) {
                if (r.a.count < kSuggestedRangeMinCount || r.b.count < kSuggestedRangeMinCount)
                    continue;
                const double share = std::min(r.a.wallPercent, r.b.wallPercent);
                if (!best || share > std::min(best->a.wallPercent, best->b.wallPercent))
                    best = &r;
            }
            if (best) {
                c.suggestedRange = best->range;
                c.suggestedCounts = {best->a.count, best->b.count};
            }
        }
    }
    return c;
}

} // namespace strobe
