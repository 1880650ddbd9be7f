// SPDX-License-Identifier: MIT
#pragma once

#include "model/trace.h"

#include <QString>
#include <vector>

namespace strobe {

// How the memory summary groups memcpys and memsets. Array copies count with the side they
// touch (host-to-array as host-to-device...); migrations of unified memory form one group.
enum class MemoryDirection : std::uint8_t {
    HostToDevice,
    DeviceToHost,
    DeviceToDevice,
    PeerToPeer,
    HostToHost,
    UnifiedMemory,
    Memset,
    Other, // copy kind unknown
};

MemoryDirection memoryDirection(MemcpyKind kind);
QString memoryDirectionKey(MemoryDirection d); // "host-to-device": the CLI's key
// ("Host to device", for people: model/reports' memoryDirectionLabel)

struct MemorySummaryRow {
    MemoryDirection direction = MemoryDirection::Other;
    std::uint64_t count = 0;
    std::uint64_t totalBytes = 0;
    TimeNs totalNs = 0;
    // Bytes per nanosecond, i.e. GB/s (10^9 bytes). Average = total bytes / total time;
    // peak = the fastest single operation; both 0 when no operation took time.
    double avgBandwidthGBps = 0;
    double peakBandwidthGBps = 0;
};

// One row per direction that has operations, in enum order.
std::vector<MemorySummaryRow> summarizeMemory(const Trace& trace);

} // namespace strobe
