// SPDX-License-Identifier: MIT
// The built strobe binary (main_gui.cpp) started as a process on the offscreen platform with
// --quit-after-load: it opens a fixture, paints it and exits 0; a missing file exits 1 with the
// reason on stderr. Its settings and its reopen cache go to temporary XDG config and cache
// folders, never the user's.
#include "formats/kineto/synth/kinetosynth.h"
#include "tests/support/sqlitequery.h"

#include <gtest/gtest.h>

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QSettings>
#include <QTemporaryDir>

namespace {

struct GuiRun {
    int status = -1;
    QString err;
};

GuiRun runStrobe(const QTemporaryDir& config, const QStringList& args) {
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), config.path());
    env.insert(QStringLiteral("XDG_CACHE_HOME"), config.filePath(QStringLiteral("cache")));
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(STROBE_GUI_BINARY), args);
    EXPECT_TRUE(p.waitForStarted(10000)) << STROBE_GUI_BINARY;
    const bool finished = p.waitForFinished(60000);
    EXPECT_TRUE(finished) << "strobe did not quit after the load";
    if (!finished)
        p.kill();
    EXPECT_EQ(p.exitStatus(), QProcess::NormalExit) << "strobe crashed";
    return {p.exitCode(), QString::fromUtf8(p.readAllStandardError())};
}

// The recent files the run left in its settings (the file QSettings picks under config/).
QStringList recentFiles(const QTemporaryDir& config) {
    const QString ini = QDir(config.path()).filePath(QStringLiteral("strobe/strobe.conf"));
    EXPECT_TRUE(QFileInfo::exists(ini)) << ini.toStdString();
    return QSettings(ini, QSettings::IniFormat).value(QStringLiteral("recentFiles")).toStringList();
}

// The reopen cache's entries (QStandardPaths::CacheLocation of organisation and application
// "strobe", then traces/).
QFileInfoList cacheEntries(const QTemporaryDir& config) {
    return QDir(config.filePath(QStringLiteral("cache/strobe/strobe/traces")))
        .entryInfoList({QStringLiteral("*.strobecache")}, QDir::Files);
}

} // namespace

TEST(GuiProcess, ReopensFromTheCacheInTheUserCacheFolder) {
    QTemporaryDir config;
    const QString path =
        QString::fromStdString(strobe::test::fixturePath("nsys2025.5-cuda-graphs.sqlite"));
    ASSERT_EQ(runStrobe(config, {QStringLiteral("--quit-after-load"), path}).status, 0);
    const QFileInfoList entries = cacheEntries(config);
    ASSERT_EQ(entries.size(), 1);
    // Aged by hand: a reopen that uses the entry marks it as just used.
    const QDateTime old(QDate(2001, 1, 1), QTime(0, 0), Qt::UTC);
    {
        QFile f(entries[0].absoluteFilePath());
        ASSERT_TRUE(f.open(QIODevice::ReadWrite));
        ASSERT_TRUE(f.setFileTime(old, QFileDevice::FileModificationTime));
    }
    const GuiRun again = runStrobe(config, {QStringLiteral("--quit-after-load"), path});
    EXPECT_EQ(again.status, 0) << again.err.toStdString();
    EXPECT_GT(QFileInfo(entries[0].absoluteFilePath()).lastModified(), old.addYears(10));
}

TEST(GuiProcess, NoCacheOptionAndSettingLeaveTheCacheAlone) {
    QTemporaryDir config;
    const QString path =
        QString::fromStdString(strobe::test::fixturePath("nsys2025.5-cuda-graphs.sqlite"));
    EXPECT_EQ(
        runStrobe(config, {QStringLiteral("--no-cache"), QStringLiteral("--quit-after-load"), path})
            .status,
        0);
    EXPECT_TRUE(cacheEntries(config).isEmpty());
    {
        QSettings ini(QDir(config.path()).filePath(QStringLiteral("strobe/strobe.conf")),
                      QSettings::IniFormat);
        ini.setValue(QStringLiteral("cache/enabled"), false);
    }
    EXPECT_EQ(runStrobe(config, {QStringLiteral("--quit-after-load"), path}).status, 0);
    EXPECT_TRUE(cacheEntries(config).isEmpty());
}

TEST(GuiProcess, OpensAFixtureOffscreenAndQuitsWithStatusZero) {
    QTemporaryDir config;
    const QString path =
        QString::fromStdString(strobe::test::fixturePath("nsys2024.5-cloverleaf.sqlite"));
    const GuiRun r = runStrobe(config, {QStringLiteral("--quit-after-load"), path});
    EXPECT_EQ(r.status, 0) << r.err.toStdString();
    EXPECT_FALSE(r.err.contains(QStringLiteral("strobe: "))) << r.err.toStdString();
    // It really opened the file: a successful open makes it the most recent file, stored as
    // the clean absolute path (the fixture path may contain "..", as in a CI checkout).
    EXPECT_EQ(recentFiles(config), QStringList{QFileInfo(path).absoluteFilePath()});
}

TEST(GuiProcess, AMissingFileQuitsWithStatusOneAndSaysWhy) {
    QTemporaryDir config;
    const GuiRun r = runStrobe(config, {QStringLiteral("--quit-after-load"),
                                        config.filePath(QStringLiteral("missing.sqlite"))});
    EXPECT_EQ(r.status, 1);
    EXPECT_TRUE(r.err.contains(
        QStringLiteral("strobe: Cannot open 'missing.sqlite': the file does not exist.\n")))
        << r.err.toStdString();
}

TEST(GuiProcess, VersionOption) {
    QTemporaryDir config;
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), config.path());
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(STROBE_GUI_BINARY), {QStringLiteral("--version")});
    ASSERT_TRUE(p.waitForFinished(30000));
    EXPECT_EQ(p.exitCode(), 0);
    EXPECT_EQ(QString::fromUtf8(p.readAllStandardOutput()),
              QStringLiteral("strobe " STROBE_VERSION "\n"));
}

// A folder, or several traces, open as one job (issue 42): the ranks are summarised, the job
// view painted, and the process exits 0; a folder with one unreadable rank still opens.
TEST(GuiProcess, AFolderOrSeveralTracesOpenAsAJob) {
    QTemporaryDir config;
    QTemporaryDir job;
    strobe::kinetosynth::KinetoJobOptions o;
    o.ranks = 3;
    o.events = 3'000;
    o.straggler = 1;
    o.delayNs = 1'000'000;
    std::string error;
    ASSERT_TRUE(strobe::kinetosynth::writeKinetoJob(job.path().toStdString(), o, &error)) << error;
    const GuiRun folder = runStrobe(config, {QStringLiteral("--quit-after-load"), job.path()});
    EXPECT_EQ(folder.status, 0) << folder.err.toStdString();
    const GuiRun files = runStrobe(config, {QStringLiteral("--quit-after-load"),
                                            job.filePath(QStringLiteral("rank-0.json.gz")),
                                            job.filePath(QStringLiteral("rank-2.json.gz"))});
    EXPECT_EQ(files.status, 0) << files.err.toStdString();
    QFile bad(job.filePath(QStringLiteral("rank-1.json.gz")));
    ASSERT_TRUE(bad.open(QIODevice::WriteOnly | QIODevice::Truncate));
    bad.write("{\"traceEvents\": [");
    bad.close();
    const GuiRun partial = runStrobe(config, {QStringLiteral("--quit-after-load"), job.path()});
    EXPECT_EQ(partial.status, 0) << partial.err.toStdString();
    // No rank at all is an error, said on stderr.
    QTemporaryDir none;
    QFile junk(none.filePath(QStringLiteral("rank-0.json")));
    ASSERT_TRUE(junk.open(QIODevice::WriteOnly));
    junk.write("{\"traceEvents\": [");
    junk.close();
    const GuiRun failed = runStrobe(config, {QStringLiteral("--quit-after-load"), none.path()});
    EXPECT_EQ(failed.status, 1);
    EXPECT_TRUE(failed.err.contains(QStringLiteral("rank-0.json"))) << failed.err.toStdString();
}
