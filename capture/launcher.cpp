// SPDX-License-Identifier: MIT
// strobe-capture: runs a program with libstrobe-inject.so injected through the CUDA and NVTX
// injection variables, forwards SIGINT/SIGTERM, and passes the program's exit status through.

#include "capture/captureclock.h"
#include "capture/captureoptions.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <set>
#include <string>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

#ifndef STROBE_VERSION
#define STROBE_VERSION "unknown"
#endif

using namespace strobe::capture;

namespace {

volatile sig_atomic_t g_child = 0;

// Forwards signals another process sent us. Terminal-generated ones (Ctrl-C) already reach the
// child through the foreground process group, so forwarding those would deliver them twice.
void forwardSignal(int sig, siginfo_t* info, void*) {
    if (g_child > 0 && info && info->si_code <= 0)
        ::kill(pid_t(g_child), sig);
}

std::string launcherDirectory(const char* argv0) {
    char buf[4096];
    const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
    std::string exe = n > 0 ? std::string(buf, std::size_t(n)) : std::string(argv0);
    const auto slash = exe.rfind('/');
    return slash == std::string::npos ? std::string(".") : exe.substr(0, slash);
}

struct FileStamp {
    bool exists = false;
    ino_t inode = 0;
    timespec mtime{};
};

FileStamp stampOf(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0)
        return {};
    return {true, st.st_ino, st.st_mtim};
}

bool changed(const FileStamp& before, const FileStamp& after) {
    if (!after.exists)
        return false;
    return !before.exists || before.inode != after.inode ||
           before.mtime.tv_sec != after.mtime.tv_sec || before.mtime.tv_nsec != after.mtime.tv_nsec;
}

// Messages from libstrobe-inject that arrived before the child ended; non-blocking, since a
// worker the child forked before the capture started may still hold the other end.
InjectionReport readReport(int fd) {
    InjectionReport report;
    char buf[4096];
    for (;;) {
        const ssize_t n = ::recv(fd, buf, sizeof buf, MSG_DONTWAIT);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        applyInjectionMessage(std::string(buf, std::size_t(n)), &report);
    }
    return report;
}

std::string signalName(int sig) {
    switch (sig) {
    case SIGABRT:
        return "SIGABRT";
    case SIGSEGV:
        return "SIGSEGV";
    case SIGBUS:
        return "SIGBUS";
    case SIGFPE:
        return "SIGFPE";
    case SIGILL:
        return "SIGILL";
    default:
        return "signal " + std::to_string(sig);
    }
}

} // namespace

int main(int argc, char** argv) {
    CaptureOptions options;
    std::string error;
    if (!parseArguments(std::vector<std::string>(argv + 1, argv + argc), &options, &error)) {
        std::fprintf(stderr, "%s\n", error.c_str());
        return 2;
    }
    if (options.showHelp) {
        std::fputs(usageText().c_str(), stdout);
        return 0;
    }
    if (options.showVersion) {
        std::printf("strobe-capture %s\n", STROBE_VERSION);
        return 0;
    }

    const char* pathEnv = std::getenv("PATH");
    const auto program = findProgram(options.command[0], pathEnv ? pathEnv : "", &error);
    if (!program) {
        std::fprintf(stderr, "%s\n", error.c_str());
        return 1;
    }
    if (error = checkOutputWritable(options.output); !error.empty()) {
        std::fprintf(stderr, "%s\n", error.c_str());
        return 1;
    }
    const char* skip = std::getenv(kEnvSkipDriverCheck);
    if (error = checkDriver(skip && std::strcmp(skip, "1") == 0); !error.empty()) {
        std::fprintf(stderr, "%s\n", error.c_str());
        return 1;
    }
    const auto injectLib = findInjectionLibrary(launcherDirectory(argv[0]), &error);
    if (!injectLib) {
        std::fprintf(stderr, "%s\n", error.c_str());
        return 1;
    }

    const std::string outputPath = absolutePath(options.output);
    const FileStamp before = stampOf(outputPath);
    for (const auto& [name, value] :
         captureEnvironment(options, *injectLib, clockNs(CLOCK_MONOTONIC), clockNs(CLOCK_REALTIME)))
        ::setenv(name.c_str(), value.c_str(), 1);

    struct sigaction forward {};
    forward.sa_sigaction = forwardSignal;
    forward.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&forward.sa_mask);
    struct sigaction oldInt {
    }, oldTerm{};
    ::sigaction(SIGINT, &forward, &oldInt);
    ::sigaction(SIGTERM, &forward, &oldTerm);

    // The library reports what the trace cannot show (CUDA tracing refused, a crash) here.
    int channel[2] = {-1, -1};
    if (::socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, channel) != 0)
        channel[0] = channel[1] = -1;
    const std::vector<std::string> oldTemporaries = temporaryFilesOf(outputPath);

    std::vector<char*> childArgv;
    for (auto& arg : options.command)
        childArgv.push_back(arg.data());
    childArgv.push_back(nullptr);

    const pid_t child = ::fork();
    if (child < 0) {
        std::fprintf(stderr, "strobe-capture: cannot start '%s': %s\n", options.command[0].c_str(),
                     std::strerror(errno));
        return 1;
    }
    if (child == 0) {
        ::sigaction(SIGINT, &oldInt, nullptr);
        ::sigaction(SIGTERM, &oldTerm, nullptr);
        // exec keeps the pid: the injection library records only this process, not its children.
        ::setenv(kEnvPid, std::to_string(::getpid()).c_str(), 1);
        if (channel[1] >= 0 && ::fcntl(channel[1], F_SETFD, 0) == 0)
            ::setenv(kEnvStatusFd, std::to_string(channel[1]).c_str(), 1);
        ::execv(program->c_str(), childArgv.data());
        std::fprintf(stderr, "strobe-capture: cannot run '%s': %s\n", options.command[0].c_str(),
                     std::strerror(errno));
        ::_exit(127);
    }
    g_child = child;
    if (channel[1] >= 0)
        ::close(channel[1]);

    int wait = 0;
    while (::waitpid(child, &wait, 0) < 0) {
        if (errno != EINTR) {
            std::fprintf(stderr, "strobe-capture: lost track of '%s': %s\n",
                         options.command[0].c_str(), std::strerror(errno));
            return 1;
        }
    }
    g_child = 0;

    const InjectionReport report = channel[0] >= 0 ? readReport(channel[0]) : InjectionReport{};
    const bool written = changed(before, stampOf(outputPath));
    const bool cudaFailed = !report.cudaProblem.empty();
    const char* name = options.command[0].c_str();
    if (written && report.incomplete && WIFSIGNALED(wait)) {
        std::fprintf(stderr,
                     "strobe-capture: wrote %s (incomplete: '%s' died of %s; the trace holds "
                     "what was recorded until then)\n",
                     options.output.c_str(), name, signalName(WTERMSIG(wait)).c_str());
    } else if (written) {
        std::fprintf(stderr, "strobe-capture: wrote %s\n", options.output.c_str());
    } else if (cudaFailed) {
        // the sentence below says why
    } else if (WIFEXITED(wait) && WEXITSTATUS(wait) == 0) {
        std::fprintf(stderr,
                     "strobe-capture: no trace written: '%s' made no CUDA or NVTX calls that "
                     "could be recorded\n",
                     name);
    } else {
        std::fprintf(stderr, "strobe-capture: no trace written: '%s' failed before one was saved\n",
                     name);
    }
    // A program killed while recording (SIGKILL, a crash the trace could not survive) leaves
    // the writer's temporary file behind: it is useless and can be gigabytes.
    const std::set<std::string> old(oldTemporaries.begin(), oldTemporaries.end());
    for (const std::string& temporary : temporaryFilesOf(outputPath)) {
        if (old.count(temporary) || ::unlink(temporary.c_str()) != 0)
            continue;
        std::fprintf(stderr, "strobe-capture: removed the unfinished temporary file %s\n",
                     temporary.c_str());
    }
    if (cudaFailed)
        std::fprintf(stderr, "strobe-capture: CUDA activity was not recorded: %s\n",
                     report.cudaProblem.c_str());
    return launcherExitCode(wait, written, cudaFailed);
}
