// SPDX-License-Identifier: MIT
#include "model/analysis/waitcalls.h"

#include <algorithm>
#include <array>

namespace strobe {

namespace {

// Sorted, so one binary search answers. Grouped in docs/GAPS.md by what the thread waits for.
constexpr std::array<std::string_view, 52> kWaitCalls = {
    "accept",
    "accept4",
    "clock_nanosleep",
    "epoll_pwait",
    "epoll_pwait2",
    "epoll_wait",
    "futex",
    "mq_receive",
    "mq_timedreceive",
    "msgrcv",
    "nanosleep",
    "pause",
    "poll",
    "ppoll",
    "pselect",
    "pselect6",
    "pthread_barrier_wait",
    "pthread_cond_clockwait",
    "pthread_cond_timedwait",
    "pthread_cond_wait",
    "pthread_join",
    "pthread_mutex_clocklock",
    "pthread_mutex_lock",
    "pthread_mutex_timedlock",
    "pthread_rwlock_rdlock",
    "pthread_rwlock_timedrdlock",
    "pthread_rwlock_timedwrlock",
    "pthread_rwlock_wrlock",
    "pthread_spin_lock",
    "pthread_timedjoin_np",
    "read",
    "readv",
    "recv",
    "recvfrom",
    "recvmmsg",
    "recvmsg",
    "sched_yield",
    "select",
    "sem_clockwait",
    "sem_timedwait",
    "sem_wait",
    "semop",
    "semtimedop",
    "sigsuspend",
    "sigtimedwait",
    "sigwait",
    "sigwaitinfo",
    "sleep",
    "usleep",
    "wait",
    "waitid",
    "waitpid",
};

} // namespace

bool isOsWaitCall(std::string_view name) {
    static_assert(std::is_sorted(kWaitCalls.begin(), kWaitCalls.end()));
    while (!name.empty() && name.front() == '_')
        name.remove_prefix(1);
    constexpr std::string_view kTime64 = "_time64";
    if (name.size() > kTime64.size() && name.ends_with(kTime64))
        name.remove_suffix(kTime64.size());
    return std::binary_search(kWaitCalls.begin(), kWaitCalls.end(), name);
}

} // namespace strobe
