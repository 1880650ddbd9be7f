// SPDX-License-Identifier: MIT
// strobe-cli kernels / kernel-summary against independent SQL on every real fixture.
#include "tests/app/cli/clitesthelpers.h"

#include <QRegularExpression>
#include <QStringBuilder>
#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <map>

using namespace strobe;
using namespace strobe::test;

namespace {

const QString kKernelsHeader = QStringLiteral(
    "name,start_ns,end_ns,duration_ns,device_id,context_id,stream_id,grid_x,grid_y,grid_z,"
    "block_x,block_y,block_z,registers_per_thread,static_shared_bytes,dynamic_shared_bytes,"
    "correlation_id,api_name,api_tid");
const QString kSummaryHeader =
    QStringLiteral("name,time_percent,total_ns,instances,avg_ns,median_ns,min_ns,max_ns,stddev_ns");

// docs/CLI.md's rule, written independently of cudaapi::displayName: every trailing "_v" plus
// digits goes, "_ptsz"/"_ptds" stay.
QString stripSuffix(const QString& s) {
    static const QRegularExpression re(QStringLiteral("(?<=.)(_v[0-9]+)+$"));
    QString out = s;
    out.remove(re);
    return out;
}

std::vector<QStringList> expectedKernels(const QString& path) {
    SqlDb db(path);
    const auto rows = db.query(QStringLiteral(
        "SELECT s.value, k.start, k.[end], k.[end] - k.start, k.deviceId, k.contextId, "
        "k.streamId, k.gridX, k.gridY, k.gridZ, k.blockX, k.blockY, k.blockZ, "
        "k.registersPerThread, k.staticSharedMemory, k.dynamicSharedMemory, k.correlationId, "
        "n.value, r.globalTid & 0xFFFFFF "
        "FROM CUPTI_ACTIVITY_KIND_KERNEL k "
        "LEFT JOIN StringIds s ON s.id = k.shortName "
        "LEFT JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = k.correlationId "
        "  AND k.globalPid = (r.globalTid & 0xFFFFFFFFFF000000) AND r.eventClass IN (0, 1) "
        "LEFT JOIN StringIds n ON n.id = r.nameId"));
    EXPECT_TRUE(db.error().isEmpty()) << db.error().toStdString();
    std::vector<QStringList> out;
    for (const SqlRow& r : rows) {
        QStringList f;
        for (std::size_t c = 0; c < r.size(); ++c)
            f << r[c].value_or(QString());
        f[17] = stripSuffix(f[17]);
        out.push_back(f);
    }
    return out;
}

// Rows with equal starts may come in any order: compare in (start, row text) order.
void sortByStart(std::vector<QStringList>& rows) {
    std::sort(rows.begin(), rows.end(), [](const QStringList& a, const QStringList& b) {
        const qint64 sa = a[1].toLongLong(), sb = b[1].toLongLong();
        if (sa != sb)
            return sa < sb;
        return a.join(u'\x1f') < b.join(u'\x1f');
    });
}

class KernelsOnFixture : public ::testing::TestWithParam<QString> {};

TEST_P(KernelsOnFixture, CsvMatchesSqlValueByValue) {
    const QString path = fixture(GetParam().toUtf8().constData());
    const CliResult r = runCli(&cli::runKernels, {path});
    ASSERT_EQ(r.status, 0) << r.err.toStdString();
    auto csv = parseCsv(r.out);
    ASSERT_FALSE(csv.empty());
    EXPECT_EQ(csv.front().join(u','), kKernelsHeader);
    csv.erase(csv.begin());
    for (std::size_t i = 1; i < csv.size(); ++i)
        ASSERT_LE(csv[i - 1][1].toLongLong(), csv[i][1].toLongLong()) << "not ordered by start";
    auto expected = expectedKernels(path);
    ASSERT_EQ(csv.size(), expected.size());
    ASSERT_GT(csv.size(), 0u);
    sortByStart(csv);
    sortByStart(expected);
    for (std::size_t i = 0; i < csv.size(); ++i) {
        ASSERT_EQ(csv[i].size(), 19);
        for (int c = 0; c < 19; ++c)
            EXPECT_EQ(csv[i][c], expected[i][c])
                << "row " << i << " column " << kKernelsHeader.split(u',')[c].toStdString();
    }
}

TEST_P(KernelsOnFixture, JsonHasTheSameValues) {
    const QString path = fixture(GetParam().toUtf8().constData());
    const CliResult csv = runCli(&cli::runKernels, {path});
    const CliResult json =
        runCli(&cli::runKernels, {path, QStringLiteral("--format"), QStringLiteral("json")});
    ASSERT_EQ(json.status, 0);
    // Same number of objects as CSV records, and each CSV name appears as a JSON string.
    const auto records = parseCsv(csv.out);
    EXPECT_EQ(json.out.count(QStringLiteral("{\"name\": ")), qsizetype(records.size() - 1));
    EXPECT_TRUE(json.out.startsWith(u'['));
    EXPECT_TRUE(json.out.trimmed().endsWith(u']'));
}

struct ExpectedSummary {
    QString name;
    qint64 total = 0, count = 0, min = 0, max = 0;
    double avg = 0, median = 0, stddev = 0, percent = 0;
};

std::vector<ExpectedSummary> expectedSummary(const QString& path, bool base) {
    SqlDb db(path);
    const QString nameCol = base ? QStringLiteral("shortName") : QStringLiteral("demangledName");
    const auto all =
        db.query(QStringLiteral("SELECT SUM(k.[end] - k.start) FROM CUPTI_ACTIVITY_KIND_KERNEL k"));
    const double grand = all.front()[0]->toDouble();
    const auto groups = db.query(
        QStringLiteral("SELECT s.value, SUM(k.[end] - k.start), COUNT(*), MIN(k.[end] - k.start), "
                       "MAX(k.[end] - k.start), SUM(CAST(k.[end] - k.start AS REAL) * "
                       "(k.[end] - k.start)) FROM CUPTI_ACTIVITY_KIND_KERNEL k "
                       "JOIN StringIds s ON s.id = k.") %
        nameCol % QStringLiteral(" GROUP BY s.value"));
    std::vector<ExpectedSummary> out;
    for (const SqlRow& g : groups) {
        ExpectedSummary e;
        e.name = *g[0];
        e.total = g[1]->toLongLong();
        e.count = g[2]->toLongLong();
        e.min = g[3]->toLongLong();
        e.max = g[4]->toLongLong();
        e.avg = double(e.total) / double(e.count);
        e.percent = 100.0 * double(e.total) / grand;
        const double sumsq = g[5]->toDouble();
        e.stddev = e.count > 1 ? std::sqrt(std::max(0.0, (sumsq - double(e.count) * e.avg * e.avg) /
                                                             double(e.count - 1)))
                               : 0.0;
        QString escaped = e.name;
        escaped.replace(u'\'', QStringLiteral("''"));
        const auto ds = db.query(QStringLiteral("SELECT k.[end] - k.start FROM "
                                                "CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON "
                                                "s.id = k.") %
                                 nameCol % QStringLiteral(" WHERE s.value = '") % escaped %
                                 QStringLiteral("' ORDER BY 1"));
        const std::size_t n = ds.size();
        e.median = n % 2 ? ds[n / 2][0]->toDouble()
                         : (ds[n / 2 - 1][0]->toDouble() + ds[n / 2][0]->toDouble()) / 2.0;
        out.push_back(e);
    }
    return out;
}

void checkSummary(const QString& path, bool base) {
    QStringList args{path};
    if (base)
        args << QStringLiteral("--base");
    const CliResult r = runCli(&cli::runKernelSummary, args);
    ASSERT_EQ(r.status, 0) << r.err.toStdString();
    auto csv = parseCsv(r.out);
    ASSERT_FALSE(csv.empty());
    EXPECT_EQ(csv.front().join(u','), kSummaryHeader);
    csv.erase(csv.begin());
    const auto expected = expectedSummary(path, base);
    ASSERT_EQ(csv.size(), expected.size());
    std::map<QString, ExpectedSummary> byName;
    for (const auto& e : expected)
        byName[e.name] = e;
    for (std::size_t i = 0; i < csv.size(); ++i) {
        const QStringList& f = csv[i];
        ASSERT_EQ(f.size(), 9);
        if (i > 0) {
            EXPECT_GE(csv[i - 1][2].toLongLong(), f[2].toLongLong()) << "not by total desc";
        }
        ASSERT_TRUE(byName.count(f[0])) << f[0].toStdString();
        const ExpectedSummary& e = byName[f[0]];
        EXPECT_EQ(f[2].toLongLong(), e.total);
        EXPECT_EQ(f[3].toLongLong(), e.count);
        EXPECT_EQ(f[6].toLongLong(), e.min);
        EXPECT_EQ(f[7].toLongLong(), e.max);
        // Printed with fixed decimals: 2 for the percentage, 1 for ns statistics.
        EXPECT_EQ(f[1].section(u'.', 1).size(), 2);
        EXPECT_EQ(f[4].section(u'.', 1).size(), 1);
        EXPECT_NEAR(f[1].toDouble(), e.percent, 0.005 + 1e-9);
        EXPECT_NEAR(f[4].toDouble(), e.avg, 0.05 + 1e-9);
        EXPECT_NEAR(f[5].toDouble(), e.median, 0.05 + 1e-9);
        EXPECT_NEAR(f[8].toDouble(), e.stddev, 0.05 + 1e-6 * e.stddev);
    }
}

TEST_P(KernelsOnFixture, SummaryByDemangledNameMatchesSql) {
    checkSummary(fixture(GetParam().toUtf8().constData()), false);
}

TEST_P(KernelsOnFixture, SummaryByShortNameMatchesSql) {
    checkSummary(fixture(GetParam().toUtf8().constData()), true);
}

INSTANTIATE_TEST_SUITE_P(RealFixtures, KernelsOnFixture, ::testing::ValuesIn(allFixtures()),
                         [](const auto& info) {
                             QString n = info.param;
                             n.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9]")),
                                       QStringLiteral("_"));
                             return n.toStdString();
                         });

TEST(KernelsCommand, UsageErrorsAndUnreadableFiles) {
    EXPECT_EQ(runCli(&cli::runKernels, {}).status, 2);
    EXPECT_EQ(runCli(&cli::runKernels, {fixture("nsys2024.5-cloverleaf.sqlite"),
                                        QStringLiteral("--format"), QStringLiteral("xml")})
                  .status,
              2);
    EXPECT_EQ(runCli(&cli::runKernelSummary,
                     {fixture("nsys2024.5-cloverleaf.sqlite"), QStringLiteral("--bogus")})
                  .status,
              2);
    const CliResult missing = runCli(&cli::runKernels, {QStringLiteral("/nonexistent.sqlite")});
    EXPECT_EQ(missing.status, 1);
    EXPECT_FALSE(missing.err.isEmpty());
}

TEST(KernelsCommand, KnownValuesOnCloverleaf) {
    // A fixed anchor a wrong join or a wrong order would break: the first kernel of the trace.
    const CliResult r = runCli(&cli::runKernels, {fixture("nsys2024.5-cloverleaf.sqlite")});
    const auto csv = parseCsv(r.out);
    ASSERT_EQ(csv.size(), 1313u);
    EXPECT_EQ(csv[1][17], QStringLiteral("cudaLaunchKernel"));
}

} // namespace
