// SPDX-License-Identifier: MIT
// strobe-cli gaps against the union of GPU work computed from SQL on every real fixture.
#include "tests/app/cli/clitesthelpers.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStringBuilder>
#include <algorithm>
#include <array>
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
    const QJsonObject top = QJsonDocument::fromJson(json.out.toUtf8()).object();
    EXPECT_EQ(top.keys().size(), 4);
    EXPECT_EQ(top[QStringLiteral("busy")].toString(), QStringLiteral("all"));
    EXPECT_EQ(top[QStringLiteral("threshold_ns")].toInteger(), 100'000);
    const QJsonArray rows = top[QStringLiteral("gaps")].toArray();
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

// Per device: the union of one kind of work from SQL, as [start, max(end, start + 1)).
struct SqlWork {
    qint64 total = 0, first = 0, last = 0;
    std::vector<std::pair<qint64, qint64>> merged;
};
std::map<qint64, SqlWork> sqlUnion(const QString& path, bool kernels, bool copies) {
    SqlDb db(path);
    QStringList parts;
    if (kernels && db.hasTable("CUPTI_ACTIVITY_KIND_KERNEL"))
        parts << QStringLiteral("SELECT deviceId, start, [end] FROM CUPTI_ACTIVITY_KIND_KERNEL");
    if (copies && db.hasTable("CUPTI_ACTIVITY_KIND_MEMCPY"))
        parts << QStringLiteral("SELECT deviceId, start, [end] FROM CUPTI_ACTIVITY_KIND_MEMCPY "
                                "WHERE copyKind < 11");
    if (copies && db.hasTable("CUPTI_ACTIVITY_KIND_MEMSET"))
        parts << QStringLiteral("SELECT deviceId, start, [end] FROM CUPTI_ACTIVITY_KIND_MEMSET");
    std::map<qint64, SqlWork> out;
    if (parts.isEmpty())
        return out;
    for (const SqlRow& r :
         db.query(parts.join(QStringLiteral(" UNION ALL ")) % QStringLiteral(" ORDER BY 1, 2"))) {
        const qint64 s = r[1]->toLongLong(), e = std::max(r[2]->toLongLong(), s + 1);
        auto& m = out[r[0]->toLongLong()].merged;
        if (!m.empty() && s <= m.back().second)
            m.back().second = std::max(m.back().second, e);
        else
            m.push_back({s, e});
    }
    for (auto& [device, w] : out) {
        for (const auto& [s, e] : w.merged)
            w.total += e - s;
        w.first = w.merged.front().first;
        w.last = w.merged.back().second;
    }
    return out;
}

qint64 traceStart(const QString& path, int index = 0) {
    const CliResult info = runCli(&cli::runInfo, {path, QStringLiteral("--json")});
    EXPECT_EQ(info.status, 0);
    return QJsonDocument::fromJson(info.out.toUtf8())
        .object()[QStringLiteral("time_range_ns")]
        .toArray()[index]
        .toInteger();
}

TEST_P(GapsOnFixture, JsonDevicesSplitKernelAndCopyTimeAsSqlDoes) {
    const QString path = fixture(GetParam().toUtf8().constData());
    const auto kernels = sqlUnion(path, true, false);
    const auto copies = sqlUnion(path, false, true);
    const auto all = sqlUnion(path, true, true);
    const qint64 t0 = traceStart(path, 0), t1 = traceStart(path, 1);
    for (const QString& busy : {QStringLiteral("all"), QStringLiteral("kernels")}) {
        SCOPED_TRACE(busy.toStdString());
        const CliResult r = runCli(
            &cli::runGaps, {path, QStringLiteral("--format=json"), QStringLiteral("--busy"), busy});
        ASSERT_EQ(r.status, 0) << r.err.toStdString();
        const QJsonObject top = QJsonDocument::fromJson(r.out.toUtf8()).object();
        EXPECT_EQ(top[QStringLiteral("busy")].toString(), busy);
        const auto& counted = busy == QLatin1String("all") ? all : kernels;
        for (const QJsonValue& v : top[QStringLiteral("devices")].toArray()) {
            const QJsonObject d = v.toObject();
            const qint64 id = d[QStringLiteral("device_id")].toInteger();
            const auto get = [](const std::map<qint64, SqlWork>& m, qint64 id) {
                const auto it = m.find(id);
                return it == m.end() ? SqlWork{} : it->second;
            };
            const SqlWork k = get(kernels, id), c = get(copies, id), b = get(counted, id);
            EXPECT_EQ(d[QStringLiteral("kernel_ns")].toInteger(), k.total) << id;
            EXPECT_EQ(d[QStringLiteral("copy_ns")].toInteger(), c.total) << id;
            EXPECT_EQ(d[QStringLiteral("busy_ns")].toInteger(), b.total) << id;
            EXPECT_EQ(d[QStringLiteral("work_recorded")].toBool(), k.total + c.total > 0) << id;
            if (b.merged.empty()) {
                EXPECT_TRUE(d[QStringLiteral("first_work_ns")].isNull()) << id;
                EXPECT_TRUE(d[QStringLiteral("idle_before_first_work_ns")].isNull()) << id;
                EXPECT_TRUE(d[QStringLiteral("idle_after_last_work_ns")].isNull()) << id;
                continue;
            }
            EXPECT_EQ(d[QStringLiteral("first_work_ns")].toInteger(), b.first) << id;
            EXPECT_EQ(d[QStringLiteral("last_work_end_ns")].toInteger(), b.last) << id;
            EXPECT_EQ(d[QStringLiteral("idle_before_first_work_ns")].toInteger(), b.first - t0);
            EXPECT_EQ(d[QStringLiteral("idle_after_last_work_ns")].toInteger(), t1 - b.last);
            qint64 idle = 0, gaps = 0;
            for (std::size_t i = 1; i < b.merged.size(); ++i) {
                const qint64 g = b.merged[i].first - b.merged[i - 1].second;
                if (g >= 100'000) {
                    idle += g;
                    ++gaps;
                }
            }
            EXPECT_EQ(d[QStringLiteral("idle_ns")].toInteger(), idle) << id;
            EXPECT_EQ(d[QStringLiteral("gaps")].toInteger(), gaps) << id;
        }
    }
}

TEST_P(GapsOnFixture, BusyKernelsListsTheHolesBetweenKernelsOnly) {
    const QString path = fixture(GetParam().toUtf8().constData());
    const CliResult r = runCli(&cli::runGaps, {path, QStringLiteral("--busy=kernels")});
    ASSERT_EQ(r.status, 0) << r.err.toStdString();
    const auto records = parseCsv(r.out);
    std::vector<std::array<qint64, 3>> want;
    for (const auto& [device, w] : sqlUnion(path, true, false))
        for (std::size_t i = 1; i < w.merged.size(); ++i)
            if (w.merged[i].first - w.merged[i - 1].second >= 100'000)
                want.push_back({device, w.merged[i - 1].second, w.merged[i].first});
    ASSERT_EQ(records.size() - 1, want.size());
    for (std::size_t i = 0; i < want.size(); ++i) {
        EXPECT_EQ(records[i + 1][0].toLongLong(), want[i][0]);
        EXPECT_EQ(records[i + 1][1].toLongLong(), want[i][1]);
        EXPECT_EQ(records[i + 1][2].toLongLong(), want[i][2]);
    }
}

INSTANTIATE_TEST_SUITE_P(RealFixtures, GapsOnFixture, ::testing::ValuesIn(allFixtures()),
                         [](const auto& info) {
                             std::string n = info.param.toStdString();
                             for (char& c : n)
                                 c = std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
                             return n;
                         });

// The numbers: on the two-GPU H100 export kernels run ~22 ms of ~969 ms, the rest is
// host-to-device copies; all-work gaps are 0.2 % of the trace, kernel-only ones most of it.
TEST(CmdGaps, H100IsCopyBoundAndSaysSo) {
    const QString path = fixture("nsys2026.2-h100-2gpu-nvtx.sqlite");
    const auto kernels = sqlUnion(path, true, false);
    const auto copies = sqlUnion(path, false, true);
    ASSERT_EQ(kernels.size(), 2u);
    for (const auto& [device, k] : kernels) {
        EXPECT_NEAR(double(k.total), 22.4e6, 0.2e6) << device;
        EXPECT_NEAR(double(copies.at(device).total), 940.4e6, 0.5e6) << device;
    }
    const CliResult text =
        runCli(&cli::runGaps, {path, QStringLiteral("--format"), QStringLiteral("text")});
    ASSERT_EQ(text.status, 0);
    const QStringList lines = text.out.split(u'\n');
    EXPECT_EQ(lines[0], QStringLiteral("Gaps of at least 100.0 \u00b5s, busy = kernels, memcpys "
                                       "and memsets."));
    // The gap figures name their threshold and base, as the Overview says them (issue 44).
    EXPECT_EQ(lines[1], QStringLiteral("GPU 0: kernels 22.39 ms, copies 940.5 ms, idle 1.665 ms "
                                       "in 4 gaps of at least 100.0 \u00b5s (0.2 % of the "
                                       "trace)"));
    EXPECT_TRUE(text.out.contains(QStringLiteral("\n  idle before first work 77.22 \u00b5s\n")));
    const CliResult kernelsOnly = runCli(
        &cli::runGaps, {path, QStringLiteral("--format=text"), QStringLiteral("--busy=kernels")});
    EXPECT_TRUE(kernelsOnly.out.contains(QStringLiteral(
        "GPU 0: kernels 22.39 ms, copies 940.5 ms, idle 935.8 ms in 57 gaps of at least 100.0 "
        "\u00b5s (96.5 % of the trace)")))
        << kernelsOnly.out.toStdString();
    EXPECT_TRUE(kernelsOnly.out.contains(QStringLiteral("Copies ran for 100% of the gap.")));
}

// CloverLeaf ran on one of four GPUs and idled ~455 ms of ~805 ms before its first work.
TEST(CmdGaps, CloverLeafReportsTheIdleEndsAndTheUnusedGpus) {
    const QString path = fixture("nsys2024.5-cloverleaf.sqlite");
    const CliResult r =
        runCli(&cli::runGaps, {path, QStringLiteral("--format"), QStringLiteral("text")});
    ASSERT_EQ(r.status, 0);
    const SqlWork w = sqlUnion(path, true, true).at(0);
    const qint64 before = w.first - traceStart(path, 0);
    EXPECT_NEAR(double(before), 455e6, 1e6);
    EXPECT_TRUE(r.out.contains(QStringLiteral("\n  idle before first work 455.0 ms\n")))
        << r.out.toStdString();
    EXPECT_TRUE(r.out.contains(QStringLiteral("\n  idle after last work 8.064 ms\n")));
    for (int gpu : {1, 2, 3})
        EXPECT_TRUE(r.out.contains(QStringLiteral("\nGPU ") % QString::number(gpu) %
                                   QStringLiteral(": no GPU work recorded\n")))
            << gpu;
    EXPECT_FALSE(r.out.contains(QStringLiteral("0 ns idle in 0 gaps")));
    // No gap starts before the first work or ends after the last: the ends are not gaps.
    for (const auto& f : parseCsv(runCli(&cli::runGaps, {path}).out))
        if (f[0] == QLatin1String("0")) {
            EXPECT_TRUE(f[1].toLongLong() >= w.first && f[2].toLongLong() <= w.last);
        }
}

TEST(CmdGaps, UsageAndFileErrors) {
    const QString path = fixture("nsys2024.5-cloverleaf.sqlite");
    EXPECT_EQ(runCli(&cli::runGaps, {}).status, 2);
    EXPECT_EQ(
        runCli(&cli::runGaps, {path, QStringLiteral("--min-ns"), QStringLiteral("abc")}).status, 2);
    EXPECT_EQ(runCli(&cli::runGaps, {path, QStringLiteral("--min-ns"), QStringLiteral("0")}).status,
              2);
    const CliResult xml =
        runCli(&cli::runGaps, {path, QStringLiteral("--format"), QStringLiteral("xml")});
    EXPECT_EQ(xml.status, 2);
    EXPECT_TRUE(xml.err.contains(QStringLiteral("--format must be csv, json or text, not 'xml'")))
        << xml.err.toStdString();
    for (const char* bad : {"copies", "Kernels", ""}) {
        const CliResult busy =
            runCli(&cli::runGaps, {path, QStringLiteral("--busy"), QString::fromLatin1(bad)});
        EXPECT_EQ(busy.status, 2) << bad;
        EXPECT_TRUE(busy.out.isEmpty());
        EXPECT_EQ(busy.err,
                  QStringLiteral("strobe-cli gaps: --busy must be all or kernels, not '") %
                      QString::fromLatin1(bad) %
                      QStringLiteral("'; run 'strobe-cli gaps --help' for usage.\n"));
    }
    EXPECT_EQ(runCli(&cli::runGaps, {path, QStringLiteral("--busy")}).status, 2);
    const CliResult missing = runCli(&cli::runGaps, {QStringLiteral("/nonexistent/x.sqlite")});
    EXPECT_EQ(missing.status, 1);
    EXPECT_FALSE(missing.err.isEmpty());
    // The dispatcher knows the command.
    EXPECT_EQ(runCli(&cli::runCommandLine, {QStringLiteral("gaps"), path}).status, 0);
}

} // namespace
