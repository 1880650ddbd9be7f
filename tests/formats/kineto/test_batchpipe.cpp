// SPDX-License-Identifier: MIT
// BatchPipe: the hand-off between the Kineto reader's parser thread and its builder thread.
#include "formats/kineto/batchpipe.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <stdexcept>
#include <thread>
#include <vector>

using strobe::kineto::BatchPipe;

namespace {

struct Batch {
    std::vector<int> values;
};

// Waits until `done()` holds, for at most five seconds (the machine may be loaded).
template <typename Done> bool eventually(Done done) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (!done() && std::chrono::steady_clock::now() < until)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    return done();
}

} // namespace

TEST(BatchPipe, ConsumesEveryBatchInOrderOnAnotherThread) {
    std::vector<int> seen;
    std::thread::id consumer;
    {
        BatchPipe<Batch> pipe(3, [&](Batch& b) {
            consumer = std::this_thread::get_id();
            seen.insert(seen.end(), b.values.begin(), b.values.end());
            b.values.clear();
        });
        for (int i = 0; i < 1000; ++i) {
            pipe.current().values.push_back(2 * i);
            pipe.current().values.push_back(2 * i + 1);
            pipe.hand();
        }
        pipe.current().values.push_back(2000); // a last, partial batch
        pipe.finish();
    }
    ASSERT_EQ(seen.size(), 2001u);
    for (int i = 0; i <= 2000; ++i)
        ASSERT_EQ(seen[std::size_t(i)], i);
    EXPECT_NE(consumer, std::this_thread::get_id());
}

TEST(BatchPipe, TheProducerWaitsWhenEveryBufferIsInUse) {
    std::promise<void> release;
    std::shared_future<void> released = release.get_future().share();
    std::atomic<int> handed{0}, consumed{0};
    std::thread producer([&] {
        BatchPipe<Batch> pipe(3, [&](Batch&) {
            released.wait();
            ++consumed;
        });
        for (int i = 0; i < 10; ++i) {
            pipe.hand();
            ++handed;
        }
        pipe.finish();
    });
    // The consumer holds the first batch; the other two buffers take two more hand-offs, and
    // the third must wait for a buffer to come back.
    EXPECT_TRUE(eventually([&] { return handed.load() == 2; }));
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    EXPECT_EQ(handed.load(), 2);
    EXPECT_EQ(consumed.load(), 0);
    release.set_value();
    producer.join();
    EXPECT_EQ(handed.load(), 10);
    EXPECT_EQ(consumed.load(), 11); // ten hand-offs and the batch finish() sends
}

TEST(BatchPipe, AConsumerFailureReachesTheProducer) {
    std::atomic<int> consumed{0};
    bool thrown = false;
    try {
        BatchPipe<Batch> pipe(2, [&](Batch&) {
            if (++consumed == 3)
                throw std::runtime_error("bad batch");
        });
        for (int i = 0; i < 100000; ++i)
            pipe.hand();
        pipe.finish();
    } catch (const std::runtime_error& e) {
        thrown = true;
        EXPECT_STREQ(e.what(), "bad batch");
    }
    EXPECT_TRUE(thrown);
    EXPECT_EQ(consumed.load(), 3); // nothing is consumed after the failure
}

TEST(BatchPipe, AFailureInTheLastBatchReachesFinish) {
    bool thrown = false;
    try {
        BatchPipe<Batch> pipe(2, [](Batch& b) {
            if (!b.values.empty())
                throw std::runtime_error("last");
        });
        pipe.hand();
        pipe.current().values.push_back(1);
        pipe.finish();
    } catch (const std::runtime_error& e) {
        thrown = true;
        EXPECT_STREQ(e.what(), "last");
    }
    EXPECT_TRUE(thrown);
}

TEST(BatchPipe, DestroyingWithoutFinishStopsTheConsumer) {
    std::atomic<int> consumed{0};
    const auto start = std::chrono::steady_clock::now();
    {
        BatchPipe<Batch> pipe(6, [&](Batch&) {
            ++consumed;
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        });
        for (int i = 0; i < 5; ++i)
            pipe.hand(); // then the producer fails: the pipe goes without finish()
    }
    // The batch in progress is finished, the queued ones are dropped (draining them all would
    // take half a second and consume five).
    EXPECT_LT(consumed.load(), 5);
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

TEST(BatchPipe, WaitConsumedReturnsOnceTheFirstBatchesWereTaken) {
    // What the split read relies on before it reads into a piece's buffer again: every batch
    // handed up to a point was consumed.
    std::promise<void> release;
    std::shared_future<void> released = release.get_future().share();
    std::atomic<int> consumed{0};
    BatchPipe<Batch> pipe(4, [&](Batch&) {
        if (consumed == 1)
            released.wait(); // the second batch waits
        ++consumed;
    });
    EXPECT_EQ(pipe.handed(), 0u);
    pipe.waitConsumed(0); // nothing handed: at once
    pipe.hand();
    pipe.hand();
    pipe.hand();
    EXPECT_EQ(pipe.handed(), 3u);
    pipe.waitConsumed(1);
    EXPECT_GE(consumed.load(), 1);
    std::atomic<bool> waited{false};
    std::thread waiter([&] {
        pipe.waitConsumed(2);
        waited = true;
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    EXPECT_FALSE(waited.load()); // the second batch is held
    EXPECT_EQ(consumed.load(), 1);
    release.set_value();
    waiter.join();
    EXPECT_GE(consumed.load(), 2);
    pipe.finish();
    EXPECT_EQ(consumed.load(), 4); // three handed and the last, empty one
}

// Consumer::Inline (LoadOptions::threads = 1): each batch is consumed on the producer's thread
// before hand() returns, in order; a failure comes out of the hand() that consumed it.
TEST(BatchPipe, AnInlinePipeConsumesOnTheProducersThreadBeforeHandReturns) {
    std::vector<int> seen;
    std::vector<std::thread::id> threads;
    using Pipe = BatchPipe<Batch>;
    Pipe pipe(
        4,
        [&](Batch& b) {
            threads.push_back(std::this_thread::get_id());
            seen.insert(seen.end(), b.values.begin(), b.values.end());
            b.values.clear();
        },
        Pipe::Consumer::Inline);
    for (int i = 0; i < 100; ++i) {
        pipe.current().values.push_back(i);
        pipe.hand();
        ASSERT_EQ(seen.size(), std::size_t(i + 1)); // consumed already
        EXPECT_EQ(pipe.handed(), std::size_t(i + 1));
        pipe.waitConsumed(pipe.handed()); // returns at once
    }
    pipe.current().values.push_back(100);
    pipe.finish();
    ASSERT_EQ(seen.size(), 101u);
    for (int i = 0; i <= 100; ++i)
        EXPECT_EQ(seen[std::size_t(i)], i);
    for (const std::thread::id id : threads)
        EXPECT_EQ(id, std::this_thread::get_id());

    int consumed = 0;
    Pipe failing(
        2,
        [&](Batch&) {
            if (++consumed == 3)
                throw std::runtime_error("third");
        },
        Pipe::Consumer::Inline);
    failing.hand();
    failing.hand();
    EXPECT_THROW(failing.hand(), std::runtime_error);
    EXPECT_EQ(consumed, 3);
}
