// SPDX-License-Identifier: MIT
// The built strobe binary (main_gui.cpp) started as a process on the offscreen platform with
// --quit-after-load: it opens a fixture, paints it and exits 0; a missing file exits 1 with the
// reason on stderr. Its settings go to a temporary XDG config folder, never the user's.
#include "tests/support/sqlitequery.h"

#include <gtest/gtest.h>

#include <QDir>
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

} // namespace

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
