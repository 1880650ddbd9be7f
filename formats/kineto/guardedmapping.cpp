// SPDX-License-Identifier: MIT
#include "formats/kineto/guardedmapping.h"
#include "formats/kineto/bothends.h"

#include <cerrno>
#include <mutex>

#if defined(__unix__)
#include <csignal>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

namespace strobe::kineto {

#if defined(__unix__)

namespace {

// The guarded mappings, read by the SIGBUS handler: a fixed table of atomics, which a signal
// handler may read, instead of anything that allocates or locks.
struct Slot {
    std::atomic<bool> used{false};
    std::atomic<std::uintptr_t> begin{0}, end{0};
    std::atomic<bool> damaged{false};
};
constexpr int kSlots = 16;
Slot g_slots[kSlots];
std::uintptr_t g_pageSize = 4096;
struct sigaction g_previous {};
bool g_installed = false;

void onSigbus(int signal, siginfo_t* info, void* context) {
    const auto at = reinterpret_cast<std::uintptr_t>(info->si_addr);
    for (Slot& s : g_slots) {
        const std::uintptr_t begin = s.begin.load(std::memory_order_acquire);
        if (begin == 0 || at < begin || at >= s.end.load(std::memory_order_acquire))
            continue;
        // A page of ours that the file no longer backs: an empty one in its place, and the
        // access, run again when the handler returns, reads zeros.
        void* page = reinterpret_cast<void*>(at & ~(g_pageSize - 1));
        if (mmap(page, g_pageSize, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) !=
            MAP_FAILED) {
            s.damaged.store(true, std::memory_order_relaxed);
            return;
        }
    }
    // Not ours: as if this handler were not installed.
    if ((g_previous.sa_flags & SA_SIGINFO) && g_previous.sa_sigaction) {
        g_previous.sa_sigaction(signal, info, context);
        return;
    }
    if (!(g_previous.sa_flags & SA_SIGINFO) && g_previous.sa_handler != SIG_DFL &&
        g_previous.sa_handler != SIG_IGN) {
        g_previous.sa_handler(signal);
        return;
    }
    // The default action: the faulting access runs again and ends the process, as it would have.
    struct sigaction fallback {};
    fallback.sa_handler = SIG_DFL;
    sigemptyset(&fallback.sa_mask);
    sigaction(SIGBUS, &fallback, nullptr);
}

bool installHandler() {
    static std::once_flag once;
    std::call_once(once, [] {
        g_pageSize = std::uintptr_t(sysconf(_SC_PAGESIZE));
        struct sigaction action {};
        action.sa_sigaction = onSigbus;
        action.sa_flags = SA_SIGINFO | SA_RESTART;
        sigemptyset(&action.sa_mask);
        g_installed = sigaction(SIGBUS, &action, &g_previous) == 0;
    });
    return g_installed;
}

std::size_t roundUp(std::size_t n, std::size_t to) {
    return (n + to - 1) / to * to;
}

} // namespace

std::unique_ptr<GuardedMapping> GuardedMapping::map(int fd, std::size_t size, std::size_t padding) {
    struct stat st {};
    if (size == 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || !installHandler())
        return nullptr;
    int slot = -1;
    for (int i = 0; i < kSlots && slot < 0; ++i) {
        bool expected = false;
        if (g_slots[i].used.compare_exchange_strong(expected, true))
            slot = i;
    }
    if (slot < 0)
        return nullptr;
    // Zero pages for the whole extent (the padding included), the file's pages over its front.
    const std::size_t capacity = roundUp(size + padding, g_pageSize);
    void* region = mmap(nullptr, capacity, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (region != MAP_FAILED && mmap(region, roundUp(size, g_pageSize), PROT_READ,
                                     MAP_PRIVATE | MAP_FIXED, fd, 0) == MAP_FAILED) {
        munmap(region, capacity);
        region = MAP_FAILED;
    }
    if (region == MAP_FAILED) {
        g_slots[slot].used.store(false);
        return nullptr;
    }
    std::unique_ptr<GuardedMapping> m(new GuardedMapping);
    m->m_data = static_cast<char*>(region);
    m->m_size = size;
    m->m_capacity = capacity;
    m->m_slot = slot;
    Slot& s = g_slots[slot];
    s.damaged.store(false);
    s.end.store(std::uintptr_t(region) + capacity, std::memory_order_release);
    s.begin.store(std::uintptr_t(region), std::memory_order_release);
    return m;
}

GuardedMapping::~GuardedMapping() {
    Slot& s = g_slots[m_slot];
    s.begin.store(0, std::memory_order_release);
    s.end.store(0, std::memory_order_release);
    munmap(m_data, m_capacity);
    s.used.store(false);
}

bool GuardedMapping::damaged() const {
    return g_slots[m_slot].damaged.load(std::memory_order_relaxed);
}

int GuardedMapping::populate(const std::atomic<bool>* cancel) {
#if defined(MADV_POPULATE_READ)
    constexpr int kUnsupported = -2; // a kernel without it: the parser faults the pages in itself
    const int result = forEachChunkFromBothEnds(
        roundUp(m_size, g_pageSize), cancel, [this](std::size_t begin, std::size_t end) {
            if (madvise(m_data + begin, end - begin, MADV_POPULATE_READ) == 0 || errno == EINTR)
                return 0;
            return errno == EINVAL ? kUnsupported : errno;
        });
    if (result != kUnsupported)
        return result;
#endif
    return cancel && cancel->load() ? -1 : 0;
}

#else // not unix: no mapping, the caller reads the file

std::unique_ptr<GuardedMapping> GuardedMapping::map(int, std::size_t, std::size_t) {
    return nullptr;
}
GuardedMapping::~GuardedMapping() = default;
bool GuardedMapping::damaged() const {
    return false;
}
int GuardedMapping::populate(const std::atomic<bool>*) {
    return 0;
}

#endif

} // namespace strobe::kineto
