// SPDX-License-Identifier: MIT
#include "formats/kineto/prefaulter.h"

#include <algorithm>
#include <system_error>

#if defined(__unix__)
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace strobe::kineto {

namespace {

constexpr std::size_t kMinSize = std::size_t(32) << 20;
constexpr std::uintptr_t kStep = std::uintptr_t(4) << 20;

} // namespace

Prefaulter::Prefaulter(void* begin, std::size_t size, From from) {
#if defined(__unix__) && defined(MADV_POPULATE_WRITE)
    const auto page = std::uintptr_t(sysconf(_SC_PAGESIZE));
    const std::uintptr_t first = (std::uintptr_t(begin) + page - 1) / page * page;
    const std::uintptr_t last = (std::uintptr_t(begin) + size) / page * page;
    if (size < kMinSize || last <= first)
        return;
    try {
        m_thread = std::thread([this, first, last, from] { run(first, last, from); });
    } catch (const std::system_error&) { // no thread: the writer faults everything itself
    }
#else
    (void)begin, (void)size, (void)from;
#endif
}

void Prefaulter::stop() {
    m_stop.store(true, std::memory_order_relaxed);
    if (m_thread.joinable())
        m_thread.join();
}

void Prefaulter::run([[maybe_unused]] std::uintptr_t first, [[maybe_unused]] std::uintptr_t last,
                     [[maybe_unused]] From from) {
#if defined(__unix__) && defined(MADV_POPULATE_WRITE)
    // (pages the writer has reached are present: populating them again is cheap)
    while (first < last && !m_stop.load(std::memory_order_relaxed)) {
        const std::uintptr_t step = std::min(kStep, last - first);
        const std::uintptr_t at = from == From::Start ? first : last - step;
        if (madvise(reinterpret_cast<void*>(at), step, MADV_POPULATE_WRITE) != 0)
            return;
        (from == From::Start ? first : last) = from == From::Start ? first + step : last - step;
    }
#endif
}

} // namespace strobe::kineto
