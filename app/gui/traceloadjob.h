// SPDX-License-Identifier: MIT
#pragma once

#include "formats/open.h"
#include "model/lod/timelinelod.h"

#include <QObject>
#include <QThread>
#include <atomic>
#include <memory>
#include <optional>

namespace strobe {

// Builds `trace`'s complete TimelineLod on this thread (freed off the GUI thread once shared);
// null when `cancel` stops it first.
std::shared_ptr<TimelineLod> buildLevelOfDetail(std::shared_ptr<const Trace> trace,
                                                TimeNs idleThreshold,
                                                const std::atomic<bool>& cancel);

// Loads one trace on a worker thread. Progress and the result arrive as queued signals on the
// thread that created the job, so the GUI thread only ever receives a finished, frozen Trace.
class TraceLoadJob : public QObject {
    Q_OBJECT
public:
    // `previewMinRows`: traces with at least this many event rows send preview() first.
    explicit TraceLoadJob(QString path, std::uint64_t previewMinRows = LoadOptions().previewMinRows,
                          QObject* parent = nullptr);
    ~TraceLoadJob() override; // cancels and waits for the worker

    QString path() const { return m_path; }
    // Use the reopen cache in `folder` (LoadOptions::cacheFolder; empty: none) capped at
    // `capBytes` (nullopt: sized from its disk). Before start().
    void setCache(QString folder, std::optional<std::uint64_t> capBytes) {
        m_cacheFolder = std::move(folder);
        m_cacheCapBytes = capBytes;
    }
    // After a load that sent a preview (a big trace), builds the trace's TimelineLod (finding
    // idle gaps of `idleThreshold`) on the worker too, and sends it (levelOfDetail()) just before
    // finished(): the timeline's first frame of the whole trace then reads summaries instead of
    // folding millions of events on the GUI thread (~15 ms at 10M), for a hand-over ~0.6 s later.
    // Before start().
    void setLevelOfDetailAfterPreview(TimeNs idleThreshold) { m_lodIdleThreshold = idleThreshold; }
    // LoadOptions::earlyPreviewAfter. Before start().
    void setEarlyPreviewAfter(std::chrono::milliseconds wait) { m_earlyPreviewAfter = wait; }
    void start();
    // Asks the worker to stop; finished() follows with cancelled == true.
    void cancel();
    bool isRunning() const;

signals:
    void progress(int permille);
    // Before finished(), for a big trace: the first rows of its GPU side, then the whole GPU side
    // (TraceMetadata::stage says which), while the rest is being read.
    void preview(std::shared_ptr<const strobe::Trace> gpuSide);
    // Right before finished(), when setLevelOfDetailAfterPreview asked for it: the complete
    // level of detail of the trace finished() brings.
    void levelOfDetail(std::shared_ptr<strobe::TimelineLod> lod);
    // Exactly once per start(). `trace` is null on error or cancel.
    void finished(std::shared_ptr<const strobe::Trace> trace, QString error, bool cancelled);

private:
    QString m_path;
    std::uint64_t m_previewMinRows;
    std::chrono::milliseconds m_earlyPreviewAfter = LoadOptions().earlyPreviewAfter;
    QString m_cacheFolder;
    std::optional<std::uint64_t> m_cacheCapBytes;
    std::optional<TimeNs> m_lodIdleThreshold;
    std::atomic<bool> m_cancel{false};
    std::unique_ptr<QThread> m_thread;
};

} // namespace strobe
