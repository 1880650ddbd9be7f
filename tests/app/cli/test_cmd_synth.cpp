// SPDX-License-Identifier: MIT
// strobe-cli synth --ranks N: the job's files, its one-line report, and one sentence with exit
// status 2 for each bad combination of options (docs/SYNTH.md, docs/CLI.md).
#include "clitesthelpers.h"
#include "formats/open.h"

#include <QDir>
#include <QTemporaryDir>

using namespace strobe;
using namespace strobe::test;

namespace {

CliResult synth(const QStringList& args) {
    return runCli(&cli::runSynth, args);
}

QStringList jobArgs(const QTemporaryDir& dir, const QStringList& more) {
    return QStringList{QStringLiteral("-o"), dir.filePath(QStringLiteral("job")),
                       QStringLiteral("--events"), QStringLiteral("2000")} +
           more;
}

} // namespace

TEST(CmdSynth, RanksWritesOneGzipTracePerRankAndSaysSo) {
    QTemporaryDir dir;
    const CliResult r = synth(
        jobArgs(dir, {QStringLiteral("--ranks"), QStringLiteral("3"), QStringLiteral("--straggler"),
                      QStringLiteral("1"), QStringLiteral("--delay"), QStringLiteral("0.25")}));
    ASSERT_EQ(r.status, 0) << r.err.toStdString();
    EXPECT_TRUE(r.err.isEmpty());
    const QString job = dir.filePath(QStringLiteral("job"));
    EXPECT_EQ(QDir(job).entryList(QDir::Files),
              (QStringList{QStringLiteral("rank-0.json.gz"), QStringLiteral("rank-1.json.gz"),
                           QStringLiteral("rank-2.json.gz")}));
    const QStringList lines = r.out.split(u'\n', Qt::SkipEmptyParts);
    ASSERT_EQ(lines.size(), 2) << r.out.toStdString();
    EXPECT_TRUE(lines[0].startsWith(QStringLiteral("Wrote 3 traces to ") % job %
                                    QStringLiteral(" (rank-0.json.gz to rank-2.json.gz): ")))
        << lines[0].toStdString();
    EXPECT_EQ(lines[1], QStringLiteral("Rank 1 arrives 0.25 ms late at every all-reduce"));
    for (int rank = 0; rank < 3; ++rank) {
        LoadResult loaded =
            loadTrace(QDir(job).filePath(QStringLiteral("rank-%1.json.gz").arg(rank)));
        ASSERT_TRUE(loaded.ok()) << loaded.error.toStdString();
        EXPECT_EQ(loaded.trace->metadata().rank, std::uint32_t(rank));
        EXPECT_EQ(loaded.trace->metadata().worldSize, 3u);
    }
}

TEST(CmdSynth, NoGzipWritesPlainJson) {
    QTemporaryDir dir;
    const CliResult r = synth(jobArgs(
        dir, {QStringLiteral("--ranks"), QStringLiteral("2"), QStringLiteral("--no-gzip")}));
    ASSERT_EQ(r.status, 0) << r.err.toStdString();
    EXPECT_EQ(QDir(dir.filePath(QStringLiteral("job"))).entryList(QDir::Files),
              (QStringList{QStringLiteral("rank-0.json"), QStringLiteral("rank-1.json")}));
    EXPECT_EQ(r.out.count(u'\n'), 1) << r.out.toStdString(); // no straggler line
}

// Each mistake is one sentence on stderr, exit status 2, and nothing written.
TEST(CmdSynth, BadJobOptionsAreOneSentenceEach) {
    struct Case {
        QStringList args;
        QString sentence;
    };
    const QString n = QStringLiteral("--ranks"), s = QStringLiteral("--straggler"),
                  d = QStringLiteral("--delay");
    const QList<Case> cases = {
        {{s, QStringLiteral("1"), d, QStringLiteral("5")},
         QStringLiteral("--straggler describes a job and needs --ranks N")},
        {{d, QStringLiteral("5")}, QStringLiteral("--delay describes a job and needs --ranks N")},
        {{QStringLiteral("--clock-skew"), QStringLiteral("1")},
         QStringLiteral("--clock-skew describes a job and needs --ranks N")},
        {{n, QStringLiteral("4"), s, QStringLiteral("4"), d, QStringLiteral("5")},
         QStringLiteral("--straggler must be a rank from 0 to 3, not '4'")},
        {{n, QStringLiteral("4"), s, QStringLiteral("-1"), d, QStringLiteral("5")},
         QStringLiteral("--straggler must be a rank from 0 to 3, not '-1'")},
        {{n, QStringLiteral("4"), s, QStringLiteral("1"), d, QStringLiteral("-5")},
         QStringLiteral(
             "--delay must be milliseconds from 0 to 10000 such as 20 or 2.5, not '-5'")},
        {{n, QStringLiteral("4"), s, QStringLiteral("1"), d, QStringLiteral("1.2.3")},
         QStringLiteral(
             "--delay must be milliseconds from 0 to 10000 such as 20 or 2.5, not '1.2.3'")},
        {{n, QStringLiteral("4"), s, QStringLiteral("1")},
         QStringLiteral("--straggler R needs --delay MS, how late it is")},
        {{n, QStringLiteral("4"), d, QStringLiteral("5")},
         QStringLiteral("--delay MS needs --straggler R, the late rank")},
        {{n, QStringLiteral("0")},
         QStringLiteral("--ranks must be a whole number from 1 to 4096, not '0'")},
        {{n, QStringLiteral("4097")},
         QStringLiteral("--ranks must be a whole number from 1 to 4096, not '4097'")},
        {{n, QStringLiteral("two")},
         QStringLiteral("--ranks must be a whole number from 1 to 4096, not 'two'")},
        {{n, QStringLiteral("2"), QStringLiteral("--format"), QStringLiteral("nsys")},
         QStringLiteral("--ranks writes Kineto traces only (nsys jobs are not supported); use "
                        "--format kineto or leave it out")},
        {{n, QStringLiteral("2"), QStringLiteral("--schema"), QStringLiteral("3.25")},
         QStringLiteral("--ranks writes a job of Kineto traces and takes no --schema")},
        {{n, QStringLiteral("2"), QStringLiteral("--clock-skew"), QStringLiteral("600")},
         QStringLiteral("--clock-skew must be milliseconds such as 0.5 or -2, at most 1 s times "
                        "the number of ranks, not '600'")},
    };
    for (const Case& c : cases) {
        QTemporaryDir dir;
        const CliResult r = synth(jobArgs(dir, c.args));
        const std::string line = c.args.join(u' ').toStdString();
        EXPECT_EQ(r.status, 2) << line;
        EXPECT_EQ(r.err, QString(QStringLiteral("strobe-cli synth: ") % c.sentence %
                                 QStringLiteral("; run 'strobe-cli synth --help' for usage.\n")))
            << line;
        EXPECT_TRUE(r.out.isEmpty()) << line;
        EXPECT_FALSE(QFileInfo::exists(dir.filePath(QStringLiteral("job")))) << line;
    }
}

TEST(CmdSynth, AnUnwritableFolderExitsOneWithOneLine) {
    const CliResult r = synth({QStringLiteral("-o"), QStringLiteral("/proc/strobe-job"),
                               QStringLiteral("--ranks"), QStringLiteral("2")});
    EXPECT_EQ(r.status, 1);
    EXPECT_TRUE(r.out.isEmpty());
    EXPECT_EQ(r.err, QStringLiteral("strobe-cli: cannot create the folder /proc/strobe-job\n"));
}
