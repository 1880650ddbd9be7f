// SPDX-License-Identifier: MIT
#include "capture/captureoptions.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace strobe::capture;

namespace {

struct Parsed {
    bool ok = false;
    CaptureOptions options;
    std::string error;
};

Parsed parse(std::vector<std::string> args) {
    Parsed p;
    p.ok = parseArguments(args, &p.options, &p.error);
    return p;
}

std::string tempDir() {
    std::string dir = ::testing::TempDir() + "strobe-capture-XXXXXX";
    EXPECT_NE(::mkdtemp(dir.data()), nullptr);
    return dir;
}

} // namespace

TEST(CaptureOptions, ParsesFullCommandLine) {
    const auto p = parse({"-o", "t.sqlite", "--trace", "nvtx", "--duration", "2.5", "--", "python",
                          "train.py", "--lr", "0.1"});
    ASSERT_TRUE(p.ok) << p.error;
    EXPECT_EQ(p.options.output, "t.sqlite");
    EXPECT_FALSE(p.options.traceCuda);
    EXPECT_TRUE(p.options.traceNvtx);
    ASSERT_TRUE(p.options.durationSeconds.has_value());
    EXPECT_DOUBLE_EQ(*p.options.durationSeconds, 2.5);
    EXPECT_EQ(p.options.command, (std::vector<std::string>{"python", "train.py", "--lr", "0.1"}));
}

TEST(CaptureOptions, DefaultsAndEqualsForms) {
    const auto p = parse({"--output=x.sqlite", "--trace=cuda,nvtx", "--", "prog", "--", "-o"});
    ASSERT_TRUE(p.ok) << p.error;
    EXPECT_EQ(p.options.output, "x.sqlite");
    EXPECT_TRUE(p.options.traceCuda);
    EXPECT_TRUE(p.options.traceNvtx);
    EXPECT_FALSE(p.options.durationSeconds.has_value());
    // Everything after the first "--" belongs to the program, even "--" and "-o".
    EXPECT_EQ(p.options.command, (std::vector<std::string>{"prog", "--", "-o"}));
}

TEST(CaptureOptions, MissingOutput) {
    const auto p = parse({"--", "prog"});
    EXPECT_FALSE(p.ok);
    EXPECT_EQ(p.error, "strobe-capture: missing -o FILE (where to write the trace)");
}

TEST(CaptureOptions, MissingSeparator) {
    const auto p = parse({"-o", "t.sqlite", "python", "train.py"});
    EXPECT_FALSE(p.ok);
    EXPECT_EQ(p.error, "strobe-capture: missing '--' before the program to run");
    const auto q = parse({"-o", "t.sqlite"});
    EXPECT_FALSE(q.ok);
    EXPECT_EQ(q.error, "strobe-capture: missing '--' before the program to run");
}

TEST(CaptureOptions, MissingProgramAfterSeparator) {
    const auto p = parse({"-o", "t.sqlite", "--"});
    EXPECT_FALSE(p.ok);
    EXPECT_EQ(p.error, "strobe-capture: missing the program to run after '--'");
}

TEST(CaptureOptions, OptionWithoutValue) {
    const auto p = parse({"-o"});
    EXPECT_FALSE(p.ok);
    EXPECT_EQ(p.error, "strobe-capture: option '-o' needs a value");
    const auto q = parse({"-o", "t.sqlite", "--trace", "--", "prog"});
    EXPECT_FALSE(q.ok);
    EXPECT_EQ(q.error, "strobe-capture: option '--trace' needs a value");
}

TEST(CaptureOptions, UnknownTraceValue) {
    const auto p = parse({"-o", "t.sqlite", "--trace", "cuda,osrt", "--", "prog"});
    EXPECT_FALSE(p.ok);
    EXPECT_EQ(p.error,
              "strobe-capture: unknown --trace value 'osrt' (expected cuda, nvtx or both)");
    const auto empty = parse({"-o", "t.sqlite", "--trace=", "--", "prog"});
    EXPECT_FALSE(empty.ok);
    EXPECT_EQ(empty.error,
              "strobe-capture: unknown --trace value '' (expected cuda, nvtx or both)");
}

TEST(CaptureOptions, BadDuration) {
    for (const std::string bad : {"abc", "0", "-3", "1.5s", "nan", "inf"}) {
        const auto p = parse({"-o", "t.sqlite", "--duration", bad, "--", "prog"});
        EXPECT_FALSE(p.ok) << bad;
        EXPECT_EQ(p.error, "strobe-capture: invalid --duration '" + bad +
                               "' (expected a positive number of seconds)");
    }
}

TEST(CaptureOptions, UnknownOption) {
    const auto p = parse({"-o", "t.sqlite", "--verbose", "--", "prog"});
    EXPECT_FALSE(p.ok);
    EXPECT_EQ(p.error, "strobe-capture: unknown option '--verbose' (see --help)");
}

TEST(CaptureOptions, HelpAndVersionNeedNothingElse) {
    const auto help = parse({"--help"});
    EXPECT_TRUE(help.ok);
    EXPECT_TRUE(help.options.showHelp);
    const auto shortHelp = parse({"-o", "x", "-h"});
    EXPECT_TRUE(shortHelp.ok);
    EXPECT_TRUE(shortHelp.options.showHelp);
    const auto version = parse({"--version"});
    EXPECT_TRUE(version.ok);
    EXPECT_TRUE(version.options.showVersion);
    EXPECT_NE(usageText().find("Usage: strobe-capture -o FILE"), std::string::npos);
}

TEST(CaptureChecks, ProgramNotOnPath) {
    std::string error;
    EXPECT_FALSE(findProgram("strobe-no-such-program", "/usr/bin:/bin", &error).has_value());
    EXPECT_EQ(error,
              "strobe-capture: cannot run 'strobe-no-such-program': no such program on PATH");
}

TEST(CaptureChecks, ProgramFoundOnPath) {
    std::string error;
    const auto sh = findProgram("sh", "/nonexistent:/bin:/usr/bin", &error);
    ASSERT_TRUE(sh.has_value()) << error;
    EXPECT_TRUE(*sh == "/bin/sh" || *sh == "/usr/bin/sh") << *sh;
}

TEST(CaptureChecks, ProgramPathNotExecutable) {
    const std::string dir = tempDir();
    const std::string file = dir + "/data.txt";
    std::ofstream(file) << "not a program";
    std::string error;
    EXPECT_FALSE(findProgram(file, "/bin", &error).has_value());
    EXPECT_EQ(error, "strobe-capture: cannot run '" + file + "': no such executable file");
    // A non-executable file of that name on PATH is skipped, not run.
    EXPECT_FALSE(findProgram("data.txt", dir, &error).has_value());
    EXPECT_EQ(error, "strobe-capture: cannot run 'data.txt': no such program on PATH");
}

TEST(CaptureChecks, OutputDirectoryMissing) {
    const std::string dir = tempDir();
    const std::string out = dir + "/missing/trace.sqlite";
    EXPECT_EQ(checkOutputWritable(out), "strobe-capture: cannot write '" + out + "': directory '" +
                                            dir + "/missing' does not exist");
}

TEST(CaptureChecks, OutputDirectoryNotWritable) {
    // /proc refuses new files even for root, unlike a chmod 0555 directory.
    EXPECT_EQ(
        checkOutputWritable("/proc/trace.sqlite"),
        "strobe-capture: cannot write '/proc/trace.sqlite': directory '/proc' is not writable");
}

TEST(CaptureChecks, OutputIsDirectory) {
    const std::string dir = tempDir();
    EXPECT_EQ(checkOutputWritable(dir),
              "strobe-capture: cannot write '" + dir + "': it is a directory");
}

TEST(CaptureChecks, OutputWritableLeavesNoProbeBehind) {
    const std::string dir = tempDir();
    EXPECT_EQ(checkOutputWritable(dir + "/trace.sqlite"), "");
    EXPECT_EQ(::rmdir(dir.c_str()), 0) << "the probe file was left in " << dir;
}

TEST(CaptureChecks, NoDriver) {
    EXPECT_EQ(checkDriver(false, "libstrobe-no-such-driver.so.1"),
              "strobe-capture: no NVIDIA driver found: capturing needs a GPU");
    EXPECT_EQ(checkDriver(true, "libstrobe-no-such-driver.so.1"), "");
    EXPECT_EQ(checkDriver(false, "libc.so.6"), "");
}

TEST(CaptureChecks, InjectionLibraryMissing) {
    ::unsetenv(kEnvInjectLibrary);
    const std::string dir = tempDir();
    std::string error;
    EXPECT_FALSE(findInjectionLibrary(dir, &error).has_value());
    EXPECT_EQ(error,
              "strobe-capture: cannot find libstrobe-inject.so next to strobe-capture or in '" +
                  dir + "/../lib/strobe'");
}

TEST(CaptureChecks, InjectionLibraryInstalledLayout) {
    ::unsetenv(kEnvInjectLibrary);
    const std::string root = tempDir();
    ASSERT_EQ(::mkdir((root + "/bin").c_str(), 0755), 0);
    ASSERT_EQ(::mkdir((root + "/lib").c_str(), 0755), 0);
    ASSERT_EQ(::mkdir((root + "/lib/strobe").c_str(), 0755), 0);
    std::ofstream(root + "/lib/strobe/libstrobe-inject.so") << "x";
    std::string error;
    const auto lib = findInjectionLibrary(root + "/bin", &error);
    ASSERT_TRUE(lib.has_value()) << error;
    char resolved[4096];
    ASSERT_NE(::realpath((root + "/lib/strobe/libstrobe-inject.so").c_str(), resolved), nullptr);
    EXPECT_EQ(*lib, resolved);
}

TEST(CaptureChecks, EnvironmentForChild) {
    CaptureOptions o;
    o.output = "/tmp/t.sqlite";
    o.traceCuda = false;
    o.durationSeconds = 1.5;
    const auto env = captureEnvironment(o, "/x/libstrobe-inject.so", 123, 456);
    const std::vector<std::pair<std::string, std::string>> expected = {
        {"NVTX_INJECTION64_PATH", "/x/libstrobe-inject.so"},
        {"STROBE_CAPTURE_OUTPUT", "/tmp/t.sqlite"},
        {"STROBE_CAPTURE_TRACE", "nvtx"},
        {"STROBE_CAPTURE_DURATION", "1.5"},
        {"STROBE_CAPTURE_START_NS", "123"},
        {"STROBE_CAPTURE_START_UTC_NS", "456"},
    };
    EXPECT_EQ(env, expected);
}

TEST(CaptureChecks, RelativeOutputBecomesAbsolute) {
    char cwd[4096];
    ASSERT_NE(::getcwd(cwd, sizeof cwd), nullptr);
    EXPECT_EQ(absolutePath("./a/t.sqlite"), std::string(cwd) + "/a/t.sqlite");
    EXPECT_EQ(absolutePath("/abs.sqlite"), "/abs.sqlite");
}

TEST(CaptureChecks, ExitCodes) {
    auto exited = [](int code) { return code << 8; }; // the layout WEXITSTATUS decodes
    EXPECT_EQ(launcherExitCode(exited(0), true), 0);
    EXPECT_EQ(launcherExitCode(exited(0), false), 1); // succeeded but recorded nothing
    EXPECT_EQ(launcherExitCode(exited(3), false), 3); // the program's own failure wins
    EXPECT_EQ(launcherExitCode(exited(3), true), 3);
    EXPECT_EQ(launcherExitCode(SIGTERM, true), 128 + SIGTERM); // killed by a signal
    ASSERT_TRUE(WIFEXITED(exited(3)));
    ASSERT_TRUE(WIFSIGNALED(SIGTERM));
}
