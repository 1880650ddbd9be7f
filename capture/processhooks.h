// SPDX-License-Identifier: MIT
#pragma once

// The process-wide side of a capture: the exit handler, the watcher thread that ends the capture
// on --duration, SIGINT/SIGTERM or a crash, the fork handler, and the datagram socket to the
// launcher.
//
// - SIGINT/SIGTERM, when the program has no handler of its own: the trace is written, then the
//   signal is re-raised with its default action.
// - SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL (same condition): the crashing thread wakes the
//   watcher, which writes what was recorded, marked incomplete, then the signal is re-raised.
//   Skipped when the crash happened inside the recorder itself (its locks may be held); the
//   crashing thread waits at most kCrashWriteTimeoutMs.
// - In a child forked after start-up, the default handlers are restored and every descriptor of
//   the capture is closed, so that a signal to a worker never reaches the traced parent.

#include <string>

namespace strobe::capture {

class Recorder;

inline constexpr int kCrashWriteTimeoutMs = 30000;

// True in a child forked after start-up: nothing is recorded there.
bool inForkedChild();

// Installs the hooks above for the process's recorder; once.
void installProcessHooks(Recorder* recorder);

// Sends one line to the launcher ("cuda-disabled\t<sentence>", "incomplete\t<why>"); never
// blocks, never raises SIGPIPE; does nothing without a launcher.
void sendToLauncher(int statusFd, const std::string& message);

// Marks the calling thread as inside the recorder (holding its locks) for its lifetime, so that
// a crash there does not try to write the trace.
class RecorderScope {
public:
    RecorderScope();
    ~RecorderScope();
    RecorderScope(const RecorderScope&) = delete;
    RecorderScope& operator=(const RecorderScope&) = delete;
};

} // namespace strobe::capture
