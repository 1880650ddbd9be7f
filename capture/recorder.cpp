// SPDX-License-Identifier: MIT
#include "capture/recorder.h"

#include "capture/captureoptions.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <fstream>
#include <poll.h>
#include <pthread.h>
#include <sstream>
#include <sys/syscall.h>
#include <thread>
#include <unistd.h>

namespace strobe::capture {

namespace {

std::atomic<bool> g_forkedChild{false};
int g_signalPipe[2] = {-1, -1};

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

std::int64_t realtimeNs() {
    timespec ts{};
    ::clock_gettime(CLOCK_REALTIME, &ts);
    return std::int64_t(ts.tv_sec) * 1000000000LL + ts.tv_nsec;
}

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

void onFork() {
    g_forkedChild.store(true);
}

void onSignal(int sig) {
    const unsigned char byte = static_cast<unsigned char>(sig);
    const int saved = errno;
    [[maybe_unused]] const auto n = ::write(g_signalPipe[1], &byte, 1);
    errno = saved;
}

void finishAtExit() {
    if (Recorder* r = Recorder::get())
        r->finish("exit");
}

// Waits for --duration to pass or for a SIGINT/SIGTERM caught by onSignal, then finishes the
// capture. After a signal it restores the default action and re-raises it, so the program ends
// the way it would have without us, but with its trace written.
void watchdog(Recorder* recorder, std::optional<std::int64_t> deadlineNs) {
    pollfd pfd{g_signalPipe[0], POLLIN, 0};
    for (;;) {
        int timeoutMs = -1;
        if (deadlineNs) {
            const std::int64_t left = *deadlineNs - monotonicNs();
            timeoutMs = int(std::max<std::int64_t>(0, (left + 999999) / 1000000));
        }
        const int r = ::poll(&pfd, 1, timeoutMs);
        if (r == 0 && deadlineNs) {
            recorder->finish("duration");
            deadlineNs.reset();
            continue;
        }
        if (r < 0) {
            if (errno == EINTR)
                continue;
            return;
        }
        unsigned char sig = 0;
        if (::read(g_signalPipe[0], &sig, 1) != 1)
            continue;
        recorder->finish("signal");
        std::signal(sig, SIG_DFL);
        ::kill(::getpid(), sig);
        return;
    }
}

void installSignalHandlers() {
    for (int sig : {SIGINT, SIGTERM}) {
        struct sigaction current {};
        // Leave programs that handle the signal themselves (Python's KeyboardInterrupt) alone:
        // they exit normally and the atexit handler writes the trace.
        if (::sigaction(sig, nullptr, &current) != 0 || current.sa_handler != SIG_DFL ||
            (current.sa_flags & SA_SIGINFO))
            continue;
        struct sigaction handler {};
        handler.sa_handler = onSignal;
        sigemptyset(&handler.sa_mask);
        handler.sa_flags = SA_RESTART;
        ::sigaction(sig, &handler, nullptr);
    }
}

} // namespace

std::int64_t monotonicNs() {
    timespec ts{};
    ::clock_gettime(CLOCK_MONOTONIC, &ts);
    return std::int64_t(ts.tv_sec) * 1000000000LL + ts.tv_nsec;
}

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
    return config;
}

Recorder* Recorder::get() {
    // Leaked on purpose: it must outlive every atexit handler and CUPTI's worker thread.
    static Recorder* instance = []() -> Recorder* {
        auto config = configFromEnvironment();
        if (!config)
            return nullptr;
        auto* r = new Recorder(std::move(*config));
        std::atexit(finishAtExit);
        ::pthread_atfork(nullptr, nullptr, onFork);
        if (::pipe2(g_signalPipe, O_CLOEXEC) == 0) {
            installSignalHandlers();
            std::optional<std::int64_t> deadline;
            if (r->m_config.durationSeconds)
                deadline =
                    r->m_config.startMonotonicNs + std::int64_t(*r->m_config.durationSeconds * 1e9);
            std::thread(watchdog, r, deadline).detach();
        }
        return r;
    }();
    return instance;
}

Recorder::Recorder(CaptureConfig config)
    : m_config(std::move(config))
    , m_pid(std::uint32_t(::getpid())) {}

bool Recorder::recording() const {
    return !m_stopped.load() && !g_forkedChild.load();
}

void Recorder::setFlushHook(std::function<void()> hook) {
    std::lock_guard lock(m_finishMutex);
    m_flushHook = std::move(hook);
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

void Recorder::noteStream(std::uint32_t contextId, std::uint32_t streamId, std::uint32_t deviceId) {
    (void)deviceId;
    m_streams.insert((std::uint64_t(contextId) << 32) | streamId);
}

template <typename Row> void Recorder::addGpuRow(Row& row, void (nsys::Writer::*add)(const Row&)) {
    if (!recording())
        return;
    row.pid = m_pid;
    row.start -= m_config.startMonotonicNs;
    row.end -= m_config.startMonotonicNs;
    std::lock_guard lock(m_mutex);
    if (!ensureWriter())
        return;
    noteStream(row.contextId, row.streamId, row.deviceId);
    (m_writer.get()->*add)(row);
    ++m_rows;
}

void Recorder::addKernel(nsys::KernelRow row) {
    addGpuRow(row, &nsys::Writer::addKernel);
}
void Recorder::addMemcpy(nsys::MemcpyRow row) {
    addGpuRow(row, &nsys::Writer::addMemcpy);
}
void Recorder::addMemset(nsys::MemsetRow row) {
    addGpuRow(row, &nsys::Writer::addMemset);
}

void Recorder::addApiCall(nsys::ApiCallRow row) {
    if (!recording())
        return;
    row.pid = m_pid;
    row.start -= m_config.startMonotonicNs;
    row.end -= m_config.startMonotonicNs;
    std::lock_guard lock(m_mutex);
    if (!ensureWriter())
        return;
    m_threads.try_emplace(row.tid);
    if (row.eventClass == 1) {
        m_driverCalls.push_back(std::move(row)); // written at finish, see writeDriverCalls
        return;
    }
    m_runtimeSpans[row.tid].emplace_back(row.start, row.end);
    m_writer->addApiCall(row);
    ++m_rows;
}

void Recorder::addSync(nsys::SyncRow row) {
    if (!recording())
        return;
    row.pid = m_pid;
    row.start -= m_config.startMonotonicNs;
    row.end -= m_config.startMonotonicNs;
    std::lock_guard lock(m_mutex);
    if (!ensureWriter())
        return;
    m_writer->addSync(row);
    ++m_rows;
}

void Recorder::addNvtx(nsys::NvtxRow row) {
    if (!recording())
        return;
    row.pid = m_pid;
    row.start -= m_config.startMonotonicNs;
    if (row.end)
        *row.end -= m_config.startMonotonicNs;
    std::lock_guard lock(m_mutex);
    if (!ensureWriter())
        return;
    m_threads.try_emplace(row.tid);
    if (row.endTid)
        m_threads.try_emplace(*row.endTid);
    m_writer->addNvtx(row);
    ++m_rows;
}

void Recorder::addGpu(const nsys::GpuRow& row) {
    if (!recording())
        return;
    std::lock_guard lock(m_mutex);
    for (const auto& gpu : m_gpus)
        if (gpu.id == row.id)
            return;
    m_gpus.push_back(row);
}

void Recorder::noteThread(std::uint32_t tid, const std::string& name) {
    if (!recording())
        return;
    std::lock_guard lock(m_mutex);
    auto& slot = m_threads[tid];
    if (slot.empty())
        slot = name;
}

void Recorder::writeDriverCalls() {
    for (auto& [tid, spans] : m_runtimeSpans)
        std::sort(spans.begin(), spans.end());
    for (const auto& call : m_driverCalls) {
        bool nested = false;
        if (auto it = m_runtimeSpans.find(call.tid); it != m_runtimeSpans.end()) {
            const auto& spans = it->second;
            // The last runtime call starting at or before this driver call is the only candidate.
            auto pos =
                std::upper_bound(spans.begin(), spans.end(), std::make_pair(call.start, INT64_MAX));
            nested = pos != spans.begin() && std::prev(pos)->second >= call.end;
        }
        if (!nested) {
            m_writer->addApiCall(call);
            ++m_rows;
        }
    }
    m_driverCalls.clear();
}

void Recorder::finish(const char* why) {
    if (g_forkedChild.load())
        return;
    std::lock_guard finishLock(m_finishMutex);
    if (m_finished)
        return;
    m_finished = true;
    if (m_flushHook)
        m_flushHook(); // may deliver the last records through the add* functions
    m_stopped.store(true);

    std::lock_guard lock(m_mutex);
    if (!m_writer) {
        if (!m_writerFailed)
            std::fprintf(stderr, "strobe-inject: nothing was recorded, no trace written\n");
        return;
    }
    writeDriverCalls();

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
    for (const auto& gpu : m_gpus)
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
    m_writer->setMetadata(meta);

    std::string error;
    if (!m_writer->commit(&error))
        std::fprintf(stderr, "strobe-inject: cannot write the trace: %s\n", error.c_str());
    else if (std::strcmp(why, "exit") != 0)
        std::fprintf(stderr, "strobe-inject: trace written to %s (stopped by %s)\n",
                     m_config.output.c_str(), why);
    (void)m_rows;
    m_writer.reset();
}

} // namespace strobe::capture
