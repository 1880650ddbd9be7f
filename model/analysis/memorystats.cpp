// SPDX-License-Identifier: MIT
#include "model/analysis/memorystats.h"

#include <algorithm>
#include <array>

namespace strobe {

MemoryDirection memoryDirection(MemcpyKind kind) {
    switch (kind) {
    case MemcpyKind::HtoD:
    case MemcpyKind::HtoA:
        return MemoryDirection::HostToDevice;
    case MemcpyKind::DtoH:
    case MemcpyKind::AtoH:
        return MemoryDirection::DeviceToHost;
    case MemcpyKind::DtoD:
    case MemcpyKind::AtoA:
    case MemcpyKind::AtoD:
    case MemcpyKind::DtoA:
        return MemoryDirection::DeviceToDevice;
    case MemcpyKind::PtoP:
        return MemoryDirection::PeerToPeer;
    case MemcpyKind::HtoH:
        return MemoryDirection::HostToHost;
    case MemcpyKind::UnifiedHtoD:
    case MemcpyKind::UnifiedDtoH:
    case MemcpyKind::UnifiedDtoD:
        return MemoryDirection::UnifiedMemory;
    case MemcpyKind::Unknown:
        break;
    }
    return MemoryDirection::Other;
}

QString memoryDirectionKey(MemoryDirection d) {
    switch (d) {
    case MemoryDirection::HostToDevice:
        return QStringLiteral("host-to-device");
    case MemoryDirection::DeviceToHost:
        return QStringLiteral("device-to-host");
    case MemoryDirection::DeviceToDevice:
        return QStringLiteral("device-to-device");
    case MemoryDirection::PeerToPeer:
        return QStringLiteral("peer-to-peer");
    case MemoryDirection::HostToHost:
        return QStringLiteral("host-to-host");
    case MemoryDirection::UnifiedMemory:
        return QStringLiteral("unified-memory");
    case MemoryDirection::Memset:
        return QStringLiteral("memset");
    case MemoryDirection::Other:
        break;
    }
    return QStringLiteral("other");
}

std::vector<MemorySummaryRow> summarizeMemory(const Trace& trace) {
    constexpr std::size_t kDirections = std::size_t(MemoryDirection::Other) + 1;
    std::array<MemorySummaryRow, kDirections> acc{};
    auto add = [&](MemoryDirection d, EventRef self, std::uint64_t bytes) {
        const Lane& lane = trace.lane(self.lane);
        const TimeNs ns = saturatingSub(lane.end(self.index), lane.start(self.index));
        MemorySummaryRow& r = acc[std::size_t(d)];
        ++r.count;
        r.totalBytes += bytes;
        r.totalNs = saturatingAdd(r.totalNs, ns);
        if (ns > 0)
            r.peakBandwidthGBps = std::max(r.peakBandwidthGBps, double(bytes) / double(ns));
    };
    for (const MemcpyRecord& m : trace.memcpys())
        add(memoryDirection(m.copyKind), m.self, m.bytes);
    for (const MemsetRecord& m : trace.memsets())
        add(MemoryDirection::Memset, m.self, m.bytes);
    std::vector<MemorySummaryRow> rows;
    for (std::size_t d = 0; d < kDirections; ++d) {
        MemorySummaryRow r = acc[d];
        if (r.count == 0)
            continue;
        r.direction = MemoryDirection(d);
        r.avgBandwidthGBps = r.totalNs > 0 ? double(r.totalBytes) / double(r.totalNs) : 0.0;
        rows.push_back(r);
    }
    return rows;
}

} // namespace strobe
