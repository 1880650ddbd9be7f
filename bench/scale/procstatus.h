// SPDX-License-Identifier: MIT
#pragma once

// Resident memory of this process from /proc/self/status (Linux), in bytes.

#include <cstdint>
#include <cstdio>
#include <cstring>

namespace strobe::bench {

inline std::uint64_t procStatusBytes(const char* key) {
    std::FILE* f = std::fopen("/proc/self/status", "r");
    if (!f)
        return 0;
    char line[256];
    std::uint64_t kb = 0;
    const std::size_t n = std::strlen(key);
    while (std::fgets(line, sizeof line, f)) {
        if (std::strncmp(line, key, n) == 0 && line[n] == ':') {
            kb = std::strtoull(line + n + 1, nullptr, 10);
            break;
        }
    }
    std::fclose(f);
    return kb * 1024;
}

inline std::uint64_t residentBytes() {
    return procStatusBytes("VmRSS");
}
inline std::uint64_t peakResidentBytes() {
    return procStatusBytes("VmHWM");
}

// Resets VmHWM to the current VmRSS (Linux >= 4.0); false when the kernel refuses.
inline bool resetPeakResident() {
    std::FILE* f = std::fopen("/proc/self/clear_refs", "w");
    if (!f)
        return false;
    const bool ok = std::fputs("5", f) >= 0;
    return std::fclose(f) == 0 && ok;
}

} // namespace strobe::bench
