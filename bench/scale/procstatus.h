// SPDX-License-Identifier: MIT
#pragma once

// Resident memory of this process from /proc/self/status, the CPU time the hypervisor took
// from this machine from /proc/stat, and where the GUI thread's time went (Linux).

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/resource.h>
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

// The CPU time (user and system) this process's threads used so far, in seconds: beside a wall
// time on a shared machine, what the work itself cost.
inline double processCpuSeconds() {
    rusage u{};
    if (getrusage(RUSAGE_SELF, &u) != 0)
        return 0;
    return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
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

// The calling thread's time on a CPU and its time runnable but waiting for one (the first two
// numbers of /proc/thread-self/schedstat, ns), and the CPU time of the whole process: over a
// stall of that thread, its own work (or its sleep on a lock or the disk) is the stall less its
// wait for a core, and the process's other threads' CPU time says whether its own workers held
// the cores meanwhile or other processes did. Reads cost a few microseconds; all -1 where the
// kernel keeps no schedstat.
class ThreadTimes {
public:
    struct Sample {
        double cpuMs = -1;     // this thread on a CPU
        double queuedMs = -1;  // this thread runnable, waiting for a CPU
        double processMs = -1; // every thread of the process on a CPU (user and system)
    };
    ThreadTimes()
        : m_fd(::open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC)) {}
    ~ThreadTimes() {
        if (m_fd >= 0)
            ::close(m_fd);
    }
    ThreadTimes(const ThreadTimes&) = delete;
    ThreadTimes& operator=(const ThreadTimes&) = delete;

    Sample now() const {
        Sample s;
        char buf[128];
        const ssize_t n = m_fd < 0 ? -1 : ::pread(m_fd, buf, sizeof buf - 1, 0);
        if (n > 0) {
            buf[n] = 0;
            char* end = nullptr;
            const unsigned long long run = std::strtoull(buf, &end, 10);
            const unsigned long long wait = std::strtoull(end, nullptr, 10);
            s.cpuMs = double(run) / 1e6;
            s.queuedMs = double(wait) / 1e6;
        }
        s.processMs = processCpuSeconds() * 1e3;
        return s;
    }

private:
    int m_fd;
};

} // namespace strobe::bench
