// SPDX-License-Identifier: MIT
#pragma once

#include <QThreadPool>
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <memory>
#include <mutex>

namespace strobe {

// Runs job(0) .. job(n - 1) on the calling thread and on up to `helpers` idle threads of Qt's
// global pool, and returns when all are done. Jobs are claimed one at a time, so the caller
// never waits for a helper that has not begun (a busy pool just leaves it all the jobs), only
// for the one job each running helper holds. A helper that starts after the last job was
// claimed finds nothing to do and touches nothing but the shared counters.
//
// A job that throws (std::bad_alloc, say) makes the jobs not yet begun be skipped; once every
// job claimed is done, the first exception is rethrown on the calling thread, wherever it was
// thrown: none escapes a pool thread, which would end the program.
//
// For a frame's work on the GUI thread: the pool's threads run at the priority of whoever
// started them. A loader's work, which must stay below the GUI's priority, uses runOnThreads
// (model/runonthreads.h), whose threads inherit the loader's.
template <typename Job> void shareWork(std::size_t n, int helpers, const Job& job) {
    struct Shared {
        std::atomic<std::size_t> next{0}, done{0};
        std::atomic<bool> stop{false}; // a job threw: the ones claimed after it are skipped
        std::mutex failedMutex;
        std::exception_ptr failed; // the first job's exception
    };
    const auto shared = std::make_shared<Shared>();
    // Runs claimed jobs until none is left; every job claimed counts as done once it ran, threw
    // or was skipped.
    auto work = [n, shared, &job] {
        for (std::size_t k; (k = shared->next.fetch_add(1)) < n;) {
            if (!shared->stop.load(std::memory_order_relaxed)) {
                try {
                    job(k);
                } catch (...) {
                    std::lock_guard lock(shared->failedMutex);
                    if (!shared->failed)
                        shared->failed = std::current_exception();
                    shared->stop = true;
                }
            }
            shared->done.fetch_add(1);
            shared->done.notify_all(); // cheap without a waiter
        }
    };
    for (int h = 0; h < helpers; ++h) {
        if (!QThreadPool::globalInstance()->tryStart(work))
            break;
    }
    work();
    // Every job claimed so far is waited for (the helpers' jobs hold references into the
    // caller's frame); nothing can be claimed afterwards.
    const std::size_t claimed = std::min(n, shared->next.exchange(n));
    for (std::size_t d = shared->done.load(); d < claimed; d = shared->done.load())
        shared->done.wait(d);
    std::lock_guard lock(shared->failedMutex);
    if (shared->failed)
        std::rethrow_exception(shared->failed);
}

} // namespace strobe
