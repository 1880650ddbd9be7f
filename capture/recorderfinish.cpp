// SPDX-License-Identifier: MIT
// Recorder::finish: drains CUPTI, resolves what was waiting (driver calls, sync rows), writes
// the process, thread, GPU, stream and metadata tables, and commits the trace.

#include "capture/processhooks.h"
#include "capture/recorder.h"

#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

namespace strobe::capture {

namespace {

std::string readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

std::string threadComm(std::uint32_t tid) {
    std::string name = readFile("/proc/self/task/" + std::to_string(tid) + "/comm");
    while (!name.empty() && (name.back() == '\n' || name.back() == '\0'))
        name.pop_back();
    return name;
}

std::vector<std::string> commandLine() {
    const std::string raw = readFile("/proc/self/cmdline");
    std::vector<std::string> args;
    std::size_t begin = 0;
    while (begin < raw.size()) {
        auto end = raw.find('\0', begin);
        if (end == std::string::npos)
            end = raw.size();
        args.push_back(raw.substr(begin, end - begin));
        begin = end + 1;
    }
    return args;
}

} // namespace

void Recorder::writeTables(const std::vector<nsys::GpuRow>& gpus) {
    const auto command = commandLine();
    std::string processName = threadComm(m_pid);
    if (!command.empty()) {
        const auto slash = command[0].rfind('/');
        processName = slash == std::string::npos ? command[0] : command[0].substr(slash + 1);
    }
    m_writer->addProcess({m_pid, processName});
    m_threads.try_emplace(m_pid);
    for (const auto& [tid, remembered] : m_threads) {
        std::string name = threadComm(tid);
        if (name.empty())
            name = remembered.empty() ? "Thread " + std::to_string(tid) : remembered;
        m_writer->addThread({m_pid, tid, name});
    }
    for (const auto& gpu : gpus)
        m_writer->addGpu(gpu);
    for (const std::uint64_t key : m_streams) {
        nsys::StreamRow stream;
        stream.pid = m_pid;
        stream.contextId = std::uint32_t(key >> 32);
        stream.streamId = std::uint32_t(key & 0xFFFFFFFF);
        stream.flag = 0; // unknown: CUPTI's stream records are not collected
        m_writer->addStream(stream);
    }
    nsys::Metadata meta;
    meta.productName = "Strobe";
#ifdef STROBE_VERSION
    meta.productVersion = STROBE_VERSION;
#endif
    meta.sessionStartUtcNs = m_config.startUtcNs;
    meta.command = command;
    for (const auto& entry : m_captureInfo)
        meta.captureInfo.push_back(entry);
    m_writer->setMetadata(meta);
}

void Recorder::finish(const char* why, bool incomplete) {
    if (inForkedChild())
        return;
    RecorderScope scope;
    std::lock_guard finishLock(m_finishMutex);
    if (m_finished)
        return;
    m_finished = true;
    if (m_flushHook)
        m_flushHook(); // may deliver the last records through the add* functions
    m_stopped.store(true);

    std::vector<nsys::GpuRow> gpus;
    {
        std::lock_guard lock(m_mutex);
        gpus = m_gpus;
    }
    if (m_gpuQueryHook)
        for (auto& gpu : gpus)
            m_gpuQueryHook(gpu);

    std::lock_guard lock(m_mutex);
    if (!m_writer) {
        if (!m_writerFailed)
            std::fprintf(stderr, "strobe-inject: nothing was recorded, no trace written\n");
        return;
    }
    m_driverFilter.drain(&m_driverOutput);
    writeDriverOutput();

    // Sync rows whose context never showed up elsewhere: on a single GPU there is no doubt.
    std::optional<std::uint32_t> onlyGpu;
    if (gpus.size() == 1)
        onlyGpu = gpus[0].id;
    for (auto& [context, rows] : m_pendingSyncs) {
        for (auto& row : rows) {
            if (!onlyGpu)
                ++m_counts.syncsWithoutDevice;
            writeSync(std::move(row), onlyGpu.value_or(0));
        }
    }
    m_pendingSyncs.clear();
    m_pendingSyncCount = 0;

    m_captureInfo.try_emplace("STROBE_CUDA_TRACE", m_config.traceCuda
                                                       ? "not initialised (no CUDA call was made)"
                                                       : "not requested");
    m_captureInfo["STROBE_CAPTURE_END"] = why;
    m_captureInfo["STROBE_TRACE_INCOMPLETE"] = incomplete ? "1" : "0";
    m_captureInfo["STROBE_RECORDS_SKIPPED_ZERO_START"] = std::to_string(m_counts.skippedZeroStart);
    m_captureInfo["STROBE_RECORDS_SKIPPED_INVERTED"] = std::to_string(m_counts.skippedInverted);
    m_captureInfo["STROBE_CUPTI_DROPPED_RECORDS"] = std::to_string(m_counts.dropped);
    m_captureInfo["STROBE_SYNCS_WITHOUT_DEVICE"] = std::to_string(m_counts.syncsWithoutDevice);
    m_captureInfo["STROBE_RECORDER_PEAK_BYTES"] = std::to_string(m_counts.peakHeldBytes);
    m_captureInfo["STROBE_DRIVER_CALLS_PEAK_WAITING"] =
        std::to_string(m_driverFilter.peakPending());
    writeTables(gpus);

    const std::uint64_t skipped = m_counts.skippedZeroStart + m_counts.skippedInverted;
    if (skipped > 0)
        std::fprintf(stderr,
                     "strobe-inject: warning: skipped %" PRIu64
                     " CUPTI records without valid times (%" PRIu64 " with start 0, %" PRIu64
                     " ending before their start)\n",
                     skipped, m_counts.skippedZeroStart, m_counts.skippedInverted);
    if (m_counts.dropped > 0)
        std::fprintf(stderr,
                     "strobe-inject: warning: CUPTI dropped %" PRIu64
                     " activity records (its buffers were full)\n",
                     m_counts.dropped);
    std::string error;
    if (!m_writer->commit(&error)) {
        std::fprintf(stderr, "strobe-inject: cannot write the trace: %s\n", error.c_str());
    } else {
        if (std::strcmp(why, "exit") != 0)
            std::fprintf(stderr, "strobe-inject: trace written to %s (stopped by %s)\n",
                         m_config.output.c_str(), why);
        if (incomplete)
            sendToLauncher(m_config.statusFd, std::string("incomplete\t") + why);
    }
    m_writer.reset();
}

} // namespace strobe::capture
