// SPDX-License-Identifier: MIT
// BackgroundTask: results computed on a worker arrive on the owner's thread; superseded,
// cancelled and orphaned results never do.
#include "tests/widgets/panels/paneltesthelpers.h"
#include "widgets/backgroundtask.h"

#include <QSignalSpy>
#include <QTest>
#include <QThread>
#include <atomic>
#include <gtest/gtest.h>
#include <semaphore>

using namespace strobe;

namespace {

TEST(BackgroundTask, ComputesOnAWorkerAndDeliversOnTheOwnersThread) {
    BackgroundTask task;
    QSignalSpy finished(&task, &BackgroundTask::finished);
    QThread* computedOn = nullptr;
    QThread* deliveredOn = nullptr;
    int value = 0;
    task.start(
        [&] {
            computedOn = QThread::currentThread();
            return 42;
        },
        [&](int v) {
            deliveredOn = QThread::currentThread();
            value = v;
        });
    EXPECT_TRUE(task.isRunning());
    EXPECT_EQ(value, 0) << "nothing is delivered synchronously";
    ASSERT_TRUE(finished.wait(10000));
    EXPECT_EQ(value, 42);
    EXPECT_FALSE(task.isRunning());
    EXPECT_NE(computedOn, QThread::currentThread());
    EXPECT_EQ(deliveredOn, QThread::currentThread());
    EXPECT_EQ(finished.count(), 1);
}

TEST(BackgroundTask, OnlyTheLatestStartIsDelivered) {
    BackgroundTask task;
    std::binary_semaphore started(0), gate(0);
    std::vector<int> delivered;
    // The first computation is running (held at the gate) when the second starts.
    task.start(
        [&] {
            started.release();
            gate.acquire();
            return 1;
        },
        [&](int v) { delivered.push_back(v); });
    started.acquire();
    task.start([] { return 2; }, [&](int v) { delivered.push_back(v); });
    gate.release();
    ASSERT_TRUE(QTest::qWaitFor([&] { return !task.isRunning(); }, 10000));
    QTest::qWait(50); // a stale result, were it posted, would arrive by now
    EXPECT_EQ(delivered, std::vector<int>{2});
}

TEST(BackgroundTask, CancelDropsTheResult) {
    BackgroundTask task;
    std::atomic<bool> computed{false};
    bool delivered = false;
    task.start(
        [&] {
            computed = true;
            return 1;
        },
        [&](int) { delivered = true; });
    task.cancel();
    EXPECT_FALSE(task.isRunning());
    QTest::qWait(100);
    EXPECT_FALSE(delivered);
    (void)computed; // the computation may or may not have begun; either way nothing arrives
}

TEST(BackgroundTask, AResultForADestroyedOwnerIsDropped) {
    std::binary_semaphore started(0), gate(0);
    std::atomic<bool> done{false};
    bool delivered = false;
    {
        BackgroundTask task;
        task.start(
            [&] {
                started.release();
                gate.acquire();
                done = true;
                return 1;
            },
            [&](int) { delivered = true; });
        started.acquire();
    } // destroyed while the computation waits at the gate
    gate.release();
    ASSERT_TRUE(QTest::qWaitFor([&] { return done.load(); }, 10000));
    QTest::qWait(50);
    EXPECT_FALSE(delivered);
}

} // namespace
