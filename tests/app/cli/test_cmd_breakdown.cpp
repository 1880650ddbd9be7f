// SPDX-License-Identifier: MIT
// strobe-cli breakdown against unions computed from SQL on every real fixture, per instance on
// the sample, JSON, and every error path.
#include "formats/nsys/synth/sampletrace.h"
#include "tests/app/cli/clitesthelpers.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <gtest/gtest.h>
#include <map>

using namespace strobe;
using namespace strobe::test;

namespace {

const QStringList kCategories = {QStringLiteral("compute"),
                                 QStringLiteral("communication"),
                                 QStringLiteral("exposed_communication"),
                                 QStringLiteral("memory"),
                                 QStringLiteral("idle"),
                                 QStringLiteral("span")};

qint64 unionLength(std::vector<std::pair<qint64, qint64>> v) {
    std::sort(v.begin(), v.end());
    qint64 total = 0, s = 0, e = 0;
    bool open = false;
    for (const auto& [a, b] : v) {
        if (open && a <= e) {
            e = std::max(e, b);
            continue;
        }
        total += open ? e - s : 0;
        s = a;
        e = b;
        open = true;
    }
    return total + (open ? e - s : 0);
}

// device -> category -> ns, from the tables (none of the nsys fixtures has NCCL kernels; a
// kernel named *nccl* would count as communication).
std::map<qint64, std::map<QString, qint64>> expected(const QString& path) {
    SqlDb db(path);
    std::map<qint64, std::vector<std::pair<qint64, qint64>>> kernels, comm, memory, all;
    const auto rows = [&](const char* table, const QString& sql) {
        return db.hasTable(table) ? db.query(sql) : std::vector<SqlRow>{};
    };
    for (const SqlRow& r : rows("CUPTI_ACTIVITY_KIND_KERNEL",
                                QStringLiteral("SELECT k.deviceId, k.start, k.[end], s.value FROM "
                                               "CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON "
                                               "s.id = k.shortName"))) {
        const qint64 s = r[1]->toLongLong();
        auto& bucket = r[3]->contains(QLatin1String("nccl"), Qt::CaseInsensitive) ? comm : kernels;
        bucket[r[0]->toLongLong()].push_back({s, std::max(r[2]->toLongLong(), s + 1)});
        all[r[0]->toLongLong()].push_back({s, std::max(r[2]->toLongLong(), s + 1)});
    }
    std::vector<SqlRow> mem =
        rows("CUPTI_ACTIVITY_KIND_MEMCPY",
             QStringLiteral("SELECT deviceId, start, [end] FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE "
                            "copyKind < 11"));
    for (SqlRow& r :
         rows("CUPTI_ACTIVITY_KIND_MEMSET", QStringLiteral("SELECT deviceId, start, [end] FROM "
                                                           "CUPTI_ACTIVITY_KIND_MEMSET")))
        mem.push_back(std::move(r));
    for (const SqlRow& r : mem) {
        const qint64 s = r[1]->toLongLong();
        memory[r[0]->toLongLong()].push_back({s, std::max(r[2]->toLongLong(), s + 1)});
        all[r[0]->toLongLong()].push_back({s, std::max(r[2]->toLongLong(), s + 1)});
    }
    std::map<qint64, std::map<QString, qint64>> out;
    for (auto& [device, v] : all) {
        qint64 first = v.front().first, last = v.front().second;
        for (const auto& [s, e] : v) {
            first = std::min(first, s);
            last = std::max(last, e);
        }
        auto& m = out[device];
        m[QStringLiteral("compute")] = unionLength(kernels[device]);
        m[QStringLiteral("communication")] = unionLength(comm[device]);
        m[QStringLiteral("memory")] = unionLength(memory[device]);
        m[QStringLiteral("span")] = last - first;
        m[QStringLiteral("idle")] = last - first - unionLength(v);
    }
    return out;
}

class BreakdownOnFixture : public ::testing::TestWithParam<QString> {};

TEST_P(BreakdownOnFixture, CsvRowsEqualSqlUnions) {
    const QString path = fixture(GetParam().toUtf8().constData());
    const CliResult r = runCli(&cli::runBreakdown, {path});
    ASSERT_EQ(r.status, 0) << r.err.toStdString();
    const auto records = parseCsv(r.out);
    ASSERT_FALSE(records.empty());
    EXPECT_EQ(records.front(), (QStringList{QStringLiteral("device_id"), QStringLiteral("category"),
                                            QStringLiteral("time_ns")}));
    const auto want = expected(path);
    ASSERT_EQ(records.size() - 1, want.size() * 6);
    std::size_t row = 1;
    for (const auto& [device, m] : want) {
        for (const QString& category : kCategories) {
            const QStringList& f = records[row++];
            EXPECT_EQ(f[0].toLongLong(), device);
            EXPECT_EQ(f[1], category);
            if (category == QLatin1String("exposed_communication"))
                EXPECT_LE(f[2].toLongLong(), m.at(QStringLiteral("communication")));
            else
                EXPECT_EQ(f[2].toLongLong(), m.at(category))
                    << GetParam().toStdString() << ' ' << category.toStdString();
        }
    }
}

INSTANTIATE_TEST_SUITE_P(RealFixtures, BreakdownOnFixture, ::testing::ValuesIn(allFixtures()),
                         [](const auto& info) {
                             std::string n = info.param.toStdString();
                             for (char& c : n)
                                 c = std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
                             return n;
                         });

class SampleFile : public ::testing::Test {
protected:
    void SetUp() override {
        path = dir.filePath(QStringLiteral("sample.sqlite"));
        ASSERT_TRUE(sample::writeSampleTrace(path.toStdString(), nullptr));
    }
    QTemporaryDir dir;
    QString path;
};

TEST_F(SampleFile, RangeGivesOneBlockPerInstanceWithClasses) {
    const CliResult r =
        runCli(&cli::runBreakdown, {path, QStringLiteral("--range"), QStringLiteral("Iteration"),
                                    QStringLiteral("--classes")});
    ASSERT_EQ(r.status, 0) << r.err.toStdString();
    const auto records = parseCsv(r.out);
    EXPECT_EQ(records.front(),
              (QStringList{QStringLiteral("instance"), QStringLiteral("device_id"),
                           QStringLiteral("category"), QStringLiteral("time_ns")}));
    // 20 iterations x one GPU x (6 categories + 7 classes).
    ASSERT_EQ(records.size(), 1u + 20u * 13u);
    EXPECT_EQ(records[1][0], QStringLiteral("0"));
    EXPECT_EQ(records.back()[0], QStringLiteral("19"));
    EXPECT_EQ(records[7][2], QStringLiteral("class:gemm"));
    EXPECT_EQ(records[13][2], QStringLiteral("class:other"));
    qint64 compute = 0, classes = 0;
    for (std::size_t i = 1; i <= 13; ++i) {
        if (records[i][2] == QLatin1String("compute"))
            compute = records[i][3].toLongLong();
        if (records[i][2].startsWith(QLatin1String("class:")))
            classes += records[i][3].toLongLong();
    }
    EXPECT_GT(compute, 0);
    EXPECT_EQ(classes, compute); // the classes split compute exactly
}

TEST_F(SampleFile, JsonHasTheCsvNumbersAndMore) {
    const CliResult csv = runCli(&cli::runBreakdown, {path, QStringLiteral("--classes")});
    const CliResult json =
        runCli(&cli::runBreakdown, {path, QStringLiteral("--format"), QStringLiteral("json"),
                                    QStringLiteral("--classes")});
    ASSERT_EQ(json.status, 0);
    const QJsonArray gpus = QJsonDocument::fromJson(json.out.toUtf8()).array();
    ASSERT_EQ(gpus.size(), 1);
    const QJsonObject g = gpus[0].toObject();
    const auto records = parseCsv(csv.out);
    for (std::size_t i = 1; i <= 6; ++i)
        EXPECT_EQ(qint64(g[records[i][1]].toDouble()), records[i][2].toLongLong());
    EXPECT_EQ(
        qint64(g[QStringLiteral("end_ns")].toDouble() - g[QStringLiteral("start_ns")].toDouble()),
        records[6][2].toLongLong());
    EXPECT_EQ(
        qint64(g[QStringLiteral("classes")].toObject()[QStringLiteral("convolution")].toDouble()),
        records[8][2].toLongLong());
    EXPECT_GT(g[QStringLiteral("copies")].toObject()[QStringLiteral("htod")].toDouble(), 0);
}

TEST_F(SampleFile, ClassesFileReplacesTheTable) {
    const QString table = dir.filePath(QStringLiteral("k.json"));
    QFile f(table);
    ASSERT_TRUE(f.open(QIODevice::WriteOnly));
    f.write(R"({"classes": [{"class": "softmax", "patterns": ["conv", "fprop", "grad"]}]})");
    f.close();
    const CliResult r = runCli(&cli::runBreakdown, {path, QStringLiteral("--classes"),
                                                    QStringLiteral("--classes-file"), table});
    ASSERT_EQ(r.status, 0) << r.err.toStdString();
    const auto records = parseCsv(r.out);
    EXPECT_EQ(records[8][1], QStringLiteral("class:convolution"));
    EXPECT_EQ(records[8][2], QStringLiteral("0"));
    EXPECT_EQ(records[11][1], QStringLiteral("class:softmax"));
    EXPECT_GT(records[11][2].toLongLong(), records[1][2].toLongLong() / 2);
}

TEST_F(SampleFile, ErrorsSayWhatIsWrong) {
    EXPECT_EQ(runCli(&cli::runBreakdown, {}).status, 2);
    EXPECT_EQ(runCli(&cli::runBreakdown, {path, QStringLiteral("--format"), QStringLiteral("xml")})
                  .status,
              2);
    EXPECT_EQ(runCli(&cli::runBreakdown, {path, QStringLiteral("--range")}).status, 2);
    const CliResult noRange =
        runCli(&cli::runBreakdown, {path, QStringLiteral("--range"), QStringLiteral("Nope")});
    EXPECT_EQ(noRange.status, 1);
    EXPECT_TRUE(noRange.err.contains(QStringLiteral("has no NVTX range named 'Nope'.")));
    const CliResult badTable = runCli(
        &cli::runBreakdown, {path, QStringLiteral("--classes-file"), QStringLiteral("/no/k.json")});
    EXPECT_EQ(badTable.status, 1);
    EXPECT_TRUE(badTable.err.contains(QStringLiteral("cannot read kernel class file /no/k.json")));
    EXPECT_EQ(runCli(&cli::runBreakdown, {QStringLiteral("/nonexistent/x.sqlite")}).status, 1);
    EXPECT_EQ(runCli(&cli::runCommandLine, {QStringLiteral("breakdown"), path}).status, 0);
    const CliResult help =
        runCli(&cli::runCommandLine, {QStringLiteral("breakdown"), QStringLiteral("--help")});
    EXPECT_TRUE(help.out.contains(QStringLiteral("--classes-file FILE")));
}

} // namespace
