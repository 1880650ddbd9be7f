// SPDX-License-Identifier: MIT
// runOnThreads: every item done once across the threads, and a job's exception rethrown on the
// calling thread after all have returned (never ending the program from a thread of its own).
#include "model/runonthreads.h"

#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <new>
#include <set>
#include <stdexcept>

using namespace strobe;

TEST(RunOnThreads, DoesEveryItemOnceAndUsesTheThreadsAskedFor) {
    constexpr int kItems = 2000;
    std::vector<std::atomic<int>> done(kItems);
    std::atomic<int> next{0};
    std::mutex m;
    std::set<std::thread::id> ran;
    runOnThreads(3, [&] {
        {
            std::lock_guard lock(m);
            ran.insert(std::this_thread::get_id());
        }
        for (int k; (k = next.fetch_add(1)) < kItems;)
            ++done[std::size_t(k)];
    });
    for (int k = 0; k < kItems; ++k)
        ASSERT_EQ(done[std::size_t(k)].load(), 1) << "item " << k;
    EXPECT_EQ(ran.size(), 3u);
    EXPECT_TRUE(ran.count(std::this_thread::get_id())); // the caller works too
}

TEST(RunOnThreads, OneThreadIsTheCallerAlone) {
    std::set<std::thread::id> ran;
    runOnThreads(1, [&] { ran.insert(std::this_thread::get_id()); });
    runOnThreads(0, [&] { ran.insert(std::this_thread::get_id()); });
    EXPECT_EQ(ran, std::set<std::thread::id>{std::this_thread::get_id()});
}

TEST(RunOnThreads, AJobsExceptionReachesTheCallerAfterEveryThreadReturned) {
    std::atomic<int> next{0}, returned{0};
    const std::thread::id caller = std::this_thread::get_id();
    auto work = [&] {
        struct Count {
            std::atomic<int>& n;
            ~Count() { ++n; }
        } count{returned};
        for (int k; (k = next.fetch_add(1)) < 1000;) {
            if (k == 500 && std::this_thread::get_id() != caller)
                throw std::bad_alloc();
            if (k == 500)
                throw std::runtime_error("item 500");
        }
    };
    bool threw = false;
    try {
        runOnThreads(3, work);
    } catch (const std::bad_alloc&) {
        threw = true;
    } catch (const std::runtime_error& e) {
        threw = std::string(e.what()) == "item 500";
    }
    EXPECT_TRUE(threw);
    EXPECT_EQ(returned.load(), 3); // every thread had returned when it was rethrown
}
