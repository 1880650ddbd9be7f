// SPDX-License-Identifier: MIT
#include "widgets/workerpriority.h"

#include <algorithm>

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

} // namespace strobe
