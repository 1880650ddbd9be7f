// SPDX-License-Identifier: MIT
#include "widgets/timeline/eventtooltip.h"

#include "model/analysis/nvtxprojection.h"
#include "model/analysis/nvtxstats.h"
#include "model/cudaapi.h"
#include "model/timeformat.h"
#include "model/trace.h"

#include <QLocale>
#include <QStringBuilder>

namespace strobe {

namespace {
QString dim3(const std::array<std::int32_t, 3>& d) {
    return u'(' % QString::number(d[0]) % QStringLiteral(", ") % QString::number(d[1]) %
           QStringLiteral(", ") % QString::number(d[2]) % u')';
}

QString copyDirection(MemcpyKind k) {
    switch (k) {
    case MemcpyKind::HtoD:
        return QStringLiteral("Host to device");
    case MemcpyKind::DtoH:
        return QStringLiteral("Device to host");
    case MemcpyKind::DtoD:
        return QStringLiteral("Device to device");
    case MemcpyKind::HtoH:
        return QStringLiteral("Host to host");
    case MemcpyKind::PtoP:
        return QStringLiteral("Peer to peer");
    case MemcpyKind::UnifiedHtoD:
        return QStringLiteral("Unified memory, host to device");
    case MemcpyKind::UnifiedDtoH:
        return QStringLiteral("Unified memory, device to host");
    case MemcpyKind::UnifiedDtoD:
        return QStringLiteral("Unified memory, device to device");
    case MemcpyKind::HtoA:
    case MemcpyKind::AtoH:
    case MemcpyKind::AtoA:
    case MemcpyKind::AtoD:
    case MemcpyKind::DtoA:
        return QStringLiteral("Array copy");
    case MemcpyKind::Unknown:
        break;
    }
    return QStringLiteral("Unknown");
}

// "Same name: 1,234 ranges, 5.6 ms in all", naming the group when per-call ids were cut.
QString sameNameLine(const Trace& t, EventRef ref, const NvtxSummary& names) {
    const auto row = names.rowOf(t, ref);
    if (!row)
        return {};
    const NvtxSummaryRow& r = names.rows[*row];
    const Lane& l = t.lane(ref.lane);
    const bool cut = r.range != nvtxRangeName(t, l.domain(), l.nameId(ref.index));
    const QLocale en(QLocale::English, QLocale::UnitedStates);
    return QStringLiteral("\nSame name") %
           (cut ? QStringLiteral(" (") % r.range % QStringLiteral(", per-call ids removed)")
                : QString()) %
           QStringLiteral(": ") % en.toString(qulonglong(r.stats.count)) %
           (r.stats.count == 1 ? QStringLiteral(" range, ") : QStringLiteral(" ranges, ")) %
           formatDuration(r.stats.total) % QStringLiteral(" in all");
}

QString bytes(std::uint64_t b) {
    return QLocale::c().formattedDataSize(qint64(b), 2, QLocale::DataSizeTraditionalFormat) %
           QStringLiteral(" (") % QString::number(b) % QStringLiteral(" bytes)");
}
} // namespace

QString eventNoun(LaneKind kind, std::uint64_t count) {
    const bool one = count == 1;
    switch (kind) {
    case LaneKind::CudaApi:
        return one ? QStringLiteral("API call") : QStringLiteral("API calls");
    case LaneKind::Osrt:
        return one ? QStringLiteral("OS runtime call") : QStringLiteral("OS runtime calls");
    case LaneKind::Nvtx:
    case LaneKind::NvtxStartEnd:
        return one ? QStringLiteral("NVTX range") : QStringLiteral("NVTX ranges");
    case LaneKind::CpuOps:
        return one ? QStringLiteral("CPU op") : QStringLiteral("CPU ops");
    case LaneKind::Python:
        return one ? QStringLiteral("Python function") : QStringLiteral("Python functions");
    case LaneKind::Kernels:
        return one ? QStringLiteral("kernel") : QStringLiteral("kernels");
    case LaneKind::Memcpy:
        return one ? QStringLiteral("memcpy") : QStringLiteral("memcpys");
    case LaneKind::Memset:
        return one ? QStringLiteral("memset") : QStringLiteral("memsets");
    case LaneKind::Uvm:
        return one ? QStringLiteral("migration") : QStringLiteral("migrations");
    }
    return {};
}

QString eventTooltip(const Trace& t, EventRef ref, const NvtxSummary* nvtxNames) {
    if (!ref.isValid() || ref.lane >= t.lanes().size() || ref.index >= t.lane(ref.lane).size())
        return {};
    const Lane& l = t.lane(ref.lane);
    const std::uint32_t p = l.payload(ref.index);
    const TimeNs start = l.start(ref.index), end = l.end(ref.index);
    QString name = t.string(l.nameId(ref.index));
    if (l.kind() == LaneKind::CudaApi)
        name = cudaapi::displayName(name);
    if (l.kind() == LaneKind::Kernels) {
        const KernelConfig& cfg = t.kernelConfigs()[t.kernelConfigIndex(p)];
        if (cfg.demangledName != kNoString)
            name = t.string(cfg.demangledName);
    }
    QString s = name % u'\n' % QStringLiteral("Start: ") %
                formatDuration(start - t.timeRange().start) % u'\n' % QStringLiteral("Duration: ") %
                formatDuration(end - start);
    switch (l.kind()) {
    case LaneKind::Kernels: {
        const KernelConfig& cfg = t.kernelConfigs()[t.kernelConfigIndex(p)];
        if (cfg.detail == LaunchDetail::None) {
            s = s % (t.metadata().loadedParts.testFlag(TracePart::KernelDetail)
                         ? QStringLiteral("\nLaunch configuration: unknown")
                         : QStringLiteral("\nLaunch configuration: not read yet"));
            break;
        }
        s = s % QStringLiteral("\nGrid: ") % dim3(cfg.grid) % QStringLiteral("\nBlock: ") %
            dim3(cfg.block) % QStringLiteral("\nRegisters per thread: ") %
            (cfg.recorded(KernelField::Registers) ? QString::number(cfg.registersPerThread)
                                                  : QStringLiteral("unknown"));
        break;
    }
    case LaneKind::Memcpy:
    case LaneKind::Uvm: {
        const MemcpyRecord& m = t.memcpys()[p];
        s = s % QStringLiteral("\nSize: ") % bytes(m.bytes) % QStringLiteral("\nDirection: ") %
            copyDirection(m.copyKind);
        if (end > start) // bytes per ns is GB/s
            s = s % QStringLiteral("\nThroughput: ") %
                QString::number(double(m.bytes) / double(end - start), 'f', 2) %
                QStringLiteral(" GB/s");
        break;
    }
    case LaneKind::Memset:
        s = s % QStringLiteral("\nSize: ") % bytes(t.memsets()[p].bytes) %
            QStringLiteral("\nValue: ") % QString::number(t.memsets()[p].value);
        break;
    case LaneKind::CudaApi:
        s = s % QStringLiteral("\nReturn value: ") % QString::number(t.apiCalls()[p].returnValue);
        break;
    case LaneKind::Osrt:
        s = s % QStringLiteral("\nReturn value: ") % QString::number(t.osrtCalls()[p].returnValue);
        break;
    case LaneKind::Nvtx:
    case LaneKind::NvtxStartEnd: {
        const QString domain =
            l.domain() != kNoString ? t.string(l.domain()) : QStringLiteral("default");
        s = s % QStringLiteral("\nDomain: ") % domain % QStringLiteral("\nDepth: ") %
            QString::number(t.nvtx()[p].depth);
        if (t.nvtx()[p].style != NvtxStyle::Mark) {
            const NvtxGpuWork w = projectNvtxRange(t, ref);
            if (w.isEmpty())
                s = s % QStringLiteral("\nGPU work: none launched");
            else
                s = s % QStringLiteral("\nGPU work: ") % QString::number(w.count) %
                    (w.count == 1 ? QStringLiteral(" operation") : QStringLiteral(" operations")) %
                    QStringLiteral("\nGPU time: ") % formatDuration(w.gpuTime) %
                    QStringLiteral("\nGPU span: ") % formatDuration(w.span.duration());
            if (nvtxNames)
                s = s % sameNameLine(t, ref, *nvtxNames);
        }
        break;
    }
    case LaneKind::CpuOps:
    case LaneKind::Python:
        s = s % QStringLiteral("\nDepth: ") % QString::number(l.row(ref.index));
        if (const auto& ext = t.cpuOps()[p].externalId)
            s = s % QStringLiteral("\nExternal id: ") % QString::number(*ext);
        break;
    }
    return s;
}

QString foldedTooltip(const Trace& t, std::uint32_t lane, std::uint16_t row, const DrawItem& item) {
    const Lane& l = t.lane(lane);
    const RowView rv = l.rowView(row);
    const TimeNs first = rv.start(item.first);
    const std::uint32_t lastK = item.first + item.count - 1;
    const TimeNs last = effectiveEnd(rv.start(lastK), rv.end(lastK));
    return QLocale(QLocale::English, QLocale::UnitedStates).toString(qulonglong(item.count)) %
           u' ' % eventNoun(l.kind(), item.count) % QStringLiteral("\nFrom ") %
           formatDuration(first - t.timeRange().start) % QStringLiteral(" to ") %
           formatDuration(last - t.timeRange().start) % QStringLiteral("\nSpan: ") %
           formatDuration(last - first) % QStringLiteral("\nZoom in to see them one by one");
}

} // namespace strobe
