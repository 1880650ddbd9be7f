// SPDX-License-Identifier: MIT
#include "app/cli/commands.h"
#include "tests/support/qtprinters.h"
#include "tests/support/sqlitequery.h"

#include <gtest/gtest.h>

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

using namespace strobe;

namespace {

struct CliRun {
    int rc = 0;
    QString out, err;
};

CliRun runCli(const QStringList& argv) {
    CliRun r;
    QTextStream out(&r.out), err(&r.err);
    r.rc = cli::runCommandLine(argv, {out, err});
    out.flush();
    err.flush();
    return r;
}

QString fixture(const char* name) {
    return QString::fromStdString(test::fixturePath(name));
}

} // namespace

TEST(CliInfo, JsonMatchesTheContractAndIndependentSql) {
    const std::string path = test::fixturePath("nsys2026.2-h100-2gpu-nvtx.sqlite");
    const CliRun r =
        runCli({QStringLiteral("info"), QString::fromStdString(path), QStringLiteral("--json")});
    ASSERT_EQ(r.rc, 0) << r.err.toStdString();
    EXPECT_TRUE(r.err.isEmpty());
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(r.out.toUtf8(), &pe);
    ASSERT_EQ(pe.error, QJsonParseError::NoError) << r.out.toStdString();
    const QJsonObject o = doc.object();
    // Keys appear in the documented order.
    const QStringList order{QStringLiteral("file"),          QStringLiteral("format"),
                            QStringLiteral("nsys_version"),  QStringLiteral("schema_version"),
                            QStringLiteral("time_range_ns"), QStringLiteral("counts"),
                            QStringLiteral("processes"),     QStringLiteral("threads"),
                            QStringLiteral("gpus"),          QStringLiteral("lanes"),
                            QStringLiteral("warnings")};
    qsizetype last = -1;
    for (const QString& k : order) {
        const qsizetype at = r.out.indexOf(u'"' + k + u'"');
        ASSERT_GT(at, last) << k.toStdString();
        last = at;
    }
    EXPECT_EQ(o[QStringLiteral("format")].toString(), QStringLiteral("nsys-sqlite"));
    // From the export's META_DATA_EXPORT: 2026.2.1.210, schema 3.25.0.
    const auto meta = [&](const char* name) {
        return QString::fromStdString(
            test::query(path, std::string("SELECT value FROM META_DATA_EXPORT WHERE name = '") +
                                  name + "'")
                .at(0)
                .at(0));
    };
    EXPECT_EQ(o[QStringLiteral("nsys_version")].toString(), meta("EXPORT_PRODUCT_VERSION"));
    EXPECT_EQ(o[QStringLiteral("schema_version")].toString(), meta("EXPORT_SCHEMA_VERSION"));
    EXPECT_EQ(meta("EXPORT_PRODUCT_VERSION"), QStringLiteral("2026.2.1.210"));
    const QJsonObject c = o[QStringLiteral("counts")].toObject();
    EXPECT_EQ(c[QStringLiteral("kernels")].toInteger(),
              test::queryInt(path, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"));
    const std::int64_t memsets =
        test::queryInt(path, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMSET");
    const std::int64_t nvtxRanges =
        test::queryInt(path, "SELECT count(*) FROM NVTX_EVENTS WHERE eventType IN (59,60,70,71)");
    const std::int64_t apiCalls = test::queryInt(
        path, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE eventClass IN (0,1)");
    const std::int64_t kernels =
        test::queryInt(path, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL");
    const std::int64_t memcpys =
        test::queryInt(path, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY");
    EXPECT_EQ(c[QStringLiteral("memsets")].toInteger(), memsets);
    EXPECT_EQ(c[QStringLiteral("nvtx_ranges")].toInteger(), nvtxRanges);
    EXPECT_EQ(c[QStringLiteral("cuda_api_calls")].toInteger(), apiCalls);
    EXPECT_EQ(memsets, 22); // PROVENANCE.md's description of the file
    const QJsonArray range = o[QStringLiteral("time_range_ns")].toArray();
    const std::int64_t first = test::queryInt(
        path,
        "SELECT min(s) FROM (SELECT min(start) s FROM CUPTI_ACTIVITY_KIND_KERNEL UNION ALL SELECT "
        "min(start) FROM "
        "CUPTI_ACTIVITY_KIND_RUNTIME UNION ALL SELECT min(start) FROM NVTX_EVENTS UNION ALL SELECT "
        "min(start) FROM "
        "CUPTI_ACTIVITY_KIND_MEMCPY UNION ALL SELECT min(start) FROM CUPTI_ACTIVITY_KIND_MEMSET)");
    EXPECT_EQ(range[0].toInteger(), first);
    // The processes that own events: the pids of the API calls' threads (pid bits of
    // globalTid), in pid order; 111 and 112 in this file.
    const auto pids = test::query(path, "SELECT DISTINCT (globalTid >> 24) & 0xFFFFFF FROM "
                                        "CUPTI_ACTIVITY_KIND_RUNTIME ORDER BY 1");
    const QJsonArray procs = o[QStringLiteral("processes")].toArray();
    ASSERT_EQ(procs.size(), qsizetype(pids.size()));
    for (qsizetype i = 0; i < procs.size(); ++i)
        EXPECT_EQ(procs[i].toObject()[QStringLiteral("pid")].toInteger(),
                  std::stoll(pids[std::size_t(i)][0]));
    EXPECT_EQ(pids.front().front(), "111");
    EXPECT_EQ(o[QStringLiteral("gpus")].toArray().size(), 2);
    qint64 laneEvents = 0;
    for (const auto& l : o[QStringLiteral("lanes")].toArray())
        laneEvents += l.toObject()[QStringLiteral("events")].toInteger();
    EXPECT_EQ(laneEvents, kernels + memcpys + memsets + apiCalls + nvtxRanges);
    // The one data anomaly of this file: GPU operations whose correlation id matches no CUDA API
    // call of their process (the export's window cut off their launches).
    const std::int64_t dangling = test::queryInt(
        path, "SELECT count(*) FROM (SELECT correlationId c, globalPid p FROM "
              "CUPTI_ACTIVITY_KIND_KERNEL UNION ALL SELECT correlationId, globalPid FROM "
              "CUPTI_ACTIVITY_KIND_MEMCPY UNION ALL SELECT correlationId, globalPid FROM "
              "CUPTI_ACTIVITY_KIND_MEMSET) op WHERE c IS NOT NULL AND c != 0 AND (c, p) NOT IN "
              "(SELECT correlationId, globalTid & 0xFFFFFFFFFF000000 FROM "
              "CUPTI_ACTIVITY_KIND_RUNTIME WHERE eventClass IN (0,1) AND correlationId IS NOT "
              "NULL)");
    const QJsonArray warnings = o[QStringLiteral("warnings")].toArray();
    ASSERT_EQ(warnings.size(), 1);
    EXPECT_EQ(warnings[0].toObject()[QStringLiteral("kind")].toString(),
              QStringLiteral("dangling-correlation"));
    EXPECT_EQ(warnings[0].toObject()[QStringLiteral("count")].toInteger(), dangling);
    EXPECT_GT(dangling, 0);
}

TEST(CliInfo, SchemaTwoNineExport) {
    // nsys 2022.2 keeps its metadata in EXPORT_META_DATA.
    const CliRun r = runCli({QStringLiteral("info"), fixture("nsys2022.2-vectoradd-b.sqlite"),
                             QStringLiteral("--json")});
    ASSERT_EQ(r.rc, 0);
    const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
    EXPECT_EQ(o[QStringLiteral("schema_version")].toString(), QStringLiteral("2.9.1"));
    EXPECT_EQ(o[QStringLiteral("gpus")].toArray()[0].toObject()[QStringLiteral("sm_count")].toInt(),
              108);
}

TEST(CliInfo, ReadableSummaryWithoutJson) {
    const CliRun r = runCli({QStringLiteral("info"), fixture("nsys2024.5-cloverleaf.sqlite")});
    ASSERT_EQ(r.rc, 0);
    EXPECT_TRUE(r.out.contains(QStringLiteral("1312 kernels, 279 memcpys")));
    EXPECT_TRUE(r.out.contains(QStringLiteral("GPU 0:       NVIDIA A100-SXM4-80GB, 108 SMs")));
}

// Issue 14, item 15: each GPU says where occupancy's limits come from, or what is missing.
TEST(CliInfo, GpusSayWhereOccupancyLimitsComeFrom) {
    const CliRun h100 =
        runCli({QStringLiteral("info"), fixture("nsys2026.2-h100-2gpu-nvtx.sqlite")});
    ASSERT_EQ(h100.rc, 0);
    EXPECT_TRUE(h100.out.contains(QStringLiteral("GPU 1:       (unnamed)\n")))
        << h100.out.toStdString();
    EXPECT_EQ(h100.out.count(QStringLiteral("\n  occupancy limits unknown: the trace records no "
                                            "limits, compute capability or name for this GPU\n")),
              2)
        << h100.out.toStdString();

    const CliRun full = runCli({QStringLiteral("info"), fixture("nsys2023.3-openmp-offload.sqlite"),
                                QStringLiteral("--json")});
    ASSERT_EQ(full.rc, 0);
    const QJsonObject g = QJsonDocument::fromJson(full.out.toUtf8())
                              .object()[QStringLiteral("gpus")]
                              .toArray()[0]
                              .toObject();
    EXPECT_EQ(g[QStringLiteral("compute_capability")].toString(), QStringLiteral("7.5"));
    EXPECT_EQ(g[QStringLiteral("occupancy_limits")].toString(), QStringLiteral("trace"));

    // The same export with TARGET_INFO_GPU reduced to the GPU's name.
    QTemporaryDir dir;
    const QString copy = dir.filePath(QStringLiteral("named.sqlite"));
    ASSERT_TRUE(QFile::copy(fixture("nsys2023.3-openmp-offload.sqlite"), copy));
    QFile::setPermissions(copy, QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    test::exec(copy.toStdString(),
               "CREATE TABLE g AS SELECT id, name FROM TARGET_INFO_GPU; DROP "
               "TABLE TARGET_INFO_GPU; ALTER TABLE g RENAME TO TARGET_INFO_GPU;");
    const CliRun named = runCli({QStringLiteral("info"), copy, QStringLiteral("--json")});
    ASSERT_EQ(named.rc, 0);
    const QJsonObject n = QJsonDocument::fromJson(named.out.toUtf8())
                              .object()[QStringLiteral("gpus")]
                              .toArray()[0]
                              .toObject();
    EXPECT_EQ(n[QStringLiteral("compute_capability")].toString(), QStringLiteral("7.5"));
    EXPECT_EQ(n[QStringLiteral("occupancy_limits")].toString(),
              QStringLiteral("architecture-table"));
    EXPECT_EQ(n[QStringLiteral("occupancy_limits_note")].toString(),
              QStringLiteral("from the architecture table (compute capability 7.5, from the name "
                             "'Tesla T4')"));
    const CliRun text = runCli({QStringLiteral("info"), copy});
    EXPECT_TRUE(
        text.out.contains(QStringLiteral("GPU 0:       Tesla T4, compute capability 7.5\n")))
        << text.out.toStdString();
    EXPECT_TRUE(text.out.contains(
        QStringLiteral("\n  occupancy limits from the architecture table (compute capability "
                       "7.5, from the name 'Tesla T4')\n")))
        << text.out.toStdString();
}

TEST(CliInfo, UsageErrorsExitTwo) {
    EXPECT_EQ(runCli({}).rc, 2);
    EXPECT_EQ(runCli({QStringLiteral("info")}).rc, 2);
    const CliRun r = runCli(
        {QStringLiteral("info"), fixture("nsys2024.5-cloverleaf.sqlite"), QStringLiteral("--jsn")});
    EXPECT_EQ(r.rc, 2);
    EXPECT_EQ(
        r.err,
        QStringLiteral(
            "strobe-cli info: unknown option '--jsn'; run 'strobe-cli info --help' for usage.\n"));
    EXPECT_EQ(runCli({QStringLiteral("frobnicate")}).rc, 2);
}

TEST(CliInfo, UnreadableFileExitsOneWithOneLine) {
    const CliRun r = runCli({QStringLiteral("info"), QStringLiteral("/nonexistent/trace.sqlite")});
    EXPECT_EQ(r.rc, 1);
    EXPECT_EQ(r.err,
              QStringLiteral("strobe-cli: Cannot open 'trace.sqlite': the file does not exist.\n"));
    EXPECT_TRUE(r.out.isEmpty());
}

TEST(CliInfo, VersionAndHelp) {
    const CliRun v = runCli({QStringLiteral("--version")});
    EXPECT_EQ(v.rc, 0);
    EXPECT_EQ(v.out, QStringLiteral("strobe-cli " STROBE_VERSION "\n"));
    const CliRun h = runCli({QStringLiteral("--help")});
    EXPECT_EQ(h.rc, 0);
    EXPECT_TRUE(h.out.contains(QStringLiteral("info FILE [--json]")));
}

namespace {

// Union of one device's operations of the given tables, as [start, max(end, start + 1)), in ns.
std::int64_t sqlUnion(const std::string& path, std::int64_t device, bool kernels, bool copies) {
    std::vector<std::string> parts;
    if (kernels)
        parts.push_back(
            "SELECT start s, [end] e FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE deviceId = " +
            std::to_string(device));
    if (copies) {
        parts.push_back("SELECT start, [end] FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE copyKind < 11 "
                        "AND deviceId = " +
                        std::to_string(device));
        if (test::hasTable(path, "CUPTI_ACTIVITY_KIND_MEMSET"))
            parts.push_back(
                "SELECT start, [end] FROM CUPTI_ACTIVITY_KIND_MEMSET WHERE deviceId = " +
                std::to_string(device));
    }
    std::string sql;
    for (const std::string& p : parts)
        sql += (sql.empty() ? "" : " UNION ALL ") + p;
    std::int64_t total = 0, reach = INT64_MIN;
    for (const auto& row : test::query(path, sql + " ORDER BY 1")) {
        const std::int64_t s = std::stoll(row[0]),
                           e = std::max<std::int64_t>(std::stoll(row[1]), s + 1);
        total += std::max<std::int64_t>(0, e - std::max(s, reach));
        reach = std::max(reach, e);
    }
    return total;
}

} // namespace

// #14: the H100 export is copy-bound: ~22 ms of kernels, the rest of its ~969 ms host-to-device
// copies. info says so per GPU, in JSON and in text.
TEST(CliInfo, PerGpuKernelCopyAndIdleTimeFromSql) {
    const std::string path = test::fixturePath("nsys2026.2-h100-2gpu-nvtx.sqlite");
    const CliRun r = runCli({QStringLiteral("info"), fixture("nsys2026.2-h100-2gpu-nvtx.sqlite"),
                             QStringLiteral("--json")});
    ASSERT_EQ(r.rc, 0);
    const QJsonArray gpus =
        QJsonDocument::fromJson(r.out.toUtf8()).object()[QStringLiteral("gpus")].toArray();
    ASSERT_EQ(gpus.size(), 2);
    for (const QJsonValue& v : gpus) {
        const QJsonObject g = v.toObject();
        const std::int64_t id = g[QStringLiteral("id")].toInteger();
        const std::int64_t kernels = sqlUnion(path, id, true, false);
        const std::int64_t copies = sqlUnion(path, id, false, true);
        EXPECT_EQ(g[QStringLiteral("kernel_ns")].toInteger(), kernels) << id;
        EXPECT_EQ(g[QStringLiteral("copy_ns")].toInteger(), copies) << id;
        EXPECT_NEAR(double(kernels), 22.4e6, 0.2e6);
        EXPECT_NEAR(double(copies), 940.4e6, 0.5e6);
        EXPECT_TRUE(g[QStringLiteral("work_recorded")].toBool());
        EXPECT_TRUE(g[QStringLiteral("idle_before_first_work_ns")].isDouble());
    }
    EXPECT_EQ(gpus[0].toObject()[QStringLiteral("idle_ns")].toInteger(), 1'664'781);
    EXPECT_EQ(gpus[0].toObject()[QStringLiteral("gaps")].toInteger(), 4);
    EXPECT_EQ(gpus[1].toObject()[QStringLiteral("idle_before_first_work_ns")].toInteger(), 77'219);
    const CliRun text =
        runCli({QStringLiteral("info"), fixture("nsys2026.2-h100-2gpu-nvtx.sqlite")});
    EXPECT_TRUE(text.out.contains(QStringLiteral(
        "\n  kernels 22.39 ms, copies 940.5 ms, idle 1.665 ms in 4 gaps of at least 100.0 \u00b5s "
        "(0.2 % of the trace)\n")))
        << text.out.toStdString();
}

TEST(CliInfo, AGpuThatRanNothingSaysSo) {
    const CliRun json = runCli({QStringLiteral("info"), fixture("nsys2024.5-cloverleaf.sqlite"),
                                QStringLiteral("--json")});
    ASSERT_EQ(json.rc, 0);
    const QJsonArray gpus =
        QJsonDocument::fromJson(json.out.toUtf8()).object()[QStringLiteral("gpus")].toArray();
    ASSERT_EQ(gpus.size(), 4);
    for (int i = 1; i < 4; ++i) {
        const QJsonObject g = gpus[i].toObject();
        EXPECT_FALSE(g[QStringLiteral("work_recorded")].toBool()) << i;
        EXPECT_EQ(g[QStringLiteral("kernel_ns")].toInteger(), 0);
        EXPECT_TRUE(g[QStringLiteral("idle_before_first_work_ns")].isNull());
    }
    EXPECT_TRUE(gpus[0].toObject()[QStringLiteral("work_recorded")].toBool());
    const CliRun text = runCli({QStringLiteral("info"), fixture("nsys2024.5-cloverleaf.sqlite")});
    EXPECT_EQ(text.out.count(QStringLiteral("\n  no GPU work recorded\n")), 3);
    EXPECT_TRUE(text.out.contains(
        QStringLiteral("\n  idle before first work 455.0 ms, idle after last work 8.064 ms\n")))
        << text.out.toStdString();
}
