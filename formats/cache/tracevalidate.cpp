// SPDX-License-Identifier: MIT
#include "formats/cache/tracecodec.h"

#include "model/trace.h"

#include <QStringBuilder>
#include <array>
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
    for (const MemcpyRecord& r : t.memcpys()) {
        if (!flagsOk(r.srcDeviceId, r.dstDeviceId, r.migrationCause, r.correlationId))
            return QStringLiteral("memcpy flag that is not a bool");
    }
    for (const MemsetRecord& r : t.memsets()) {
        if (!flagOk(r.correlationId))
            return QStringLiteral("memset flag that is not a bool");
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
    const std::size_t n = l.m_size;
    const bool dictionary = !l.m_nameDict.empty();
    const bool kernels = l.m_kind == LaneKind::Kernels;
    if (l.m_duration.size() != n || l.m_payload.size() != (kernels ? n : 0) ||
        (dictionary ? l.m_nameIndex.size() != n || !l.m_name.empty() ||
                          l.m_nameDict.size() > (std::size_t(1) << 16)
                    : l.m_name.size() != n || !l.m_nameIndex.empty()))
        return laneError(li, "columns of different lengths");
    for (std::uint16_t k : l.m_nameIndex) {
        if (k >= l.m_nameDict.size())
            return laneError(li, "name index out of range");
    }
    const std::size_t blocks = (n + Lane::kStartBlock - 1) / Lane::kStartBlock;
    const bool wide = !l.m_wideStart.empty();
    if (wide ? l.m_wideStart.size() != n || !l.m_startBase.empty() || !l.m_startOffset.empty()
             : l.m_startOffset.size() != n || l.m_startBase.size() != blocks)
        return laneError(li, "start storage does not match its size");
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
    for (const auto* names : {&l.m_name, &l.m_nameDict}) {
        for (StringId id : *names) {
            if (id >= strings)
                return laneError(li, "name string out of range");
        }
    }
    switch (ownerOf(l.m_kind)) {
    case LaneOwner::Thread:
        if (l.m_owner >= t.m_threads.size())
            return laneError(li, "thread out of range");
        break;
    case LaneOwner::Process:
        if (l.m_owner >= t.m_processes.size())
            return laneError(li, "process out of range");
        break;
    case LaneOwner::Stream:
        if (l.m_owner >= t.m_streams.size())
            return laneError(li, "stream out of range");
        break;
    case LaneOwner::Device: // a device id, looked up by value
        break;
    }
    // Records: a run of the family's table from recordBase (its extent is checked with the
    // family's lanes); a kernel lane's payload names each kernel, which names it back.
    if (kernels) {
        for (std::uint32_t i = 0; i < n; ++i) {
            const std::uint32_t p = l.m_payload[i];
            if (p >= t.m_kernels.size() || t.m_kernels[p].self != l.m_recordBase + i)
                return laneError(li, "payload does not index its record table");
        }
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
            total += l.m_size;
        while (half < n && before + t.m_lanes[half].m_size / 2 < total / 2)
            before += t.m_lanes[half++].m_size;
        QString second;
        std::thread worker([&] { second = validateLanes(t, half, n); });
        const QString first = validateLanes(t, 0, half);
        worker.join();
        if (!first.isEmpty() || !second.isEmpty())
            return first.isEmpty() ? second : first;
    }
    // Each family lists its lanes in order, their runs tile its table from 0 (kernels: the
    // kernel lanes' positions, one per kernel).
    const std::array<std::size_t, kLaneFamilies> tableSize{
        t.m_kernels.size(), t.m_memcpys.size(), t.m_memsets.size(),      t.m_apiCalls.size(),
        t.m_osrt.size(),    t.m_nvtx.size(),    t.m_cpuOpExternal.size()};
    std::array<std::size_t, kLaneFamilies> listed{};
    for (std::size_t f = 0; f < kLaneFamilies; ++f) {
        std::uint64_t next = 0;
        std::uint32_t previous = 0;
        for (std::size_t k = 0; k < t.m_familyLanes[f].size(); ++k) {
            const std::uint32_t li = t.m_familyLanes[f][k];
            if (li >= t.m_lanes.size() || (k > 0 && li <= previous) ||
                std::size_t(familyOf(t.m_lanes[li].kind())) != f ||
                t.m_lanes[li].recordBase() != next)
                return laneError(li, "does not index its record table in its family");
            next += t.m_lanes[li].size();
            previous = li;
        }
        if (next != tableSize[f])
            return QStringLiteral("a record table and its lanes' events: does not index its "
                                  "record table");
        listed[f] = t.m_familyLanes[f].size();
    }
    std::array<std::size_t, kLaneFamilies> lanesOf{};
    for (const Lane& l : t.m_lanes)
        ++lanesOf[std::size_t(familyOf(l.kind()))];
    if (lanesOf != listed)
        return QStringLiteral("lane families: a lane missing from its family");
    if (t.m_cpuOpExternal.size() > t.m_cpuOpHasExternal.m_words.size() * 64 ||
        t.m_apiCalls.size() > t.m_apiDriver.m_words.size() * 64)
        return QStringLiteral("bit column shorter than its table");
    // Sparse columns: ascending indices inside their table, values that index something valid.
    auto sparseOk = [](const auto& c, std::size_t size, auto valueOk) {
        if (c.m_index.size() != c.m_value.size())
            return false;
        for (std::size_t k = 0; k < c.m_index.size(); ++k) {
            if (c.m_index[k] >= size || (k > 0 && c.m_index[k] <= c.m_index[k - 1]) ||
                !valueOk(c.m_value[k]))
                return false;
        }
        return true;
    };
    auto any = [](auto) { return true; };
    auto thread = [&](std::uint32_t th) { return th < t.m_threads.size(); };
    if (!sparseOk(t.m_kernelCorrelation, t.m_kernels.size(), any) ||
        !sparseOk(t.m_kernelGraphNode, t.m_kernels.size(), any) ||
        !sparseOk(t.m_kernelProcessGroup, t.m_kernels.size(), str) ||
        !sparseOk(t.m_kernelMessageBytes, t.m_kernels.size(), any) ||
        !sparseOk(t.m_apiReturn, t.m_apiCalls.size(), any) ||
        !sparseOk(t.m_nvtxColor, t.m_nvtx.size(), any) ||
        !sparseOk(t.m_nvtxCategory, t.m_nvtx.size(), any) ||
        !sparseOk(t.m_nvtxThread, t.m_nvtx.size(), thread) ||
        !sparseOk(t.m_nvtxEndThread, t.m_nvtx.size(), thread) ||
        !sparseOk(t.m_cpuOpShapes, t.m_cpuOpExternal.size(), str))
        return QStringLiteral("sparse column: index or value out of range");

    // An invalid ref is "none"; a valid one names an existing event.
    auto ref = [&](EventRef r) {
        return !r.isValid() || (r.lane < t.m_lanes.size() && r.index < t.m_lanes[r.lane].size());
    };
    auto self = [&](EventRef r, auto isKind) {
        return r.isValid() && ref(r) && isKind(t.m_lanes[r.lane].kind());
    };
    for (std::size_t i = 0; i < t.m_kernels.size(); ++i) {
        const Trace::KernelSlot& k = t.m_kernels[i];
        if (k.self >= t.m_kernels.size() || k.config >= t.m_kernelConfigs.size() ||
            (k.api != Trace::kNoRecord && k.api >= t.m_apiCalls.size()))
            return recordError("kernel", i, "reference out of range");
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
        const std::uint32_t op = t.m_apiCalls[i].gpuOp, index = op & Trace::kGpuOpIndexMask;
        const std::size_t size = op >> 30 == Trace::kKernelOp   ? t.m_kernels.size()
                                 : op >> 30 == Trace::kMemcpyOp ? t.m_memcpys.size()
                                 : op >> 30 == Trace::kMemsetOp ? t.m_memsets.size()
                                                                : std::size_t(1) << 31;
        if (index >= size)
            return recordError("API call", i, "GPU operation out of range");
    }
    for (std::uint32_t li : t.m_familyLanes[std::size_t(LaneFamily::Nvtx)]) {
        const Lane& l = t.m_lanes[li]; // start/end ranges name their thread, others the lane's
        for (std::uint32_t i = 0; l.kind() == LaneKind::NvtxStartEnd && i < l.size(); ++i) {
            if (!t.m_nvtxThread.at(l.recordBase() + i))
                return laneError(li, "start/end range without its thread");
        }
    }
    for (std::size_t i = 0; i < t.m_nvtx.size(); ++i) {
        if (((t.m_nvtx[i] >> 16) & 3) > std::uint32_t(NvtxStyle::Mark) || t.m_nvtx[i] >> 19 != 0)
            return recordError("NVTX range", i, "style out of range");
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
