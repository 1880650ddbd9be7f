// SPDX-License-Identifier: MIT
#include "model/analysis/launchstats.h"

#include <algorithm>
#include <map>

namespace strobe {

std::vector<LaunchSummaryRow> summarizeLaunches(const Trace& trace) {
    const auto& configs = trace.kernelConfigs();
    std::map<StringId, std::size_t> rowOfName;
    std::vector<std::size_t> rowOfConfig(configs.size(), 0);
    std::vector<LaunchSummaryRow> rows;
    for (std::size_t c = 0; c < configs.size(); ++c) {
        const auto [it, added] = rowOfName.try_emplace(configs[c].demangledName, rows.size());
        if (added) {
            rows.emplace_back();
            rows.back().name = trace.string(configs[c].demangledName);
        }
        rowOfConfig[c] = it->second;
    }
    struct Times {
        std::vector<TimeNs> api, kernel, queue, total;
    };
    std::vector<Times> times(rows.size());
    const auto kernels = trace.kernels();
    for (std::uint32_t k = 0; k < trace.kernelCount(); ++k) {
        const KernelRecord rec = kernels[k];
        if (!rec.api.isValid())
            continue;
        const Lane& al = trace.lane(rec.api.lane);
        const Lane& kl = trace.lane(rec.self.lane);
        const TimeNs as = al.start(rec.api.index), ae = al.end(rec.api.index);
        const TimeNs ks = kl.start(rec.self.index), ke = kl.end(rec.self.index);
        const std::size_t r = rowOfConfig[rec.config];
        Times& t = times[r];
        t.api.push_back(saturatingSub(ae, as));
        t.kernel.push_back(saturatingSub(ke, ks));
        if (ks >= ae)
            t.queue.push_back(saturatingSub(ks, ae));
        t.total.push_back(saturatingSub(std::max(ae, ke), as));
        rows[r].instances.push_back(k);
    }
    for (std::size_t r = 0; r < rows.size(); ++r) {
        rows[r].api = durationStats(times[r].api);
        rows[r].kernel = durationStats(times[r].kernel);
        rows[r].queue = durationStats(times[r].queue);
        rows[r].total = durationStats(times[r].total);
    }
    std::erase_if(rows, [](const LaunchSummaryRow& r) { return r.instances.empty(); });
    std::sort(rows.begin(), rows.end(), [](const LaunchSummaryRow& a, const LaunchSummaryRow& b) {
        if (a.total.mean != b.total.mean)
            return a.total.mean > b.total.mean;
        return a.name < b.name;
    });
    return rows;
}

} // namespace strobe
