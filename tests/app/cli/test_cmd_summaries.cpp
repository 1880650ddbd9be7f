// SPDX-License-Identifier: MIT
// strobe-cli nvtx-summary / memory-summary against independent SQL on every real fixture.
#include "tests/app/cli/clitesthelpers.h"

#include <QRegularExpression>
#include <QStringBuilder>
#include <cmath>
#include <gtest/gtest.h>
#include <map>
#include <numeric>

using namespace strobe;
using namespace strobe::test;

namespace {

class SummariesOnFixture : public ::testing::TestWithParam<QString> {};

// NVIDIA's domain-qualified names, per the reference query of NSYS_SCHEMA.md §5.
const char* const kNvtxRanges =
    "WITH domains AS (SELECT ne.domainId AS id, ne.globalTid & 0x0000FFFFFF000000 AS pidKey, "
    "  COALESCE(ne.text, s.value) AS name FROM NVTX_EVENTS ne "
    "  LEFT JOIN StringIds s ON s.id = ne.textId WHERE ne.eventType = 75), "
    "ranges AS (SELECT CASE WHEN d.name IS NULL OR ne.domainId = 0 "
    "    THEN COALESCE(ne.text, s.value, '') "
    "    ELSE d.name || ':' || COALESCE(ne.text, s.value, '') END AS range, "
    "  CASE WHEN ne.eventType IN (59, 70) THEN 'pushpop' ELSE 'startend' END AS style, "
    "  ne.[end] - ne.start AS dur FROM NVTX_EVENTS ne "
    "  LEFT JOIN StringIds s ON s.id = ne.textId "
    "  LEFT JOIN domains d ON d.id = ne.domainId "
    "    AND d.pidKey = (ne.globalTid & 0x0000FFFFFF000000) "
    "  WHERE ne.eventType IN (59, 60, 70, 71) AND ne.[end] IS NOT NULL) ";

// PyTorch's per-call suffixes cut the way docs/CLI.md states the rule, written here without the
// model's code: the name up to the earliest key that is not at its very start.
QString cutPerCallIds(const QString& name) {
    qsizetype cut = name.size();
    for (const char* key : {", seq = ", ", op_id = ", ", sizes = ", ", input_op_ids = "}) {
        const qsizetype at = name.indexOf(QLatin1String(key));
        if (at > 0)
            cut = std::min(cut, at);
    }
    return name.left(cut);
}

qint64 sqlInt(SqlDb& db, const QString& sql) {
    const std::vector<SqlRow> rows = db.query(sql);
    return rows.empty() || rows[0].empty() || !rows[0][0] ? -1 : rows[0][0]->toLongLong();
}

using Durations = std::map<std::pair<QString, QString>, std::vector<qint64>>;

// Every range's (range, style, duration) from SQL, keyed by `key(range)`.
Durations sqlDurations(SqlDb& db, QString (*key)(const QString&)) {
    Durations out;
    for (const SqlRow& d : db.query(QString::fromLatin1(kNvtxRanges) %
                                    QStringLiteral("SELECT range, style, dur FROM ranges")))
        out[{key(*d[0]), *d[1]}].push_back(d[2]->toLongLong());
    for (auto& [k, ds] : out)
        std::sort(ds.begin(), ds.end());
    return out;
}

// The CSV rows of nvtx-summary against statistics computed here from `expected`.
void expectRowsMatch(std::vector<QStringList> csv, const Durations& expected) {
    ASSERT_FALSE(csv.empty());
    EXPECT_EQ(csv.front().join(u','),
              QStringLiteral("range,style,instances,total_ns,avg_ns,median_ns,min_ns,max_ns,"
                             "stddev_ns"));
    csv.erase(csv.begin());
    ASSERT_EQ(csv.size(), expected.size());
    for (std::size_t i = 0; i < csv.size(); ++i) {
        const QStringList& f = csv[i];
        ASSERT_EQ(f.size(), 9);
        if (i > 0) {
            EXPECT_GE(csv[i - 1][3].toLongLong(), f[3].toLongLong());
        }
        auto it = expected.find({f[0], f[1]});
        ASSERT_NE(it, expected.end()) << f[0].toStdString() << " " << f[1].toStdString();
        const std::vector<qint64>& ds = it->second;
        const auto n = qint64(ds.size());
        const qint64 total = std::accumulate(ds.begin(), ds.end(), qint64(0));
        EXPECT_EQ(f[2].toLongLong(), n);
        EXPECT_EQ(f[3].toLongLong(), total);
        EXPECT_EQ(f[6].toLongLong(), ds.front());
        EXPECT_EQ(f[7].toLongLong(), ds.back());
        const double avg = double(total) / double(n);
        EXPECT_NEAR(f[4].toDouble(), avg, 0.05 + 1e-12 * avg); // one decimal, ties either way
        double sq = 0;
        for (qint64 d : ds)
            sq += (double(d) - avg) * (double(d) - avg);
        const double sd = n > 1 ? std::sqrt(sq / double(n - 1)) : 0.0;
        EXPECT_NEAR(f[8].toDouble(), sd, 0.05 + 1e-6 * sd);
        const std::size_t m = ds.size();
        const double median =
            m % 2 ? double(ds[m / 2]) : (double(ds[m / 2 - 1]) + double(ds[m / 2])) / 2;
        EXPECT_NEAR(f[5].toDouble(), median, 1e-9);
    }
}

TEST_P(SummariesOnFixture, NvtxSummaryRawMatchesSql) {
    const QString path = fixture(GetParam().toUtf8().constData());
    const CliResult r = runCli(&cli::runNvtxSummary, {path, QStringLiteral("--raw")});
    ASSERT_EQ(r.status, 0) << r.err.toStdString();
    SqlDb db(path);
    if (!db.hasTable("NVTX_EVENTS")) {
        EXPECT_EQ(parseCsv(r.out).size(), 1u); // the header only
        return;
    }
    const Durations expected = sqlDurations(db, [](const QString& n) { return n; });
    ASSERT_TRUE(db.error().isEmpty()) << db.error().toStdString();
    expectRowsMatch(parseCsv(r.out), expected);
}

TEST_P(SummariesOnFixture, NvtxSummaryGroupsPerCallIdsLikeSql) {
    const QString path = fixture(GetParam().toUtf8().constData());
    const CliResult r = runCli(&cli::runNvtxSummary, {path});
    ASSERT_EQ(r.status, 0) << r.err.toStdString();
    SqlDb db(path);
    if (!db.hasTable("NVTX_EVENTS")) {
        EXPECT_EQ(parseCsv(r.out).size(), 1u);
        return;
    }
    const Durations expected = sqlDurations(db, &cutPerCallIds);
    ASSERT_TRUE(db.error().isEmpty()) << db.error().toStdString();
    expectRowsMatch(parseCsv(r.out), expected);
}

TEST(SummaryCommands, H100GroupsOneRowPerOperatorAndKeepsTheRawTotals) {
    const QString path = fixture("nsys2026.2-h100-2gpu-nvtx.sqlite");
    const CliResult grouped = runCli(&cli::runNvtxSummary, {path});
    const CliResult raw = runCli(&cli::runNvtxSummary, {path, QStringLiteral("--raw")});
    ASSERT_EQ(grouped.status, 0);
    ASSERT_EQ(raw.status, 0);
    auto g = parseCsv(grouped.out), rw = parseCsv(raw.out);
    g.erase(g.begin());
    rw.erase(rw.begin());
    SqlDb db(path);
    // Every PyTorch range there is "op, op_id = N": one raw row per call, one grouped row per
    // operator (counted in SQL by the text before ", op_id = ").
    EXPECT_EQ(qint64(rw.size()),
              sqlInt(db, QStringLiteral("SELECT COUNT(DISTINCT text) FROM NVTX_EVENTS "
                                        "WHERE eventType = 59 AND [end] IS NOT NULL")));
    const qint64 operators = sqlInt(
        db, QStringLiteral("SELECT COUNT(DISTINCT CASE WHEN instr(text, ', op_id = ') > 1 "
                           "THEN substr(text, 1, instr(text, ', op_id = ') - 1) ELSE text END) "
                           "FROM NVTX_EVENTS WHERE eventType = 59 AND [end] IS NOT NULL"));
    EXPECT_EQ(qint64(g.size()), operators);
    EXPECT_GT(rw.size(), 50 * g.size()); // ~16,600 rows against a few hundred
    // Each group's instances and total are the sums of its raw rows.
    std::map<QString, std::pair<qint64, qint64>> sums;
    for (const QStringList& f : rw) {
        auto& [n, total] = sums[cutPerCallIds(f[0]) % u'|' % f[1]];
        n += f[2].toLongLong();
        total += f[3].toLongLong();
    }
    ASSERT_EQ(sums.size(), g.size());
    for (const QStringList& f : g) {
        const auto it = sums.find(f[0] % u'|' % f[1]);
        ASSERT_NE(it, sums.end()) << f[0].toStdString();
        EXPECT_EQ(f[2].toLongLong(), it->second.first) << f[0].toStdString();
        EXPECT_EQ(f[3].toLongLong(), it->second.second) << f[0].toStdString();
    }
    const auto mm =
        std::find_if(g.begin(), g.end(), [](const QStringList& f) { return f[0] == u"aten::mm"; });
    ASSERT_NE(mm, g.end());
    EXPECT_EQ(mm->at(2).toLongLong(),
              sqlInt(db, QStringLiteral("SELECT COUNT(*) FROM NVTX_EVENTS WHERE text LIKE "
                                        "'aten::mm, op_id = %' AND [end] IS NOT NULL")));
}

const char* const kMemoryOps = "WITH ops AS (SELECT CASE "
                               "  WHEN copyKind IN (1, 3) THEN 'host-to-device' "
                               "  WHEN copyKind IN (2, 4) THEN 'device-to-host' "
                               "  WHEN copyKind IN (5, 6, 7, 8) THEN 'device-to-device' "
                               "  WHEN copyKind = 10 THEN 'peer-to-peer' "
                               "  WHEN copyKind = 9 THEN 'host-to-host' "
                               "  WHEN copyKind IN (11, 12, 13) THEN 'unified-memory' "
                               "  ELSE 'other' END AS direction, bytes, [end] - start AS dur "
                               "  FROM CUPTI_ACTIVITY_KIND_MEMCPY %1) ";

TEST_P(SummariesOnFixture, MemorySummaryMatchesSql) {
    const QString path = fixture(GetParam().toUtf8().constData());
    const CliResult r = runCli(&cli::runMemorySummary, {path});
    ASSERT_EQ(r.status, 0) << r.err.toStdString();
    auto csv = parseCsv(r.out);
    ASSERT_FALSE(csv.empty());
    EXPECT_EQ(csv.front().join(u','),
              QStringLiteral("direction,count,total_bytes,total_ns,avg_bandwidth_gbps,"
                             "peak_bandwidth_gbps"));
    csv.erase(csv.begin());
    SqlDb db(path);
    const QString memsets =
        db.hasTable("CUPTI_ACTIVITY_KIND_MEMSET")
            ? QStringLiteral("UNION ALL SELECT 'memset', bytes, [end] - start FROM "
                             "CUPTI_ACTIVITY_KIND_MEMSET")
            : QString();
    const auto groups =
        db.query(QString::fromLatin1(kMemoryOps).arg(memsets) %
                 QStringLiteral("SELECT direction, COUNT(*), SUM(bytes), SUM(dur), "
                                "MAX(CASE WHEN dur > 0 THEN CAST(bytes AS REAL) / dur END) "
                                "FROM ops GROUP BY direction"));
    ASSERT_TRUE(db.error().isEmpty()) << db.error().toStdString();
    ASSERT_EQ(csv.size(), groups.size());
    std::map<QString, SqlRow> expected;
    for (const SqlRow& g : groups)
        expected[*g[0]] = g;
    for (const QStringList& f : csv) {
        ASSERT_EQ(f.size(), 6);
        ASSERT_TRUE(expected.count(f[0])) << f[0].toStdString();
        const SqlRow& g = expected[f[0]];
        EXPECT_EQ(f[1], *g[1]);
        EXPECT_EQ(f[2], *g[2]);
        EXPECT_EQ(f[3], *g[3]);
        const double avg = g[3]->toDouble() > 0 ? g[2]->toDouble() / g[3]->toDouble() : 0.0;
        EXPECT_EQ(f[4].section(u'.', 1).size(), 3);
        EXPECT_NEAR(f[4].toDouble(), avg, 0.0005 + 1e-9);
        EXPECT_NEAR(f[5].toDouble(), g[4] ? g[4]->toDouble() : 0.0, 0.0005 + 1e-9);
    }
}

INSTANTIATE_TEST_SUITE_P(RealFixtures, SummariesOnFixture, ::testing::ValuesIn(allFixtures()),
                         [](const auto& info) {
                             QString n = info.param;
                             n.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9]")),
                                       QStringLiteral("_"));
                             return n.toStdString();
                         });

TEST(SummaryCommands, KnownNvtxRowsOnSaxpyMpi) {
    // The 2022.2 MPI trace names its ranges in the "MPI" domain through registered strings.
    const CliResult r =
        runCli(&cli::runNvtxSummary, {fixture("nsys2022.2-saxpy-mpi-nvtx.sqlite"),
                                      QStringLiteral("--format"), QStringLiteral("json")});
    ASSERT_EQ(r.status, 0);
    EXPECT_TRUE(r.out.contains(QStringLiteral("\"style\": \"pushpop\""))) << r.out.toStdString();
    EXPECT_TRUE(r.err.isEmpty());
}

TEST(SummaryCommands, UsageErrors) {
    EXPECT_EQ(runCli(&cli::runNvtxSummary, {}).status, 2);
    const CliResult unknown =
        runCli(&cli::runNvtxSummary,
               {fixture("nsys2022.2-saxpy-mpi-nvtx.sqlite"), QStringLiteral("--rawest")});
    EXPECT_EQ(unknown.status, 2);
    EXPECT_TRUE(unknown.err.contains(QStringLiteral("unknown option '--rawest'")))
        << unknown.err.toStdString();
    // --raw is nvtx-summary's alone.
    EXPECT_EQ(runCli(&cli::runMemorySummary,
                     {fixture("nsys2022.2-saxpy-mpi-nvtx.sqlite"), QStringLiteral("--raw")})
                  .status,
              2);
    EXPECT_EQ(runCli(&cli::runMemorySummary, {QStringLiteral("a"), QStringLiteral("b")}).status, 2);
    EXPECT_EQ(runCli(&cli::runMemorySummary, {QStringLiteral("/nonexistent.sqlite")}).status, 1);
}

} // namespace
