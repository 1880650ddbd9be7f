// SPDX-License-Identifier: MIT
#include "backgroundtask.h"

#include <QCoreApplication>
#include <QPointer>
#include <QThread>
#include <algorithm>

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
