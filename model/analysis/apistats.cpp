// SPDX-License-Identifier: MIT
#include "model/analysis/apistats.h"

#include "model/cudaapi.h"

#include <map>

namespace strobe {

std::vector<CallSummaryRow> summarizeCalls(const Trace& trace, CallFamily family) {
    const LaneKind kind = family == CallFamily::CudaApi ? LaneKind::CudaApi : LaneKind::Osrt;
    // Names are few: each recorded name maps to its row once, then the calls are tallied.
    std::map<StringId, std::size_t> rowOfName;
    std::map<QString, std::size_t> rowOfShown;
    std::vector<CallSummaryRow> rows;
    std::vector<std::vector<TimeNs>> durations;
    for (const Lane& lane : trace.lanes()) {
        if (lane.kind() != kind)
            continue;
        for (std::uint32_t i = 0; i < lane.size(); ++i) {
            const StringId id = lane.nameId(i);
            auto it = rowOfName.find(id);
            if (it == rowOfName.end()) {
                QString shown = family == CallFamily::CudaApi
                                    ? cudaapi::displayName(trace.string(id))
                                    : trace.string(id);
                const auto [at, added] = rowOfShown.try_emplace(shown, rows.size());
                if (added) {
                    rows.push_back({std::move(shown), {}, 0});
                    durations.emplace_back();
                }
                it = rowOfName.emplace(id, at->second).first;
            }
            durations[it->second].push_back(saturatingSub(lane.end(i), lane.start(i)));
        }
    }
    TimeNs all = 0;
    for (std::size_t r = 0; r < rows.size(); ++r) {
        rows[r].stats = durationStats(durations[r]);
        all = saturatingAdd(all, rows[r].stats.total);
    }
    for (CallSummaryRow& r : rows)
        r.timePercent = all > 0 ? 100.0 * double(r.stats.total) / double(all) : 0.0;
    std::sort(rows.begin(), rows.end(), [](const CallSummaryRow& a, const CallSummaryRow& b) {
        if (a.stats.total != b.stats.total)
            return a.stats.total > b.stats.total;
        return a.name < b.name;
    });
    return rows;
}

} // namespace strobe
