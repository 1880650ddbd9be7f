// SPDX-License-Identifier: MIT
#include "app/cli/commands.h"
#include "tests/support/qtprinters.h"
#include "tests/support/sqlitequery.h"

#include <gtest/gtest.h>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

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
    EXPECT_EQ(o[QStringLiteral("nsys_version")].toString(), QStringLiteral("2026.2.1.210"));
    EXPECT_EQ(o[QStringLiteral("schema_version")].toString(), QStringLiteral("3.25.0"));
    const QJsonObject c = o[QStringLiteral("counts")].toObject();
    EXPECT_EQ(c[QStringLiteral("kernels")].toInteger(),
              test::queryInt(path, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"));
    EXPECT_EQ(c[QStringLiteral("memsets")].toInteger(), 22);
    EXPECT_EQ(c[QStringLiteral("nvtx_ranges")].toInteger(), 16782);
    EXPECT_EQ(c[QStringLiteral("cuda_api_calls")].toInteger(), 5796);
    const QJsonArray range = o[QStringLiteral("time_range_ns")].toArray();
    const std::int64_t first = test::queryInt(
        path,
        "SELECT min(s) FROM (SELECT min(start) s FROM CUPTI_ACTIVITY_KIND_KERNEL UNION ALL SELECT "
        "min(start) FROM "
        "CUPTI_ACTIVITY_KIND_RUNTIME UNION ALL SELECT min(start) FROM NVTX_EVENTS UNION ALL SELECT "
        "min(start) FROM "
        "CUPTI_ACTIVITY_KIND_MEMCPY UNION ALL SELECT min(start) FROM CUPTI_ACTIVITY_KIND_MEMSET)");
    EXPECT_EQ(range[0].toInteger(), first);
    const QJsonArray procs = o[QStringLiteral("processes")].toArray();
    ASSERT_EQ(procs.size(), 2);
    EXPECT_EQ(procs[0].toObject()[QStringLiteral("pid")].toInteger(), 111);
    EXPECT_EQ(o[QStringLiteral("gpus")].toArray().size(), 2);
    qint64 laneEvents = 0;
    for (const auto& l : o[QStringLiteral("lanes")].toArray())
        laneEvents += l.toObject()[QStringLiteral("events")].toInteger();
    EXPECT_EQ(laneEvents, 3442 + 904 + 22 + 5796 + 16782);
    const QJsonArray warnings = o[QStringLiteral("warnings")].toArray();
    ASSERT_EQ(warnings.size(), 1);
    EXPECT_EQ(warnings[0].toObject()[QStringLiteral("kind")].toString(),
              QStringLiteral("dangling-correlation"));
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
