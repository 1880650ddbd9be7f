// SPDX-License-Identifier: MIT
#include "model/analysis/gridfill.h"

#include <algorithm>
#include <tuple>
#include <unordered_map>

namespace strobe {

std::int64_t gridBlocks(const KernelConfig& c) {
    return std::int64_t(c.grid[0]) * c.grid[1] * c.grid[2];
}

bool leavesSmsEmpty(const KernelConfig& c, std::uint32_t smCount) {
    const std::int64_t blocks = gridBlocks(c);
    return blocks > 0 && blocks < std::int64_t(smCount);
}

std::vector<KernelConfigUse> kernelUseByConfig(const Trace& t,
                                               std::optional<std::uint32_t> deviceId,
                                               std::optional<TimeRange> window) {
    std::vector<KernelConfigUse> uses;
    std::unordered_map<std::uint64_t, std::size_t> rowOf; // (device << 32 | config) -> row
    for (std::size_t i = 0; i < t.kernelCount(); ++i) {
        const std::uint32_t device = t.streams()[t.kernelStreamIndex(i)].deviceId;
        if (deviceId && device != *deviceId)
            continue;
        const EventRef self = t.kernelRef(i);
        const Lane& l = t.lane(self.lane);
        const TimeNs s = l.start(self.index), e = l.end(self.index);
        if (window && (e <= window->start || s >= window->end))
            continue;
        const std::uint32_t config = t.kernelConfigIndex(i);
        const auto [it, added] =
            rowOf.try_emplace((std::uint64_t(device) << 32) | config, uses.size());
        if (added) {
            KernelConfigUse u;
            u.deviceId = device;
            u.config = config;
            uses.push_back(u);
        }
        KernelConfigUse& u = uses[it->second];
        // Durations and their sum saturate (types.h): a hostile file's clamped times reach 2^62.
        const TimeNs d = saturatingSub(e, s);
        u.time = saturatingAdd(u.time, d);
        ++u.launches;
        if (d > u.longestNs) {
            u.longestNs = d;
            u.longest = self;
        }
    }
    std::sort(uses.begin(), uses.end(), [](const KernelConfigUse& a, const KernelConfigUse& b) {
        return std::tie(a.deviceId, a.config) < std::tie(b.deviceId, b.config);
    });
    return uses;
}

} // namespace strobe
