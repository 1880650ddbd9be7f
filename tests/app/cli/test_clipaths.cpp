// SPDX-License-Identifier: MIT
// Paths on strobe-cli's command line, run as the real program (argv as bytes): names that are not
// valid UTF-8 open, and the output paths echoed in messages have their control characters
// escaped, as input names do.
#include "app/cli/cliargs.h"

#include <gtest/gtest.h>

#include <QByteArray>
#include <QFile>
#include <QTemporaryDir>
#include <cstdio>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

struct CliRun {
    int status = -1;
    QByteArray output; // stdout and stderr
};

// Runs strobe-cli with `args`, each passed as its bytes, single-quoted for the shell.
CliRun runCli(const std::vector<QByteArray>& args) {
    QByteArray command = "QT_QPA_PLATFORM=offscreen '" STROBE_CLI_BINARY "'";
    for (const QByteArray& a : args)
        command += " '" + QByteArray(a).replace("'", "'\\''") + "'";
    command += " 2>&1";
    CliRun r;
    FILE* p = popen(command.constData(), "r");
    if (!p)
        return r;
    char buf[4096];
    for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;)
        r.output.append(buf, qsizetype(n));
    const int status = pclose(p);
    r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
}

const QByteArray kTrace = R"({"traceEvents": [
    {"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 103, "dur": 1,
     "args": {"device": 0, "stream": 7}}]})";

} // namespace

TEST(CliPaths, ArgumentsKeepBytesThatAreNotUtf8) {
    char a0[] = "strobe-cli", a1[] = "info", a2[] = "t\xff.json";
    char* argv[] = {a0, a1, a2, nullptr};
    const QStringList args = strobe::cli::argumentsFromNative(3, argv);
    ASSERT_EQ(args.size(), 2);
    EXPECT_EQ(args[0], QStringLiteral("info"));
    EXPECT_EQ(QFile::encodeName(args[1]), QByteArray("t\xef\xbf\xbd.json")); // Qt's would lose it
    EXPECT_NE(args[1], QFile::decodeName(QByteArray("t\xff.json")));
}

TEST(CliPaths, AFileWhoseNameIsNotUtf8Opens) {
    QTemporaryDir dir;
    const QByteArray name = QFile::encodeName(dir.path()) + "/trace-\xff.json";
    const int fd = ::open(name.constData(), O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(::write(fd, kTrace.constData(), std::size_t(kTrace.size())), kTrace.size());
    ::close(fd);
    const CliRun r = runCli({"info", name});
    EXPECT_EQ(r.status, 0) << r.output.toStdString(); // was: the file does not exist
    EXPECT_TRUE(r.output.contains("kineto-json")) << r.output.toStdString();
}

TEST(CliPaths, RenderEchoesItsOutputPathEscaped) {
    if (!STROBE_HAS_RENDER)
        GTEST_SKIP() << "built without the timeline painters";
    QTemporaryDir dir;
    const QByteArray trace = QFile::encodeName(dir.filePath(QStringLiteral("t.json")));
    QFile f(QFile::decodeName(trace));
    ASSERT_TRUE(f.open(QIODevice::WriteOnly));
    f.write(kTrace);
    f.close();
    const CliRun bad = runCli({"render", trace, "-o", "shot\x1b[2J.txt"});
    EXPECT_EQ(bad.status, 2);
    EXPECT_TRUE(bad.output.contains("not 'shot\\x1B[2J.txt'")) << bad.output.toStdString();
    EXPECT_FALSE(bad.output.contains('\x1b'));
    // Written: "wrote PATH: ...", the path escaped.
    const QByteArray png = QFile::encodeName(dir.path()) + "/shot\x1b[2J.png";
    const CliRun good = runCli({"render", trace, "-o", png, "--width", "800", "--height", "300"});
    EXPECT_EQ(good.status, 0) << good.output.toStdString();
    EXPECT_TRUE(good.output.contains("shot\\x1B[2J.png: 800x300 px")) << good.output.toStdString();
    EXPECT_FALSE(good.output.contains('\x1b'));
}

TEST(CliPaths, TheClassesFileIsEchoedEscaped) {
    QTemporaryDir dir;
    const QByteArray trace = QFile::encodeName(dir.filePath(QStringLiteral("t.json")));
    QFile f(QFile::decodeName(trace));
    ASSERT_TRUE(f.open(QIODevice::WriteOnly));
    f.write(kTrace);
    f.close();
    const CliRun classes = runCli({"breakdown", trace, "--classes-file", "no\x1b]0;x\x07.json"});
    EXPECT_EQ(classes.status, 1);
    EXPECT_TRUE(classes.output.contains("no\\x1B]0;x\\x07.json")) << classes.output.toStdString();
    EXPECT_FALSE(classes.output.contains('\x1b'));
    EXPECT_FALSE(classes.output.contains('\x07'));
}
