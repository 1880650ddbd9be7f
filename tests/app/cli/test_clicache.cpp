// SPDX-License-Identifier: MIT
// strobe-cli reads the file itself unless given --cache[=DIR]: then the reopen cache serves the
// same output and is filled, and the choice lasts for one command only.
#include "app/cli/cliargs.h"
#include "app/cli/commands.h"
#include "tests/app/cli/clitesthelpers.h"

#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <gtest/gtest.h>

using namespace strobe;
using namespace strobe::test;

namespace {

CliResult runLine(const QStringList& argv) {
    CliResult r;
    QTextStream out(&r.out), err(&r.err);
    r.status = cli::runCommandLine(argv, {out, err});
    err.flush();
    return r;
}

QFileInfoList entries(const QTemporaryDir& dir) {
    return QDir(dir.path()).entryInfoList({QStringLiteral("*.strobecache")}, QDir::Files);
}

void age(const QFileInfo& entry, const QDateTime& when) {
    QFile f(entry.absoluteFilePath());
    ASSERT_TRUE(f.open(QIODevice::ReadWrite));
    ASSERT_TRUE(f.setFileTime(when, QFileDevice::FileModificationTime));
}

} // namespace

TEST(CliCache, CacheOptionGivesTheSameOutputAndFillsTheFolder) {
    const QString trace = fixture("nsys2026.2-h100-2gpu-nvtx.sqlite");
    QTemporaryDir cache;
    for (const QString& cmd :
         {QStringLiteral("info"), QStringLiteral("kernels"), QStringLiteral("nvtx-summary")}) {
        SCOPED_TRACE(cmd.toStdString());
        const CliResult plain = runLine({cmd, trace});
        ASSERT_EQ(plain.status, 0) << plain.err.toStdString();
        const QStringList withCache{cmd, trace, QStringLiteral("--cache=") + cache.path()};
        const CliResult first = runLine(withCache);
        EXPECT_EQ(first.status, 0);
        EXPECT_EQ(first.out, plain.out);
        ASSERT_EQ(entries(cache).size(), 1);
        const QDateTime old(QDate(2001, 1, 1), QTime(0, 0), Qt::UTC);
        age(entries(cache)[0], old);
        // The other spelling, the folder as the next argument.
        const CliResult second = runLine({cmd, QStringLiteral("--cache"), cache.path(), trace});
        EXPECT_EQ(second.status, 0) << second.err.toStdString();
        EXPECT_EQ(second.out, plain.out);
        EXPECT_GT(entries(cache)[0].lastModified(), old.addYears(10)) << "served from the entry";
    }
    EXPECT_TRUE(cli::cacheFolder().isEmpty()) << "the choice lasts one command";
}

TEST(CliCache, WithoutTheOptionTheFileIsReadItself) {
    const QString trace = fixture("nsys2025.5-cuda-graphs.sqlite");
    QTemporaryDir cache;
    ASSERT_EQ(
        runLine({QStringLiteral("info"), trace, QStringLiteral("--cache=") + cache.path()}).status,
        0);
    ASSERT_EQ(entries(cache).size(), 1);
    const QDateTime old(QDate(2001, 1, 1), QTime(0, 0), Qt::UTC);
    age(entries(cache)[0], old);
    EXPECT_EQ(runLine({QStringLiteral("info"), trace}).status, 0);
    EXPECT_EQ(entries(cache)[0].lastModified(), old) << "the entry was not used";
}

TEST(CliCache, TakeCacheOption) {
    QTemporaryDir dir;
    QStringList bare{QStringLiteral("t.sqlite"), QStringLiteral("--cache"),
                     QStringLiteral("--json")};
    EXPECT_EQ(cli::takeCacheOption(bare), cli::defaultCacheFolder());
    EXPECT_EQ(bare, (QStringList{QStringLiteral("t.sqlite"), QStringLiteral("--json")}));
    // A following argument that is not a folder (the trace) stays where it is.
    QStringList beforeTrace{QStringLiteral("--cache"), QStringLiteral("t.sqlite")};
    EXPECT_EQ(cli::takeCacheOption(beforeTrace), cli::defaultCacheFolder());
    EXPECT_EQ(beforeTrace, QStringList{QStringLiteral("t.sqlite")});
    QStringList folder{QStringLiteral("--cache"), dir.path(), QStringLiteral("t.sqlite")};
    EXPECT_EQ(cli::takeCacheOption(folder), dir.path());
    EXPECT_EQ(folder, QStringList{QStringLiteral("t.sqlite")});
    QStringList none{QStringLiteral("t.sqlite")};
    EXPECT_TRUE(cli::takeCacheOption(none).isEmpty());
    EXPECT_TRUE(cli::defaultCacheFolder().endsWith(QStringLiteral("/strobe/strobe/traces")));
}

TEST(CliCache, HelpNamesTheOptionWhereItApplies) {
    EXPECT_TRUE(runLine({QStringLiteral("info"), QStringLiteral("--help")})
                    .out.contains(QStringLiteral("  --cache [DIR] ")));
    EXPECT_FALSE(runLine({QStringLiteral("synth"), QStringLiteral("--help")})
                     .out.contains(QStringLiteral("--cache")));
    const CliResult synth = runLine({QStringLiteral("synth"), QStringLiteral("--cache")});
    EXPECT_EQ(synth.status, 2) << "synth reads no trace";
}

TEST(CliCache, AnUnwritableCacheStillPrints) {
    QTemporaryDir dir;
    QFile blocker(dir.filePath(QStringLiteral("file")));
    ASSERT_TRUE(blocker.open(QIODevice::WriteOnly));
    blocker.close();
    const QString trace = fixture("nsys2025.5-cuda-graphs.sqlite");
    const CliResult plain = runLine({QStringLiteral("kernels"), trace});
    const CliResult r =
        runLine({QStringLiteral("kernels"), trace,
                 QStringLiteral("--cache=") + blocker.fileName() + QStringLiteral("/cache")});
    EXPECT_EQ(r.status, 0);
    EXPECT_EQ(r.out, plain.out);
}
