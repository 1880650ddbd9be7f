// SPDX-License-Identifier: MIT
#pragma once

// Command-line parsing and pre-launch checks of strobe-capture, free of CUDA so that tests run
// on machines without a GPU. Every error is one sentence starting with "strobe-capture: ".

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace strobe::capture {

// Environment variables the launcher hands to libstrobe-inject.so.
inline constexpr const char* kEnvOutput = "STROBE_CAPTURE_OUTPUT";     // absolute trace path
inline constexpr const char* kEnvTrace = "STROBE_CAPTURE_TRACE";       // "cuda,nvtx"
inline constexpr const char* kEnvDuration = "STROBE_CAPTURE_DURATION"; // seconds, optional
inline constexpr const char* kEnvPid = "STROBE_CAPTURE_PID";           // the process to record
inline constexpr const char* kEnvStartNs = "STROBE_CAPTURE_START_NS";  // CLOCK_MONOTONIC at launch
inline constexpr const char* kEnvStartUtcNs = "STROBE_CAPTURE_START_UTC_NS"; // CLOCK_REALTIME
inline constexpr const char* kEnvStatusFd = "STROBE_CAPTURE_STATUS_FD"; // socket to the launcher
inline constexpr const char* kEnvSkipDriverCheck = "STROBE_CAPTURE_SKIP_DRIVER_CHECK";
inline constexpr const char* kEnvInjectLibrary = "STROBE_CAPTURE_INJECT_LIBRARY"; // override
inline constexpr const char* kInjectLibraryName = "libstrobe-inject.so";

struct CaptureOptions {
    std::string output;
    bool traceCuda = true;
    bool traceNvtx = true;
    std::optional<double> durationSeconds; // none: record until the program exits
    std::vector<std::string> command;      // program and its arguments
    bool showHelp = false;
    bool showVersion = false;
};

// Parses argv[1..]. On failure returns false and sets `error`; --help / --version succeed with
// the flag set and nothing else required.
bool parseArguments(const std::vector<std::string>& args, CaptureOptions* out, std::string* error);

// "cuda,nvtx" -> flags; false with `error` for an empty list or an unknown name.
bool parseTraceList(const std::string& list, bool* cuda, bool* nvtx, std::string* error);

std::string usageText();

// Resolves `program` like execvp would: a name containing '/' is taken as a path, anything else
// is searched in `pathEnv` (colon-separated). Returns the executable's path, or none with `error`.
std::optional<std::string> findProgram(const std::string& program, const std::string& pathEnv,
                                       std::string* error);

// Checks that `output` can be created: its directory exists and accepts a new file (probed by
// creating and removing a temporary file, so it also holds for root and read-only mounts), and
// it is not itself a directory. Empty string when fine, otherwise the error sentence.
std::string checkOutputWritable(const std::string& output);

// Empty string when `driverLibrary` can be loaded (or `skip` is set), otherwise the error.
std::string checkDriver(bool skip, const char* driverLibrary = "libcuda.so.1");

// Absolute form of `path` (relative to the current directory), without touching the file.
std::string absolutePath(const std::string& path);

// libstrobe-inject.so next to the launcher or in ../lib/strobe relative to its directory.
std::optional<std::string> findInjectionLibrary(const std::string& launcherDir, std::string* error);

// The variables to set in the child's environment (the child adds kEnvPid itself).
std::vector<std::pair<std::string, std::string>> captureEnvironment(const CaptureOptions& options,
                                                                    const std::string& injectLib,
                                                                    long long startMonotonicNs,
                                                                    long long startUtcNs);

// What libstrobe-inject told the launcher through kEnvStatusFd, one datagram per message.
struct InjectionReport {
    std::string cudaProblem; // "cuda-disabled\t<sentence>": CUDA tracing failed entirely
    bool incomplete = false; // "incomplete\t<why>": trace written after a crash
};
// Applies one message; unknown ones are ignored (a newer library may send more).
void applyInjectionMessage(const std::string& message, InjectionReport* report);

// The unfinished temporary files of `output` ("<output>.tmp-XXXXXX") that exist now.
std::vector<std::string> temporaryFilesOf(const std::string& output);

// Exit status of the launcher for a finished child: the child's own code, 128+signal for a
// signal, and 1 when the child succeeded but no trace was written or CUDA tracing was
// requested and nothing of it could be enabled.
int launcherExitCode(int waitStatus, bool traceWritten, bool cudaNotRecorded = false);

} // namespace strobe::capture
