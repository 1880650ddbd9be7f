// SPDX-License-Identifier: MIT
// Issue 46: strobe-cli render never writes its picture over a trace it reads, whatever name
// leads to it (the file itself, a symlink, a hard link), and a failed write leaves the old file.
#include "tests/app/cli/clitesthelpers.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QStringBuilder>
#include <QTemporaryDir>
#include <gtest/gtest.h>
#include <unistd.h>

using namespace strobe;
using strobe::test::fixture;
using strobe::test::runCli;

namespace {

QByteArray digest(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256);
}

TEST(RenderOutput, AnOutputThatIsTheInputIsRefusedAndTheTraceIsLeftAsItWas) {
    QTemporaryDir dir;
    const QString trace = dir.filePath(QStringLiteral("trace.png")); // a trace named .png
    ASSERT_TRUE(QFile::copy(fixture("nsys2024.5-cloverleaf.sqlite"), trace));
    const QString symlink = dir.filePath(QStringLiteral("link.png"));
    const QString hardlink = dir.filePath(QStringLiteral("hard.svg"));
    ASSERT_TRUE(QFile::link(trace, symlink));
    ASSERT_EQ(::link(QFile::encodeName(trace).constData(), QFile::encodeName(hardlink).constData()),
              0);
    const QByteArray before = digest(trace);
    for (const QString& out : {trace, symlink, hardlink}) {
        const auto r = runCli(&cli::runRender, {trace, QStringLiteral("-o"), out});
        EXPECT_EQ(r.status, 1) << out.toStdString();
        EXPECT_EQ(r.err, QStringLiteral("strobe-cli render: the output ") % out %
                             QStringLiteral(" is the trace ") % trace %
                             QStringLiteral(" itself; write the picture to another file.\n"))
            << r.err.toStdString();
        EXPECT_EQ(digest(trace), before);
    }
    // The compared trace is an input too.
    const QString other = dir.filePath(QStringLiteral("other.png"));
    ASSERT_TRUE(QFile::copy(fixture("nsys2024.5-cloverleaf.sqlite"), other));
    const auto r = runCli(&cli::runRender,
                          {trace, QStringLiteral("--compare"), other, QStringLiteral("-o"), other});
    EXPECT_EQ(r.status, 1);
    EXPECT_TRUE(r.err.contains(QStringLiteral(" itself;"))) << r.err.toStdString();
    EXPECT_EQ(digest(other), before);
}

TEST(RenderOutput, AFailedWriteLeavesTheOldPictureInPlace) {
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("view.png"));
    QFile old(out);
    ASSERT_TRUE(old.open(QIODevice::WriteOnly));
    old.write("the old picture");
    old.close();
    // The real strobe-cli with a 4 KiB file-size limit (root too is bound by it) and SIGXFSZ
    // ignored: the picture's write fails part-way with EFBIG.
    QProcess p;
    p.setProgram(QStringLiteral("/bin/sh"));
    p.setArguments(
        {QStringLiteral("-c"),
         QStringLiteral("trap '' XFSZ; ulimit -f 4; exec \"$0\" render \"$1\" -o \"$2\""),
         QStringLiteral(STROBE_CLI_BINARY), fixture("nsys2024.5-cloverleaf.sqlite"), out});
    p.start();
    ASSERT_TRUE(p.waitForFinished(60000));
    EXPECT_EQ(p.exitCode(), 1) << p.readAllStandardError().toStdString();
    QFile f(out);
    ASSERT_TRUE(f.open(QIODevice::ReadOnly));
    EXPECT_EQ(f.readAll(), QByteArray("the old picture"));
    EXPECT_EQ(QDir(dir.path()).entryList(QDir::Files), QStringList{QStringLiteral("view.png")});
}

} // namespace
