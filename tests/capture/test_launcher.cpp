// SPDX-License-Identifier: MIT
// Runs the strobe-capture binary itself: exit codes, messages, and an end-to-end NVTX capture of
// a CPU-only program (no GPU or driver needed: STROBE_CAPTURE_SKIP_DRIVER_CHECK=1).

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <dlfcn.h>
#include <map>
#include <string>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace {

struct Result {
    int exitCode = -1;  // 128+N for signal N, like a shell
    std::string output; // stdout and stderr together
};

Result run(const std::vector<std::string>& args, const std::map<std::string, std::string>& env = {},
           const std::vector<std::string>& unset = {}) {
    int pipefd[2];
    if (::pipe(pipefd) != 0)
        return {};
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::dup2(pipefd[1], 1);
        ::dup2(pipefd[1], 2);
        ::close(pipefd[0]);
        ::close(pipefd[1]);
        for (const auto& name : unset)
            ::unsetenv(name.c_str());
        for (const auto& [name, value] : env)
            ::setenv(name.c_str(), value.c_str(), 1);
        std::vector<char*> argv;
        for (const auto& a : args)
            argv.push_back(const_cast<char*>(a.c_str()));
        argv.push_back(nullptr);
        ::execv(argv[0], argv.data());
        ::_exit(127);
    }
    ::close(pipefd[1]);
    Result r;
    char buf[4096];
    ssize_t n;
    while ((n = ::read(pipefd[0], buf, sizeof buf)) > 0)
        r.output.append(buf, std::size_t(n));
    ::close(pipefd[0]);
    int status = 0;
    ::waitpid(pid, &status, 0);
    r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    return r;
}

const std::map<std::string, std::string> kSkipDriver = {{"STROBE_CAPTURE_SKIP_DRIVER_CHECK", "1"}};

std::string tempDir() {
    std::string dir = std::string(STROBE_TEST_TMPDIR) + "/launcher-XXXXXX";
    EXPECT_NE(::mkdtemp(dir.data()), nullptr);
    return dir;
}

bool exists(const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0;
}

// Rows of a query as strings ("NULL" for NULL), columns joined by '|'.
std::vector<std::string> query(const std::string& file, const std::string& sql) {
    std::vector<std::string> rows;
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(file.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
        ADD_FAILURE() << "cannot open " << file;
        sqlite3_close(db);
        return rows;
    }
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) {
        ADD_FAILURE() << sql << ": " << sqlite3_errmsg(db);
        sqlite3_close(db);
        return rows;
    }
    while (sqlite3_step(stmt) == SQLITE_ROW) {
        std::string row;
        for (int c = 0; c < sqlite3_column_count(stmt); ++c) {
            if (c)
                row += '|';
            const auto* text = sqlite3_column_text(stmt, c);
            row += text ? reinterpret_cast<const char*>(text) : "NULL";
        }
        rows.push_back(row);
    }
    sqlite3_finalize(stmt);
    sqlite3_close(db);
    return rows;
}

std::string single(const std::string& file, const std::string& sql) {
    const auto rows = query(file, sql);
    return rows.size() == 1 ? rows[0] : "<" + std::to_string(rows.size()) + " rows>";
}

std::string captureInfo(const std::string& file, const std::string& name) {
    return single(file, "SELECT value FROM META_DATA_CAPTURE WHERE name = '" + name + "'");
}

// Every file in `dir`, sorted.
std::vector<std::string> filesIn(const std::string& dir) {
    std::vector<std::string> names;
    if (DIR* d = ::opendir(dir.c_str())) {
        while (const dirent* e = ::readdir(d))
            if (std::strcmp(e->d_name, ".") != 0 && std::strcmp(e->d_name, "..") != 0)
                names.emplace_back(e->d_name);
        ::closedir(d);
    }
    std::sort(names.begin(), names.end());
    return names;
}

} // namespace

TEST(Launcher, HelpExitsZero) {
    const auto r = run({STROBE_CAPTURE_EXE, "--help"});
    EXPECT_EQ(r.exitCode, 0);
    EXPECT_NE(r.output.find("Usage: strobe-capture -o FILE"), std::string::npos) << r.output;
}

TEST(Launcher, VersionExitsZero) {
    const auto r = run({STROBE_CAPTURE_EXE, "--version"});
    EXPECT_EQ(r.exitCode, 0);
    EXPECT_EQ(r.output.rfind("strobe-capture ", 0), 0u) << r.output;
}

TEST(Launcher, UsageErrorExitsTwo) {
    const auto r = run({STROBE_CAPTURE_EXE, "--", "true"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_EQ(r.output, "strobe-capture: missing -o FILE (where to write the trace)\n");
}

TEST(Launcher, MissingProgramExitsOne) {
    const std::string dir = tempDir();
    const auto r = run(
        {STROBE_CAPTURE_EXE, "-o", dir + "/t.sqlite", "--", "strobe-no-such-program"}, kSkipDriver);
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_EQ(r.output,
              "strobe-capture: cannot run 'strobe-no-such-program': no such program on PATH\n");
}

TEST(Launcher, UnwritableOutputExitsOne) {
    const auto r = run({STROBE_CAPTURE_EXE, "-o", "/proc/t.sqlite", "--", "true"}, kSkipDriver);
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_EQ(r.output, "strobe-capture: cannot write '/proc/t.sqlite': directory '/proc' is not "
                        "writable\n");
}

TEST(Launcher, NoDriverExitsOne) {
    if (void* cuda = ::dlopen("libcuda.so.1", RTLD_LAZY)) {
        ::dlclose(cuda);
        GTEST_SKIP() << "an NVIDIA driver is installed here";
    }
    const std::string dir = tempDir();
    const auto r = run({STROBE_CAPTURE_EXE, "-o", dir + "/t.sqlite", "--", "true"}, {},
                       {"STROBE_CAPTURE_SKIP_DRIVER_CHECK"});
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_EQ(r.output, "strobe-capture: no NVIDIA driver found: capturing needs a GPU\n");
    EXPECT_FALSE(exists(dir + "/t.sqlite"));
}

TEST(Launcher, ProgramWithoutCudaOrNvtxWritesNothing) {
    const std::string dir = tempDir();
    const std::string out = dir + "/t.sqlite";
    const auto r =
        run({STROBE_CAPTURE_EXE, "-o", out, "--", STROBE_NVTX_PROGRAM, "none"}, kSkipDriver);
    EXPECT_EQ(r.exitCode, 1) << r.output;
    EXPECT_NE(r.output.find("strobe-capture: no trace written"), std::string::npos) << r.output;
    EXPECT_FALSE(exists(out));
}

TEST(Launcher, ProgramExitCodePassesThrough) {
    const std::string dir = tempDir();
    const std::string out = dir + "/t.sqlite";
    const auto r =
        run({STROBE_CAPTURE_EXE, "-o", out, "--", STROBE_NVTX_PROGRAM, "exit3"}, kSkipDriver);
    EXPECT_EQ(r.exitCode, 3) << r.output;
    EXPECT_EQ(single(out, "SELECT text FROM NVTX_EVENTS"), "failing");
}

TEST(Launcher, SignalledProgramStillWritesTrace) {
    const std::string dir = tempDir();
    const std::string out = dir + "/t.sqlite";
    const auto r =
        run({STROBE_CAPTURE_EXE, "-o", out, "--", STROBE_NVTX_PROGRAM, "sigterm"}, kSkipDriver);
    EXPECT_EQ(r.exitCode, 128 + SIGTERM) << r.output;
    EXPECT_EQ(single(out, "SELECT text FROM NVTX_EVENTS"), "before signal");
}

TEST(Launcher, DurationStopsRecording) {
    const std::string dir = tempDir();
    const std::string out = dir + "/t.sqlite";
    const auto r = run(
        {STROBE_CAPTURE_EXE, "-o", out, "--duration", "0.5", "--", STROBE_NVTX_PROGRAM, "duration"},
        kSkipDriver);
    EXPECT_EQ(r.exitCode, 0) << r.output;
    EXPECT_EQ(query(out, "SELECT text FROM NVTX_EVENTS"), std::vector<std::string>{"early"});
}

class NvtxCapture : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        s_dir = tempDir();
        s_out = s_dir + "/nvtx.sqlite";
        s_result = run({STROBE_CAPTURE_EXE, "-o", s_out, "--trace", "nvtx", "--",
                        STROBE_NVTX_PROGRAM, "ranges"},
                       kSkipDriver);
    }
    static inline std::string s_dir, s_out;
    static inline Result s_result;
};

TEST_F(NvtxCapture, LauncherSucceedsAndReports) {
    EXPECT_EQ(s_result.exitCode, 0) << s_result.output;
    EXPECT_NE(s_result.output.find("strobe-capture: wrote " + s_out), std::string::npos)
        << s_result.output;
    EXPECT_TRUE(exists(s_out));
}

TEST_F(NvtxCapture, PushPopRanges) {
    // 59 = push/pop; times relative to the launch are small and non-negative, ends after starts.
    EXPECT_EQ(query(s_out, "SELECT COALESCE(text, '?'), color & 0xFFFFFFFF, domainId FROM "
                           "NVTX_EVENTS WHERE eventType = 59 AND textId IS NULL ORDER BY start"),
              (std::vector<std::string>{"outer|NULL|0", "inner|NULL|0",
                                        "colored|" + std::to_string(0xFF112233u) + "|0",
                                        "wide\u00e9|NULL|0", "worker range|NULL|0"}));
    EXPECT_EQ(single(s_out, "SELECT COUNT(*) FROM NVTX_EVENTS WHERE eventType = 59 AND (start < 0 "
                            "OR \"end\" < start OR start > 60000000000)"),
              "0");
    // inner lies within outer
    EXPECT_EQ(single(s_out, "SELECT i.start >= o.start AND i.\"end\" <= o.\"end\" FROM NVTX_EVENTS "
                            "o, NVTX_EVENTS i WHERE o.text = 'outer' AND i.text = 'inner'"),
              "1");
}

TEST_F(NvtxCapture, StartEndRangeAcrossThreads) {
    EXPECT_EQ(single(s_out, "SELECT text, globalTid != endGlobalTid, rangeId IS NOT NULL FROM "
                            "NVTX_EVENTS WHERE eventType = 60"),
              "crossing|1|1");
}

TEST_F(NvtxCapture, MarkDomainAndRegisteredString) {
    EXPECT_EQ(single(s_out, "SELECT text, \"end\" FROM NVTX_EVENTS WHERE eventType = 34"),
              "a mark|NULL");
    EXPECT_EQ(single(s_out, "SELECT text, domainId FROM NVTX_EVENTS WHERE eventType = 75"),
              "MyDomain|1");
    EXPECT_EQ(single(s_out, "SELECT s.value, e.domainId FROM NVTX_EVENTS e JOIN StringIds s ON "
                            "s.id = e.textId WHERE e.eventType = 59 AND e.text IS NULL"),
              "registered name|1");
}

TEST_F(NvtxCapture, ProcessThreadsAndMetadata) {
    const std::string pid = single(s_out, "SELECT pid FROM PROCESSES");
    EXPECT_EQ(single(s_out, "SELECT name FROM PROCESSES"), "nvtx_program");
    EXPECT_EQ(single(s_out, "SELECT COUNT(*) FROM ThreadNames t JOIN StringIds s ON s.id = "
                            "t.nameId WHERE s.value = 'nvtx-worker'"),
              "1");
    // Every NVTX row's thread belongs to the recorded process.
    EXPECT_EQ(single(s_out, "SELECT COUNT(*) FROM NVTX_EVENTS WHERE (globalTid >> 24) & 0xFFFFFF "
                            "!= " +
                                pid),
              "0");
    EXPECT_EQ(single(s_out, "SELECT value FROM META_DATA_EXPORT WHERE name = "
                            "'EXPORT_PRODUCT_NAME'"),
              "Strobe");
    EXPECT_EQ(single(s_out, "SELECT value FROM META_DATA_CAPTURE WHERE name = "
                            "'PROCESS_0:ARGUMENT_0'"),
              "ranges");
    EXPECT_NE(single(s_out, "SELECT utcEpochNs > 1600000000000000000 FROM "
                            "TARGET_INFO_SESSION_START_TIME"),
              "0");
}

TEST(Launcher, FailingProgramWithoutTraceKeepsItsExitCode) {
    const std::string dir = tempDir();
    const std::string out = dir + "/t.sqlite";
    const auto r = run({STROBE_CAPTURE_EXE, "-o", out, "--", "sh", "-c", "exit 4"}, kSkipDriver);
    EXPECT_EQ(r.exitCode, 4);
    EXPECT_EQ(r.output, "strobe-capture: no trace written: 'sh' failed before one was saved\n");
    EXPECT_FALSE(exists(out));
}

// Issue 20, item 1: a forked worker inherits the recorder's signal handler and pipe unless the
// fork hook restores and closes them; SIGTERM to the worker then stopped the traced parent.
TEST(Launcher, SigtermToForkedWorkerLeavesParentRunning) {
    const std::string dir = tempDir();
    const std::string out = dir + "/t.sqlite";
    const auto r = run({STROBE_CAPTURE_EXE, "-o", out, "--", STROBE_FORK_PROGRAM}, kSkipDriver);
    EXPECT_EQ(r.exitCode, 0) << r.output;
    EXPECT_NE(r.output.find("fork_program: worker ended by signal " + std::to_string(SIGTERM)),
              std::string::npos)
        << r.output;
    EXPECT_EQ(query(out, "SELECT text FROM NVTX_EVENTS ORDER BY start"),
              (std::vector<std::string>{"before fork", "after worker"}));
    EXPECT_EQ(captureInfo(out, "STROBE_CAPTURE_END"), "exit");
}

// Item 2: a crash (abort) keeps what was recorded, marked incomplete, and leaves no temp file.
TEST(Launcher, AbortKeepsIncompleteTraceAndNoTemporaryFile) {
    const std::string dir = tempDir();
    const std::string out = dir + "/t.sqlite";
    const auto r =
        run({STROBE_CAPTURE_EXE, "-o", out, "--", STROBE_NVTX_PROGRAM, "abort"}, kSkipDriver);
    EXPECT_EQ(r.exitCode, 128 + SIGABRT) << r.output;
    EXPECT_EQ(filesIn(dir), std::vector<std::string>{"t.sqlite"});
    EXPECT_NE(r.output.find("strobe-capture: wrote " + out +
                            " (incomplete: '" STROBE_NVTX_PROGRAM "' died of SIGABRT"),
              std::string::npos)
        << r.output;
    EXPECT_EQ(single(out, "SELECT text FROM NVTX_EVENTS"), "before abort");
    EXPECT_EQ(captureInfo(out, "STROBE_TRACE_INCOMPLETE"), "1");
    EXPECT_EQ(captureInfo(out, "STROBE_CAPTURE_END"), "crash");
}

// Item 2: SIGKILL cannot be caught; the launcher removes the temporary file it leaves.
TEST(Launcher, SigkillLeavesNoTemporaryFile) {
    const std::string dir = tempDir();
    const std::string out = dir + "/t.sqlite";
    const auto r =
        run({STROBE_CAPTURE_EXE, "-o", out, "--", STROBE_NVTX_PROGRAM, "sigkill"}, kSkipDriver);
    EXPECT_EQ(r.exitCode, 128 + SIGKILL) << r.output;
    EXPECT_EQ(filesIn(dir), std::vector<std::string>{});
    EXPECT_NE(
        r.output.find("strobe-capture: removed the unfinished temporary file " + out + ".tmp-"),
        std::string::npos)
        << r.output;
    EXPECT_NE(r.output.find("no trace written"), std::string::npos) << r.output;
}

// A temporary file that was there before the launch belongs to someone else: left alone.
TEST(Launcher, OlderTemporaryFilesAreKept) {
    const std::string dir = tempDir();
    const std::string out = dir + "/t.sqlite";
    const std::string other = out + ".tmp-abcdef";
    std::fclose(std::fopen(other.c_str(), "w"));
    const auto r =
        run({STROBE_CAPTURE_EXE, "-o", out, "--", STROBE_NVTX_PROGRAM, "sigkill"}, kSkipDriver);
    EXPECT_EQ(r.exitCode, 128 + SIGKILL) << r.output;
    EXPECT_EQ(filesIn(dir), std::vector<std::string>{"t.sqlite.tmp-abcdef"});
}

// Item 3: CUDA tracing requested, CUPTI refused everything (here: there is no driver at all).
// The trace still holds the NVTX rows and says why; the launcher exits 1 with a sentence.
TEST(Launcher, CudaRequestedButNothingEnabledExitsOne) {
    const std::string dir = tempDir();
    const std::string out = dir + "/t.sqlite";
    const auto r =
        run({STROBE_CAPTURE_EXE, "-o", out, "--", STROBE_INJECT_PROBE, "cuda-init"}, kSkipDriver);
    EXPECT_EQ(r.exitCode, 1) << r.output;
    EXPECT_NE(r.output.find("strobe-capture: wrote " + out), std::string::npos) << r.output;
    const std::string sentence =
        "strobe-capture: CUDA activity was not recorded: CUPTI refused every activity kind (";
    EXPECT_NE(r.output.find(sentence), std::string::npos) << r.output;
    EXPECT_EQ(r.output.rfind("\n", r.output.size() - 2) + 1, r.output.find(sentence))
        << "the reason is the last line:\n"
        << r.output;
    EXPECT_EQ(single(out, "SELECT text FROM NVTX_EVENTS"), "after cuda init");
    EXPECT_EQ(captureInfo(out, "STROBE_CUDA_TRACE")
                  .rfind("not recorded: CUPTI refused every activity kind (", 0),
              0u);
    const std::string failures = captureInfo(out, "STROBE_CUPTI_ENABLE_FAILURES");
    for (const char* kind : {"DEVICE: ", "CONTEXT: ", "CONCURRENT_KERNEL: ", "MEMCPY: ", "MEMSET: ",
                             "RUNTIME: ", "DRIVER: ", "SYNCHRONIZATION: "})
        EXPECT_NE(failures.find(kind), std::string::npos) << kind << " in " << failures;
    EXPECT_NE(captureInfo(out, "STROBE_CUPTI_VERSION_BUILT"), "<0 rows>");
    EXPECT_NE(captureInfo(out, "STROBE_CUDA_DRIVER_VERSION"), "<0 rows>");
}

// Without --trace cuda the same program is fine: nothing was asked of CUPTI.
TEST(Launcher, NvtxOnlyTraceIgnoresCuda) {
    const std::string dir = tempDir();
    const std::string out = dir + "/t.sqlite";
    const auto r =
        run({STROBE_CAPTURE_EXE, "-o", out, "--trace", "nvtx", "--", STROBE_NVTX_PROGRAM, "exit3"},
            kSkipDriver);
    EXPECT_EQ(r.exitCode, 3) << r.output;
    EXPECT_EQ(captureInfo(out, "STROBE_CUDA_TRACE"), "not requested");
    EXPECT_EQ(captureInfo(out, "STROBE_TRACE_INCOMPLETE"), "0");
}

// Item 11: once the recorder exists (exit handler, watcher thread), the NVTX initialiser must
// not ask to be unloaded, even when the domain module is missing.
TEST(Launcher, NvtxInitialiserKeepsLibraryLoadedWithoutDomainModule) {
    const std::string dir = tempDir();
    const std::string out = dir + "/t.sqlite";
    const auto r =
        run({STROBE_CAPTURE_EXE, "-o", out, "--", STROBE_INJECT_PROBE, "nvtx-core2-missing"},
            kSkipDriver);
    EXPECT_EQ(r.exitCode, 0) << r.output;
    EXPECT_NE(r.output.find("inject_probe: InitializeInjectionNvtx2 returned 1"), std::string::npos)
        << r.output;
    EXPECT_EQ(single(out, "SELECT text FROM NVTX_EVENTS WHERE eventType = 34"), "core only");
}

// Item 4: --duration writes a trace with sane times, and the program keeps its exit status.
TEST(Launcher, DurationTraceHasNoInvertedTimes) {
    const std::string dir = tempDir();
    const std::string out = dir + "/t.sqlite";
    const auto r = run(
        {STROBE_CAPTURE_EXE, "-o", out, "--duration", "0.5", "--", STROBE_NVTX_PROGRAM, "duration"},
        kSkipDriver);
    EXPECT_EQ(r.exitCode, 0) << r.output;
    EXPECT_EQ(single(out, "SELECT COUNT(*) FROM NVTX_EVENTS WHERE start < 0 OR \"end\" < start"),
              "0");
    EXPECT_EQ(captureInfo(out, "STROBE_CAPTURE_END"), "duration");
    EXPECT_EQ(captureInfo(out, "STROBE_RECORDS_SKIPPED_ZERO_START"), "0");
}
