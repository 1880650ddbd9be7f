// SPDX-License-Identifier: MIT
#include "model/analysis/iterations.h"

#include "model/analysis/nvtxstats.h"
#include "model/analysis/rangegrouping.h"

#include <QRegularExpression>
#include <algorithm>
#include <map>

namespace strobe {

TimeNs RangeInstances::windowTotal() const {
    TimeNs total = 0;
    for (const TimeRange& w : windows)
        total += w.duration();
    return total;
}

bool RangeInstances::contains(TimeNs t) const {
    auto it = std::upper_bound(windows.begin(), windows.end(), t,
                               [](TimeNs v, const TimeRange& w) { return v < w.start; });
    return it != windows.begin() && t < std::prev(it)->end;
}

namespace {

// NVTX ranges, and framework operators: older PyTorch profiler traces record ProfilerStep#N as
// an operator rather than a user annotation.
bool isRangeLane(const Lane& lane) {
    return lane.kind() == LaneKind::Nvtx || lane.kind() == LaneKind::NvtxStartEnd ||
           lane.kind() == LaneKind::CpuOps;
}

std::uint16_t depthOf(const Trace& trace, const Lane& lane, std::uint32_t i) {
    return lane.kind() == LaneKind::CpuOps ? lane.row(i) : trace.nvtxDepth(lane.payload(i));
}

// Calls fn(lane, lane index, index, groupedName) for every range with an end; names are built
// once per (domain, string id).
template <typename Fn> void forEachRange(const Trace& trace, Fn&& fn) {
    std::map<std::pair<StringId, StringId>, QString> names;
    for (std::uint32_t li = 0; li < trace.lanes().size(); ++li) {
        const Lane& lane = trace.lane(li);
        if (!isRangeLane(lane))
            continue;
        const bool nvtx = lane.kind() != LaneKind::CpuOps;
        for (std::uint32_t i = 0; i < lane.size(); ++i) {
            if (nvtx) {
                const NvtxRecord& rec = trace.nvtx()[lane.payload(i)];
                if (rec.style == NvtxStyle::Mark || !rec.hasEnd)
                    continue;
            }
            const auto key = std::make_pair(lane.domain(), lane.nameId(i));
            auto it = names.find(key);
            if (it == names.end())
                it = names
                         .emplace(key, groupedRangeName(
                                           nvtxRangeName(trace, lane.domain(), lane.nameId(i))))
                         .first;
            fn(lane, li, i, it->second);
        }
    }
}

// The trailing number of a range's name ("550" of "ProfilerStep#550"), or "".
QString trailingNumber(QStringView name) {
    qsizetype i = name.size();
    while (i > 0 && name[i - 1].isDigit())
        --i;
    return name.mid(i).toString();
}

// Sorts the instances by start (longer first), their labels with them (an instance without a
// label is numbered by its position), and merges them into windows.
void mergeWindows(RangeInstances& r) {
    std::vector<std::size_t> order(r.instances.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        const TimeRange& x = r.instances[a];
        const TimeRange& y = r.instances[b];
        return x.start != y.start ? x.start < y.start : x.end > y.end;
    });
    std::vector<TimeRange> instances;
    std::vector<QString> labels;
    for (std::size_t k = 0; k < order.size(); ++k) {
        instances.push_back(r.instances[order[k]]);
        const QString label = order[k] < r.labels.size() ? r.labels[order[k]] : QString();
        labels.push_back(label.isEmpty() ? QString::number(k) : label);
    }
    r.instances = std::move(instances);
    r.labels = std::move(labels);
    for (const TimeRange& t : r.instances) {
        const TimeRange w{t.start, effectiveEnd(t.start, t.end)};
        if (!r.windows.empty() && w.start <= r.windows.back().end)
            r.windows.back().end = std::max(r.windows.back().end, w.end);
        else
            r.windows.push_back(w);
    }
}

} // namespace

RangeInstances findRangeInstances(const Trace& trace, const QString& name) {
    RangeInstances exact, prefix;
    exact.name = prefix.name = name;
    forEachRange(trace, [&](const Lane& lane, std::uint32_t, std::uint32_t i, const QString& n) {
        if (n == name) {
            exact.instances.push_back({lane.start(i), lane.end(i)});
            exact.labels.push_back(trailingNumber(n));
        } else if (exact.instances.empty() && n.startsWith(name)) {
            prefix.instances.push_back({lane.start(i), lane.end(i)});
            prefix.labels.push_back(trailingNumber(n));
        }
    });
    RangeInstances& out = exact.instances.empty() ? prefix : exact;
    mergeWindows(out);
    return std::move(out);
}

std::optional<RangeInstances> detectIterationRange(const Trace& trace) {
    static const QRegularExpression numbered(QStringLiteral("^(.*?)[\\s#:_-]*(\\d+)$"));
    static const QRegularExpression loopWord(
        QStringLiteral("(profilerstep|iteration|iter|step|batch)$"),
        QRegularExpression::CaseInsensitiveOption);
    struct Family {
        std::vector<TimeRange> ranges;
        std::vector<QString> labels;
        std::uint16_t minDepth = 0xFFFF;
    };
    // (lane, family name) -> its ranges on that lane (a lane is one thread and domain).
    std::map<std::pair<std::uint32_t, QString>, Family> families;
    forEachRange(trace, [&](const Lane& lane, std::uint32_t li, std::uint32_t i, const QString& n) {
        const QRegularExpressionMatch m = numbered.match(n);
        if (!m.hasMatch())
            return;
        const QString family = m.captured(1).trimmed();
        if (family.isEmpty() || !loopWord.match(family).hasMatch())
            return;
        Family& f = families[{li, family}];
        f.ranges.push_back({lane.start(i), lane.end(i)});
        f.labels.push_back(m.captured(2));
        f.minDepth = std::min(f.minDepth, depthOf(trace, lane, i));
    });
    const std::pair<std::uint32_t, QString>* best = nullptr;
    auto rank = [&](const std::pair<std::uint32_t, QString>& key, const Family& f) {
        const bool pytorch =
            key.second.compare(QLatin1String("ProfilerStep"), Qt::CaseInsensitive) == 0;
        return std::make_tuple(pytorch, f.ranges.size(), -int(f.minDepth));
    };
    for (const auto& [key, f] : families) {
        if (f.ranges.size() < 2)
            continue;
        // Steps of a loop follow each other: lane order is by start, so check neighbours.
        bool disjoint = true;
        for (std::size_t k = 1; k < f.ranges.size() && disjoint; ++k)
            disjoint = f.ranges[k].start >= f.ranges[k - 1].end;
        if (!disjoint)
            continue;
        if (!best || rank(key, f) > rank(*best, families.at(*best)))
            best = &key;
    }
    if (!best)
        return std::nullopt;
    // The family's own instances: the same name on other threads (a GPU-side copy of each
    // step, a second rank) would count every step twice.
    RangeInstances out;
    out.name = best->second;
    out.detected = true;
    out.instances = families.at(*best).ranges;
    out.labels = families.at(*best).labels;
    mergeWindows(out);
    return out;
}

} // namespace strobe
