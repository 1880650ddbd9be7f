// SPDX-License-Identifier: MIT
#pragma once

// The state of one capture: the configuration read from the launcher's environment, and the
// trace writer that CUPTI and NVTX feed. Rows are streamed into strobe::nsys::Writer (a
// temporary file) as they arrive; finish() commits the file once: at exit, after --duration, on
// SIGINT/SIGTERM when the program has no handler of its own, or after a crash (then marked
// incomplete, see processhooks.h).
//
// Timestamps handed to the add* functions are absolute CLOCK_MONOTONIC nanoseconds; the recorder
// shifts them so that t = 0 is the launcher's start, like nsys's session time.

#include "capture/activityparser.h"
#include "capture/captureclock.h"
#include "capture/driverfilter.h"
#include "formats/nsys/writer/nsyswriter.h"

#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace strobe::capture {

struct CaptureConfig {
    std::string output;
    bool traceCuda = true;
    bool traceNvtx = true;
    std::optional<double> durationSeconds;
    std::int64_t startMonotonicNs = 0;
    std::int64_t startUtcNs = 0;
    int statusFd = -1; // datagram socket to the launcher, -1 without one
};

// Reads the STROBE_CAPTURE_* variables. None when the output is unset or when this process is
// not the one the launcher started (a child of it inherits the environment but is not recorded).
std::optional<CaptureConfig> configFromEnvironment();

// Counted anomalies, written to META_DATA_CAPTURE and summarised on stderr.
struct RecorderCounts {
    std::uint64_t rows = 0;
    std::uint64_t skippedZeroStart = 0, skippedInverted = 0, dropped = 0;
    std::uint64_t syncsWithoutDevice = 0; // context never seen on a kernel, copy or CONTEXT record
    std::size_t peakHeldBytes = 0;
};

class Recorder final : public ActivitySink {
public:
    // The recorder of this process, created on first use with its process hooks (exit handler,
    // signal watcher, fork handler); nullptr when not capturing.
    static Recorder* get();
    // A recorder without process hooks: get() uses it, and tests drive one directly.
    explicit Recorder(CaptureConfig config);

    const CaptureConfig& config() const { return m_config; }
    // False once the capture finished or in a forked child.
    bool recording() const;

    // Called by finish() before writing (outside the recorder's lock) to drain CUPTI buffers.
    void setFlushHook(std::function<void()> hook);
    // Called by finish() for each GPU after the flush hook, when tracing is off: driver queries
    // made then add no API rows.
    void setGpuQueryHook(std::function<void(nsys::GpuRow&)> hook);
    // An extra META_DATA_CAPTURE row (versions, enable failures); the last value per key wins.
    void setCaptureInfo(const std::string& key, std::string value);
    // CUDA tracing was requested but nothing could be enabled: recorded in the metadata and
    // reported to the launcher, which exits non-zero with this sentence.
    void reportCudaProblem(const std::string& sentence);

    void addKernel(nsys::KernelRow row) override;
    void addMemcpy(nsys::MemcpyRow row) override;
    void addMemset(nsys::MemsetRow row) override;
    void addApiCall(nsys::ApiCallRow row) override; // driver calls pass DriverCallFilter
    void addSync(nsys::SyncRow row) override;       // device taken from the context map
    void addGpu(const nsys::GpuRow& row) override;
    void noteContext(std::uint32_t contextId, std::uint32_t deviceId) override;
    void noteSkipped(SkippedRecord why) override;
    void noteDropped(std::uint64_t records) override;
    void addNvtx(nsys::NvtxRow row);
    // Remembers a thread of this process; `name` is used when the thread is gone at finish.
    void noteThread(std::uint32_t tid, const std::string& name = {});

    // Writes the trace once; later calls wait for the first to complete and return. `why` is
    // "exit", "duration", "signal" or "crash"; `incomplete` marks a trace cut short by a crash.
    void finish(const char* why, bool incomplete = false);

    RecorderCounts counts() const;

private:
    bool ensureWriter(); // under m_mutex
    void shift(std::int64_t& start, std::int64_t& end) const;
    void writeSync(nsys::SyncRow row, std::uint32_t deviceId); // under m_mutex
    void writeDriverOutput();                                  // under m_mutex
    void updatePeak();                                         // under m_mutex
    void writeTables(const std::vector<nsys::GpuRow>& gpus);   // under m_mutex
    template <typename Row> void addGpuRow(Row& row, void (nsys::Writer::*add)(const Row&));

    CaptureConfig m_config;
    std::uint32_t m_pid = 0;
    std::atomic<bool> m_stopped{false};
    std::function<void()> m_flushHook;
    std::function<void(nsys::GpuRow&)> m_gpuQueryHook;

    std::mutex m_finishMutex; // held for the whole of finish()
    bool m_finished = false;

    mutable std::mutex m_mutex; // guards everything below
    std::unique_ptr<nsys::Writer> m_writer;
    bool m_writerFailed = false;
    RecorderCounts m_counts;
    std::map<std::string, std::string> m_captureInfo;
    std::unordered_map<std::uint32_t, std::string> m_threads;
    std::vector<nsys::GpuRow> m_gpus;
    std::unordered_set<std::uint64_t> m_streams;
    DriverCallFilter m_driverFilter;
    DriverCallFilter::Output m_driverOutput;
    // Context -> GPU, from kernel, copy, memset and CONTEXT records (never from sync rows).
    std::unordered_map<std::uint32_t, std::uint32_t> m_contextDevice;
    std::unordered_map<std::uint32_t, std::vector<nsys::SyncRow>> m_pendingSyncs;
    std::size_t m_pendingSyncCount = 0;
    // Driver correlation id of a cuMemset* call -> the runtime call that made it; bounded.
    std::unordered_map<std::uint32_t, std::uint32_t> m_memsetCorrelation;
    std::deque<std::uint32_t> m_memsetCorrelationOrder;
};

} // namespace strobe::capture
