// SPDX-License-Identifier: MIT
#include "capture/captureoptions.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace strobe::capture {

namespace {

const std::string kPrefix = "strobe-capture: ";

bool isExecutableFile(const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
           ::access(path.c_str(), X_OK) == 0;
}

std::string directoryOf(const std::string& path) {
    const auto slash = path.rfind('/');
    if (slash == std::string::npos)
        return ".";
    if (slash == 0)
        return "/";
    return path.substr(0, slash);
}

// Splits "--name=value" into name and value; `hasValue` tells whether '=' was present.
std::string optionName(const std::string& arg, std::string* value, bool* hasValue) {
    const auto eq = arg.find('=');
    *hasValue = arg.rfind("--", 0) == 0 && eq != std::string::npos;
    if (!*hasValue)
        return arg;
    *value = arg.substr(eq + 1);
    return arg.substr(0, eq);
}

} // namespace

std::string usageText() {
    return "Usage: strobe-capture -o FILE [--trace cuda,nvtx] [--duration SECONDS] -- PROGRAM "
           "[ARGS...]\n"
           "\n"
           "Runs PROGRAM with CUPTI and NVTX tracing and writes an nsys-compatible SQLite trace\n"
           "to FILE, which `strobe FILE` opens.\n"
           "\n"
           "Options:\n"
           "  -o, --output FILE     where to write the trace (required)\n"
           "  --trace LIST          what to record, comma-separated: cuda, nvtx (default: both)\n"
           "  --duration SECONDS    stop recording after SECONDS and write the trace; the\n"
           "                        program keeps running\n"
           "  -h, --help            show this help\n"
           "  --version             show the version\n"
           "\n"
           "The exit status is the program's own (128+N when it died of signal N); 1 when\n"
           "strobe-capture could not start it, when it succeeded without recording\n"
           "anything, or when CUDA tracing was requested and CUPTI could not be enabled;\n"
           "2 for a usage error.\n";
}

bool parseTraceList(const std::string& list, bool* cuda, bool* nvtx, std::string* error) {
    *cuda = false;
    *nvtx = false;
    std::size_t begin = 0;
    while (begin <= list.size()) {
        auto end = list.find(',', begin);
        if (end == std::string::npos)
            end = list.size();
        const std::string item = list.substr(begin, end - begin);
        if (item == "cuda") {
            *cuda = true;
        } else if (item == "nvtx") {
            *nvtx = true;
        } else {
            *error = kPrefix + "unknown --trace value '" + item + "' (expected cuda, nvtx or both)";
            return false;
        }
        begin = end + 1;
    }
    return true;
}

bool parseArguments(const std::vector<std::string>& args, CaptureOptions* out, std::string* error) {
    CaptureOptions opts;
    bool sawSeparator = false;
    std::size_t i = 0;
    for (; i < args.size(); ++i) {
        std::string value;
        bool hasValue = false;
        const std::string name = optionName(args[i], &value, &hasValue);
        auto takeValue = [&]() -> bool {
            if (hasValue)
                return true;
            if (i + 1 >= args.size() || args[i + 1] == "--") {
                *error = kPrefix + "option '" + name + "' needs a value";
                return false;
            }
            value = args[++i];
            return true;
        };
        if (name == "--") {
            sawSeparator = true;
            ++i;
            break;
        }
        if (name == "-h" || name == "--help") {
            out->showHelp = true;
            return true;
        }
        if (name == "--version") {
            out->showVersion = true;
            return true;
        }
        if (name == "-o" || name == "--output") {
            if (!takeValue())
                return false;
            if (value.empty()) {
                *error = kPrefix + "option '" + name + "' needs a value";
                return false;
            }
            opts.output = value;
        } else if (name == "--trace") {
            if (!takeValue() || !parseTraceList(value, &opts.traceCuda, &opts.traceNvtx, error))
                return false;
        } else if (name == "--duration") {
            if (!takeValue())
                return false;
            char* end = nullptr;
            errno = 0;
            const double seconds = std::strtod(value.c_str(), &end);
            if (value.empty() || *end != '\0' || errno != 0 || !std::isfinite(seconds) ||
                seconds <= 0) {
                *error = kPrefix + "invalid --duration '" + value +
                         "' (expected a positive number of seconds)";
                return false;
            }
            opts.durationSeconds = seconds;
        } else if (!name.empty() && name[0] == '-') {
            *error = kPrefix + "unknown option '" + name + "' (see --help)";
            return false;
        } else {
            *error = kPrefix + "missing '--' before the program to run";
            return false;
        }
    }
    if (opts.output.empty()) {
        *error = kPrefix + "missing -o FILE (where to write the trace)";
        return false;
    }
    if (!sawSeparator) {
        *error = kPrefix + "missing '--' before the program to run";
        return false;
    }
    opts.command.assign(args.begin() + std::ptrdiff_t(i), args.end());
    if (opts.command.empty()) {
        *error = kPrefix + "missing the program to run after '--'";
        return false;
    }
    *out = std::move(opts);
    return true;
}

std::optional<std::string> findProgram(const std::string& program, const std::string& pathEnv,
                                       std::string* error) {
    if (program.find('/') != std::string::npos) {
        if (isExecutableFile(program))
            return program;
        *error = kPrefix + "cannot run '" + program + "': no such executable file";
        return std::nullopt;
    }
    std::size_t begin = 0;
    while (begin <= pathEnv.size()) {
        auto end = pathEnv.find(':', begin);
        if (end == std::string::npos)
            end = pathEnv.size();
        // An empty PATH entry means the current directory.
        std::string candidate(end > begin ? pathEnv.substr(begin, end - begin)
                                          : std::string(1, '.'));
        candidate += '/';
        candidate += program;
        if (isExecutableFile(candidate))
            return candidate;
        begin = end + 1;
    }
    *error = kPrefix + "cannot run '" + program + "': no such program on PATH";
    return std::nullopt;
}

std::string checkOutputWritable(const std::string& output) {
    struct stat st {};
    if (::stat(output.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
        return kPrefix + "cannot write '" + output + "': it is a directory";
    const std::string dir = directoryOf(output);
    if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
        return kPrefix + "cannot write '" + output + "': directory '" + dir + "' does not exist";
    // access() says yes to root even on read-only mounts, so create a real file to be sure.
    std::string probe = dir + "/.strobe-capture-probe-XXXXXX";
    const int fd = ::mkstemp(probe.data());
    if (fd < 0)
        return kPrefix + "cannot write '" + output + "': directory '" + dir + "' is not writable";
    ::close(fd);
    ::unlink(probe.c_str());
    return {};
}

std::string checkDriver(bool skip, const char* driverLibrary) {
    if (skip)
        return {};
    void* handle = ::dlopen(driverLibrary, RTLD_LAZY | RTLD_LOCAL);
    if (!handle)
        return kPrefix + "no NVIDIA driver found: capturing needs a GPU";
    ::dlclose(handle);
    return {};
}

std::string absolutePath(const std::string& path) {
    if (!path.empty() && path[0] == '/')
        return path;
    std::string cwd(4096, '\0');
    if (!::getcwd(cwd.data(), cwd.size()))
        return path;
    cwd.resize(std::strlen(cwd.c_str()));
    std::string rel = path;
    while (rel.rfind("./", 0) == 0)
        rel.erase(0, 2);
    std::string result = cwd;
    if (result.empty() || result.back() != '/')
        result += '/';
    result += rel;
    return result;
}

std::optional<std::string> findInjectionLibrary(const std::string& launcherDir,
                                                std::string* error) {
    if (const char* overridePath = std::getenv(kEnvInjectLibrary); overridePath && *overridePath)
        return std::string(overridePath);
    for (const std::string& candidate : {launcherDir + "/" + kInjectLibraryName,
                                         launcherDir + "/../lib/strobe/" + kInjectLibraryName}) {
        struct stat st {};
        if (::stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode)) {
            char resolved[4096];
            if (::realpath(candidate.c_str(), resolved))
                return std::string(resolved);
            return candidate;
        }
    }
    *error = kPrefix + "cannot find " + kInjectLibraryName + " next to strobe-capture or in '" +
             launcherDir + "/../lib/strobe'";
    return std::nullopt;
}

std::vector<std::pair<std::string, std::string>> captureEnvironment(const CaptureOptions& options,
                                                                    const std::string& injectLib,
                                                                    long long startMonotonicNs,
                                                                    long long startUtcNs) {
    std::vector<std::pair<std::string, std::string>> env;
    if (options.traceCuda)
        env.emplace_back("CUDA_INJECTION64_PATH", injectLib);
    if (options.traceNvtx)
        env.emplace_back("NVTX_INJECTION64_PATH", injectLib);
    env.emplace_back(kEnvOutput, absolutePath(options.output));
    std::string trace;
    if (options.traceCuda)
        trace = "cuda";
    if (options.traceNvtx)
        trace += trace.empty() ? "nvtx" : ",nvtx";
    env.emplace_back(kEnvTrace, trace);
    if (options.durationSeconds) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.9g", *options.durationSeconds);
        env.emplace_back(kEnvDuration, buf);
    }
    env.emplace_back(kEnvStartNs, std::to_string(startMonotonicNs));
    env.emplace_back(kEnvStartUtcNs, std::to_string(startUtcNs));
    return env;
}

void applyInjectionMessage(const std::string& message, InjectionReport* report) {
    const auto tab = message.find('\t');
    const std::string kind = message.substr(0, tab);
    const std::string text = tab == std::string::npos ? std::string() : message.substr(tab + 1);
    if (kind == "cuda-disabled")
        report->cudaProblem = text.empty() ? "CUPTI could not be enabled" : text;
    else if (kind == "incomplete")
        report->incomplete = true;
}

std::vector<std::string> temporaryFilesOf(const std::string& output) {
    std::vector<std::string> found;
    const std::string dir = directoryOf(output);
    const auto slash = output.rfind('/');
    const std::string prefix =
        (slash == std::string::npos ? output : output.substr(slash + 1)) + ".tmp-";
    DIR* d = ::opendir(dir.c_str());
    if (!d)
        return found;
    while (const dirent* entry = ::readdir(d)) {
        const std::string name = entry->d_name;
        if (name.size() > prefix.size() && name.compare(0, prefix.size(), prefix) == 0)
            found.push_back(dir + "/" + name);
    }
    ::closedir(d);
    std::sort(found.begin(), found.end());
    return found;
}

int launcherExitCode(int waitStatus, bool traceWritten, bool cudaNotRecorded) {
    if (WIFSIGNALED(waitStatus))
        return 128 + WTERMSIG(waitStatus);
    const int code = WIFEXITED(waitStatus) ? WEXITSTATUS(waitStatus) : 1;
    if (code == 0 && (!traceWritten || cudaNotRecorded))
        return 1;
    return code;
}

} // namespace strobe::capture
