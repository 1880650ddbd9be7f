// SPDX-License-Identifier: MIT
#include "capture/recorder.h"

#include "capture/captureoptions.h"
#include "capture/processhooks.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <sys/stat.h>
#include <unistd.h>

namespace strobe::capture {

namespace {

constexpr std::size_t kMaxMemsetCorrelations = 65536;

std::optional<std::int64_t> envInt(const char* name) {
    const char* v = std::getenv(name);
    if (!v || !*v)
        return std::nullopt;
    char* end = nullptr;
    const long long n = std::strtoll(v, &end, 10);
    if (*end != '\0')
        return std::nullopt;
    return n;
}

int statusSocket() {
    const auto fd = envInt(kEnvStatusFd);
    struct stat st {};
    if (!fd || *fd < 0 || *fd > 65535 || ::fstat(int(*fd), &st) != 0 || !S_ISSOCK(st.st_mode))
        return -1;
    return int(*fd);
}

} // namespace

std::optional<CaptureConfig> configFromEnvironment() {
    const char* output = std::getenv(kEnvOutput);
    if (!output || !*output)
        return std::nullopt;
    if (const auto pid = envInt(kEnvPid); pid && *pid != ::getpid())
        return std::nullopt;
    CaptureConfig config;
    config.output = output;
    if (const char* trace = std::getenv(kEnvTrace); trace && *trace) {
        std::string error;
        if (!parseTraceList(trace, &config.traceCuda, &config.traceNvtx, &error))
            std::fprintf(stderr, "strobe-inject: ignoring %s: %s\n", kEnvTrace, error.c_str());
    }
    if (const char* duration = std::getenv(kEnvDuration); duration && *duration) {
        const double seconds = std::strtod(duration, nullptr);
        if (seconds > 0)
            config.durationSeconds = seconds;
    }
    config.startMonotonicNs = envInt(kEnvStartNs).value_or(monotonicNs());
    config.startUtcNs = envInt(kEnvStartUtcNs).value_or(realtimeNs());
    config.statusFd = statusSocket();
    return config;
}

Recorder* Recorder::get() {
    // Leaked on purpose: it must outlive every atexit handler and CUPTI's worker thread.
    static Recorder* instance = []() -> Recorder* {
        auto config = configFromEnvironment();
        if (!config)
            return nullptr;
        auto* r = new Recorder(std::move(*config));
        installProcessHooks(r);
        return r;
    }();
    return instance;
}

Recorder::Recorder(CaptureConfig config)
    : m_config(std::move(config))
    , m_pid(std::uint32_t(::getpid())) {}

bool Recorder::recording() const {
    return !m_stopped.load() && !inForkedChild();
}

void Recorder::setFlushHook(std::function<void()> hook) {
    std::lock_guard lock(m_finishMutex);
    m_flushHook = std::move(hook);
}

void Recorder::setGpuQueryHook(std::function<void(nsys::GpuRow&)> hook) {
    std::lock_guard lock(m_finishMutex);
    m_gpuQueryHook = std::move(hook);
}

void Recorder::setCaptureInfo(const std::string& key, std::string value) {
    RecorderScope scope;
    std::lock_guard lock(m_mutex);
    m_captureInfo[key] = std::move(value);
}

void Recorder::reportCudaProblem(const std::string& sentence) {
    setCaptureInfo("STROBE_CUDA_TRACE", "not recorded: " + sentence);
    std::fprintf(stderr, "strobe-inject: CUDA activity is not recorded: %s\n", sentence.c_str());
    sendToLauncher(m_config.statusFd, "cuda-disabled\t" + sentence);
}

bool Recorder::ensureWriter() {
    if (m_writer)
        return true;
    if (m_writerFailed)
        return false;
    std::string error;
    m_writer = nsys::Writer::create(m_config.output, nsys::SchemaFlavor::V3_25, &error);
    if (!m_writer) {
        m_writerFailed = true;
        std::fprintf(stderr, "strobe-inject: %s\n", error.c_str());
        return false;
    }
    return true;
}

void Recorder::shift(std::int64_t& start, std::int64_t& end) const {
    start -= m_config.startMonotonicNs;
    end -= m_config.startMonotonicNs;
}

void Recorder::updatePeak() {
    const std::size_t held =
        m_driverFilter.heldBytes() + m_pendingSyncCount * sizeof(nsys::SyncRow) +
        m_memsetCorrelation.size() * (2 * sizeof(std::uint32_t) + 3 * sizeof(void*)) +
        m_threads.size() * (sizeof(std::string) + 32) + m_streams.size() * 24;
    m_counts.peakHeldBytes = std::max(m_counts.peakHeldBytes, held);
}

template <typename Row> void Recorder::addGpuRow(Row& row, void (nsys::Writer::*add)(const Row&)) {
    if (!recording())
        return;
    row.pid = m_pid;
    shift(row.start, row.end);
    RecorderScope scope;
    std::lock_guard lock(m_mutex);
    if (!ensureWriter())
        return;
    m_streams.insert((std::uint64_t(row.contextId) << 32) | row.streamId);
    (m_writer.get()->*add)(row);
    ++m_counts.rows;
}

void Recorder::addKernel(nsys::KernelRow row) {
    addGpuRow(row, &nsys::Writer::addKernel);
}
void Recorder::addMemcpy(nsys::MemcpyRow row) {
    addGpuRow(row, &nsys::Writer::addMemcpy);
}
void Recorder::addMemset(nsys::MemsetRow row) {
    if (row.correlationId) {
        RecorderScope scope;
        std::lock_guard lock(m_mutex);
        // Link the memset to the runtime call that made its driver call (memset records carry
        // only the driver's correlation id, and nested driver calls are not written).
        if (auto it = m_memsetCorrelation.find(*row.correlationId);
            it != m_memsetCorrelation.end()) {
            row.correlationId = it->second;
            m_memsetCorrelation.erase(it);
        }
    }
    addGpuRow(row, &nsys::Writer::addMemset);
}

void Recorder::writeDriverOutput() {
    for (const auto& call : m_driverOutput.direct) {
        m_writer->addApiCall(call);
        ++m_counts.rows;
    }
    for (const auto& nested : m_driverOutput.nested) {
        if (!nested.memset)
            continue;
        if (m_memsetCorrelation.emplace(nested.driverCorrelation, nested.runtimeCorrelation).second)
            m_memsetCorrelationOrder.push_back(nested.driverCorrelation);
        while (m_memsetCorrelationOrder.size() > kMaxMemsetCorrelations) {
            m_memsetCorrelation.erase(m_memsetCorrelationOrder.front());
            m_memsetCorrelationOrder.pop_front();
        }
    }
    m_driverOutput.clear();
}

void Recorder::addApiCall(nsys::ApiCallRow row) {
    if (!recording())
        return;
    row.pid = m_pid;
    shift(row.start, row.end);
    RecorderScope scope;
    std::lock_guard lock(m_mutex);
    if (!ensureWriter())
        return;
    m_threads.try_emplace(row.tid);
    if (row.eventClass == 1) {
        m_driverFilter.addDriver(std::move(row), &m_driverOutput);
    } else {
        m_driverFilter.addRuntime(row, &m_driverOutput);
        m_writer->addApiCall(row);
        ++m_counts.rows;
    }
    writeDriverOutput();
    updatePeak();
}

void Recorder::writeSync(nsys::SyncRow row, std::uint32_t deviceId) {
    row.deviceId = deviceId;
    m_writer->addSync(row);
    ++m_counts.rows;
}

void Recorder::addSync(nsys::SyncRow row) {
    if (!recording())
        return;
    row.pid = m_pid;
    shift(row.start, row.end);
    RecorderScope scope;
    std::lock_guard lock(m_mutex);
    if (!ensureWriter())
        return;
    if (auto it = m_contextDevice.find(row.contextId); it != m_contextDevice.end()) {
        writeSync(row, it->second);
        return;
    }
    // Wait for a kernel, copy or CONTEXT record to say which GPU the context is on.
    m_pendingSyncs[row.contextId].push_back(row);
    ++m_pendingSyncCount;
    updatePeak();
}

void Recorder::noteContext(std::uint32_t contextId, std::uint32_t deviceId) {
    if (!recording())
        return;
    RecorderScope scope;
    std::lock_guard lock(m_mutex);
    if (!m_contextDevice.emplace(contextId, deviceId).second)
        return;
    auto pending = m_pendingSyncs.find(contextId);
    if (pending == m_pendingSyncs.end() || !ensureWriter())
        return;
    for (auto& row : pending->second)
        writeSync(std::move(row), deviceId);
    m_pendingSyncCount -= pending->second.size();
    m_pendingSyncs.erase(pending);
}

void Recorder::noteSkipped(SkippedRecord why) {
    RecorderScope scope;
    std::lock_guard lock(m_mutex);
    ++(why == SkippedRecord::ZeroStart ? m_counts.skippedZeroStart : m_counts.skippedInverted);
}

void Recorder::noteDropped(std::uint64_t records) {
    RecorderScope scope;
    std::lock_guard lock(m_mutex);
    m_counts.dropped += records;
}

void Recorder::addNvtx(nsys::NvtxRow row) {
    if (!recording())
        return;
    row.pid = m_pid;
    row.start -= m_config.startMonotonicNs;
    if (row.end)
        *row.end -= m_config.startMonotonicNs;
    RecorderScope scope;
    std::lock_guard lock(m_mutex);
    if (!ensureWriter())
        return;
    m_threads.try_emplace(row.tid);
    if (row.endTid)
        m_threads.try_emplace(*row.endTid);
    m_writer->addNvtx(row);
    ++m_counts.rows;
}

void Recorder::addGpu(const nsys::GpuRow& row) {
    if (!recording())
        return;
    RecorderScope scope;
    std::lock_guard lock(m_mutex);
    for (const auto& gpu : m_gpus)
        if (gpu.id == row.id)
            return;
    m_gpus.push_back(row);
}

void Recorder::noteThread(std::uint32_t tid, const std::string& name) {
    if (!recording())
        return;
    RecorderScope scope;
    std::lock_guard lock(m_mutex);
    auto& slot = m_threads[tid];
    if (slot.empty())
        slot = name;
}

RecorderCounts Recorder::counts() const {
    std::lock_guard lock(m_mutex);
    return m_counts;
}

} // namespace strobe::capture
