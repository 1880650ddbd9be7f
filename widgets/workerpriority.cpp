// SPDX-License-Identifier: MIT
#include "widgets/workerpriority.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <mutex>

#ifdef __linux__
#include <cerrno>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace strobe {

bool runBelowGuiPriority() {
#ifdef __linux__
    // Linux keeps a nice value per thread: PRIO_PROCESS with a thread id sets that thread's only.
    errno = 0;
    const int base = getpriority(PRIO_PROCESS, id_t(getpid())); // the main thread's
    if (base == -1 && errno != 0)
        return false;
    const int wanted = std::min(19, base + kWorkerNiceOffset);
    const auto tid = id_t(syscall(SYS_gettid));
    errno = 0;
    const int now = getpriority(PRIO_PROCESS, tid);
    if (now == -1 && errno != 0)
        return false;
    if (now >= wanted)
        return now == wanted;
    return setpriority(PRIO_PROCESS, tid, wanted) == 0;
#else
    return false;
#endif
}

namespace {
struct Hold {
    std::mutex mutex;
    std::condition_variable released;
    std::chrono::steady_clock::time_point until; // held while now < until
    std::atomic<bool> held{false};               // (so that an unheld check costs no lock)
};
Hold& hold() {
    // Never destroyed: a deleter thread may still be waiting on it while the process exits.
    static Hold& h = *new Hold;
    return h;
}
} // namespace

void holdBackgroundWork(std::chrono::milliseconds limit) {
    Hold& h = hold();
    const std::lock_guard lock(h.mutex);
    h.until = std::max(h.until, std::chrono::steady_clock::now() + limit);
    h.held = true;
}

void releaseBackgroundWork() {
    Hold& h = hold();
    if (!h.held.load())
        return;
    {
        const std::lock_guard lock(h.mutex);
        h.until = {};
        h.held = false;
    }
    h.released.notify_all();
}

bool isBackgroundWorkHeld() {
    Hold& h = hold();
    if (!h.held.load())
        return false;
    const std::lock_guard lock(h.mutex);
    if (std::chrono::steady_clock::now() < h.until)
        return true;
    h.held = false; // ran out
    return false;
}

void waitWhileBackgroundWorkHeld() {
    Hold& h = hold();
    if (!h.held.load())
        return;
    std::unique_lock lock(h.mutex);
    while (std::chrono::steady_clock::now() < h.until)
        h.released.wait_until(lock, h.until);
    h.held = false; // released or ran out
}

} // namespace strobe
