// SPDX-License-Identifier: MIT
#pragma once

// Working through a large file or mapping on both cores: the calling thread takes 16 MB chunks
// from the front and a helper thread from the back until they meet (reading a plain file,
// reading a mapped one's pages in).

#include "model/loadboundary.h"

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <mutex>
#include <system_error>
#include <thread>

namespace strobe::kineto {

inline constexpr std::size_t kBothEndsChunk = std::size_t(16) << 20;

// Calls chunk(begin, end) for each chunk of [0, size), from both ends at once (one thread only
// when there are at most two chunks, or no thread to be had). A non-zero result of `chunk` stops
// both threads and is returned; otherwise -1 when `cancel` became true, else 0.
template <typename Chunk>
int forEachChunkFromBothEnds(std::size_t size, const std::atomic<bool>* cancel, Chunk&& chunk) {
    auto cancelled = [cancel] { return isCancelled(cancel); };
    std::mutex claim;
    std::size_t front = 0, back = (size + kBothEndsChunk - 1) / kBothEndsChunk; // not claimed
    std::atomic<int> failure{0};
    auto work = [&](bool fromFront) {
        while (failure.load(std::memory_order_relaxed) == 0 && !cancelled()) {
            std::size_t index = 0;
            {
                std::lock_guard lock(claim);
                if (front >= back)
                    return;
                index = fromFront ? front++ : --back;
            }
            const std::size_t begin = index * kBothEndsChunk;
            if (const int result = chunk(begin, std::min(size, begin + kBothEndsChunk))) {
                failure.store(result, std::memory_order_relaxed);
                return;
            }
        }
    };
    std::thread helper;
    if (size > 2 * kBothEndsChunk) {
        try {
            helper = std::thread(work, false);
        } catch (const std::system_error&) { // no thread: this one does it all
        }
    }
    work(true);
    if (helper.joinable())
        helper.join();
    if (const int result = failure.load())
        return result;
    return cancelled() ? -1 : 0;
}

} // namespace strobe::kineto
