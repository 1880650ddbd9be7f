// SPDX-License-Identifier: MIT
#pragma once

// Prints Trace::memoryBreakdown() as a table: where a loaded trace's bytes go, per lane kind and
// per record table, so that the next person sees what to slim.

#include "model/trace.h"

#include <cstdio>

namespace strobe::bench {

inline void printMemoryBreakdown(const Trace& trace, std::uint64_t events) {
    std::printf("memory breakdown (model's own count):\n");
    std::printf("  %-28s %12s %10s %8s %9s\n", "what", "events", "MB", "B/each", "B/event");
    for (const Trace::MemoryUse& u : trace.memoryBreakdown()) {
        std::printf("  %-28s %12llu %10.1f %8.1f %9.2f\n", qPrintable(u.what),
                    static_cast<unsigned long long>(u.events), double(u.bytes) / 1e6,
                    u.events ? double(u.bytes) / double(u.events) : 0.0,
                    double(u.bytes) / double(events ? events : 1));
    }
}

} // namespace strobe::bench
