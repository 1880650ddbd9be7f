// SPDX-License-Identifier: MIT
#include "model/reports/labels.h"

#include <QStringBuilder>

namespace strobe {

QString occupancyLimitLabel(OccupancyLimit limit) {
    switch (limit) {
    case OccupancyLimit::None:
        return QStringLiteral("unknown");
    case OccupancyLimit::Registers:
        return QStringLiteral("registers");
    case OccupancyLimit::SharedMemory:
        return QStringLiteral("shared memory");
    case OccupancyLimit::Warps:
        return QStringLiteral("warps per SM");
    case OccupancyLimit::Blocks:
        return QStringLiteral("blocks per SM");
    case OccupancyLimit::BlockSize:
        return QStringLiteral("block exceeds a per-block limit");
    }
    return {};
}

QString memoryDirectionLabel(MemoryDirection d) {
    switch (d) {
    case MemoryDirection::HostToDevice:
        return QStringLiteral("Host to device");
    case MemoryDirection::DeviceToHost:
        return QStringLiteral("Device to host");
    case MemoryDirection::DeviceToDevice:
        return QStringLiteral("Device to device");
    case MemoryDirection::PeerToPeer:
        return QStringLiteral("Peer to peer");
    case MemoryDirection::HostToHost:
        return QStringLiteral("Host to host");
    case MemoryDirection::UnifiedMemory:
        return QStringLiteral("Unified memory");
    case MemoryDirection::Memset:
        return QStringLiteral("Memset");
    case MemoryDirection::Other:
        break;
    }
    return QStringLiteral("Other");
}

QString gpuLimitsNote(const GpuLimits& l) {
    switch (l.basis) {
    case GpuLimitsBasis::Trace:
        break;
    case GpuLimitsBasis::RecordedCapability:
        return QStringLiteral("from the architecture table (compute capability ") %
               l.capability.toString() % u')';
    case GpuLimitsBasis::CapabilityOfName:
        return QStringLiteral("from the architecture table (compute capability ") %
               l.capability.toString() % QStringLiteral(", from the name '") % l.name %
               QStringLiteral("')");
    case GpuLimitsBasis::CapabilityNotInTable:
        return QStringLiteral("the trace records compute capability ") % l.capability.toString() %
               QStringLiteral(" but no limits, and Strobe's architecture table covers only "
                              "5.0 to 12.1");
    case GpuLimitsBasis::NameNotInTable:
        return QStringLiteral("the trace records no limits or compute capability for this "
                              "GPU, and its name '") %
               l.name % QStringLiteral("' is not in Strobe's table of GPU names");
    case GpuLimitsBasis::NothingRecorded:
        return QStringLiteral("the trace records no limits, compute capability or name for "
                              "this GPU");
    }
    return QStringLiteral("from the trace");
}

} // namespace strobe
