// SPDX-License-Identifier: MIT
// strobe-cli as a whole: per-command help, and output that cannot be written (a full disk,
// /dev/full) exiting 1 with one sentence instead of losing the output silently.
#include "app/cli/commands.h"
#include "tests/app/cli/clitesthelpers.h"
#include "tests/fixtures/synthfixtures.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <gtest/gtest.h>

using namespace strobe;
using namespace strobe::test;

namespace {

const QStringList kCommands = {QStringLiteral("info"),
                               QStringLiteral("synth"),
                               QStringLiteral("kernels"),
                               QStringLiteral("kernel-summary"),
                               QStringLiteral("nvtx-summary"),
                               QStringLiteral("memory-summary"),
                               QStringLiteral("memory-size-summary"),
                               QStringLiteral("api-summary"),
                               QStringLiteral("osrt-summary"),
                               QStringLiteral("launch-summary"),
                               QStringLiteral("gaps"),
                               QStringLiteral("breakdown"),
                               QStringLiteral("ops"),
                               QStringLiteral("steps"),
                               QStringLiteral("analyze"),
                               QStringLiteral("job"),
                               QStringLiteral("diff"),
                               QStringLiteral("render")};

CliResult runLine(const QStringList& argv) {
    CliResult r;
    QTextStream out(&r.out), err(&r.err);
    r.status = cli::runCommandLine(argv, {out, err});
    err.flush();
    return r;
}

// Runs the command line with its standard output on /dev/full, in-process.
CliResult runIntoFullDevice(const QStringList& argv) {
    QFile full(QStringLiteral("/dev/full"));
    CliResult r;
    if (!full.open(QIODevice::WriteOnly)) {
        ADD_FAILURE() << "cannot open /dev/full";
        return r;
    }
    QTextStream out(&full), err(&r.err);
    r.status = cli::runCommandLine(argv, {out, err});
    err.flush();
    return r;
}

} // namespace

TEST(Cli, TopLevelHelpListsEveryCommand) {
    const CliResult r = runLine({QStringLiteral("--help")});
    ASSERT_EQ(r.status, 0);
    static const QRegularExpression line(QStringLiteral("^  ([a-z-]+) "),
                                         QRegularExpression::MultilineOption);
    QStringList listed;
    for (auto it = line.globalMatch(r.out); it.hasNext();)
        listed << it.next().captured(1);
    EXPECT_EQ(listed, kCommands);
}

TEST(Cli, CommandHelpPrintsItsUsageAndExitsZero) {
    for (const QString& cmd : kCommands) {
        for (const QString& flag : {QStringLiteral("--help"), QStringLiteral("-h")}) {
            // Also after other arguments, where the user typed it.
            for (const QStringList& argv :
                 {QStringList{cmd, flag}, QStringList{cmd, QStringLiteral("x.sqlite"), flag}}) {
                const CliResult r = runLine(argv);
                EXPECT_EQ(r.status, 0) << argv.join(u' ').toStdString();
                EXPECT_TRUE(r.err.isEmpty()) << r.err.toStdString();
                EXPECT_TRUE(r.out.startsWith(QStringLiteral("usage: strobe-cli ") % cmd % u' '))
                    << r.out.toStdString();
                EXPECT_TRUE(r.out.contains(QStringLiteral("  -h, --help")));
            }
        }
    }
    const CliResult gaps = runLine({QStringLiteral("gaps"), QStringLiteral("--help")});
    EXPECT_TRUE(gaps.out.contains(QStringLiteral("  --min-ns N ")));
    EXPECT_TRUE(gaps.out.contains(QStringLiteral("(default 100000)")));
    const CliResult synth = runLine({QStringLiteral("synth"), QStringLiteral("-h")});
    EXPECT_TRUE(synth.out.contains(QStringLiteral("  -o, --output FILE ")));
}

TEST(Cli, UsageErrorPointsAtTheCommandsHelp) {
    const CliResult r =
        runLine({QStringLiteral("gaps"), QStringLiteral("f.sqlite"), QStringLiteral("--min")});
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, QStringLiteral("strobe-cli gaps: unknown option '--min'; run 'strobe-cli gaps "
                                    "--help' for usage.\n"));
}

TEST(Cli, EveryCommandThatWritesFailsOnAFullDevice) {
    const QString f = fixture("nsys2024.5-cloverleaf.sqlite");
    QTemporaryDir dir;
    const QString json = QStringLiteral("--format=json");
    const QList<QStringList> lines = {
        {QStringLiteral("info"), f},
        {QStringLiteral("info"), f, QStringLiteral("--json")},
        {QStringLiteral("kernels"), f},
        {QStringLiteral("kernels"), f, json},
        {QStringLiteral("kernel-summary"), f},
        {QStringLiteral("kernel-summary"), f, QStringLiteral("--base"), json},
        {QStringLiteral("nvtx-summary"), fixture("nsys2026.2-h100-2gpu-nvtx.sqlite")},
        {QStringLiteral("nvtx-summary"), fixture("nsys2026.2-h100-2gpu-nvtx.sqlite"), json},
        {QStringLiteral("memory-summary"), f},
        {QStringLiteral("memory-summary"), f, json},
        {QStringLiteral("gaps"), f},
        {QStringLiteral("gaps"), f, json},
        {QStringLiteral("synth"), QStringLiteral("-o"), dir.filePath(QStringLiteral("s.sqlite")),
         QStringLiteral("--events"), QStringLiteral("2000")},
        {QStringLiteral("--help")},
        {QStringLiteral("--version")},
        {QStringLiteral("kernels"), QStringLiteral("--help")},
    };
    for (const QStringList& argv : lines) {
        const CliResult r = runIntoFullDevice(argv);
        EXPECT_EQ(r.status, 1) << argv.join(u' ').toStdString();
        EXPECT_EQ(r.err, QStringLiteral("strobe-cli: cannot write '/dev/full': No space left on "
                                        "device (the output is incomplete).\n"))
            << argv.join(u' ').toStdString();
    }
}

TEST(Cli, AFailureBeforeOutputKeepsItsOwnStatusAndSentence) {
    // Nothing reaches the full device: the load error is what the user needs to read.
    const CliResult r =
        runIntoFullDevice({QStringLiteral("kernels"), QStringLiteral("/nonexistent/t.sqlite")});
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.err,
              QStringLiteral("strobe-cli: Cannot open 't.sqlite': the file does not exist.\n"));
}

// The real program, its stdout redirected as a shell does: `strobe-cli ... > /dev/full`.
TEST(Cli, TheProgramReportsAFullStandardOutput) {
    for (const QStringList& args :
         {QStringList{QStringLiteral("kernels"), fixture("nsys2024.5-cloverleaf.sqlite")},
          QStringList{QStringLiteral("gaps"), fixture("nsys2024.5-cloverleaf.sqlite"),
                      QStringLiteral("--format"), QStringLiteral("json")}}) {
        QProcess p;
        p.setStandardOutputFile(QStringLiteral("/dev/full"));
        p.start(QStringLiteral(STROBE_CLI_EXE), args);
        ASSERT_TRUE(p.waitForFinished(60000));
        EXPECT_EQ(p.exitStatus(), QProcess::NormalExit);
        EXPECT_EQ(p.exitCode(), 1) << args.join(u' ').toStdString();
        EXPECT_EQ(QString::fromUtf8(p.readAllStandardError()),
                  QStringLiteral("strobe-cli: cannot write standard output: No space left on "
                                 "device (the output is incomplete).\n"));
    }
}

TEST(Cli, SynthIntoAMissingFolderExitsOneWithOneLine) {
    const CliResult r = runLine({QStringLiteral("synth"), QStringLiteral("-o"),
                                 QStringLiteral("/nonexistent/dir/s.sqlite"),
                                 QStringLiteral("--events"), QStringLiteral("1000")});
    EXPECT_EQ(r.status, 1);
    EXPECT_TRUE(r.out.isEmpty());
    EXPECT_EQ(r.err.count(u'\n'), 1) << r.err.toStdString();
    EXPECT_TRUE(r.err.startsWith(QStringLiteral("strobe-cli: "))) << r.err.toStdString();
    EXPECT_TRUE(r.err.contains(QStringLiteral("/nonexistent/dir/s.sqlite"))) << r.err.toStdString();
}

// An export whose event tables exist but hold no rows: the same warning as tables that are
// missing, and no time range (there is no first start or last end).
TEST(Cli, InfoOnAnExportWithEmptyTables) {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("empty.sqlite"));
    ASSERT_TRUE(fixtures::writeEmptyExport(path.toStdString()));
    // Give it every event table of a real export, with the real columns and no rows.
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.toUtf8().constData(), &db), SQLITE_OK);
    const std::string attach =
        "ATTACH '" + fixture("nsys2026.2-h100-2gpu-nvtx.sqlite").toStdString() + "' AS fx;";
    ASSERT_EQ(sqlite3_exec(db, attach.c_str(), nullptr, nullptr, nullptr), SQLITE_OK);
    int created = 0;
    for (const char* t : {"CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY",
                          "CUPTI_ACTIVITY_KIND_MEMSET", "CUPTI_ACTIVITY_KIND_RUNTIME",
                          "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", "NVTX_EVENTS", "OSRT_API"}) {
        const std::string sql = std::string("DROP TABLE IF EXISTS main.") + t +
                                "; CREATE TABLE main." + t + " AS SELECT * FROM fx." + t +
                                " WHERE 0;";
        created += sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr) == SQLITE_OK;
    }
    sqlite3_exec(db, "DETACH fx;", nullptr, nullptr, nullptr);
    sqlite3_close(db);
    ASSERT_GE(created, 5); // the fixture has (at least) kernels, memcpys, runtime, NVTX, OSRT
    const CliResult r = runLine({QStringLiteral("info"), path, QStringLiteral("--json")});
    ASSERT_EQ(r.status, 0) << r.err.toStdString();
    const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
    EXPECT_TRUE(o.value(QStringLiteral("time_range_ns")).isNull());
    const QJsonArray warnings = o.value(QStringLiteral("warnings")).toArray();
    ASSERT_EQ(warnings.size(), 1);
    EXPECT_EQ(warnings[0].toObject().value(QStringLiteral("kind")).toString(),
              QStringLiteral("no-events"));
    const CliResult text = runLine({QStringLiteral("info"), path});
    EXPECT_TRUE(text.out.contains(QStringLiteral("Time range:  none (no events)\n")))
        << text.out.toStdString();
}
