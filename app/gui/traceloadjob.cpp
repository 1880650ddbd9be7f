// SPDX-License-Identifier: MIT
#include "app/gui/traceloadjob.h"

#include "widgets/workerpriority.h"

#include <QElapsedTimer>
#include <QMetaObject>
#include <QPointer>

namespace strobe {

namespace {
constexpr qint64 kProgressIntervalMs = 100;

// Decides, on whichever thread reports progress, whether a value is worth a signal.
struct ProgressThrottle {
    QElapsedTimer clock;
    std::atomic<qint64> lastMs{-kProgressIntervalMs};
    ProgressThrottle() { clock.start(); }
    bool shouldPost(int permille) {
        const qint64 now = clock.elapsed();
        qint64 last = lastMs.load();
        if (permille < 1000 && now - last < kProgressIntervalMs)
            return false;
        return lastMs.compare_exchange_strong(last, now) || permille >= 1000;
    }
};

// The last reference to a loaded trace usually drops on the GUI thread: it is freed off it.
std::shared_ptr<const Trace> shareTrace(std::unique_ptr<Trace> trace) {
    if (!trace)
        return nullptr;
    return shareFreedOffThread(std::unique_ptr<const Trace>(std::move(trace)));
}
} // namespace

TraceLoadJob::TraceLoadJob(QString path, std::uint64_t previewMinRows, QObject* parent)
    : QObject(parent)
    , m_path(std::move(path))
    , m_previewMinRows(previewMinRows) {}

TraceLoadJob::~TraceLoadJob() {
    cancel();
    if (m_thread)
        m_thread->wait();
}

bool TraceLoadJob::isRunning() const {
    return m_thread && m_thread->isRunning();
}

void TraceLoadJob::cancel() {
    m_cancel.store(true);
}

void TraceLoadJob::start() {
    Q_ASSERT(!m_thread);
    QPointer<TraceLoadJob> self(this);
    m_thread.reset(QThread::create([this, self] {
        runBelowGuiPriority(); // and the scan threads the loader starts, which inherit it
        LoadOptions options;
        options.cancel = &m_cancel;
        // At most one progress signal per kProgressIntervalMs (and the last one): the status
        // bar's QProgressBar repaints synchronously on each change of its text.
        auto throttle = std::make_shared<ProgressThrottle>();
        options.progress = [this, self, throttle](int permille) {
            if (!throttle->shouldPost(permille))
                return;
            QMetaObject::invokeMethod(
                this,
                [self, permille] {
                    if (self)
                        emit self->progress(permille);
                },
                Qt::QueuedConnection);
        };
        options.previewMinRows = m_previewMinRows;
        options.earlyPreviewAfter = m_earlyPreviewAfter;
        options.cacheFolder = m_cacheFolder;
        options.cacheCapBytes = m_cacheCapBytes;
        options.preview = [this, self](std::unique_ptr<Trace> gpuSide) {
            std::shared_ptr<const Trace> shared = shareTrace(std::move(gpuSide));
            QMetaObject::invokeMethod(
                this,
                [self, shared] {
                    if (self)
                        emit self->preview(shared);
                },
                Qt::QueuedConnection);
        };
        LoadResult result = loadTrace(m_path, options);
        std::shared_ptr<const Trace> trace = shareTrace(std::move(result.trace));
        QMetaObject::invokeMethod(
            this,
            [self, trace, error = result.error, cancelled = result.cancelled] {
                if (self)
                    emit self->finished(trace, error, cancelled);
            },
            Qt::QueuedConnection);
    }));
    m_thread->setObjectName(QStringLiteral("strobe-loader"));
    m_thread->start();
}

} // namespace strobe
