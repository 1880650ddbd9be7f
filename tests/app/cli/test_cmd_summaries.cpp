// SPDX-License-Identifier: MIT
// strobe-cli nvtx-summary / memory-summary against independent SQL on every real fixture.
#include "tests/app/cli/clitesthelpers.h"

#include <QRegularExpression>
#include <QStringBuilder>
#include <cmath>
#include <gtest/gtest.h>
#include <map>

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

TEST_P(SummariesOnFixture, NvtxSummaryMatchesSql) {
    const QString path = fixture(GetParam().toUtf8().constData());
    const CliResult r = runCli(&cli::runNvtxSummary, {path});
    ASSERT_EQ(r.status, 0) << r.err.toStdString();
    auto csv = parseCsv(r.out);
    ASSERT_FALSE(csv.empty());
    EXPECT_EQ(csv.front().join(u','),
              QStringLiteral("range,style,instances,total_ns,avg_ns,median_ns,min_ns,max_ns,"
                             "stddev_ns"));
    csv.erase(csv.begin());
    SqlDb db(path);
    if (!db.hasTable("NVTX_EVENTS")) {
        EXPECT_TRUE(csv.empty());
        return;
    }
    const auto groups = db.query(QString::fromLatin1(kNvtxRanges) %
                                 QStringLiteral("SELECT range, style, COUNT(*), SUM(dur), "
                                                "MIN(dur), MAX(dur), SUM(CAST(dur AS REAL) * dur) "
                                                "FROM ranges GROUP BY range, style"));
    ASSERT_TRUE(db.error().isEmpty()) << db.error().toStdString();
    ASSERT_EQ(csv.size(), groups.size());
    std::map<std::pair<QString, QString>, SqlRow> expected;
    for (const SqlRow& g : groups)
        expected[{*g[0], *g[1]}] = g;
    // Sorted durations per group, for the medians (one query: the CTE has no index).
    std::map<std::pair<QString, QString>, std::vector<double>> durations;
    for (const SqlRow& d : db.query(QString::fromLatin1(kNvtxRanges) %
                                    QStringLiteral("SELECT range, style, dur FROM ranges "
                                                   "ORDER BY range, style, dur")))
        durations[{*d[0], *d[1]}].push_back(d[2]->toDouble());
    for (std::size_t i = 0; i < csv.size(); ++i) {
        const QStringList& f = csv[i];
        ASSERT_EQ(f.size(), 9);
        if (i > 0) {
            EXPECT_GE(csv[i - 1][3].toLongLong(), f[3].toLongLong());
        }
        auto it = expected.find({f[0], f[1]});
        ASSERT_NE(it, expected.end()) << f[0].toStdString() << " " << f[1].toStdString();
        const SqlRow& g = it->second;
        const qint64 n = g[2]->toLongLong(), total = g[3]->toLongLong();
        EXPECT_EQ(f[2].toLongLong(), n);
        EXPECT_EQ(f[3].toLongLong(), total);
        EXPECT_EQ(f[6].toLongLong(), g[4]->toLongLong());
        EXPECT_EQ(f[7].toLongLong(), g[5]->toLongLong());
        const double avg = double(total) / double(n);
        EXPECT_NEAR(f[4].toDouble(), avg, 0.05 + 1e-9);
        const double sd =
            n > 1 ? std::sqrt(std::max(0.0, (g[6]->toDouble() - double(n) * avg * avg) / (n - 1)))
                  : 0.0;
        EXPECT_NEAR(f[8].toDouble(), sd, 0.05 + 1e-6 * sd);
        const std::vector<double>& ds = durations[{f[0], f[1]}];
        ASSERT_EQ(qint64(ds.size()), n);
        const std::size_t m = ds.size();
        const double median = m % 2 ? ds[m / 2] : (ds[m / 2 - 1] + ds[m / 2]) / 2;
        EXPECT_NEAR(f[5].toDouble(), median, 1e-9);
    }
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
    EXPECT_EQ(runCli(&cli::runMemorySummary, {QStringLiteral("a"), QStringLiteral("b")}).status, 2);
    EXPECT_EQ(runCli(&cli::runMemorySummary, {QStringLiteral("/nonexistent.sqlite")}).status, 1);
}

} // namespace
