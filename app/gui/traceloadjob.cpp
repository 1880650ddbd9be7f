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

std::shared_ptr<TimelineLod> buildLevelOfDetail(std::shared_ptr<const Trace> trace,
                                                TimeNs idleThreshold,
                                                const std::atomic<bool>& cancel) {
    // Freed off the GUI thread when a newer trace replaces it, as the timeline's own.
    std::shared_ptr<TimelineLod> lod =
        shareFreedOffThread(std::make_unique<TimelineLod>(std::move(trace), idleThreshold));
    lod->build(cancel);
    return lod->isComplete() ? lod : nullptr;
}

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
        bool previewed = false;
        options.preview = [this, self, &previewed](std::unique_ptr<Trace> gpuSide) {
            previewed = true;
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
        std::shared_ptr<TimelineLod> lod;
        bool cancelled = result.cancelled;
        if (trace && previewed && m_lodIdleThreshold) {
            lod = buildLevelOfDetail(trace, *m_lodIdleThreshold, m_cancel);
            if (!lod) { // cancelled while building: the load is
                trace.reset();
                cancelled = true;
            }
        }
        QMetaObject::invokeMethod(
            this,
            [self, trace, lod, error = result.error, cancelled] {
                if (!self)
                    return;
                if (lod)
                    emit self->levelOfDetail(lod);
                emit self->finished(trace, error, cancelled);
            },
            Qt::QueuedConnection);
    }));
    m_thread->setObjectName(QStringLiteral("strobe-loader"));
    m_thread->start();
}

} // namespace strobe
