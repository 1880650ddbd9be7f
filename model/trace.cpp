// SPDX-License-Identifier: MIT
#include "model/trace.h"

#include <QStringBuilder>

namespace strobe {

Trace::Trace() = default;
Trace::~Trace() = default;

const GpuInfo* Trace::gpuById(std::uint32_t deviceId) const {
    for (const auto& g : m_gpus) {
        if (g.id == deviceId)
            return &g;
    }
    return nullptr;
}

KernelLaunch Trace::kernelAt(std::size_t i) const {
    const KernelRecord& rec = m_kernels[i];
    const Lane& l = m_lanes[rec.self.lane];
    return KernelLaunch{l.start(rec.self.index), l.end(rec.self.index),
                        &m_kernelConfigs[rec.config], &m_streams[rec.stream], &rec};
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
        return m_apiCalls[p].gpuOp;
    case LaneKind::Kernels:
        return m_kernels[p].api;
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
    const QString kind = laneKindLabel(laneIdx);
    switch (l.kind()) {
    case LaneKind::CudaApi:
    case LaneKind::Osrt:
    case LaneKind::Nvtx:
    case LaneKind::CpuOps:
    case LaneKind::Python: {
        const ThreadInfo& t = m_threads[l.owner()];
        const QString name = t.name != kNoString ? string(t.name) : QStringLiteral("Thread");
        return name % QStringLiteral(" [") % QString::number(t.tid) % QStringLiteral("] / ") % kind;
    }
    case LaneKind::NvtxStartEnd: {
        const ProcessInfo& p = m_processes[l.owner()];
        const QString name = p.name != kNoString ? string(p.name) : QStringLiteral("Process");
        return name % QStringLiteral(" [") % QString::number(p.pid) % QStringLiteral("] / ") % kind;
    }
    case LaneKind::Kernels:
    case LaneKind::Memcpy:
    case LaneKind::Memset: {
        const StreamInfo& s = m_streams[l.owner()];
        return gpuLabel(s.deviceId) % QStringLiteral(" / Stream ") % QString::number(s.streamId) %
               QStringLiteral(" / ") % kind;
    }
    case LaneKind::Uvm:
        return gpuLabel(l.owner()) % QStringLiteral(" / ") % kind;
    }
    return kind;
}

std::size_t Trace::memoryBytes() const {
    std::size_t bytes = sizeof(Trace) + m_strings.memoryBytes();
    for (const auto& l : m_lanes)
        bytes += sizeof(Lane) + l.memoryBytes();
    bytes += m_kernels.capacity() * sizeof(KernelRecord) +
             m_kernelConfigs.capacity() * sizeof(KernelConfig) +
             m_memcpys.capacity() * sizeof(MemcpyRecord) +
             m_memsets.capacity() * sizeof(MemsetRecord) +
             m_apiCalls.capacity() * sizeof(ApiCallRecord) +
             m_osrt.capacity() * sizeof(OsrtRecord) + m_cpuOps.capacity() * sizeof(CpuOpRecord) +
             m_nvtx.capacity() * sizeof(NvtxRecord) + m_syncs.capacity() * sizeof(SyncRecord);
    return bytes;
}

} // namespace strobe
