// SPDX-License-Identifier: MIT
// AppSettings keeps its values in memory and writes changes on a thread of its own.
#include "app/gui/appsettings.h"

#include <QCoreApplication>
#include <QFile>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>
#include <gtest/gtest.h>

namespace strobe {
namespace {

QByteArray onDisk(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

TEST(AppSettings, AChangeReadsBackAtOnceAndReachesTheDiskWithoutASync) {
    QTemporaryDir dir;
    const QString ini = dir.filePath(QStringLiteral("strobe.ini"));
    AppSettings settings(ini);
    settings.addRecentFile(QStringLiteral("/traces/a.sqlite"));
    settings.setIdleThresholdNs(12345);
    EXPECT_EQ(settings.recentFiles(), QStringList{QStringLiteral("/traces/a.sqlite")});
    EXPECT_EQ(settings.idleThresholdNs(), 12345);
    EXPECT_FALSE(onDisk(ini).contains("a.sqlite")) << "written before the event loop ran";
    // The event loop hands the write to the writer's thread; nothing here writes.
    EXPECT_TRUE(QTest::qWaitFor([&] { return onDisk(ini).contains("12345"); }, 10000));
    EXPECT_TRUE(onDisk(ini).contains("a.sqlite"));

    settings.addRecentFile(QStringLiteral("/traces/b.sqlite"));
    EXPECT_TRUE(QTest::qWaitFor([&] { return onDisk(ini).contains("b.sqlite"); }, 10000))
        << "a second change is written too";
}

TEST(AppSettings, WhatIsPendingAtDestructionIsWritten) {
    QTemporaryDir dir;
    const QString ini = dir.filePath(QStringLiteral("strobe.ini"));
    {
        AppSettings settings(ini);
        settings.setIdleThresholdNs(777000);
    }
    EXPECT_TRUE(onDisk(ini).contains("777000"));
}

TEST(AppSettings, ANewInstanceReadsWhatAnEarlierOneWrote) {
    QTemporaryDir dir;
    const QString ini = dir.filePath(QStringLiteral("strobe.ini"));
    {
        QSettings earlier(ini, QSettings::IniFormat); // as a previous run left it
        earlier.setValue(QStringLiteral("theme"), QStringLiteral("dark"));
        earlier.setValue(QStringLiteral("recentFiles"),
                         QStringList{QStringLiteral("/x.sqlite"), QStringLiteral("/y.sqlite")});
    }
    AppSettings settings(ini);
    EXPECT_EQ(settings.theme(), Theme::Dark);
    EXPECT_EQ(settings.recentFiles(),
              (QStringList{QStringLiteral("/x.sqlite"), QStringLiteral("/y.sqlite")}));
    settings.setTheme(Theme::Light);
    settings.sync();
    EXPECT_EQ(QSettings(ini, QSettings::IniFormat).value(QStringLiteral("theme")).toString(),
              QStringLiteral("light"));
    EXPECT_EQ(
        QSettings(ini, QSettings::IniFormat).value(QStringLiteral("recentFiles")).toStringList(),
        (QStringList{QStringLiteral("/x.sqlite"), QStringLiteral("/y.sqlite")}))
        << "a key not changed is left as it was";
}

} // namespace
} // namespace strobe
