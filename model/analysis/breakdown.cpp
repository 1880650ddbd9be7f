// SPDX-License-Identifier: MIT
#include "model/analysis/breakdown.h"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace strobe {

QString copyDirectionKey(CopyDirection d) {
    switch (d) {
    case CopyDirection::HtoD:
        return QStringLiteral("htod");
    case CopyDirection::DtoH:
        return QStringLiteral("dtoh");
    case CopyDirection::DtoD:
        return QStringLiteral("dtod");
    case CopyDirection::PtoP:
        return QStringLiteral("ptop");
    case CopyDirection::Other:
        break;
    }
    return QStringLiteral("other");
}

CopyDirection copyDirectionOf(MemcpyKind kind) {
    switch (kind) {
    case MemcpyKind::HtoD:
    case MemcpyKind::HtoA:
        return CopyDirection::HtoD;
    case MemcpyKind::DtoH:
    case MemcpyKind::AtoH:
        return CopyDirection::DtoH;
    case MemcpyKind::DtoD:
    case MemcpyKind::AtoA:
    case MemcpyKind::AtoD:
    case MemcpyKind::DtoA:
        return CopyDirection::DtoD;
    case MemcpyKind::PtoP:
        return CopyDirection::PtoP;
    default:
        return CopyDirection::Other;
    }
}

double GpuBreakdown::overlapPercent() const {
    return communication > 0
               ? 100.0 * double(communication - exposedCommunication) / double(communication)
               : 0.0;
}

BreakdownSource::BreakdownSource(const Trace& trace, const KernelClassTable& table,
                                 std::optional<TimeNs> launchedBefore) {
    struct Raw {
        std::array<std::vector<TimeRange>, kKernelClassCount> byClass;
        std::array<std::vector<TimeRange>, kCopyDirectionCount> copies;
        std::vector<TimeRange> communication, memset;
    };
    std::map<std::uint32_t, Raw> raw;
    const auto interval = [&](EventRef self) {
        const Lane& l = trace.lane(self.lane);
        const TimeNs s = l.start(self.index);
        return TimeRange{s, effectiveEnd(s, l.end(self.index))};
    };
    const auto kept = [&](EventRef api) {
        return !launchedBefore ||
               (api.isValid() && trace.lane(api.lane).start(api.index) < *launchedBefore);
    };
    // -1: communication; otherwise the class (of the short name, else of the full name's
    // template arguments). Classified once per distinct pair of names.
    std::unordered_map<std::uint64_t, int> kindOfName;
    for (std::size_t i = 0; i < trace.kernelCount(); ++i) {
        if (!kept(trace.kernelApi(i)))
            continue;
        const EventRef self = trace.kernelRef(i);
        const KernelConfig& config = trace.kernelConfigs()[trace.kernelConfigIndex(i)];
        const std::uint64_t names = std::uint64_t(config.shortName) << 32 | config.demangledName;
        auto it = kindOfName.find(names);
        if (it == kindOfName.end()) {
            const auto name = trace.strings().view(config.shortName);
            const auto full = trace.strings().view(config.demangledName);
            it = kindOfName
                     .emplace(names,
                              table.isCommunication(name) ? -1 : int(table.classify(name, full)))
                     .first;
        }
        Raw& r = raw[trace.streams()[trace.lane(self.lane).owner()].deviceId];
        if (it->second < 0)
            r.communication.push_back(interval(self));
        else
            r.byClass[std::size_t(it->second)].push_back(interval(self));
    }
    for (const MemcpyRecord& m : trace.memcpys()) {
        if (trace.lane(m.self.lane).kind() == LaneKind::Uvm || !kept(m.api))
            continue; // migrations are not stream work, as in the gap definition
        raw[trace.streams()[m.stream].deviceId]
            .copies[std::size_t(copyDirectionOf(m.copyKind))]
            .push_back(interval(m.self));
    }
    for (const MemsetRecord& m : trace.memsets()) {
        if (kept(m.api))
            raw[trace.streams()[m.stream].deviceId].memset.push_back(interval(m.self));
    }

    for (auto& [id, r] : raw) {
        Device d;
        d.id = id;
        std::vector<TimeRange> compute, memory;
        for (int c = 0; c < kKernelClassCount; ++c) {
            compute.insert(compute.end(), r.byClass[c].begin(), r.byClass[c].end());
            d.byClass[c] = merged(std::move(r.byClass[c]));
        }
        for (int c = 0; c < kCopyDirectionCount; ++c) {
            memory.insert(memory.end(), r.copies[c].begin(), r.copies[c].end());
            d.copies[c] = merged(std::move(r.copies[c]));
        }
        memory.insert(memory.end(), r.memset.begin(), r.memset.end());
        d.compute = merged(std::move(compute));
        d.communication = merged(std::move(r.communication));
        d.memset = merged(std::move(r.memset));
        d.memory = merged(std::move(memory));
        d.all = unite(unite(d.compute, d.communication), d.memory);
        d.exposed = difference(d.communication, d.compute);
        m_devices.push_back(std::move(d));
    }
    for (const KernelClassRule& rule : table.rules()) {
        if (std::find(m_classOrder.begin(), m_classOrder.end(), rule.cls) == m_classOrder.end())
            m_classOrder.push_back(rule.cls);
    }
    for (int c = 0; c < kKernelClassCount; ++c) {
        if (std::find(m_classOrder.begin(), m_classOrder.end(), KernelClass(c)) ==
            m_classOrder.end())
            m_classOrder.push_back(KernelClass(c));
    }
}

std::vector<std::uint32_t> BreakdownSource::deviceIds() const {
    std::vector<std::uint32_t> ids;
    for (const Device& d : m_devices)
        ids.push_back(d.id);
    return ids;
}

std::vector<TimeNs> BreakdownSource::exposedCommunication(TimeRange window) const {
    std::vector<TimeNs> out;
    out.reserve(m_devices.size());
    for (const Device& d : m_devices)
        out.push_back(lengthWithin(d.exposed, window));
    return out;
}

GpuBreakdown BreakdownSource::breakdownOf(const Device& d, std::optional<TimeRange> window) const {
    GpuBreakdown b;
    b.deviceId = d.id;
    b.span = window ? *window : TimeRange{d.all.front().start, d.all.back().end};
    const auto clip = [&](const IntervalSet& s) { return window ? clipped(s, *window) : s; };
    const IntervalSet compute = clip(d.compute), comm = clip(d.communication),
                      memory = clip(d.memory);
    b.compute = length(compute);
    b.communication = length(comm);
    b.exposedCommunication = length(difference(comm, compute));
    b.memory = length(memory);
    b.memoryOnly = length(difference(memory, unite(compute, comm)));
    b.idle = b.span.duration() - length(clip(d.all));
    IntervalSet remaining = compute;
    for (KernelClass c : m_classOrder) {
        const IntervalSet mine = clip(d.byClass[std::size_t(c)]);
        b.classes[std::size_t(c)] = length(intersection(mine, remaining));
        remaining = difference(remaining, mine);
    }
    for (int c = 0; c < kCopyDirectionCount; ++c)
        b.copies[c] = length(clip(d.copies[c]));
    b.memset = length(clip(d.memset));
    return b;
}

std::vector<GpuBreakdown> BreakdownSource::breakdown(std::optional<TimeRange> window) const {
    std::vector<GpuBreakdown> out;
    if (window && window->isEmpty())
        window = TimeRange{window->start, window->start};
    for (const Device& d : m_devices)
        out.push_back(breakdownOf(d, window));
    return out;
}

std::vector<GpuBreakdown> computeBreakdown(const Trace& trace, const KernelClassTable& table,
                                           std::optional<TimeRange> window) {
    return BreakdownSource(trace, table).breakdown(window);
}

} // namespace strobe
