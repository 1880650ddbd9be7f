// SPDX-License-Identifier: MIT
#include "model/analysis/iterations.h"

#include "model/analysis/nvtxstats.h"

#include <QRegularExpression>
#include <algorithm>
#include <map>

namespace strobe {

namespace {

// Every closed NVTX range whose displayed name matches `re`, grouped by starting thread.
std::map<std::uint32_t, std::vector<RangeInstance>> rangesMatching(const Trace& t,
                                                                   const QRegularExpression& re) {
    std::map<std::uint32_t, std::vector<RangeInstance>> byThread;
    std::map<std::pair<StringId, StringId>, bool> matches; // (domain, text) -> match
    for (std::uint32_t li = 0; li < t.lanes().size(); ++li) {
        const Lane& l = t.lane(li);
        if (l.kind() != LaneKind::Nvtx && l.kind() != LaneKind::NvtxStartEnd)
            continue;
        for (std::uint32_t i = 0; i < l.size(); ++i) {
            const NvtxRecord& n = t.nvtx()[l.payload(i)];
            if (n.style == NvtxStyle::Mark || !n.hasEnd)
                continue;
            const auto key = std::make_pair(l.domain(), l.nameId(i));
            auto it = matches.find(key);
            if (it == matches.end())
                it = matches
                         .emplace(key, re.match(nvtxRangeName(t, key.first, key.second)).hasMatch())
                         .first;
            if (!it->second)
                continue;
            byThread[n.thread].push_back({nvtxRangeName(t, key.first, key.second),
                                          TimeRange{l.start(i), l.end(i)}, EventRef{li, i}});
        }
    }
    for (auto& [thread, v] : byThread)
        std::sort(v.begin(), v.end(), [](const RangeInstance& a, const RangeInstance& b) {
            return a.range.start < b.range.start;
        });
    return byThread;
}

RangeInstances busiestThread(std::map<std::uint32_t, std::vector<RangeInstance>> byThread,
                             const QString& label) {
    RangeInstances out;
    out.label = label;
    for (auto& [thread, v] : byThread) {
        if (v.size() > out.instances.size()) {
            out.thread = thread;
            out.instances = std::move(v);
        }
    }
    return out;
}

} // namespace

std::optional<RangeInstances> detectIterations(const Trace& trace) {
    static const std::array<std::pair<const char*, const char*>, 3> kPatterns{{
        {"^ProfilerStep[ #_]?\\d+$", "ProfilerStep#N"},
        {"^Iteration[ #_]?\\d+$", "Iteration N"},
        {"^step[ #_]?\\d+$", "step N"},
    }};
    for (const auto& [pattern, label] : kPatterns) {
        const QRegularExpression re(QLatin1String(pattern),
                                    QRegularExpression::CaseInsensitiveOption);
        RangeInstances found = busiestThread(rangesMatching(trace, re), QLatin1String(label));
        if (found.instances.size() >= 2)
            return found;
    }
    return std::nullopt;
}

RangeInstances findRangeInstances(const Trace& trace, const QString& name) {
    const QRegularExpression re(QLatin1Char('^') + QRegularExpression::escape(name) +
                                QLatin1String("([ #_]?\\d+)?$"));
    return busiestThread(rangesMatching(trace, re), name);
}

} // namespace strobe
