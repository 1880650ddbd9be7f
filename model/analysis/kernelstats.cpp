// SPDX-License-Identifier: MIT
#include "model/analysis/kernelstats.h"

#include <map>
#include <tuple>

namespace strobe {

namespace {

using ConfigKey = std::tuple<StringId, std::array<std::int32_t, 3>, std::array<std::int32_t, 3>,
                             std::uint32_t, std::uint32_t>;

ConfigKey groupKey(const KernelConfig& c, KernelGrouping g) {
    switch (g) {
    case KernelGrouping::DemangledName:
        return {c.demangledName, {}, {}, 0, 0};
    case KernelGrouping::ShortName:
        return {c.shortName, {}, {}, 0, 0};
    case KernelGrouping::LaunchConfig:
        return {c.demangledName, c.grid, c.block, c.registersPerThread,
                c.staticSharedBytes + c.dynamicSharedBytes};
    }
    return {};
}

} // namespace

std::vector<KernelSummaryRow> summarizeKernels(const Trace& trace, KernelGrouping grouping) {
    // Configs are few; map each to its group once, then walk the kernels.
    const auto& configs = trace.kernelConfigs();
    std::map<ConfigKey, std::uint32_t> groupOf;
    std::vector<std::uint32_t> configGroup(configs.size());
    std::vector<KernelSummaryRow> rows;
    for (std::uint32_t ci = 0; ci < configs.size(); ++ci) {
        const KernelConfig& c = configs[ci];
        const ConfigKey key = groupKey(c, grouping);
        auto [it, added] = groupOf.try_emplace(key, std::uint32_t(rows.size()));
        if (added) {
            KernelSummaryRow r;
            r.name = trace.string(std::get<0>(key));
            if (grouping == KernelGrouping::LaunchConfig) {
                r.grid = c.grid;
                r.block = c.block;
                r.registersPerThread = c.registersPerThread;
                r.sharedBytes = c.staticSharedBytes + c.dynamicSharedBytes;
            }
            rows.push_back(std::move(r));
        }
        configGroup[ci] = it->second;
        rows[it->second].configs.push_back(ci);
    }
    std::vector<std::vector<TimeNs>> durations(rows.size());
    TimeNs all = 0;
    for (std::uint32_t k = 0; k < trace.kernelCount(); ++k) {
        const EventRef self = trace.kernelRef(k);
        const Lane& lane = trace.lane(self.lane);
        const TimeNs d = saturatingSub(lane.end(self.index), lane.start(self.index));
        const std::uint32_t g = configGroup[trace.kernelConfigIndex(k)];
        durations[g].push_back(d);
        rows[g].instances.push_back(k);
        all = saturatingAdd(all, d);
    }
    for (std::size_t g = 0; g < rows.size(); ++g) {
        rows[g].stats = durationStats(durations[g]);
        rows[g].timePercent = all > 0 ? 100.0 * double(rows[g].stats.total) / double(all) : 0.0;
    }
    std::erase_if(rows, [](const KernelSummaryRow& r) { return r.stats.count == 0; });
    std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
        if (a.stats.total != b.stats.total)
            return a.stats.total > b.stats.total;
        return a.name < b.name;
    });
    return rows;
}

} // namespace strobe
