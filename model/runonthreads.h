// SPDX-License-Identifier: MIT
#pragma once

#include <algorithm>
#include <exception>
#include <system_error>
#include <thread>
#include <vector>

namespace strobe {

// Runs `work()` on the calling thread and on `threads - 1` threads of its own, and returns when
// every one has returned. `work` shares its items out itself (an atomic counter), so a thread
// that cannot be started leaves its share to the others. The first exception any of them threw
// (std::bad_alloc, say) is rethrown here once all have returned: none escapes a thread of its own,
// which would end the program.
template <typename Work> void runOnThreads(int threads, const Work& work) {
    std::vector<std::exception_ptr> failed(std::size_t(std::max(1, threads)));
    auto guarded = [&](std::size_t slot) {
        try {
            work();
        } catch (...) {
            failed[slot] = std::current_exception();
        }
    };
    std::vector<std::thread> helpers;
    for (std::size_t h = 1; h < failed.size(); ++h) {
        try {
            helpers.emplace_back(guarded, h);
        } catch (const std::system_error&) { // no thread to be had
            break;
        }
    }
    guarded(0);
    for (std::thread& h : helpers)
        h.join();
    for (const std::exception_ptr& e : failed) {
        if (e)
            std::rethrow_exception(e);
    }
}

} // namespace strobe
