// SPDX-License-Identifier: MIT
#include "model/analysis/memorysizestats.h"

#include <QStringBuilder>
#include <algorithm>
#include <array>
#include <limits>

namespace strobe {

namespace {

// ENUM_CUDA_MEMCPY_OPER's labels, by its ids (the same in every export that has the table).
QString memcpyLabel(MemcpyKind kind) {
    switch (kind) {
    case MemcpyKind::HtoD:
        return QStringLiteral("Host-to-Device");
    case MemcpyKind::DtoH:
        return QStringLiteral("Device-to-Host");
    case MemcpyKind::HtoA:
        return QStringLiteral("Host-to-Array");
    case MemcpyKind::AtoH:
        return QStringLiteral("Array-to-Host");
    case MemcpyKind::AtoA:
        return QStringLiteral("Array-to-Array");
    case MemcpyKind::AtoD:
        return QStringLiteral("Array-to-Device");
    case MemcpyKind::DtoA:
        return QStringLiteral("Device-to-Array");
    case MemcpyKind::DtoD:
        return QStringLiteral("Device-to-Device");
    case MemcpyKind::HtoH:
        return QStringLiteral("Host-to-Host");
    case MemcpyKind::PtoP:
        return QStringLiteral("Peer-to-Peer");
    case MemcpyKind::UnifiedHtoD:
        return QStringLiteral("Unified Host-to-Device");
    case MemcpyKind::UnifiedDtoH:
        return QStringLiteral("Unified Device-to-Host");
    case MemcpyKind::UnifiedDtoD:
        return QStringLiteral("Unified Device-to-Device");
    case MemcpyKind::Unknown:
        break;
    }
    return QStringLiteral("Unknown");
}

// Sizes beyond TimeNs (2^63 bytes) come only from hostile files: they are clamped, never wrapped.
TimeNs sizeValue(std::uint64_t bytes) {
    return bytes > std::uint64_t(std::numeric_limits<TimeNs>::max())
               ? std::numeric_limits<TimeNs>::max()
               : TimeNs(bytes);
}

} // namespace

QString memcpyOperationName(MemcpyKind kind) {
    return u"[CUDA memcpy " % memcpyLabel(kind) % u']';
}

QString memsetOperationName() {
    return QStringLiteral("[CUDA memset]");
}

std::vector<MemorySizeRow> summarizeMemorySizes(const Trace& trace) {
    constexpr std::size_t kKinds = std::size_t(MemcpyKind::UnifiedDtoD) + 1;
    std::array<std::vector<TimeNs>, kKinds + 1> sizes; // the memcpy kinds, then memsets
    for (const MemcpyRecord& m : trace.memcpys()) {
        const auto k = std::size_t(m.copyKind);
        sizes[k < kKinds ? k : 0].push_back(sizeValue(m.bytes));
    }
    for (const MemsetRecord& m : trace.memsets())
        sizes[kKinds].push_back(sizeValue(m.bytes));
    std::vector<MemorySizeRow> rows;
    for (std::size_t k = 0; k <= kKinds; ++k) {
        if (sizes[k].empty())
            continue;
        rows.push_back({k < kKinds ? memcpyOperationName(MemcpyKind(k)) : memsetOperationName(),
                        durationStats(sizes[k])});
    }
    std::sort(rows.begin(), rows.end(), [](const MemorySizeRow& a, const MemorySizeRow& b) {
        if (a.bytes.total != b.bytes.total)
            return a.bytes.total > b.bytes.total;
        return a.operation < b.operation;
    });
    return rows;
}

} // namespace strobe
