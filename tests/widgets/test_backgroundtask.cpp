// SPDX-License-Identifier: MIT
// BackgroundTask: results computed on a worker arrive on the owner's thread; superseded,
// cancelled and orphaned results never do.
#include "tests/widgets/panels/paneltesthelpers.h"
#include "widgets/backgroundtask.h"
#include "widgets/workerpriority.h"

#include <QSignalSpy>
#include <QTest>
#include <QThread>
#include <atomic>
#include <chrono>
#include <future>
#include <gtest/gtest.h>
#include <semaphore>
#include <thread>

#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

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

#ifdef __linux__
// The nice value of thread `tid` (Linux keeps one per thread).
static int niceOf(pid_t tid) {
    return getpriority(PRIO_PROCESS, id_t(tid));
}

TEST(BackgroundTask, ComputesBelowTheGuiThreadsPriority) {
    const int gui = niceOf(getpid());
    ASSERT_EQ(niceOf(pid_t(syscall(SYS_gettid))), gui); // this test runs on the main thread
    BackgroundTask task;
    int workerNice = -100;
    task.start([] { return niceOf(pid_t(syscall(SYS_gettid))); },
               [&](int nice) { workerNice = nice; });
    ASSERT_TRUE(QTest::qWaitFor([&] { return !task.isRunning(); }, 10000));
    EXPECT_EQ(workerNice, std::min(19, gui + kWorkerNiceOffset));
    EXPECT_EQ(niceOf(getpid()), gui); // the GUI thread itself is left alone
}

TEST(WorkerPriority, IsIdempotentAndInheritedByThreadsStartedLater) {
    const int gui = niceOf(getpid());
    int first = -100, second = -100, child = -100;
    bool ok1 = false, ok2 = false;
    std::thread([&] {
        ok1 = runBelowGuiPriority();
        first = niceOf(pid_t(syscall(SYS_gettid)));
        ok2 = runBelowGuiPriority(); // a second call leaves it where it is
        second = niceOf(pid_t(syscall(SYS_gettid)));
        std::thread([&] { child = niceOf(pid_t(syscall(SYS_gettid))); }).join();
    }).join();
    const int wanted = std::min(19, gui + kWorkerNiceOffset);
    EXPECT_TRUE(ok1);
    EXPECT_TRUE(ok2);
    EXPECT_EQ(first, wanted);
    EXPECT_EQ(second, wanted);
    EXPECT_EQ(child, wanted); // the loader's scan threads run as low as the loader
    EXPECT_EQ(niceOf(getpid()), gui);
}

namespace {
// Records the thread and the nice value it is destroyed on.
struct Recorder {
    std::promise<std::pair<std::thread::id, int>>* destroyed;
    ~Recorder() {
        destroyed->set_value({std::this_thread::get_id(), getpriority(PRIO_PROCESS, 0)});
    }
};
} // namespace

TEST(WorkerPriority, AnObjectSharedThatWayIsFreedOnAThreadOfItsOwnBelowTheGui) {
    std::promise<std::pair<std::thread::id, int>> destroyed;
    auto done = destroyed.get_future();
    std::shared_ptr<Recorder> shared = shareFreedOffThread(std::make_unique<Recorder>(&destroyed));
    std::shared_ptr<Recorder> second = shared;
    shared.reset();
    EXPECT_EQ(done.wait_for(std::chrono::milliseconds(50)), std::future_status::timeout)
        << "freed while a reference was left";
    second.reset(); // the last reference, dropped here
    ASSERT_EQ(done.wait_for(std::chrono::seconds(10)), std::future_status::ready);
    const auto [thread, nice] = done.get();
    EXPECT_NE(thread, std::this_thread::get_id());
    EXPECT_EQ(nice, std::min(19, getpriority(PRIO_PROCESS, 0) + kWorkerNiceOffset));
    EXPECT_EQ(shareFreedOffThread(std::unique_ptr<Recorder>()), nullptr);
}
#endif

// Releases at the end of a test, whatever it asserted (a hold left would delay later tests).
struct ReleaseAtEnd {
    ~ReleaseAtEnd() { releaseBackgroundWork(); }
};

TEST(WorkerHold, HeldWorkBeginsOnlyWhenReleased) {
    const ReleaseAtEnd release;
    BackgroundTask task;
    QSignalSpy finished(&task, &BackgroundTask::finished);
    std::atomic<bool> began{false};
    holdBackgroundWork(std::chrono::seconds(30));
    EXPECT_TRUE(isBackgroundWorkHeld());
    task.start([&] { return began.exchange(true); }, [](bool) {});
    QTest::qWait(150);
    EXPECT_FALSE(began.load()) << "began while held";
    releaseBackgroundWork();
    EXPECT_FALSE(isBackgroundWorkHeld());
    ASSERT_TRUE(finished.wait(10000));
    EXPECT_TRUE(began.load());
}

TEST(WorkerHold, AHoldEndsByItselfAtItsLimit) {
    const ReleaseAtEnd release;
    BackgroundTask task;
    QSignalSpy finished(&task, &BackgroundTask::finished);
    const auto start = std::chrono::steady_clock::now();
    holdBackgroundWork(std::chrono::milliseconds(80));
    std::chrono::steady_clock::time_point began;
    task.start([&] { return began = std::chrono::steady_clock::now(), 0; }, [](int) {});
    ASSERT_TRUE(finished.wait(10000)) << "nothing released it but its limit";
    EXPECT_GE(began - start, std::chrono::milliseconds(75));
    EXPECT_FALSE(isBackgroundWorkHeld());
}

#ifdef __linux__
TEST(WorkerHold, AnObjectFreedOffThreadWaitsForTheRelease) {
    const ReleaseAtEnd release;
    std::promise<std::pair<std::thread::id, int>> destroyed;
    auto done = destroyed.get_future();
    std::shared_ptr<Recorder> shared = shareFreedOffThread(std::make_unique<Recorder>(&destroyed));
    holdBackgroundWork(std::chrono::seconds(30));
    shared.reset();
    EXPECT_EQ(done.wait_for(std::chrono::milliseconds(150)), std::future_status::timeout)
        << "freed while held";
    releaseBackgroundWork();
    EXPECT_EQ(done.wait_for(std::chrono::seconds(10)), std::future_status::ready);
}
#endif
