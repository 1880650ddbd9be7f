// SPDX-License-Identifier: MIT
// A rank's number and the world size read from the profiled process's environment, which nsys
// keeps in META_DATA_CAPTURE as PROCESS_0:ENVIRONMENT_VARIABLE rows ("NAME=value"; docs/JOBS.md).
// The shared fixtures have those rows stripped, so the exports here are written by nsys::Writer
// with the rows a launcher's variables give.
#include "formats/nsys/writer/nsyswriter.h"
#include "formats/open.h"
#include "model/trace.h"
#include "tests/support/sqlitequery.h"

#include <QTemporaryDir>
#include <gtest/gtest.h>

using namespace strobe;

namespace {

struct Read {
    std::optional<std::uint32_t> rank, worldSize;
};

// Loads an export whose capture table holds `vars` as the environment.
Read readWith(const std::vector<std::string>& vars,
              nsys::SchemaFlavor flavor = nsys::SchemaFlavor::V3_13) {
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("rank.sqlite")).toStdString();
    std::string error;
    auto w = nsys::Writer::create(path, flavor, &error);
    EXPECT_TRUE(w) << error;
    if (!w)
        return {};
    nsys::Metadata meta;
    meta.command = {"python", "train.py"};
    for (const std::string& v : vars)
        meta.captureInfo.emplace_back("PROCESS_0:ENVIRONMENT_VARIABLE", v);
    meta.captureInfo.emplace_back("PROCESS_0:WORKING_DIR", "/work");
    w->setMetadata(meta);
    EXPECT_TRUE(w->commit(&error)) << error;
    LoadResult r = loadTrace(QString::fromStdString(path));
    EXPECT_TRUE(r.ok()) << r.error.toStdString();
    if (!r.ok())
        return {};
    return {r.trace->metadata().rank, r.trace->metadata().worldSize};
}

} // namespace

TEST(NsysRankEnvironment, TorchrunsRankAndWorldSize) {
    const Read r = readWith(
        {"PATH=/usr/bin:/bin", "LOCAL_RANK=1", "RANK=5", "WORLD_SIZE=16", "MASTER_ADDR=node-a"});
    EXPECT_EQ(r.rank, std::optional<std::uint32_t>(5));
    EXPECT_EQ(r.worldSize, std::optional<std::uint32_t>(16));
}

TEST(NsysRankEnvironment, SlurmAndMpiLaunchers) {
    Read r = readWith({"SLURM_PROCID=3", "SLURM_NTASKS=4", "SLURM_LOCALID=3"});
    EXPECT_EQ(r.rank, std::optional<std::uint32_t>(3));
    EXPECT_EQ(r.worldSize, std::optional<std::uint32_t>(4));
    r = readWith({"OMPI_COMM_WORLD_RANK=7", "OMPI_COMM_WORLD_SIZE=8"});
    EXPECT_EQ(r.rank, std::optional<std::uint32_t>(7));
    EXPECT_EQ(r.worldSize, std::optional<std::uint32_t>(8));
    // RANK comes first when several launchers' variables are set; one that is not a number is
    // passed over.
    r = readWith({"PMI_RANK=2", "PMI_SIZE=4", "RANK=x", "SLURM_PROCID=9"});
    EXPECT_EQ(r.rank, std::optional<std::uint32_t>(9));
    EXPECT_EQ(r.worldSize, std::optional<std::uint32_t>(4));
}

TEST(NsysRankEnvironment, NoLauncherNoRank) {
    // LOCAL_RANK numbers the ranks of one host only: not read as the rank.
    const Read r = readWith({"PATH=/usr/bin", "LOCAL_RANK=1", "RANK", "=3"});
    EXPECT_EQ(r.rank, std::nullopt);
    EXPECT_EQ(r.worldSize, std::nullopt);
}

TEST(NsysRankEnvironment, TheSharedFixturesRecordNone) {
    // Their environment rows were stripped (privacy): no rank is made up.
    for (const char* name : {"nsys2024.5-cloverleaf.sqlite", "nsys2026.2-h100-2gpu-nvtx.sqlite"}) {
        LoadResult r = loadTrace(QString::fromStdString(test::fixturePath(name)));
        ASSERT_TRUE(r.ok()) << r.error.toStdString();
        EXPECT_EQ(r.trace->metadata().rank, std::nullopt) << name;
    }
}
