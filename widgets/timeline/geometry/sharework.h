// SPDX-License-Identifier: MIT
#pragma once

#include <QThreadPool>
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <memory>

namespace strobe {

// Runs job(0) .. job(n - 1) on the calling thread and on up to `helpers` idle threads of Qt's
// global pool, and returns when all are done. Jobs are claimed one at a time, so the caller
// never waits for a helper that has not begun (a busy pool just leaves it all the jobs), only
// for the one job each running helper holds. A helper that starts after the last job was
// claimed finds nothing to do and touches nothing but the shared counters. What a frame's
// painting shares with idle cores: rows are independent, so each job is one row.
template <typename Job> void shareWork(std::size_t n, int helpers, const Job& job) {
    struct Counters {
        std::atomic<std::size_t> next{0}, done{0};
    };
    const auto counters = std::make_shared<Counters>();
    auto work = [n, counters, &job] {
        for (std::size_t k; (k = counters->next.fetch_add(1)) < n;) {
            job(k);
            counters->done.fetch_add(1);
            counters->done.notify_all(); // cheap without a waiter
        }
    };
    for (int h = 0; h < helpers; ++h) {
        if (!QThreadPool::globalInstance()->tryStart(work))
            break;
    }
    // Waits until every job claimed so far is done; nothing can be claimed afterwards.
    auto waitForClaimed = [&] {
        const std::size_t claimed = std::min(n, counters->next.exchange(n));
        for (std::size_t d = counters->done.load(); d < claimed; d = counters->done.load())
            counters->done.wait(d);
    };
    try {
        work();
    } catch (...) {                  // the helpers' jobs hold references into the caller's frame
        counters->done.fetch_add(1); // the job that threw counts as done
        waitForClaimed();
        throw;
    }
    waitForClaimed();
}

} // namespace strobe
