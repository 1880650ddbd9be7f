// SPDX-License-Identifier: MIT
// The built strobe-cli binary run as a process (main_cli.cpp, its streams and exit status): what
// a script sees, not the in-process command functions the other tests call.
#include "formats/open.h"
#include "model/trace.h"
#include "tests/support/sqlitequery.h"

#include <gtest/gtest.h>

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>

using namespace strobe;

namespace {

struct ProcessRun {
    int status = -1;
    QString out, err;
};

ProcessRun runBinary(const QStringList& args) {
    QProcess p;
    p.start(QStringLiteral(STROBE_CLI_BINARY), args);
    EXPECT_TRUE(p.waitForStarted(10000)) << STROBE_CLI_BINARY;
    EXPECT_TRUE(p.waitForFinished(60000));
    EXPECT_EQ(p.exitStatus(), QProcess::NormalExit) << "strobe-cli crashed";
    return {p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError())};
}

QString fixture(const char* name) {
    return QString::fromStdString(test::fixturePath(name));
}

} // namespace

TEST(CliProcess, VersionAndHelpExitZeroOnStdout) {
    const ProcessRun v = runBinary({QStringLiteral("--version")});
    EXPECT_EQ(v.status, 0);
    EXPECT_EQ(v.out, QStringLiteral("strobe-cli " STROBE_VERSION "\n"));
    EXPECT_TRUE(v.err.isEmpty());
    const ProcessRun h = runBinary({QStringLiteral("--help")});
    EXPECT_EQ(h.status, 0);
    EXPECT_TRUE(h.out.startsWith(QStringLiteral("usage: strobe-cli COMMAND [ARGS...]\n")));
    EXPECT_TRUE(h.err.isEmpty());
}

TEST(CliProcess, UsageErrorsExitTwoWithOneLineOnStderr) {
    const ProcessRun unknown = runBinary({QStringLiteral("frobnicate")});
    EXPECT_EQ(unknown.status, 2);
    EXPECT_EQ(unknown.err, QStringLiteral("strobe-cli: unknown command 'frobnicate'; run "
                                          "'strobe-cli --help' for the list.\n"));
    EXPECT_TRUE(unknown.out.isEmpty());
    const ProcessRun option =
        runBinary({QStringLiteral("kernels"), fixture("nsys2024.5-cloverleaf.sqlite"),
                   QStringLiteral("--format"), QStringLiteral("xml")});
    EXPECT_EQ(option.status, 2);
    EXPECT_EQ(option.err.count(u'\n'), 1) << option.err.toStdString();
    EXPECT_TRUE(option.err.startsWith(QStringLiteral("strobe-cli kernels: ")))
        << option.err.toStdString();
    EXPECT_TRUE(option.out.isEmpty());
    // No arguments at all: the usage goes to stderr.
    const ProcessRun none = runBinary({});
    EXPECT_EQ(none.status, 2);
    EXPECT_TRUE(none.err.startsWith(QStringLiteral("usage: strobe-cli")));
    EXPECT_TRUE(none.out.isEmpty());
}

TEST(CliProcess, UnreadableFileExitsOneWithOneLineOnStderr) {
    const ProcessRun r =
        runBinary({QStringLiteral("info"), QStringLiteral("/nonexistent/trace.sqlite")});
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.err,
              QStringLiteral("strobe-cli: Cannot open 'trace.sqlite': the file does not exist.\n"));
    EXPECT_TRUE(r.out.isEmpty());
}

TEST(CliProcess, InfoOnAFixturePrintsItsJsonOnStdout) {
    const std::string path = test::fixturePath("nsys2024.5-cloverleaf.sqlite");
    const ProcessRun r =
        runBinary({QStringLiteral("info"), QString::fromStdString(path), QStringLiteral("--json")});
    ASSERT_EQ(r.status, 0) << r.err.toStdString();
    EXPECT_TRUE(r.err.isEmpty());
    const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
    EXPECT_EQ(o[QStringLiteral("counts")].toObject()[QStringLiteral("kernels")].toInteger(),
              test::queryInt(path, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"));
}

TEST(CliProcess, SynthWritesATraceThatOpens) {
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("synth.sqlite"));
    const ProcessRun r =
        runBinary({QStringLiteral("synth"), QStringLiteral("-o"), out, QStringLiteral("--events"),
                   QStringLiteral("2k"), QStringLiteral("--seed"), QStringLiteral("5")});
    ASSERT_EQ(r.status, 0) << r.err.toStdString();
    EXPECT_TRUE(r.err.isEmpty());
    // "Wrote FILE: N events (K kernels) in S s"
    static const QRegularExpression line(
        QStringLiteral("^Wrote (.+): ([0-9]+) events \\(([0-9]+) kernels\\) in [0-9.]+ s\n$"));
    const auto m = line.match(r.out);
    ASSERT_TRUE(m.hasMatch()) << r.out.toStdString();
    EXPECT_EQ(m.captured(1), out);
    const std::int64_t kernels = m.captured(3).toLongLong();
    EXPECT_EQ(kernels,
              test::queryInt(out.toStdString(), "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"));
    LoadResult loaded = loadTrace(out);
    ASSERT_TRUE(loaded.ok()) << loaded.error.toStdString();
    EXPECT_EQ(std::int64_t(loaded.trace->counts().kernels), kernels);
    EXPECT_GT(kernels, 0);

    // Bad counts are usage errors, an unwritable place a file error: one line each.
    const ProcessRun bad = runBinary({QStringLiteral("synth"), QStringLiteral("-o"), out,
                                      QStringLiteral("--events"), QStringLiteral("abc")});
    EXPECT_EQ(bad.status, 2);
    EXPECT_EQ(bad.err.count(u'\n'), 1);
    const ProcessRun nowhere = runBinary({QStringLiteral("synth"), QStringLiteral("-o"),
                                          QStringLiteral("/nonexistent/dir/x.sqlite"),
                                          QStringLiteral("--events"), QStringLiteral("100")});
    EXPECT_EQ(nowhere.status, 1);
    EXPECT_EQ(nowhere.err.count(u'\n'), 1);
    EXPECT_TRUE(nowhere.err.startsWith(QStringLiteral("strobe-cli: ")))
        << nowhere.err.toStdString();
}
