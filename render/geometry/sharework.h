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

// Runs job(0) .. job(n - 1), claimed in order of their index, on up to `helpers` idle threads of
// Qt's global pool while the calling thread goes on with its own work, and waits for them job by
// job: await(k) returns once job k is done, running it (and any job before it that no one has
// begun) on the calling thread rather than waiting for a helper to start, and running later
// jobs while a helper finishes job k. So a frame can paint its first rows while the helpers
// still compute the later ones, and the caller never waits for a helper that has not begun (a
// busy pool just leaves it all the jobs), only, once no job is left to begin, for the ones
// running helpers hold.
//
// A job that throws (std::bad_alloc, say) makes the jobs not yet begun be skipped; the first
// exception, wherever it was thrown, is rethrown on the calling thread by the next await() or
// finish(), once every job claimed is done: none escapes a pool thread, which would end the
// program. The destructor, on the way out of such an exception too, skips the jobs not begun and
// waits for the ones that are (they hold references into the caller's frame).
//
// For a frame's work on the GUI thread: the pool's threads run at the priority of whoever
// started them. A loader's work, which must stay below the GUI's priority, uses runOnThreads
// (model/runonthreads.h), whose threads inherit the loader's.
template <typename Job> class JobPipeline {
public:
    JobPipeline(std::size_t n, int helpers, Job job)
        : m_shared(std::make_shared<Shared>(n, std::move(job))) {
        for (int h = 0; h < helpers && n > 0; ++h) {
            if (!QThreadPool::globalInstance()->tryStart([s = m_shared] { s->work(); }))
                break;
        }
    }
    ~JobPipeline() {
        m_shared->skipUnclaimed();
        m_shared->waitAll();
    }
    JobPipeline(const JobPipeline&) = delete;
    JobPipeline& operator=(const JobPipeline&) = delete;

    // Returns once job k (< the number of jobs) is done. While a helper holds it, the calling
    // thread runs the next jobs no one has begun rather than wait idle; it waits only when none is
    // left.
    void await(std::size_t k) {
        Shared& s = *m_shared;
        while (!s.finished[k].load(std::memory_order_acquire)) {
            std::size_t j = s.next.load();
            if (j >= s.n) { // a helper holds it, and every other job is taken
                s.finished[k].wait(false, std::memory_order_acquire);
                break;
            }
            if (s.next.compare_exchange_weak(j, j + 1))
                s.run(j);
        }
        s.rethrowFailure();
    }
    // Runs every job not yet begun here and returns once all are done.
    void finish() {
        Shared& s = *m_shared;
        s.work();
        s.waitAll();
        s.rethrowFailure();
    }

private:
    struct Shared {
        Shared(std::size_t jobs, Job&& j)
            : n(jobs)
            , job(std::move(j))
            , finished(std::make_unique<std::atomic<bool>[]>(jobs)) {}
        const std::size_t n;
        const Job job;
        std::atomic<std::size_t> next{0}, done{0};
        std::unique_ptr<std::atomic<bool>[]> finished; // per job: ran, threw or was skipped
        std::atomic<bool> stop{false}; // a job threw: the ones claimed after it are skipped
        std::mutex failedMutex;
        std::exception_ptr failed; // the first job's exception

        // Runs claimed job k (or skips it after a failure) and counts it done.
        void run(std::size_t k) {
            if (!stop.load(std::memory_order_relaxed)) {
                try {
                    job(k);
                } catch (...) {
                    std::lock_guard lock(failedMutex);
                    if (!failed)
                        failed = std::current_exception();
                    stop = true;
                }
            }
            finished[k].store(true, std::memory_order_release);
            finished[k].notify_all(); // cheap without a waiter
            done.fetch_add(1);
            done.notify_all();
        }
        // A helper's loop: claimed jobs until none is left.
        void work() {
            for (std::size_t k; (k = next.fetch_add(1)) < n;)
                run(k);
        }
        // Counts the jobs no one has claimed as done (skipped); none can be claimed after.
        void skipUnclaimed() {
            const std::size_t from = std::min(n, next.exchange(n));
            for (std::size_t k = from; k < n; ++k) {
                finished[k].store(true, std::memory_order_release);
                finished[k].notify_all();
            }
            done.fetch_add(n - from);
            done.notify_all();
        }
        void waitAll() {
            for (std::size_t d = done.load(); d < n; d = done.load())
                done.wait(d);
        }
        void rethrowFailure() {
            if (!stop.load())
                return;
            // Every job claimed is done before the exception leaves: the helpers' jobs hold
            // references into the caller's frame.
            skipUnclaimed();
            waitAll();
            std::lock_guard lock(failedMutex);
            std::rethrow_exception(failed);
        }
    };
    std::shared_ptr<Shared> m_shared;
};

// Runs job(0) .. job(n - 1) on the calling thread and on up to `helpers` idle threads of Qt's
// global pool (JobPipeline), and returns when all are done; a job's exception is rethrown here.
template <typename Job> void shareWork(std::size_t n, int helpers, const Job& job) {
    JobPipeline<const Job&> jobs(n, helpers, job);
    jobs.finish();
}

} // namespace strobe
