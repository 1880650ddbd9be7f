// SPDX-License-Identifier: MIT
#include "formats/cache/tracecodec.h"

#include "model/trace.h"

#include <QStringBuilder>
#include <cstring>
#include <optional>
#include <thread>

namespace strobe {

namespace {

QString laneError(std::uint32_t li, const char* what) {
    return QStringLiteral("lane ") % QString::number(li) % QStringLiteral(": ") %
           QLatin1String(what);
}

QString recordError(const char* table, std::size_t i, const char* what) {
    return QLatin1String(table) % u' ' % QString::number(i) % QStringLiteral(": ") %
           QLatin1String(what);
}

// Raw bytes read from an entry may hold a bool (or an optional's engaged flag) that is neither 0
// nor 1; loading one is undefined behaviour, so these are checked as bytes before any is read.
bool isBoolByte(const void* p) {
    unsigned char c = 0;
    std::memcpy(&c, p, 1);
    return c <= 1;
}

// Where std::optional<T> keeps its engaged flag: right after the value in libstdc++ and libc++
// (a union of the value, then a bool). Were it elsewhere, value bytes would be checked instead
// and the round-trip tests would see their entries rejected.
template <typename T> constexpr std::size_t engagedOffset() {
    static_assert(sizeof(std::optional<T>) > sizeof(T));
    return sizeof(T);
}

template <typename T> bool flagOk(const std::optional<T>& o) {
    return isBoolByte(reinterpret_cast<const unsigned char*>(&o) + engagedOffset<T>());
}

template <typename... T> bool flagsOk(const T&... o) {
    return (flagOk(o) && ...);
}

// Every bool and optional flag of the records stored as raw bytes.
QString representationError(const TraceMetadata& m, const Trace& t) {
    if (!flagsOk(m.sessionStartUtcNs, m.rank, m.worldSize))
        return QStringLiteral("metadata flag that is not a bool");
    for (const StreamInfo& s : t.streams()) {
        if (!flagOk(s.priority))
            return QStringLiteral("stream flag that is not a bool");
    }
    for (const KernelConfig& c : t.kernelConfigs()) {
        const RecordedOccupancy& o = c.recordedOccupancy;
        if (!isBoolByte(&c.shortNameDerived) ||
            !flagsOk(o.blocksPerSm, o.warpsPerSm, o.achievedOccupancyPercent))
            return QStringLiteral("kernel configuration flag that is not a bool");
    }
    for (const KernelRecord& k : t.kernels()) {
        if (!flagsOk(k.correlationId, k.graphNodeId))
            return QStringLiteral("kernel flag that is not a bool");
    }
    for (const MemcpyRecord& r : t.memcpys()) {
        if (!flagsOk(r.srcDeviceId, r.dstDeviceId, r.migrationCause, r.correlationId))
            return QStringLiteral("memcpy flag that is not a bool");
    }
    for (const MemsetRecord& r : t.memsets()) {
        if (!flagOk(r.correlationId))
            return QStringLiteral("memset flag that is not a bool");
    }
    for (const CpuOpRecord& r : t.cpuOps()) {
        if (!flagOk(r.externalId))
            return QStringLiteral("CPU op flag that is not a bool");
    }
    for (const NvtxRecord& r : t.nvtx()) {
        if (!isBoolByte(&r.hasEnd) || !flagsOk(r.color, r.category, r.endThread))
            return QStringLiteral("NVTX flag that is not a bool");
    }
    for (const SyncRecord& r : t.syncs()) {
        if (!flagsOk(r.streamId, r.correlationId))
            return QStringLiteral("sync flag that is not a bool");
    }
    for (const GpuMemoryTrack& track : t.gpuMemory()) {
        for (const GpuMemorySample& s : track.samples) {
            if (!flagOk(s.reserved))
                return QStringLiteral("GPU memory flag that is not a bool");
        }
    }
    return {};
}

bool isTime(TimeNs t) {
    return t >= kMinTime && t <= kMaxTime;
}

// The lane kinds whose payload indexes each record table.
bool isMemcpyLane(LaneKind k) {
    return k == LaneKind::Memcpy || k == LaneKind::Uvm;
}

} // namespace

QString TraceCodec::validateLane(const Trace& t, std::uint32_t li) {
    const Lane& l = t.m_lanes[li];
    if (l.m_kind > LaneKind::Uvm)
        return laneError(li, "unknown kind");
    const std::size_t n = l.m_name.size();
    if (n >= std::numeric_limits<std::uint32_t>::max() || l.m_payload.size() != n ||
        l.m_duration.size() != n)
        return laneError(li, "columns of different lengths");
    const std::size_t blocks = (n + Lane::kStartBlock - 1) / Lane::kStartBlock;
    const bool wide = !l.m_wideStart.empty();
    if (wide ? l.m_wideStart.size() != n || !l.m_startBase.empty() || !l.m_startOffset.empty()
             : l.m_startOffset.size() != n || l.m_startBase.size() != blocks)
        return laneError(li, "start storage does not match its size");
    if (!l.m_stageEnd.empty())
        return laneError(li, "not frozen");
    for (TimeNs base : l.m_startBase) {
        if (!isTime(base))
            return laneError(li, "start base out of range");
    }
    // Every long duration has its end in the side table, in index order.
    std::size_t k = 0;
    for (std::uint32_t i = 0; i < n; ++i) {
        if (l.m_duration[i] != Lane::kLongDuration)
            continue;
        if (k >= l.m_longEnds.size() || l.m_longEnds[k].first != i ||
            !isTime(l.m_longEnds[k].second))
            return laneError(li, "long durations and their ends disagree");
        ++k;
    }
    if (k != l.m_longEnds.size())
        return laneError(li, "long durations and their ends disagree");
    TimeNs previous = kMinTime;
    for (std::uint32_t i = 0; i < n; ++i) {
        const TimeNs s = l.start(i);
        if (!isTime(s) || s < previous)
            return laneError(li, "starts out of range or not sorted");
        previous = s;
    }
    // Rows: one implicit row, or rowCount lists that together hold every index once.
    if (l.m_rowCount == 0)
        return laneError(li, "no rows");
    if (l.m_rowIdx.empty() ? l.m_rowCount != 1 : l.m_rowIdx.size() != l.m_rowCount)
        return laneError(li, "row count does not match the row lists");
    if (!l.m_rowIdx.empty()) {
        std::vector<bool> seen(n, false);
        std::size_t total = 0;
        for (const auto& row : l.m_rowIdx) {
            for (std::size_t j = 0; j < row.size(); ++j) {
                const std::uint32_t i = row[j];
                if (i >= n || seen[i] || (j > 0 && row[j - 1] >= i))
                    return laneError(li, "row lists are not a partition of the events");
                seen[i] = true;
            }
            total += row.size();
        }
        if (total != n)
            return laneError(li, "row lists are not a partition of the events");
    }
    const bool overflowRow = l.m_overflowEvents > 0 && !l.m_rowIdx.empty();
    if (overflowRow ? l.m_lastRowMaxEnd.size() != l.m_rowIdx.back().size()
                    : !l.m_lastRowMaxEnd.empty())
        return laneError(li, "overflow row maxima do not match the last row");
    // Owner and names.
    const std::size_t strings = t.m_strings.size();
    if (l.m_domain >= strings)
        return laneError(li, "domain string out of range");
    for (StringId id : l.m_name) {
        if (id >= strings)
            return laneError(li, "name string out of range");
    }
    switch (l.m_kind) {
    case LaneKind::CudaApi:
    case LaneKind::Osrt:
    case LaneKind::Nvtx:
    case LaneKind::CpuOps:
    case LaneKind::Python:
        if (l.m_owner >= t.m_threads.size())
            return laneError(li, "thread out of range");
        break;
    case LaneKind::NvtxStartEnd:
        if (l.m_owner >= t.m_processes.size())
            return laneError(li, "process out of range");
        break;
    case LaneKind::Kernels:
    case LaneKind::Memcpy:
    case LaneKind::Memset:
        if (l.m_owner >= t.m_streams.size())
            return laneError(li, "stream out of range");
        break;
    case LaneKind::Uvm: // owner is a device id, looked up by value
        break;
    }
    // Payloads index the kind's record table; GPU records point back at their position.
    for (std::uint32_t i = 0; i < n; ++i) {
        const std::uint32_t p = l.m_payload[i];
        const EventRef self{li, i};
        bool ok = true;
        switch (l.m_kind) {
        case LaneKind::CudaApi:
            ok = p < t.m_apiCalls.size();
            break;
        case LaneKind::Osrt:
            ok = p < t.m_osrt.size();
            break;
        case LaneKind::Nvtx:
        case LaneKind::NvtxStartEnd:
            ok = p < t.m_nvtx.size();
            break;
        case LaneKind::CpuOps:
        case LaneKind::Python:
            ok = p < t.m_cpuOps.size();
            break;
        case LaneKind::Kernels:
            ok = p < t.m_kernels.size() && t.m_kernels[p].self == self;
            break;
        case LaneKind::Memcpy:
        case LaneKind::Uvm:
            ok = p < t.m_memcpys.size() && t.m_memcpys[p].self == self;
            break;
        case LaneKind::Memset:
            ok = p < t.m_memsets.size() && t.m_memsets[p].self == self;
            break;
        }
        if (!ok)
            return laneError(li, "payload does not index its record table");
    }
    return {};
}

QString TraceCodec::validate(const Trace& t) {
    // First: the checks below read these flags.
    if (QString e = representationError(t.m_meta, t); !e.isEmpty())
        return e;
    const std::size_t strings = t.m_strings.size();
    if (strings == 0 || !t.m_strings.view(kNoString).empty())
        return QStringLiteral("string table without its empty string 0");
    auto str = [&](StringId id) { return id < strings; };
    for (const ProcessInfo& p : t.m_processes) {
        if (!str(p.name))
            return QStringLiteral("process name out of range");
    }
    for (const ThreadInfo& th : t.m_threads) {
        if (!str(th.name) || th.process >= t.m_processes.size())
            return QStringLiteral("thread name or process out of range");
    }
    for (const GpuInfo& g : t.m_gpus) {
        if (!str(g.name) || !str(g.busLocation) || !str(g.chipName))
            return QStringLiteral("GPU string out of range");
    }
    for (const KernelConfig& c : t.m_kernelConfigs) {
        if (!str(c.shortName) || !str(c.demangledName) || !str(c.mangledName) ||
            c.detail > LaunchDetail::None)
            return QStringLiteral("kernel configuration out of range");
    }
    if (t.m_lanes.size() >= std::numeric_limits<std::uint32_t>::max())
        return QStringLiteral("too many lanes");
    {
        // Two halves by events, on two threads.
        const auto n = std::uint32_t(t.m_lanes.size());
        std::uint32_t half = 0;
        std::uint64_t total = 0, before = 0;
        for (const Lane& l : t.m_lanes)
            total += l.m_name.size();
        while (half < n && before + t.m_lanes[half].m_name.size() / 2 < total / 2)
            before += t.m_lanes[half++].m_name.size();
        QString second;
        std::thread worker([&] { second = validateLanes(t, half, n); });
        const QString first = validateLanes(t, 0, half);
        worker.join();
        if (!first.isEmpty() || !second.isEmpty())
            return first.isEmpty() ? second : first;
    }
    // An invalid ref is "none"; a valid one names an existing event.
    auto ref = [&](EventRef r) {
        return !r.isValid() || (r.lane < t.m_lanes.size() && r.index < t.m_lanes[r.lane].size());
    };
    auto self = [&](EventRef r, auto isKind) {
        return r.isValid() && ref(r) && isKind(t.m_lanes[r.lane].kind());
    };
    for (std::size_t i = 0; i < t.m_kernels.size(); ++i) {
        const KernelRecord& k = t.m_kernels[i];
        if (!self(k.self, [](LaneKind kind) { return kind == LaneKind::Kernels; }) || !ref(k.api) ||
            k.config >= t.m_kernelConfigs.size() || k.stream >= t.m_streams.size())
            return recordError("kernel", i, "reference out of range");
        if (t.m_lanes[k.self.lane].payload(k.self.index) != i)
            return recordError("kernel", i, "lane does not point back");
    }
    for (std::size_t i = 0; i < t.m_memcpys.size(); ++i) {
        const MemcpyRecord& m = t.m_memcpys[i];
        if (!self(m.self, isMemcpyLane) || !ref(m.api) || m.stream >= t.m_streams.size() ||
            m.copyKind > MemcpyKind::UnifiedDtoD)
            return recordError("memcpy", i, "reference out of range");
        if (t.m_lanes[m.self.lane].payload(m.self.index) != i)
            return recordError("memcpy", i, "lane does not point back");
    }
    for (std::size_t i = 0; i < t.m_memsets.size(); ++i) {
        const MemsetRecord& m = t.m_memsets[i];
        if (!self(m.self, [](LaneKind kind) { return kind == LaneKind::Memset; }) || !ref(m.api) ||
            m.stream >= t.m_streams.size())
            return recordError("memset", i, "reference out of range");
        if (t.m_lanes[m.self.lane].payload(m.self.index) != i)
            return recordError("memset", i, "lane does not point back");
    }
    for (std::size_t i = 0; i < t.m_apiCalls.size(); ++i) {
        if (!ref(t.m_apiCalls[i].gpuOp))
            return recordError("API call", i, "GPU operation out of range");
    }
    for (std::size_t i = 0; i < t.m_nvtx.size(); ++i) {
        const NvtxRecord& r = t.m_nvtx[i];
        if (r.style > NvtxStyle::Mark || r.thread >= t.m_threads.size() ||
            (r.endThread && *r.endThread >= t.m_threads.size()))
            return recordError("NVTX range", i, "thread or style out of range");
    }
    for (std::size_t i = 0; i < t.m_syncs.size(); ++i) {
        if (!ref(t.m_syncs[i].api))
            return recordError("sync", i, "API call out of range");
    }
    for (const TraceWarning& w : t.m_warnings) {
        if (w.kind.isEmpty())
            return QStringLiteral("warning without a kind");
    }
    return {};
}

QString TraceCodec::validateLanes(const Trace& t, std::uint32_t from, std::uint32_t to) {
    for (std::uint32_t li = from; li < to; ++li) {
        if (QString e = validateLane(t, li); !e.isEmpty())
            return e;
    }
    return {};
}

void TraceCodec::buildIndexes(Trace& t) {
    const std::size_t n = t.m_lanes.size();
    std::thread worker([&] {
        for (std::size_t i = 1; i < n; i += 2)
            t.m_lanes[i].m_index.buildFrom(t.m_lanes[i]);
    });
    for (std::size_t i = 0; i < n; i += 2)
        t.m_lanes[i].m_index.buildFrom(t.m_lanes[i]);
    worker.join();
}

} // namespace strobe
