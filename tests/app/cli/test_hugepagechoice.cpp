// SPDX-License-Identifier: MIT
// hugePagesPayOff: strobe-cli runs on huge pages only for inputs big enough to gain from them.
#include "app/cli/hugepagechoice.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <gtest/gtest.h>
#include <string>
#include <vector>

using namespace strobe::cli;

namespace {

class HugePageChoice : public ::testing::Test {
protected:
    // A file of `bytes` (sparse: no disk used) in the temporary folder.
    std::string file(const char* name, std::uint64_t bytes) {
        const QString path = dir.filePath(QString::fromLatin1(name));
        QFile f(path);
        EXPECT_TRUE(f.open(QIODevice::WriteOnly));
        EXPECT_TRUE(f.resize(qint64(bytes)));
        return path.toStdString();
    }
    std::string folder(const char* name) {
        EXPECT_TRUE(QDir(dir.path()).mkdir(QString::fromLatin1(name)));
        return dir.filePath(QString::fromLatin1(name)).toStdString();
    }
    static bool payOff(const std::vector<std::string>& args) {
        std::vector<const char*> argv{"strobe-cli"};
        for (const std::string& a : args)
            argv.push_back(a.c_str());
        return hugePagesPayOff(int(argv.size()), argv.data());
    }
    QTemporaryDir dir;
};

TEST_F(HugePageChoice, SmallFilesRunWithoutAndBigOnesWith) {
    const std::string small = file("small.sqlite", 56 << 20);
    const std::string edge = file("edge.sqlite", kHugePagesFromBytes - 1);
    const std::string big = file("big.sqlite", kHugePagesFromBytes);
    EXPECT_FALSE(payOff({"info", small}));
    EXPECT_FALSE(payOff({"info", edge}));
    EXPECT_TRUE(payOff({"info", big}));
    EXPECT_FALSE(payOff({"diff", small, edge, "--format", "json"}));
    EXPECT_TRUE(payOff({"diff", small, big})); // the biggest input decides
    EXPECT_TRUE(payOff({"diff", big, small}));
}

TEST_F(HugePageChoice, NoFileAFolderOrSynthKeepThem) {
    const std::string small = file("small.sqlite", 1 << 20);
    const std::string ranks = folder("ranks");
    EXPECT_TRUE(payOff({}));
    EXPECT_TRUE(payOff({"info", dir.filePath(QStringLiteral("missing.sqlite")).toStdString()}));
    EXPECT_TRUE(payOff({"job", ranks}));
    EXPECT_TRUE(payOff({"job", small, ranks}));
    // synth names the file it writes, whatever its size now.
    EXPECT_TRUE(payOff({"synth", "-o", small, "--events", "1M"}));
}

TEST_F(HugePageChoice, TheCacheFolderIsNotAnInput) {
    const std::string small = file("small.sqlite", 1 << 20);
    const std::string big = file("big.sqlite", kHugePagesFromBytes + 1);
    const std::string cache = folder("cache");
    EXPECT_FALSE(payOff({"info", "--cache", cache, small}));
    EXPECT_FALSE(payOff({"info", "--cache", small})); // a bare --cache before the trace
    EXPECT_TRUE(payOff({"info", "--cache", big}));
    EXPECT_TRUE(payOff({"info", small, cache})); // a folder elsewhere is a job's
}

} // namespace
