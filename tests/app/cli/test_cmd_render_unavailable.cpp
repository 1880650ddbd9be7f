// SPDX-License-Identifier: MIT
// strobe-cli render in a build without the GUI (the asan preset): one sentence, exit 1, and no
// file written.
#include "tests/app/cli/clitesthelpers.h"

#include <QFile>
#include <QTemporaryDir>
#include <gtest/gtest.h>

using namespace strobe;

TEST(RenderUnavailable, SaysTheBuildLacksTheGui) {
    QTemporaryDir dir;
    const QString png = dir.filePath(QStringLiteral("x.png"));
    const auto r = test::runCli(&cli::runRender, {test::fixture("nsys2024.5-cloverleaf.sqlite"),
                                                  QStringLiteral("-o"), png});
    EXPECT_EQ(r.status, 1);
    EXPECT_TRUE(r.err.contains(QStringLiteral("built without the GUI"))) << r.err.toStdString();
    EXPECT_EQ(r.err.count(u'\n'), 1);
    EXPECT_FALSE(QFile::exists(png));
}
