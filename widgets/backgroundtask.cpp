// SPDX-License-Identifier: MIT
#include "widgets/backgroundtask.h"

#include <QCoreApplication>
#include <QPointer>
#include <QThread>
#include <QTimer>
#include <algorithm>
#include <deque>

namespace strobe {

BackgroundTask::BackgroundTask(QObject* parent)
    : QObject(parent)
    , m_shared(std::make_shared<Shared>()) {
    m_shared->owner = this;
}

BackgroundTask::~BackgroundTask() {
    const std::lock_guard lock(m_shared->mutex);
    m_shared->owner = nullptr;
    m_shared->current.store(0); // generations start at 1: jobs not begun yet are skipped
}

void BackgroundTask::cancel() {
    ++m_generation;
    m_shared->current.store(m_generation);
    m_running = false;
}

namespace {
// Results waiting for the GUI thread, handed out one per timer activation.
struct DeliveryQueue {
    std::deque<std::pair<QPointer<BackgroundTask>, std::function<void()>>> items;
    QPointer<QTimer> timer;
};
DeliveryQueue& deliveryQueue() {
    static DeliveryQueue queue; // used on the GUI thread only
    return queue;
}
} // namespace

void BackgroundTask::deliverSoon(std::function<void()> deliver) {
    DeliveryQueue& q = deliveryQueue();
    q.items.emplace_back(QPointer<BackgroundTask>(this), std::move(deliver));
    if (!q.timer) {
        // A zero timer fires once per pass, after the posted events of that pass.
        q.timer = new QTimer(QCoreApplication::instance());
        q.timer->setSingleShot(true);
        q.timer->setInterval(0);
        QObject::connect(q.timer, &QTimer::timeout, [] {
            DeliveryQueue& dq = deliveryQueue();
            if (dq.items.empty())
                return;
            auto [owner, run] = std::move(dq.items.front());
            dq.items.pop_front();
            if (!dq.items.empty())
                dq.timer->start();
            if (owner)
                run();
        });
    }
    if (!q.timer->isActive())
        q.timer->start();
}

QThreadPool* BackgroundTask::pool() {
    // Owned by the application, whose destruction waits for computations still running.
    static QPointer<QThreadPool> pool;
    if (!pool) {
        QCoreApplication* app = QCoreApplication::instance();
        if (!app)
            return QThreadPool::globalInstance();
        pool = new QThreadPool(app);
        pool->setObjectName(QStringLiteral("strobe-panels"));
        pool->setMaxThreadCount(std::max(2, QThread::idealThreadCount()));
    }
    return pool;
}

} // namespace strobe
