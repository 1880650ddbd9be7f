// SPDX-License-Identifier: MIT
// strobe-cli on hostile files: escaped text, neutralised CSV formulas, one line per failure,
// nothing written beside the input, and one sentence when memory runs out.
#include "model/reports/reporttable.h"
#include "tests/app/cli/clitesthelpers.h"
#include "tests/fixtures/hostilefixtures.h"

#include <gtest/gtest.h>

#include <QCryptographicHash>
#include <QElapsedTimer>
#include <QProcess>
#include <QTemporaryDir>
#include <sys/resource.h>

using namespace strobe;
using namespace strobe::test;

namespace {

QStringList snapshot(const QString& dir) {
    QStringList out;
    for (const QFileInfo& f : QDir(dir).entryInfoList(QDir::Files | QDir::Hidden, QDir::Name)) {
        QFile file(f.filePath());
        EXPECT_TRUE(file.open(QIODevice::ReadOnly));
        out << f.fileName() + u' ' +
                   QString::fromLatin1(
                       QCryptographicHash::hash(file.readAll(), QCryptographicHash::Sha256)
                           .toHex());
    }
    return out;
}

bool hasRawControl(const QString& s) {
    return std::any_of(s.begin(), s.end(), [](QChar c) {
        const char16_t u = c.unicode();
        return (u < 0x20 && u != u'\n' && u != u'\r') || (u >= 0x7F && u <= 0x9F);
    });
}

struct Command {
    const char* name;
    int (*run)(const QStringList&, cli::Io);
    bool readsNvtx; // a command reads only the tables it needs (docs/CLI.md)
};
const Command kCommands[] = {
    {"info", &cli::runInfo, true},
    {"info --json", &cli::runInfo, true},
    {"kernels", &cli::runKernels, false},
    {"kernels --format json", &cli::runKernels, false},
    {"kernel-summary", &cli::runKernelSummary, false},
    {"nvtx-summary", &cli::runNvtxSummary, true},
    {"memory-summary", &cli::runMemorySummary, false},
    {"gaps", &cli::runGaps, true},
};

// The file loads for this command: it is readable, or what is damaged is the NVTX table
// (damaged-event-table) and the command never reads it.
bool loadsFor(const fixtures::HostileCase& c, const Command& cmd) {
    return c.loads || (c.name == std::string("damaged-event-table") && !cmd.readsNvtx);
}

} // namespace

TEST(UntrustedCli, EveryCommandOnEveryHostileFileLeavesItAndItsFolderUnchanged) {
    for (const fixtures::HostileCase& c : fixtures::hostileCases()) {
        QTemporaryDir dir;
        const QString path =
            dir.filePath(QString::fromStdString(c.name) + QStringLiteral(".sqlite"));
        ASSERT_TRUE(fixtures::writeHostileCase(c.name, path.toStdString()));
        const QStringList before = snapshot(dir.path());
        for (const Command& cmd : kCommands) {
            QStringList args = QString::fromLatin1(cmd.name).split(u' ').mid(1);
            args.prepend(path);
            QElapsedTimer timer;
            timer.start();
            const CliResult r = runCli(cmd.run, args);
            EXPECT_LT(timer.elapsed(), fixtures::kHostileTimeLimitMs) << c.name << ' ' << cmd.name;
            const bool loads = loadsFor(c, cmd);
            EXPECT_EQ(r.status, loads ? 0 : 1) << c.name << ' ' << cmd.name;
            if (!loads) {
                EXPECT_EQ(r.err.count(u'\n'), 1) << r.err.toStdString();
                EXPECT_TRUE(r.err.startsWith(QStringLiteral("strobe-cli: ")));
                EXPECT_TRUE(r.err.contains(u'\'' + QFileInfo(path).fileName() + u'\''))
                    << r.err.toStdString();
            }
            EXPECT_FALSE(hasRawControl(r.out)) << c.name << ' ' << cmd.name;
            EXPECT_EQ(snapshot(dir.path()), before) << c.name << ' ' << cmd.name;
        }
    }
}

TEST(UntrustedCli, InfoEscapesControlCharacters) {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("cc.sqlite"));
    ASSERT_TRUE(fixtures::writeHostileCase("control-chars", path.toStdString()));
    const CliResult r = runCli(&cli::runInfo, {path});
    ASSERT_EQ(r.status, 0) << r.err.toStdString();
    EXPECT_TRUE(r.out.contains(QStringLiteral("GPU 0:       GPU\\x1B]0;pwned\\x07\\x9B")))
        << r.out.toStdString();
    EXPECT_TRUE(r.out.contains(QStringLiteral("Processes:   @SUM(1+1)\\x0Aline2 [42]")))
        << r.out.toStdString();
    const CliResult json = runCli(&cli::runInfo, {path, QStringLiteral("--json")});
    EXPECT_TRUE(json.out.contains(QStringLiteral("\"GPU\\u001b]0;pwned\\u0007\\u009b\"")))
        << json.out.toStdString();
}

TEST(UntrustedCli, CsvNeutralisesFormulasButKeepsNegativeNumbers) {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("cc.sqlite"));
    ASSERT_TRUE(fixtures::writeHostileCase("control-chars", path.toStdString()));
    const CliResult r = runCli(&cli::runKernels, {path});
    ASSERT_EQ(r.status, 0) << r.err.toStdString();
    const auto records = parseCsv(r.out);
    ASSERT_EQ(records.size(), 4u);
    EXPECT_EQ(records[1][0], QStringLiteral("evil\\x1B[31mred\\x1B[0m\\x07\\x0Dx"));
    EXPECT_EQ(records[2][0], QStringLiteral("'=HYPERLINK(\"http://x\",\"y\")"));
    // Numbers are never prefixed, negative or not.
    ReportTable t;
    t.columns = {QStringLiteral("name"), QStringLiteral("delta_ns")};
    t.rows.push_back(
        {ReportCell::string(QStringLiteral("-1+2")), ReportCell::number(std::int64_t(-42))});
    t.rows.push_back({ReportCell::string(QStringLiteral("+x")), ReportCell::number(-1.5, 1)});
    t.rows.push_back(
        {ReportCell::string(QStringLiteral("@a")), ReportCell::number(std::int64_t(7))});
    EXPECT_EQ(toCsv(t), QStringLiteral("name,delta_ns\r\n'-1+2,-42\r\n'+x,-1.5\r\n'@a,7\r\n"));
}

TEST(UntrustedCli, ExtremeTimesGiveNoNegativeDurations) {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("t.sqlite"));
    ASSERT_TRUE(fixtures::writeHostileCase("extreme-times", path.toStdString()));
    const CliResult info = runCli(&cli::runInfo, {path});
    ASSERT_EQ(info.status, 0);
    EXPECT_FALSE(info.out.contains(QStringLiteral("(-"))) << info.out.toStdString();
    EXPECT_TRUE(info.out.contains(QStringLiteral("2 events have times beyond the representable")))
        << info.out.toStdString();
    const auto rows = parseCsv(runCli(&cli::runKernelSummary, {path}).out);
    ASSERT_GE(rows.size(), 2u);
    for (std::size_t i = 1; i < rows.size(); ++i)
        EXPECT_FALSE(rows[i][2].startsWith(u'-')) << rows[i][2].toStdString(); // total_ns
}

TEST(UntrustedCli, OutOfMemoryIsOneSentenceAndExitOne) {
#if defined(__SANITIZE_ADDRESS__)
    GTEST_SKIP() << "an address-space limit does not work under AddressSanitizer";
#else
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("big.sqlite"));
    // One 250 MB metadata value (names are cut to 64 KiB, metadata is read whole): SQLite's copy
    // and its UTF-16 form need more than the 768 MiB address-space cap leaves.
    ASSERT_TRUE(fixtures::writeBaseExport(
        path.toStdString(), "UPDATE META_DATA_EXPORT SET value = hex(zeroblob(125000000)) "
                            "WHERE name = 'EXPORT_SCHEMA_VERSION';"));
    QProcess p;
    p.setChildProcessModifier([] {
        rlimit lim{};
        getrlimit(RLIMIT_AS, &lim);
        rlimit cap{std::min<rlim_t>(lim.rlim_max, rlim_t(768) << 20), lim.rlim_max};
        setrlimit(RLIMIT_AS, &cap);
    });
    p.start(QStringLiteral(STROBE_CLI_BINARY), {QStringLiteral("kernels"), path});
    ASSERT_TRUE(p.waitForFinished(60000));
    const QString err = QString::fromUtf8(p.readAllStandardError());
    EXPECT_EQ(p.exitStatus(), QProcess::NormalExit) << "no abort";
    EXPECT_EQ(p.exitCode(), 1) << err.toStdString();
    EXPECT_EQ(err.count(u'\n'), 1) << err.toStdString();
    EXPECT_TRUE(err.contains(QStringLiteral("memory"))) << err.toStdString();
#endif
}
