// SPDX-License-Identifier: MIT
#include "model/trace.h"

#include <QStringBuilder>
#include <algorithm>
#include <array>

namespace strobe {

Trace::Trace() = default;
Trace::~Trace() = default;

const GpuInfo* Trace::gpuById(std::uint32_t deviceId) const {
    // By bisection: TraceBuilder::finish sorts the GPUs by id, and a scan per lookup made the
    // per-GPU reports of a trace of 100k GPUs quadratic (strobe-cli info: 8 s of 8.5).
    const auto it = std::lower_bound(m_gpus.begin(), m_gpus.end(), deviceId,
                                     [](const GpuInfo& g, std::uint32_t id) { return g.id < id; });
    return it != m_gpus.end() && it->id == deviceId ? &*it : nullptr;
}

EventRef Trace::refOfRecord(LaneFamily family, std::uint32_t index) const {
    if (family == LaneFamily::Kernels)
        return index < m_kernels.size() ? kernelRef(index) : EventRef{};
    return eventAtPosition(family, index);
}

EventRef Trace::eventAtPosition(LaneFamily family, std::uint32_t index) const {
    const std::vector<std::uint32_t>& lanes = m_familyLanes[std::size_t(family)];
    // The last lane whose run starts at or before `index`.
    auto it = std::upper_bound(lanes.begin(), lanes.end(), index, [&](std::uint32_t i, auto li) {
        return i < m_lanes[li].recordBase();
    });
    if (it == lanes.begin())
        return {};
    const std::uint32_t li = *--it;
    const std::uint32_t k = index - m_lanes[li].recordBase();
    return k < m_lanes[li].size() ? EventRef{li, k} : EventRef{};
}

EventRef Trace::refOfGpuOp(std::uint32_t tagged) const {
    const std::uint32_t index = tagged & kGpuOpIndexMask;
    switch (tagged >> 30) {
    case kKernelOp:
        return kernelRef(index);
    case kMemcpyOp:
        return m_memcpys[index].self;
    case kMemsetOp:
        return m_memsets[index].self;
    default:
        return {};
    }
}

KernelRecord Trace::kernelRecord(std::uint32_t i) const {
    const KernelSlot& slot = m_kernels[i];
    KernelRecord r;
    r.self = eventAtPosition(LaneFamily::Kernels, slot.self);
    r.config = slot.config;
    r.stream = m_lanes[r.self.lane].owner();
    if (slot.api != kNoRecord) {
        r.api = refOfRecord(LaneFamily::ApiCalls, slot.api);
        r.correlationId = m_apiCalls[slot.api].correlationId;
    } else {
        r.correlationId = m_kernelCorrelation.at(i);
    }
    r.graphNodeId = m_kernelGraphNode.at(i);
    r.processGroup = m_kernelProcessGroup.at(i).value_or(kNoString);
    r.messageBytes = m_kernelMessageBytes.at(i);
    return r;
}

KernelLaunch Trace::kernelAt(std::size_t i) const {
    KernelRecord rec = kernelRecord(std::uint32_t(i));
    const Lane& l = m_lanes[rec.self.lane];
    return KernelLaunch{l.start(rec.self.index), l.end(rec.self.index),
                        &m_kernelConfigs[rec.config], &m_streams[rec.stream], rec};
}

EventRef Trace::apiGpuOp(std::uint32_t i) const {
    return refOfGpuOp(m_apiCalls[i].gpuOp);
}

ApiCallRecord Trace::apiCallRecord(std::uint32_t i) const {
    ApiCallRecord r;
    r.correlationId = m_apiCalls[i].correlationId;
    r.eventClass = m_apiDriver.test(i) ? 1 : 0;
    r.gpuOp = refOfGpuOp(m_apiCalls[i].gpuOp);
    r.returnValue = m_apiReturn.at(i).value_or(0);
    return r;
}

NvtxRecord Trace::nvtxRecord(std::uint32_t i) const {
    const std::uint32_t packed = m_nvtx[i];
    NvtxRecord r;
    r.depth = std::uint16_t(packed);
    r.style = NvtxStyle((packed >> 16) & 3);
    r.hasEnd = ((packed >> 18) & 1) != 0;
    r.color = m_nvtxColor.at(i);
    r.category = m_nvtxCategory.at(i);
    if (const auto thread = m_nvtxThread.at(i)) {
        r.thread = *thread;
    } else {
        const EventRef self = refOfRecord(LaneFamily::Nvtx, i);
        r.thread = self.isValid() ? m_lanes[self.lane].owner() : 0;
    }
    r.endThread = m_nvtxEndThread.at(i);
    return r;
}

CpuOpRecord Trace::cpuOpRecord(std::uint32_t i) const {
    CpuOpRecord r;
    if (m_cpuOpHasExternal.test(i))
        r.externalId = m_cpuOpExternal[i];
    r.inputShapes = m_cpuOpShapes.at(i).value_or(kNoString);
    return r;
}

std::optional<std::uint32_t> Trace::kernelIndexOf(EventRef ref) const {
    if (!ref.isValid() || ref.lane >= m_lanes.size())
        return std::nullopt;
    const Lane& l = m_lanes[ref.lane];
    if (l.kind() != LaneKind::Kernels || ref.index >= l.size())
        return std::nullopt;
    return l.payload(ref.index);
}

EventRef Trace::partnerOf(EventRef ref) const {
    if (!ref.isValid() || ref.lane >= m_lanes.size() || ref.index >= m_lanes[ref.lane].size())
        return {};
    const Lane& l = m_lanes[ref.lane];
    const std::uint32_t p = l.payload(ref.index);
    switch (l.kind()) {
    case LaneKind::CudaApi:
        return apiGpuOp(p);
    case LaneKind::Kernels:
        return m_kernels[p].api != kNoRecord ? refOfRecord(LaneFamily::ApiCalls, m_kernels[p].api)
                                             : EventRef{};
    case LaneKind::Memcpy:
    case LaneKind::Uvm:
        return m_memcpys[p].api;
    case LaneKind::Memset:
        return m_memsets[p].api;
    default:
        return {};
    }
}

static QString kindLabel(LaneKind kind) {
    switch (kind) {
    case LaneKind::CudaApi:
        return QStringLiteral("CUDA API");
    case LaneKind::Osrt:
        return QStringLiteral("OS runtime");
    case LaneKind::Nvtx:
        return QStringLiteral("NVTX");
    case LaneKind::NvtxStartEnd:
        return QStringLiteral("NVTX start/end");
    case LaneKind::CpuOps:
        return QStringLiteral("CPU ops");
    case LaneKind::Python:
        return QStringLiteral("Python");
    case LaneKind::Kernels:
        return QStringLiteral("Kernels");
    case LaneKind::Memcpy:
        return QStringLiteral("Memcpy");
    case LaneKind::Memset:
        return QStringLiteral("Memset");
    case LaneKind::Uvm:
        return QStringLiteral("Unified memory");
    }
    return {};
}

QString Trace::gpuLabel(std::uint32_t deviceId) const {
    const GpuInfo* g = gpuById(deviceId);
    QString s = QStringLiteral("GPU ") % QString::number(deviceId);
    if (g && g->name != kNoString)
        s = s % QStringLiteral(" (") % string(g->name) % u')';
    return s;
}

QString Trace::threadLabel(std::uint32_t thread, ThreadLabelForm form) const {
    if (thread >= m_threads.size())
        return QStringLiteral("unknown");
    const ThreadInfo& t = m_threads[thread];
    const QString name = t.name != kNoString ? string(t.name) : QStringLiteral("Thread");
    // (not const: returned by move)
    QString label = name % QStringLiteral(" [") % QString::number(t.tid) % u']';
    if (form == ThreadLabelForm::NameAndTid)
        return label;
    return label % QStringLiteral(" (pid ") % QString::number(t.pid) % u')';
}

QString Trace::processLabel(std::uint32_t process) const {
    if (process >= m_processes.size())
        return QStringLiteral("unknown");
    const ProcessInfo& p = m_processes[process];
    const QString name = p.name != kNoString ? string(p.name) : QStringLiteral("Process");
    return name % QStringLiteral(" [") % QString::number(p.pid) % u']';
}

QString Trace::laneKindLabel(std::uint32_t laneIdx) const {
    const Lane& l = m_lanes[laneIdx];
    QString kind = kindLabel(l.kind());
    if ((l.kind() == LaneKind::Nvtx || l.kind() == LaneKind::NvtxStartEnd) &&
        l.domain() != kNoString)
        kind = kind % QStringLiteral(" (") % string(l.domain()) % u')';
    return kind;
}

QString Trace::laneLabel(std::uint32_t laneIdx) const {
    const Lane& l = m_lanes[laneIdx];
    QString kind = laneKindLabel(laneIdx); // (not const: the last return moves it)
    switch (ownerOf(l.kind())) {
    case LaneOwner::Thread:
        return threadLabel(l.owner()) % QStringLiteral(" / ") % kind;
    case LaneOwner::Process:
        return processLabel(l.owner()) % QStringLiteral(" / ") % kind;
    case LaneOwner::Stream: {
        const StreamInfo& s = m_streams[l.owner()];
        return gpuLabel(s.deviceId) % QStringLiteral(" / Stream ") % QString::number(s.streamId) %
               QStringLiteral(" / ") % kind;
    }
    case LaneOwner::Device:
        return gpuLabel(l.owner()) % QStringLiteral(" / ") % kind;
    }
    return kind;
}

const GpuMemoryTrack* Trace::gpuMemoryOf(std::uint32_t deviceId) const {
    for (const GpuMemoryTrack& t : m_gpuMemory) {
        if (t.deviceId == deviceId)
            return &t;
    }
    return nullptr;
}

std::vector<Trace::MemoryUse> Trace::memoryBreakdown() const {
    std::vector<MemoryUse> rows;
    constexpr int kKinds = int(LaneKind::Uvm) + 1;
    std::array<MemoryUse, kKinds> lanes{};
    for (const Lane& l : m_lanes) {
        MemoryUse& u = lanes[std::size_t(l.kind())];
        u.events += l.size();
        u.bytes += sizeof(Lane) + l.memoryBytes();
    }
    for (int k = 0; k < kKinds; ++k) {
        lanes[std::size_t(k)].what = kindLabel(LaneKind(k)) % QStringLiteral(" lanes");
        if (lanes[std::size_t(k)].events > 0)
            rows.push_back(lanes[std::size_t(k)]);
    }
    auto table = [&rows](const char* what, const auto& v) {
        if (!v.empty())
            rows.push_back(
                MemoryUse{QString::fromLatin1(what), v.size(), v.capacity() * sizeof(v[0])});
    };
    auto add = [&rows](const char* what, std::uint64_t n, std::size_t bytes) {
        if (n > 0)
            rows.push_back(MemoryUse{QString::fromLatin1(what), n, bytes});
    };
    add("kernel records", m_kernels.size(),
        m_kernels.capacity() * sizeof(KernelSlot) + m_kernelCorrelation.memoryBytes() +
            m_kernelGraphNode.memoryBytes() + m_kernelProcessGroup.memoryBytes() +
            m_kernelMessageBytes.memoryBytes());
    table("kernel configurations", m_kernelConfigs);
    table("memcpy records", m_memcpys);
    table("memset records", m_memsets);
    add("CUDA API records", m_apiCalls.size(),
        m_apiCalls.capacity() * sizeof(ApiSlot) + m_apiDriver.memoryBytes() +
            m_apiReturn.memoryBytes());
    table("OS runtime records", m_osrt);
    add("CPU op records", m_cpuOpExternal.size(),
        m_cpuOpExternal.capacity() * sizeof(std::uint32_t) + m_cpuOpHasExternal.memoryBytes() +
            m_cpuOpShapes.memoryBytes());
    add("NVTX records", m_nvtx.size(),
        m_nvtx.capacity() * sizeof(std::uint32_t) + m_nvtxColor.memoryBytes() +
            m_nvtxCategory.memoryBytes() + m_nvtxThread.memoryBytes() +
            m_nvtxEndThread.memoryBytes());
    table("sync records", m_syncs);
    std::size_t familyBytes = 0;
    for (const auto& f : m_familyLanes)
        familyBytes += f.capacity() * sizeof(std::uint32_t);
    add("lane families", m_lanes.size(), familyBytes);
    MemoryUse memory{QStringLiteral("GPU memory samples"), 0, 0};
    for (const GpuMemoryTrack& t : m_gpuMemory) {
        memory.events += t.samples.size();
        memory.bytes += t.samples.capacity() * sizeof(GpuMemorySample);
    }
    if (memory.events > 0)
        rows.push_back(memory);
    rows.push_back(MemoryUse{QStringLiteral("strings"), m_strings.size(), m_strings.memoryBytes()});
    return rows;
}

std::size_t Trace::memoryBytes() const {
    std::size_t bytes = sizeof(Trace);
    for (const MemoryUse& u : memoryBreakdown())
        bytes += u.bytes;
    return bytes;
}

} // namespace strobe
