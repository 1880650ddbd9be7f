// SPDX-License-Identifier: MIT
// AppSettings writes its changes on a thread of its own, never on the GUI thread.
#include "app/gui/appsettings.h"

#include <QCoreApplication>
#include <QFile>
#include <QTemporaryDir>
#include <gtest/gtest.h>

namespace strobe {
namespace {

QByteArray onDisk(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

TEST(AppSettings, QSettingsOwnUpdateRequestWritesNothingOnTheGuiThread) {
    QTemporaryDir dir;
    const QString ini = dir.filePath(QStringLiteral("strobe.ini"));
    AppSettings settings(ini);
    settings.addRecentFile(QStringLiteral("/traces/a.sqlite"));
    // Delivers QSettings's own update request (a plain QSettings writes the file here) but not
    // the timer that hands the write to the writer thread.
    QCoreApplication::sendPostedEvents();
    EXPECT_FALSE(onDisk(ini).contains("a.sqlite"));
    EXPECT_EQ(settings.recentFiles(), QStringList{QStringLiteral("/traces/a.sqlite")})
        << "a change reads back before it is written";
}

TEST(AppSettings, ChangesReachTheDiskOnTheNextEventLoopPass) {
    QTemporaryDir dir;
    const QString ini = dir.filePath(QStringLiteral("strobe.ini"));
    AppSettings settings(ini);
    settings.addRecentFile(QStringLiteral("/traces/a.sqlite"));
    settings.setIdleThresholdNs(12345);
    QCoreApplication::processEvents(); // the write is handed to the writer thread
    settings.sync();                   // (waits for it)
    const QByteArray text = onDisk(ini);
    EXPECT_TRUE(text.contains("a.sqlite")) << text.constData();
    EXPECT_TRUE(text.contains("12345")) << text.constData();

    settings.addRecentFile(QStringLiteral("/traces/b.sqlite"));
    QCoreApplication::processEvents();
    settings.sync();
    EXPECT_TRUE(onDisk(ini).contains("b.sqlite")) << "a second change is written too";
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

} // namespace
} // namespace strobe
