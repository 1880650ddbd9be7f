// SPDX-License-Identifier: MIT
#pragma once

// Faulting in fresh memory on a second core while the calling thread writes it: for the
// gigabytes a large trace's load writes (the decompressed text, simdjson's structural index)
// the kernel's page faults cost about as much as the writing itself.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <thread>

namespace strobe::kineto {

class Prefaulter {
public:
    // Where the writer starts: the prefaulter starts at the same end when it can stay ahead of
    // the writer (a writer slower than the faults, as simdjson's stage 1), at the other end when
    // it cannot (the decompressor), and the two meet.
    enum class From { Start, End };

    // Faults in the whole pages of [begin, begin + size) on a thread of its own, `from` one end
    // to the other, until done or stopped. Below 32 MB, and where the kernel lacks
    // MADV_POPULATE_WRITE, it does nothing: only speed depends on it.
    Prefaulter(void* begin, std::size_t size, From from);
    ~Prefaulter() { stop(); }
    Prefaulter(const Prefaulter&) = delete;
    Prefaulter& operator=(const Prefaulter&) = delete;

    // Stops at the next step (4 MB) and joins the thread.
    void stop();

private:
    void run(std::uintptr_t first, std::uintptr_t last, From from);

    std::atomic<bool> m_stop{false};
    std::thread m_thread;
};

} // namespace strobe::kineto
