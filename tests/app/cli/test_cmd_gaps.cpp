// SPDX-License-Identifier: MIT
// strobe-cli gaps against the union of GPU work computed from SQL on every real fixture.
#include "tests/app/cli/clitesthelpers.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStringBuilder>
#include <algorithm>
#include <gtest/gtest.h>
#include <map>

using namespace strobe;
using namespace strobe::test;

namespace {

const QStringList kHeader = {QStringLiteral("device_id"), QStringLiteral("start_ns"),
                             QStringLiteral("end_ns"),    QStringLiteral("duration_ns"),
                             QStringLiteral("cause"),     QStringLiteral("detail")};

// device, start, end of every gap at least `minNs` long: kernels, memcpys (not unified-memory
// migrations, copyKind >= 11) and memsets as [start, max(end, start + 1)), swept per device.
std::vector<std::array<qint64, 3>> expectedGaps(const QString& path, qint64 minNs) {
    SqlDb db(path);
    QStringList parts;
    if (db.hasTable("CUPTI_ACTIVITY_KIND_KERNEL"))
        parts << QStringLiteral("SELECT deviceId, start, [end] FROM CUPTI_ACTIVITY_KIND_KERNEL");
    if (db.hasTable("CUPTI_ACTIVITY_KIND_MEMCPY"))
        parts << QStringLiteral("SELECT deviceId, start, [end] FROM CUPTI_ACTIVITY_KIND_MEMCPY "
                                "WHERE copyKind < 11");
    if (db.hasTable("CUPTI_ACTIVITY_KIND_MEMSET"))
        parts << QStringLiteral("SELECT deviceId, start, [end] FROM CUPTI_ACTIVITY_KIND_MEMSET");
    std::vector<std::array<qint64, 3>> out;
    if (parts.isEmpty())
        return out;
    std::map<qint64, std::vector<std::pair<qint64, qint64>>> byDevice;
    for (const SqlRow& r :
         db.query(parts.join(QStringLiteral(" UNION ALL ")) % QStringLiteral(" ORDER BY 1, 2"))) {
        const qint64 s = r[1]->toLongLong();
        byDevice[r[0]->toLongLong()].push_back({s, std::max(r[2]->toLongLong(), s + 1)});
    }
    for (const auto& [device, ev] : byDevice) {
        qint64 reach = ev.front().second;
        for (const auto& [s, e] : ev) {
            if (s > reach && s - reach >= minNs)
                out.push_back({device, reach, s});
            reach = std::max(reach, e);
        }
    }
    return out;
}

class GapsOnFixture : public ::testing::TestWithParam<QString> {};

TEST_P(GapsOnFixture, CsvListsExactlyTheSqlGaps) {
    const QString path = fixture(GetParam().toUtf8().constData());
    for (qint64 minNs : {qint64(100'000), qint64(1000)}) {
        const QStringList args = minNs == 100'000 ? QStringList{path}
                                                  : QStringList{path, QStringLiteral("--min-ns"),
                                                                QString::number(minNs)};
        const CliResult r = runCli(&cli::runGaps, args);
        ASSERT_EQ(r.status, 0) << r.err.toStdString();
        const auto records = parseCsv(r.out);
        ASSERT_FALSE(records.empty());
        EXPECT_EQ(records.front(), kHeader);
        const auto expected = expectedGaps(path, minNs);
        ASSERT_EQ(records.size() - 1, expected.size()) << "min-ns " << minNs;
        const QStringList keys = {QStringLiteral("sync"), QStringLiteral("cpu-busy"),
                                  QStringLiteral("launch-overhead"),
                                  QStringLiteral("no-cpu-activity"), QStringLiteral("unknown")};
        for (std::size_t i = 0; i < expected.size(); ++i) {
            const QStringList& f = records[i + 1];
            ASSERT_EQ(f.size(), 6);
            EXPECT_EQ(f[0].toLongLong(), expected[i][0]);
            EXPECT_EQ(f[1].toLongLong(), expected[i][1]);
            EXPECT_EQ(f[2].toLongLong(), expected[i][2]);
            EXPECT_EQ(f[3].toLongLong(), expected[i][2] - expected[i][1]);
            EXPECT_TRUE(keys.contains(f[4])) << f[4].toStdString();
            EXPECT_FALSE(f[5].isEmpty());
        }
    }
}

TEST_P(GapsOnFixture, JsonHasTheSameRows) {
    const QString path = fixture(GetParam().toUtf8().constData());
    const CliResult csv = runCli(&cli::runGaps, {path});
    const CliResult json =
        runCli(&cli::runGaps, {path, QStringLiteral("--format"), QStringLiteral("json")});
    ASSERT_EQ(json.status, 0);
    const QJsonArray rows = QJsonDocument::fromJson(json.out.toUtf8()).array();
    const auto records = parseCsv(csv.out);
    ASSERT_EQ(qsizetype(records.size()) - 1, rows.size());
    for (qsizetype i = 0; i < rows.size(); ++i) {
        const QJsonObject o = rows[i].toObject();
        EXPECT_EQ(o.keys().size(), 6);
        EXPECT_EQ(qint64(o[QStringLiteral("start_ns")].toDouble()),
                  records[std::size_t(i) + 1][1].toLongLong());
        EXPECT_EQ(o[QStringLiteral("cause")].toString(), records[std::size_t(i) + 1][4]);
        EXPECT_EQ(o[QStringLiteral("detail")].toString(), records[std::size_t(i) + 1][5]);
    }
}

INSTANTIATE_TEST_SUITE_P(RealFixtures, GapsOnFixture, ::testing::ValuesIn(allFixtures()),
                         [](const auto& info) {
                             std::string n = info.param.toStdString();
                             for (char& c : n)
                                 c = std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
                             return n;
                         });

TEST(CmdGaps, UsageAndFileErrors) {
    const QString path = fixture("nsys2024.5-cloverleaf.sqlite");
    EXPECT_EQ(runCli(&cli::runGaps, {}).status, 2);
    EXPECT_EQ(
        runCli(&cli::runGaps, {path, QStringLiteral("--min-ns"), QStringLiteral("abc")}).status, 2);
    EXPECT_EQ(runCli(&cli::runGaps, {path, QStringLiteral("--min-ns"), QStringLiteral("0")}).status,
              2);
    EXPECT_EQ(
        runCli(&cli::runGaps, {path, QStringLiteral("--format"), QStringLiteral("xml")}).status, 2);
    const CliResult missing = runCli(&cli::runGaps, {QStringLiteral("/nonexistent/x.sqlite")});
    EXPECT_EQ(missing.status, 1);
    EXPECT_FALSE(missing.err.isEmpty());
    // The dispatcher knows the command.
    EXPECT_EQ(runCli(&cli::runCommandLine, {QStringLiteral("gaps"), path}).status, 0);
}

} // namespace
