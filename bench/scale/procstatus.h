// SPDX-License-Identifier: MIT
#pragma once

// Resident memory of this process from /proc/self/status, and the CPU time the hypervisor took
// from this machine from /proc/stat (Linux).

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

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

// The time the hypervisor ran something else on this virtual machine's CPUs ("steal" in
// /proc/stat), summed over the CPUs, in ms; counted in USER_HZ ticks, so in steps of 10 ms at
// the usual 100 Hz. -1 where the kernel does not report it. One read costs about 6 us.
class StealClock {
public:
    StealClock()
        : m_fd(::open("/proc/stat", O_RDONLY | O_CLOEXEC))
        , m_msPerTick(1000.0 / double(sysconf(_SC_CLK_TCK))) {}
    ~StealClock() {
        if (m_fd >= 0)
            ::close(m_fd);
    }
    StealClock(const StealClock&) = delete;
    StealClock& operator=(const StealClock&) = delete;

    double ms() const {
        char buf[512];
        const ssize_t n = m_fd < 0 ? -1 : ::pread(m_fd, buf, sizeof buf - 1, 0);
        if (n <= 0)
            return -1;
        buf[n] = 0;
        // "cpu  user nice system idle iowait irq softirq steal ...": the eighth number.
        const char* at = std::strchr(buf, ' ');
        unsigned long long value = 0;
        for (int field = 0; field < 8 && at; ++field) {
            char* end = nullptr;
            value = std::strtoull(at, &end, 10);
            at = end == at ? nullptr : end;
        }
        return at ? double(value) * m_msPerTick : -1;
    }

private:
    int m_fd;
    double m_msPerTick;
};

} // namespace strobe::bench
