// SPDX-License-Identifier: MIT
// shareWork: every job done once across the caller and Qt's pool, and a job's exception, on a
// pool thread or on the caller, rethrown on the caller once every job claimed is done (never
// ending the program from a pool thread). JobPipeline: each job awaited in turn, the caller
// running the next ones while a helper holds the one it awaits, and an early exit waiting for
// the helpers' jobs.
#include "render/geometry/sharework.h"

#include <gtest/gtest.h>

#include <QThread>
#include <QThreadPool>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <new>
#include <set>
#include <stdexcept>
#include <thread>
#include <utility>
#include <vector>

using namespace strobe;

namespace {
// A pool with an idle thread for the helper: the last test's helper may still be finishing.
void idlePool() {
    QThreadPool* pool = QThreadPool::globalInstance();
    pool->waitForDone();
    pool->setMaxThreadCount(std::max(2, QThread::idealThreadCount()));
}

// Waits up to 10 s for `flag`; false if it never came.
bool waitFor(const std::atomic<bool>& flag) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (!flag.load()) {
        if (std::chrono::steady_clock::now() > until)
            return false;
        std::this_thread::sleep_for(std::chrono::microseconds(100));
    }
    return true;
}
} // namespace

TEST(ShareWork, DoesEveryJobOnceOnTheCallerAndAHelper) {
    idlePool();
    constexpr std::size_t kJobs = 400;
    std::vector<std::atomic<int>> done(kJobs);
    std::atomic<bool> helperRan{false};
    bool waited = false;
    std::mutex m;
    std::set<std::thread::id> ran;
    const std::thread::id caller = std::this_thread::get_id();
    shareWork(kJobs, 1, [&](std::size_t k) {
        {
            std::lock_guard lock(m);
            ran.insert(std::this_thread::get_id());
        }
        if (std::this_thread::get_id() != caller)
            helperRan = true;
        else if (!std::exchange(waited, true))
            waitFor(helperRan); // the caller's first job waits until the helper took one
        ++done[k];
    });
    for (std::size_t k = 0; k < kJobs; ++k)
        ASSERT_EQ(done[k].load(), 1) << "job " << k;
    EXPECT_EQ(ran.size(), 2u);
    EXPECT_TRUE(ran.count(caller));
}

TEST(ShareWork, NoHelpersIsTheCallerAlone) {
    std::set<std::thread::id> ran;
    std::vector<int> order;
    shareWork(5, 0, [&](std::size_t k) {
        ran.insert(std::this_thread::get_id());
        order.push_back(int(k));
    });
    EXPECT_EQ(ran, std::set<std::thread::id>{std::this_thread::get_id()});
    EXPECT_EQ(order, (std::vector<int>{0, 1, 2, 3, 4}));
    shareWork(0, 3, [&](std::size_t) { ADD_FAILURE() << "no job to run"; });
}

TEST(ShareWork, AHelpersExceptionReachesTheCallerAfterEveryClaimedJobIsDone) {
    idlePool();
    const std::thread::id caller = std::this_thread::get_id();
    std::atomic<bool> helperThrew{false};
    std::atomic<int> running{0}, maxRunningAtThrow{-1};
    std::atomic<int> ran{0};
    bool waited = false, caught = false;
    try {
        shareWork(1000, 1, [&](std::size_t) {
            ++running;
            ++ran;
            if (std::this_thread::get_id() != caller) {
                helperThrew = true;
                --running;
                throw std::bad_alloc();
            }
            if (!std::exchange(waited, true)) {
                waitFor(helperThrew); // the caller's job is still running when the helper throws
                std::this_thread::sleep_for(std::chrono::milliseconds(20));
            }
            --running;
        });
    } catch (const std::bad_alloc&) {
        caught = true;
        maxRunningAtThrow = running.load();
    }
    EXPECT_TRUE(caught);
    EXPECT_TRUE(helperThrew.load());
    EXPECT_EQ(maxRunningAtThrow.load(), 0); // no job was still running when it was rethrown
    EXPECT_LT(ran.load(), 1000);            // the jobs not begun were skipped
}

TEST(ShareWork, TheCallersExceptionWaitsForTheHelpersJob) {
    idlePool();
    const std::thread::id caller = std::this_thread::get_id();
    std::atomic<bool> helperStarted{false}, helperFinished{false};
    bool finishedWhenCaught = false;
    try {
        shareWork(2, 1, [&](std::size_t) {
            if (std::this_thread::get_id() != caller) {
                helperStarted = true;
                std::this_thread::sleep_for(std::chrono::milliseconds(50));
                helperFinished = true;
                return;
            }
            if (!waitFor(helperStarted))
                return; // no helper ran: nothing to check (the test then fails below)
            throw std::runtime_error("caller's job");
        });
    } catch (const std::runtime_error& e) {
        EXPECT_STREQ(e.what(), "caller's job");
        finishedWhenCaught = helperFinished.load();
    }
    EXPECT_TRUE(helperStarted.load());
    EXPECT_TRUE(finishedWhenCaught); // the helper's job held references into this frame
}

// JobPipeline: the caller awaits the jobs one by one, in the order it needs them.
TEST(JobPipeline, AwaitReturnsOnceItsJobIsDoneAndEveryJobRunsOnce) {
    idlePool();
    constexpr std::size_t kJobs = 300;
    std::vector<std::atomic<int>> done(kJobs);
    {
        JobPipeline jobs(kJobs, 1, [&](std::size_t k) {
            std::this_thread::sleep_for(std::chrono::microseconds(k % 7 == 0 ? 200 : 0));
            ++done[k];
        });
        for (std::size_t k = 0; k < kJobs; ++k) {
            jobs.await(k);
            ASSERT_EQ(done[k].load(), 1) << "job " << k;
        }
        jobs.finish();
    }
    for (std::size_t k = 0; k < kJobs; ++k)
        ASSERT_EQ(done[k].load(), 1) << "job " << k;
}

TEST(JobPipeline, TheCallerRunsTheNextJobWhileAHelperHoldsTheOneItAwaits) {
    idlePool();
    const std::thread::id caller = std::this_thread::get_id();
    std::atomic<bool> helperTook{false}, callerRanNext{false}, helperSawIt{false};
    std::vector<std::thread::id> ranOn(3);
    JobPipeline jobs(3, 1, [&](std::size_t k) {
        ranOn[k] = std::this_thread::get_id();
        if (std::this_thread::get_id() != caller && !helperTook.exchange(true)) {
            // The helper's first job: it finishes only once the caller has run another one.
            helperSawIt = waitFor(callerRanNext);
            return;
        }
        if (std::this_thread::get_id() == caller)
            callerRanNext = true;
    });
    ASSERT_TRUE(waitFor(helperTook)); // the helper holds job 0
    jobs.await(0);
    EXPECT_TRUE(helperSawIt.load()); // the caller did not wait idle for it
    EXPECT_NE(ranOn[0], caller);
    EXPECT_EQ(ranOn[1], caller);
    jobs.finish();
}

TEST(JobPipeline, AHelpersExceptionIsRethrownByAwaitOnceNoJobRuns) {
    idlePool();
    const std::thread::id caller = std::this_thread::get_id();
    std::atomic<int> running{0}, runningWhenCaught{-1};
    bool caught = false;
    try {
        JobPipeline jobs(1000, 1, [&](std::size_t) {
            ++running;
            std::this_thread::sleep_for(std::chrono::microseconds(50));
            if (std::this_thread::get_id() != caller) {
                --running;
                throw std::bad_alloc();
            }
            --running;
        });
        for (std::size_t k = 0; k < 1000; ++k)
            jobs.await(k);
        jobs.finish();
    } catch (const std::bad_alloc&) {
        caught = true;
        runningWhenCaught = running.load();
    }
    EXPECT_TRUE(caught);
    EXPECT_EQ(runningWhenCaught.load(), 0);
}

TEST(JobPipeline, LeavingEarlyWaitsForTheHelpersJobAndSkipsTheRest) {
    idlePool();
    const std::thread::id caller = std::this_thread::get_id();
    std::atomic<bool> helperStarted{false}, helperFinished{false};
    std::atomic<int> ran{0};
    bool finishedWhenLeft = false;
    {
        JobPipeline jobs(100, 1, [&](std::size_t) {
            ++ran;
            if (std::this_thread::get_id() != caller && !helperStarted.exchange(true)) {
                std::this_thread::sleep_for(std::chrono::milliseconds(50));
                helperFinished = true;
            }
        });
        ASSERT_TRUE(waitFor(helperStarted));
    } // no await, no finish: the destructor
    finishedWhenLeft = helperFinished.load();
    EXPECT_TRUE(finishedWhenLeft); // the helper's job held references into this frame
    EXPECT_LT(ran.load(), 100);    // the jobs not begun were skipped
}
