// SPDX-License-Identifier: MIT
#pragma once

// The process-wide state of libstrobe-inject.so: the capture configuration read from the
// launcher's environment, and the trace writer that CUPTI and NVTX feed. Rows are streamed into
// strobe::nsys::Writer (a temporary file) as they arrive; finish() commits the file once, at exit,
// after --duration, or on SIGINT/SIGTERM when the program has no handler of its own.
//
// Timestamps handed to the add* functions are absolute CLOCK_MONOTONIC nanoseconds; the recorder
// shifts them so that t = 0 is the launcher's start, like nsys's session time.

#include "formats/nsys/writer/nsyswriter.h"

#include <atomic>
#include <cstdint>
#include <functional>
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
};

// Reads the STROBE_CAPTURE_* variables. None when the output is unset or when this process is
// not the one the launcher started (a child of it inherits the environment but is not recorded).
std::optional<CaptureConfig> configFromEnvironment();

std::int64_t monotonicNs();

class Recorder {
public:
    // The recorder of this process, created on first use; nullptr when not capturing.
    static Recorder* get();

    const CaptureConfig& config() const { return m_config; }
    // False once the capture finished or in a forked child.
    bool recording() const;

    // Called by finish() before writing (outside the recorder's lock) to drain CUPTI buffers.
    void setFlushHook(std::function<void()> hook);

    void addKernel(nsys::KernelRow row);
    void addMemcpy(nsys::MemcpyRow row);
    void addMemset(nsys::MemsetRow row);
    void addApiCall(nsys::ApiCallRow row); // eventClass 1 (driver) rows are filtered, see finish
    void addSync(nsys::SyncRow row);
    void addNvtx(nsys::NvtxRow row);
    void addGpu(const nsys::GpuRow& row);
    // Remembers a thread of this process; `name` is used when the thread is gone at finish.
    void noteThread(std::uint32_t tid, const std::string& name = {});

    // Writes the trace once; later calls wait for the first to complete and return.
    void finish(const char* why);

private:
    explicit Recorder(CaptureConfig config);
    bool ensureWriter();     // under m_mutex
    void writeDriverCalls(); // under m_mutex
    void noteStream(std::uint32_t contextId, std::uint32_t streamId, std::uint32_t deviceId);
    // Kernels, memcpys and memsets: session-relative times, then one locked write.
    template <typename Row> void addGpuRow(Row& row, void (nsys::Writer::*add)(const Row&));

    CaptureConfig m_config;
    std::uint32_t m_pid = 0;
    std::atomic<bool> m_stopped{false};
    std::function<void()> m_flushHook;

    std::mutex m_finishMutex; // held for the whole of finish()
    bool m_finished = false;

    std::mutex m_mutex; // guards everything below
    std::unique_ptr<nsys::Writer> m_writer;
    bool m_writerFailed = false;
    std::size_t m_rows = 0;
    std::unordered_map<std::uint32_t, std::string> m_threads;
    std::vector<nsys::GpuRow> m_gpus;
    std::unordered_set<std::uint64_t> m_streams;
    // Runtime API intervals per thread: driver calls inside them were made by the runtime and
    // are dropped, as nsys does.
    std::unordered_map<std::uint32_t, std::vector<std::pair<std::int64_t, std::int64_t>>>
        m_runtimeSpans;
    std::vector<nsys::ApiCallRow> m_driverCalls;
};

} // namespace strobe::capture
