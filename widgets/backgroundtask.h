// SPDX-License-Identifier: MIT
#pragma once

#include "widgets/workerpriority.h"

#include <QObject>
#include <QThreadPool>
#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <type_traits>
#include <utility>

namespace strobe {

// Runs a panel's trace-dependent computation on a worker thread and hands the result back on
// the thread that owns this object (the GUI thread), so that no panel blocks it on a large trace.
// Only the latest start() counts: a result that arrives after another start() or cancel() (the
// trace, a filter or a threshold changed meanwhile) is dropped unseen. The computation must use
// only what it captured by value (a std::shared_ptr<const Trace> is safe: a Trace is frozen).
class BackgroundTask : public QObject {
    Q_OBJECT
public:
    explicit BackgroundTask(QObject* parent = nullptr);
    // Drops any result still to come; a running computation finishes on its worker unobserved.
    ~BackgroundTask() override;

    // Runs `compute()` on a worker; then `deliver(result)` on this object's thread, unless a
    // later start() or cancel() superseded it.
    template <class Compute, class Deliver> void start(Compute compute, Deliver deliver);
    // Drops the result of the computation in flight, if any.
    void cancel();
    // True from start() until its result is delivered (or cancel()).
    bool isRunning() const { return m_running; }
    // Counts start() and cancel() calls; a result is current only for the generation it began in.
    quint64 generation() const { return m_generation; }

    // The pool panels compute on: its own, so a long summary never queues behind (or delays)
    // work on QThreadPool::globalInstance().
    static QThreadPool* pool();

signals:
    // After each current result was delivered.
    void finished();

private:
    // Shared with the workers: who to deliver to (null once this object is gone) and which
    // generation is current, so a superseded computation that has not begun yet is skipped.
    struct Shared {
        std::mutex mutex;
        BackgroundTask* owner = nullptr;
        std::atomic<quint64> current{0};
    };
    bool isCurrent(quint64 generation) const { return generation == m_generation; }
    // Queues `deliver` to run on the GUI thread, one delivery per pass of the event loop, so
    // that results finishing together (every panel after a new trace) never add up to one
    // long stall; dropped if this task is destroyed first.
    void deliverSoon(std::function<void()> deliver);

    std::shared_ptr<Shared> m_shared;
    quint64 m_generation = 0;
    bool m_running = false;
};

template <class Compute, class Deliver>
void BackgroundTask::start(Compute compute, Deliver deliver) {
    using Result = std::decay_t<std::invoke_result_t<Compute&>>;
    const quint64 generation = ++m_generation;
    m_shared->current.store(generation);
    m_running = true;
    // std::function needs copyable callables: share the (possibly move-only) pieces instead.
    auto job =
        std::make_shared<std::pair<Compute, Deliver>>(std::move(compute), std::move(deliver));
    std::shared_ptr<Shared> shared = m_shared;
    pool()->start([shared, job, generation] {
        if (shared->current.load() != generation)
            return; // superseded before it began
        waitWhileBackgroundWorkHeld();
        if (shared->current.load() != generation)
            return;            // superseded while held
        runBelowGuiPriority(); // (a pool thread keeps it for its later jobs)
        auto result = std::make_shared<Result>(job->first());
        const std::lock_guard lock(shared->mutex);
        BackgroundTask* owner = shared->owner;
        if (!owner || shared->current.load() != generation)
            return;
        // Posted under the lock: the destructor clears `owner` under it before the object (and
        // with it this queued call) goes away.
        QMetaObject::invokeMethod(
            owner,
            [owner, job, result, generation] {
                owner->deliverSoon([owner, job, result, generation] {
                    if (!owner->isCurrent(generation))
                        return;
                    owner->m_running = false;
                    job->second(std::move(*result));
                    emit owner->finished();
                });
            },
            Qt::QueuedConnection);
    });
}

} // namespace strobe
