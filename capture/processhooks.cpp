// SPDX-License-Identifier: MIT
#include "capture/processhooks.h"

#include "capture/recorder.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <fcntl.h>
#include <optional>
#include <poll.h>
#include <pthread.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

namespace strobe::capture {

namespace {

std::atomic<bool> g_forkedChild{false};
std::atomic<bool> g_crashing{false};
Recorder* g_recorder = nullptr;
int g_signalPipe[2] = {-1, -1}; // handlers -> watcher: the signal number, | 0x80 for a crash
int g_ackPipe[2] = {-1, -1};    // watcher -> crashing thread: the trace is written
int g_statusFd = -1;
thread_local int t_recorderDepth = 0;

constexpr std::array kStopSignals = {SIGINT, SIGTERM};
constexpr std::array kCrashSignals = {SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL};
constexpr unsigned char kCrashBit = 0x80;

bool isOurs(int sig);

void restoreDefault(int sig) {
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    ::sigaction(sig, &dfl, nullptr);
}

void closeFd(int& fd) {
    if (fd >= 0)
        ::close(fd);
    fd = -1;
}

// Runs in a child forked after start-up (async-signal-safe calls only).
void onFork() {
    g_forkedChild.store(true);
    for (int sig : kStopSignals)
        if (isOurs(sig))
            restoreDefault(sig);
    for (int sig : kCrashSignals)
        if (isOurs(sig))
            restoreDefault(sig);
    closeFd(g_signalPipe[0]);
    closeFd(g_signalPipe[1]);
    closeFd(g_ackPipe[0]);
    closeFd(g_ackPipe[1]);
    closeFd(g_statusFd);
}

void onSignal(int sig) {
    const unsigned char byte = static_cast<unsigned char>(sig);
    const int saved = errno;
    [[maybe_unused]] const auto n = ::write(g_signalPipe[1], &byte, 1);
    errno = saved;
}

// A fatal signal: let the watcher write what was recorded, then die of the signal as the program
// would have. Async-signal-safe calls only.
void onCrash(int sig) {
    if (!g_forkedChild.load() && t_recorderDepth == 0 && g_signalPipe[1] >= 0 &&
        !g_crashing.exchange(true)) {
        const unsigned char byte = static_cast<unsigned char>(sig) | kCrashBit;
        if (::write(g_signalPipe[1], &byte, 1) == 1) {
            pollfd pfd{g_ackPipe[0], POLLIN, 0};
            while (::poll(&pfd, 1, kCrashWriteTimeoutMs) < 0 && errno == EINTR) {
            }
        }
    }
    restoreDefault(sig);
    ::raise(sig); // delivered when the handler returns, with the default action
}

bool isOurs(int sig) {
    struct sigaction current {};
    if (::sigaction(sig, nullptr, &current) != 0 || (current.sa_flags & SA_SIGINFO))
        return false;
    return current.sa_handler == onSignal || current.sa_handler == onCrash;
}

void finishAtExit() {
    if (g_recorder)
        g_recorder->finish("exit");
}

// Waits for --duration to pass or for a byte from a signal handler, then finishes the capture.
void watchdog(Recorder* recorder, std::optional<std::int64_t> deadlineNs) {
    t_recorderDepth = 1; // a crash on this thread must not wait for this thread
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
        unsigned char byte = 0;
        if (::read(g_signalPipe[0], &byte, 1) != 1)
            continue;
        if (byte & kCrashBit) {
            recorder->finish("crash", true);
            [[maybe_unused]] const auto n = ::write(g_ackPipe[1], &byte, 1);
            return;
        }
        recorder->finish("signal");
        restoreDefault(byte);
        ::kill(::getpid(), byte);
        return;
    }
}

// Only where the program has no handler of its own: a program that handles SIGINT (Python's
// KeyboardInterrupt) exits normally and the exit handler writes the trace; one that handles
// SIGSEGV (a crash reporter) keeps its behaviour.
void installHandler(int sig, void (*handler)(int), int flags) {
    struct sigaction current {};
    if (::sigaction(sig, nullptr, &current) != 0 || current.sa_handler != SIG_DFL ||
        (current.sa_flags & SA_SIGINFO))
        return;
    struct sigaction action {};
    action.sa_handler = handler;
    sigemptyset(&action.sa_mask);
    action.sa_flags = flags;
    ::sigaction(sig, &action, nullptr);
}

} // namespace

bool inForkedChild() {
    return g_forkedChild.load();
}

RecorderScope::RecorderScope() {
    ++t_recorderDepth;
}
RecorderScope::~RecorderScope() {
    --t_recorderDepth;
}

void sendToLauncher(int statusFd, const std::string& message) {
    if (statusFd < 0 || g_forkedChild.load())
        return;
    [[maybe_unused]] const auto n =
        ::send(statusFd, message.data(), message.size(), MSG_DONTWAIT | MSG_NOSIGNAL);
}

void installProcessHooks(Recorder* recorder) {
    g_recorder = recorder;
    g_statusFd = recorder->config().statusFd;
    if (g_statusFd >= 0)
        ::fcntl(g_statusFd, F_SETFD, FD_CLOEXEC); // programs it execs are not recorded
    std::atexit(finishAtExit);
    ::pthread_atfork(nullptr, nullptr, onFork);
    if (::pipe2(g_signalPipe, O_CLOEXEC) != 0 || ::pipe2(g_ackPipe, O_CLOEXEC) != 0)
        return;
    for (int sig : kStopSignals)
        installHandler(sig, onSignal, SA_RESTART);
    for (int sig : kCrashSignals)
        installHandler(sig, onCrash, 0);
    std::optional<std::int64_t> deadline;
    const CaptureConfig& config = recorder->config();
    if (config.durationSeconds)
        deadline = config.startMonotonicNs + std::int64_t(*config.durationSeconds * 1e9);
    std::thread(watchdog, recorder, deadline).detach();
}

} // namespace strobe::capture
