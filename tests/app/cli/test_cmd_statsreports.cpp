// SPDX-License-Identifier: MIT
// strobe-cli api-summary, osrt-summary, memory-size-summary, launch-summary and
// nvtx-summary --gpu against Nsight Systems' documented definitions of cuda_api_sum, osrt_sum,
// cuda_gpu_mem_size_sum, cuda_kern_exec_sum and nvtx_gpu_proj_sum, written here as SQL over
// every nsys fixture (and a scan of a Kineto trace's JSON), without Strobe's model.
#include "tests/app/cli/clitesthelpers.h"
#include "tests/support/kinetoscan.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <limits>
#include <map>

using namespace strobe;
using namespace strobe::test;

namespace {

// The statistics every nsys summary prints, computed here from the values: mean, median (the
// mean of the middle two for an even count) and the sample standard deviation (n - 1), as
// SQLite's avg and nsys's median and stdev functions give them.
struct Stats {
    qint64 count = 0, total = 0, min = 0, max = 0;
    double mean = 0, median = 0, stddev = 0;
};

Stats statsOf(std::vector<qint64> v) {
    Stats s;
    s.count = qint64(v.size());
    if (v.empty())
        return s;
    std::sort(v.begin(), v.end());
    s.min = v.front();
    s.max = v.back();
    for (qint64 x : v)
        s.total += x;
    s.mean = double(s.total) / double(s.count);
    const std::size_t n = v.size();
    s.median = n % 2 ? double(v[n / 2]) : (double(v[n / 2 - 1]) + double(v[n / 2])) / 2.0;
    if (n > 1) {
        double sq = 0;
        for (qint64 x : v)
            sq += (double(x) - s.mean) * (double(x) - s.mean);
        s.stddev = std::sqrt(sq / double(n - 1));
    }
    return s;
}

// A printed decimal against the exact value: the CLI rounds to 1 decimal.
void expectNear1(const QString& printed, double exact, const QString& what) {
    bool ok = false;
    const double v = printed.toDouble(&ok);
    ASSERT_TRUE(ok) << what.toStdString() << ": '" << printed.toStdString() << "'";
    EXPECT_NEAR(v, exact, 0.05 + 1e-9 * std::abs(exact)) << what.toStdString();
}

std::vector<QStringList> csvOf(int (*command)(const QStringList&, cli::Io),
                               const QStringList& args) {
    const CliResult r = runCli(command, args);
    EXPECT_EQ(r.status, 0) << r.err.toStdString();
    return parseCsv(r.out);
}

// name -> every value of that name.
using Values = std::map<QString, std::vector<qint64>>;

// Checks a table with the kernel-summary header against per-name values: every name once, the
// counts, totals, extremes and shares exact, the rest within the printed rounding, rows by
// total descending.
void expectDurationSummary(const std::vector<QStringList>& csv, const Values& values,
                           const QString& where) {
    ASSERT_FALSE(csv.empty()) << where.toStdString();
    EXPECT_EQ(csv[0].join(u','),
              QStringLiteral("name,time_percent,total_ns,instances,avg_ns,median_ns,min_ns,max_ns,"
                             "stddev_ns"));
    ASSERT_EQ(csv.size() - 1, values.size()) << where.toStdString();
    qint64 all = 0;
    for (const auto& [name, v] : values)
        for (qint64 x : v)
            all += x;
    qint64 previous = std::numeric_limits<qint64>::max();
    for (std::size_t i = 1; i < csv.size(); ++i) {
        const QStringList& f = csv[i];
        const QString what = where % u' ' % f[0];
        const auto it = values.find(f[0]);
        ASSERT_NE(it, values.end()) << what.toStdString();
        const Stats s = statsOf(it->second);
        EXPECT_EQ(f[2].toLongLong(), s.total) << what.toStdString();
        EXPECT_LE(s.total, previous) << what.toStdString();
        previous = s.total;
        EXPECT_EQ(f[3].toLongLong(), s.count) << what.toStdString();
        EXPECT_EQ(f[6].toLongLong(), s.min) << what.toStdString();
        EXPECT_EQ(f[7].toLongLong(), s.max) << what.toStdString();
        EXPECT_NEAR(f[1].toDouble(), all ? 100.0 * double(s.total) / double(all) : 0.0, 0.0051)
            << what.toStdString();
        expectNear1(f[4], s.mean, what % u" avg");
        expectNear1(f[5], s.median, what % u" median");
        expectNear1(f[8], s.stddev, what % u" stddev");
    }
}

// Strobe's shown API name (docs/CLI.md): trailing "_v<digits>" suffixes dropped, repeatedly.
QString shownApiName(QString raw) {
    static const QRegularExpression suffix(QStringLiteral("(_v[0-9]+)+$"));
    const QString cut = QString(raw).remove(suffix);
    return cut.isEmpty() ? raw : cut;
}

} // namespace

// cuda_api_sum: CUDA runtime and driver calls (eventClass 0 and 1: nsys's class 67 backtrace
// duplicates are no calls) per function name, durations end - start.
TEST(CliStatsReports, ApiSummaryIsCudaApiSumOnEveryFixture) {
    for (const QString& file : allFixtures()) {
        const QString path = fixture(file.toUtf8().constData());
        SqlDb db(path);
        Values values;
        for (const SqlRow& r : db.query(QStringLiteral(
                 "SELECT s.value, r.[end] - r.start FROM CUPTI_ACTIVITY_KIND_RUNTIME r "
                 "JOIN StringIds s ON s.id = r.nameId WHERE r.eventClass IN (0, 1)")))
            values[shownApiName(*r[0])].push_back(r[1]->toLongLong());
        ASSERT_TRUE(db.error().isEmpty()) << db.error().toStdString();
        ASSERT_FALSE(values.empty()) << file.toStdString();
        expectDurationSummary(csvOf(&cli::runApiSummary, {path}), values, file);
    }
}

// osrt_sum: OSRT_API rows of eventClass 27 per function name.
TEST(CliStatsReports, OsrtSummaryIsOsrtSumOnEveryFixture) {
    int withCalls = 0;
    for (const QString& file : allFixtures()) {
        const QString path = fixture(file.toUtf8().constData());
        SqlDb db(path);
        Values values;
        if (db.hasTable("OSRT_API"))
            for (const SqlRow& r : db.query(
                     QStringLiteral("SELECT s.value, o.[end] - o.start FROM OSRT_API o "
                                    "JOIN StringIds s ON s.id = o.nameId WHERE o.eventClass = 27")))
                values[*r[0]].push_back(r[1]->toLongLong());
        ASSERT_TRUE(db.error().isEmpty()) << db.error().toStdString();
        withCalls += values.empty() ? 0 : 1;
        // A trace without OS runtime calls prints the header alone.
        expectDurationSummary(csvOf(&cli::runOsrtSummary, {path}), values, file);
    }
    EXPECT_EQ(withCalls, 2); // CloverLeaf, CUDA graphs (saxpy's OSRT_API table is empty)
}

// cuda_gpu_mem_size_sum: memcpys named "[CUDA memcpy " + ENUM_CUDA_MEMCPY_OPER's label + "]",
// memsets "[CUDA memset]"; statistics over bytes; by total bytes descending.
TEST(CliStatsReports, MemorySizeSummaryIsCudaGpuMemSizeSumOnEveryFixture) {
    // The enum's labels, for the 2022 exports that lack the table (the same in every export).
    const QString labels = QStringLiteral(
        "(SELECT 0 AS id, 'Unknown' AS label UNION ALL SELECT 1, 'Host-to-Device' UNION ALL "
        "SELECT 2, 'Device-to-Host' UNION ALL SELECT 3, 'Host-to-Array' UNION ALL SELECT 4, "
        "'Array-to-Host' UNION ALL SELECT 5, 'Array-to-Array' UNION ALL SELECT 6, "
        "'Array-to-Device' UNION ALL SELECT 7, 'Device-to-Array' UNION ALL SELECT 8, "
        "'Device-to-Device' UNION ALL SELECT 9, 'Host-to-Host' UNION ALL SELECT 10, "
        "'Peer-to-Peer' UNION ALL SELECT 11, 'Unified Host-to-Device' UNION ALL SELECT 12, "
        "'Unified Device-to-Host' UNION ALL SELECT 13, 'Unified Device-to-Device')");
    for (const QString& file : allFixtures()) {
        const QString path = fixture(file.toUtf8().constData());
        SqlDb db(path);
        QStringList parts;
        if (db.hasTable("CUPTI_ACTIVITY_KIND_MEMCPY"))
            parts << (u"SELECT '[CUDA memcpy ' || e.label || ']', m.bytes FROM "
                      u"CUPTI_ACTIVITY_KIND_MEMCPY m JOIN " %
                      (db.hasTable("ENUM_CUDA_MEMCPY_OPER")
                           ? QStringLiteral("ENUM_CUDA_MEMCPY_OPER")
                           : labels) %
                      u" e ON e.id = m.copyKind");
        if (db.hasTable("CUPTI_ACTIVITY_KIND_MEMSET"))
            parts << QStringLiteral(
                "SELECT '[CUDA memset]', bytes FROM CUPTI_ACTIVITY_KIND_MEMSET");
        Values values;
        if (!parts.isEmpty())
            for (const SqlRow& r : db.query(parts.join(QStringLiteral(" UNION ALL "))))
                values[*r[0]].push_back(r[1]->toLongLong());
        ASSERT_TRUE(db.error().isEmpty()) << db.error().toStdString();
        const auto csv = csvOf(&cli::runMemorySizeSummary, {path});
        ASSERT_FALSE(csv.empty());
        EXPECT_EQ(csv[0].join(u','),
                  QStringLiteral("name,total_bytes,instances,avg_bytes,median_bytes,min_bytes,"
                                 "max_bytes,stddev_bytes"));
        ASSERT_EQ(csv.size() - 1, values.size()) << file.toStdString();
        qint64 previous = std::numeric_limits<qint64>::max();
        for (std::size_t i = 1; i < csv.size(); ++i) {
            const QStringList& f = csv[i];
            const QString what = file % u' ' % f[0];
            ASSERT_TRUE(values.count(f[0])) << what.toStdString();
            const Stats s = statsOf(values[f[0]]);
            EXPECT_EQ(f[1].toLongLong(), s.total) << what.toStdString();
            EXPECT_LE(s.total, previous) << what.toStdString();
            previous = s.total;
            EXPECT_EQ(f[2].toLongLong(), s.count) << what.toStdString();
            expectNear1(f[3], s.mean, what % u" avg");
            expectNear1(f[4], s.median, what % u" median");
            EXPECT_EQ(f[5].toLongLong(), s.min) << what.toStdString();
            EXPECT_EQ(f[6].toLongLong(), s.max) << what.toStdString();
            expectNear1(f[7], s.stddev, what % u" stddev");
        }
    }
}

namespace {

struct Launch {
    std::vector<qint64> api, queue, kernel, total;
};

// Checks launch-summary's rows against per-kernel launches: instances, the API and kernel
// averages, and the queue statistics over the non-negative queue times only (null when none).
void expectLaunchSummary(const std::vector<QStringList>& csv, std::map<QString, Launch> launches,
                         const QString& where) {
    ASSERT_FALSE(csv.empty());
    EXPECT_EQ(csv[0].join(u','),
              QStringLiteral("name,instances,api_avg_ns,queue_avg_ns,queue_median_ns,queue_max_"
                             "ns,kernel_avg_ns"));
    ASSERT_EQ(csv.size() - 1, launches.size()) << where.toStdString();
    double previous = std::numeric_limits<double>::max();
    for (std::size_t i = 1; i < csv.size(); ++i) {
        const QStringList& f = csv[i];
        const QString what = where % u' ' % f[0];
        ASSERT_TRUE(launches.count(f[0])) << what.toStdString();
        const Launch& l = launches[f[0]];
        EXPECT_EQ(f[1].toLongLong(), qint64(l.kernel.size())) << what.toStdString();
        expectNear1(f[2], statsOf(l.api).mean, what % u" api");
        expectNear1(f[6], statsOf(l.kernel).mean, what % u" kernel");
        const Stats q = statsOf(l.queue);
        if (q.count == 0) {
            EXPECT_EQ(f[3], QString()) << what.toStdString();
            EXPECT_EQ(f[4], QString()) << what.toStdString();
            EXPECT_EQ(f[5], QString()) << what.toStdString();
        } else {
            expectNear1(f[3], q.mean, what % u" queue avg");
            expectNear1(f[4], q.median, what % u" queue median");
            EXPECT_EQ(f[5].toLongLong(), q.max) << what.toStdString();
        }
        // nsys's order: the average total time (call start to the later end), descending.
        const double total = statsOf(l.total).mean;
        EXPECT_LE(total, previous) << what.toStdString();
        previous = total;
    }
}

} // namespace

// cuda_kern_exec_sum: each kernel joined to its launching call by process and correlation id
// (eventClass 0 or 1), per kernel name (demangled). Queue time = kernel start - call end when
// that is 0 or more, else none; graph kernels each count with their cudaGraphLaunch.
TEST(CliStatsReports, LaunchSummaryIsCudaKernExecSumOnEveryFixture) {
    for (const QString& file : allFixtures()) {
        const QString path = fixture(file.toUtf8().constData());
        SqlDb db(path);
        std::map<QString, Launch> launches;
        for (const SqlRow& r : db.query(QStringLiteral(
                 "SELECT s.value, r.[end] - r.start, "
                 "  CASE WHEN k.start - r.[end] >= 0 THEN k.start - r.[end] END, "
                 "  k.[end] - k.start, max(r.[end], k.[end]) - r.start "
                 "FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN CUPTI_ACTIVITY_KIND_RUNTIME r "
                 "  ON r.correlationId = k.correlationId "
                 "  AND (r.globalTid & 0xFFFFFFFFFF000000) = k.globalPid "
                 "  AND r.eventClass IN (0, 1) "
                 "JOIN StringIds s ON s.id = k.demangledName"))) {
            Launch& l = launches[*r[0]];
            l.api.push_back(r[1]->toLongLong());
            if (r[2])
                l.queue.push_back(r[2]->toLongLong());
            l.kernel.push_back(r[3]->toLongLong());
            l.total.push_back(r[4]->toLongLong());
        }
        ASSERT_TRUE(db.error().isEmpty()) << db.error().toStdString();
        ASSERT_FALSE(launches.empty()) << file.toStdString();
        expectLaunchSummary(csvOf(&cli::runLaunchSummary, {path}), launches, file);
    }
}

// nvtx_gpu_proj_sum, names as recorded (--raw): push/pop and start/end ranges with an end that
// start and end on one thread; a GPU operation (kernel, memcpy, memset) is in a range when its
// launching call lies within it on that thread; the projection spans the first operation's
// start to the last one's end; ranges with no operation are left out.
TEST(CliStatsReports, NvtxGpuSummaryIsNvtxGpuProjSumOnEveryFixture) {
    int withRanges = 0;
    for (const QString& file : allFixtures()) {
        const QString path = fixture(file.toUtf8().constData());
        SqlDb db(path);
        struct Row {
            std::vector<qint64> projected;
            qint64 rangeTotal = 0, ops = 0;
        };
        std::map<std::pair<QString, QString>, Row> expected;
        if (db.hasTable("NVTX_EVENTS")) {
            QStringList gpu{QStringLiteral("SELECT correlationId, globalPid, start, [end] FROM "
                                           "CUPTI_ACTIVITY_KIND_KERNEL")};
            for (const char* t : {"CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET"})
                if (db.hasTable(t))
                    gpu << u"SELECT correlationId, globalPid, start, [end] FROM " %
                               QString::fromLatin1(t);
            const QString sql =
                u"WITH ops AS (SELECT r.globalTid AS tid, r.start AS astart, r.[end] AS aend, "
                u"  g.start AS gstart, g.[end] AS gend FROM (" %
                gpu.join(QStringLiteral(" UNION ALL ")) %
                u") g JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = g.correlationId "
                u"  AND (r.globalTid & 0xFFFFFFFFFF000000) = g.globalPid "
                u"  AND r.eventClass IN (0, 1)), "
                u"domains AS (SELECT domainId, text FROM NVTX_EVENTS WHERE eventType = 75), "
                u"ranges AS (SELECT n.rowid AS id, "
                u"  CASE WHEN n.domainId IS NULL OR n.domainId = 0 "
                u"    THEN coalesce(n.text, s.value) "
                u"    ELSE d.text || ':' || coalesce(n.text, s.value) END AS name, "
                u"  CASE n.eventType WHEN 59 THEN 'pushpop' ELSE 'startend' END AS style, "
                u"  n.start AS rs, n.[end] AS re, n.globalTid AS tid FROM NVTX_EVENTS n "
                u"  LEFT JOIN StringIds s ON s.id = n.textId "
                u"  LEFT JOIN domains d ON d.domainId = n.domainId "
                u"  WHERE n.eventType IN (59, 60) AND n.[end] IS NOT NULL "
                u"  AND (n.endGlobalTid IS NULL OR n.endGlobalTid = n.globalTid)) "
                u"SELECT rg.name, rg.style, rg.re - rg.rs, count(*), max(o.gend) - min(o.gstart) "
                u"FROM ranges rg JOIN ops o ON o.tid = rg.tid AND o.astart >= rg.rs "
                u"  AND o.aend <= rg.re GROUP BY rg.id";
            for (const SqlRow& r : db.query(sql)) {
                Row& row = expected[{*r[0], *r[1]}];
                row.rangeTotal += r[2]->toLongLong();
                row.ops += r[3]->toLongLong();
                row.projected.push_back(r[4]->toLongLong());
            }
        }
        ASSERT_TRUE(db.error().isEmpty()) << db.error().toStdString();
        withRanges += expected.empty() ? 0 : 1;
        const auto csv =
            csvOf(&cli::runNvtxSummary, {path, QStringLiteral("--gpu"), QStringLiteral("--raw")});
        ASSERT_FALSE(csv.empty());
        EXPECT_EQ(csv[0].join(u','),
                  QStringLiteral("range,style,total_proj_time_ns,total_range_time_ns,range_"
                                 "instances,proj_avg_ns,proj_med_ns,proj_min_ns,proj_max_ns,proj_"
                                 "stddev_ns,total_gpu_ops,avg_gpu_ops"));
        ASSERT_EQ(csv.size() - 1, expected.size()) << file.toStdString();
        qint64 previous = std::numeric_limits<qint64>::max();
        for (std::size_t i = 1; i < csv.size(); ++i) {
            const QStringList& f = csv[i];
            const QString what = file % u' ' % f[0];
            const auto it = expected.find({f[0], f[1]});
            ASSERT_NE(it, expected.end()) << what.toStdString();
            const Stats s = statsOf(it->second.projected);
            EXPECT_EQ(f[2].toLongLong(), s.total) << what.toStdString();
            EXPECT_LE(s.total, previous) << what.toStdString();
            previous = s.total;
            EXPECT_EQ(f[3].toLongLong(), it->second.rangeTotal) << what.toStdString();
            EXPECT_EQ(f[4].toLongLong(), s.count) << what.toStdString();
            expectNear1(f[5], s.mean, what % u" avg");
            expectNear1(f[6], s.median, what % u" median");
            EXPECT_EQ(f[7].toLongLong(), s.min) << what.toStdString();
            EXPECT_EQ(f[8].toLongLong(), s.max) << what.toStdString();
            expectNear1(f[9], s.stddev, what % u" stddev");
            EXPECT_EQ(f[10].toLongLong(), it->second.ops) << what.toStdString();
            expectNear1(f[11], double(it->second.ops) / double(s.count), what % u" ops");
        }
    }
    EXPECT_EQ(withRanges, 2); // saxpy (MPI domain) and the H100 trace
}

// The grouped names (the default) merge PyTorch's per-call ids: fewer rows, the same totals.
TEST(CliStatsReports, NvtxGpuSummaryGroupsPerCallIdsByDefault) {
    const QString path = fixture("nsys2026.2-h100-2gpu-nvtx.sqlite");
    const auto raw =
        csvOf(&cli::runNvtxSummary, {path, QStringLiteral("--gpu"), QStringLiteral("--raw")});
    const auto grouped = csvOf(&cli::runNvtxSummary, {path, QStringLiteral("--gpu")});
    ASSERT_GT(raw.size(), 1u);
    EXPECT_LT(grouped.size(), raw.size() / 10);
    auto sum = [](const std::vector<QStringList>& csv, int column) {
        qint64 s = 0;
        for (std::size_t i = 1; i < csv.size(); ++i)
            s += csv[i][column].toLongLong();
        return s;
    };
    for (int column : {2, 3, 4, 10})
        EXPECT_EQ(sum(grouped, column), sum(raw, column)) << column;
    for (std::size_t i = 1; i < grouped.size(); ++i)
        EXPECT_FALSE(grouped[i][0].contains(u", op_id = ")) << grouped[i][0].toStdString();
}

// Kineto: cuda_runtime and cuda_driver events are the API calls; a kernel's launching call is
// the one with its correlation id (args "correlation"; the trace has one process, and kernels
// carry the device as their pid).
TEST(CliStatsReports, KinetoApiAndLaunchSummariesFollowTheJson) {
    const std::string file = kinetoFixturePath("resnet50-kineto-2021.pt.trace.json.gz");
    const ScannedTrace t = scanKineto(file);
    const QString path = QString::fromStdString(file);
    Values api;
    std::map<qint64, const ScannedEvent*> callOf; // by correlation id
    auto isCall = [](const ScannedEvent& e) {
        return e.ph == "X" &&
               (e.cat == "cuda_runtime" || e.cat == "cuda_driver" || e.cat == "Runtime");
    };
    for (const ScannedEvent& e : t.events) {
        if (!isCall(e))
            continue;
        ASSERT_TRUE(e.tsInt && e.durInt) << "an integer-microsecond trace";
        api[QString::fromStdString(e.name)].push_back(*e.durInt * 1000);
        if (e.correlation)
            callOf[*e.correlation] = &e;
    }
    ASSERT_FALSE(api.empty());
    expectDurationSummary(csvOf(&cli::runApiSummary, {path}), api, path);

    std::map<QString, Launch> launches;
    for (const ScannedEvent& e : t.events) {
        if (e.ph != "X" || (e.cat != "kernel" && e.cat != "Kernel") || !e.correlation)
            continue;
        const auto it = callOf.find(*e.correlation);
        if (it == callOf.end())
            continue;
        ASSERT_TRUE(e.tsInt && e.durInt);
        const qint64 as = *it->second->tsInt * 1000, ae = as + *it->second->durInt * 1000;
        const qint64 ks = *e.tsInt * 1000, ke = ks + *e.durInt * 1000;
        Launch& l = launches[QString::fromStdString(e.name)];
        l.api.push_back(ae - as);
        if (ks >= ae)
            l.queue.push_back(ks - ae);
        l.kernel.push_back(ke - ks);
        l.total.push_back(std::max(ae, ke) - as);
    }
    ASSERT_FALSE(launches.empty());
    expectLaunchSummary(csvOf(&cli::runLaunchSummary, {path}), launches, path);
}

// Each command reads only its parts, and prints what a full load prints.
TEST(CliStatsReports, PartialLoadsPrintWhatFullLoadsPrint) {
    const QString path = fixture("nsys2024.5-cloverleaf.sqlite");
    using Command = int (*)(const QStringList&, cli::Io);
    const std::vector<std::pair<Command, QStringList>> commands{
        {&cli::runApiSummary, {path}},
        {&cli::runOsrtSummary, {path}},
        {&cli::runMemorySizeSummary, {path}},
        {&cli::runLaunchSummary, {path}},
        {&cli::runNvtxSummary,
         {fixture("nsys2022.2-saxpy-mpi-nvtx.sqlite"), QStringLiteral("--gpu")}},
    };
    for (const auto& [command, args] : commands) {
        const CliResult partial = runCli(command, args);
        CliResult full;
        QTextStream out(&full.out), err(&full.err);
        full.status = command(args, cli::Io{out, err, kAllTraceParts});
        out.flush();
        ASSERT_EQ(partial.status, 0) << partial.err.toStdString();
        EXPECT_EQ(full.status, 0);
        EXPECT_EQ(partial.out, full.out) << args.join(u' ').toStdString();
        EXPECT_GT(partial.out.count(u'\n'), 1) << args.join(u' ').toStdString();
    }
}

TEST(CliStatsReports, BadFlagsAreUsageErrors) {
    const QString path = fixture("nsys2022.2-saxpy-mpi-nvtx.sqlite");
    for (auto command : {&cli::runApiSummary, &cli::runOsrtSummary, &cli::runMemorySizeSummary,
                         &cli::runLaunchSummary}) {
        const CliResult bad = runCli(command, {path, QStringLiteral("--nope")});
        EXPECT_EQ(bad.status, 2);
        EXPECT_TRUE(bad.out.isEmpty());
        EXPECT_TRUE(bad.err.contains(u"--nope")) << bad.err.toStdString();
        EXPECT_EQ(runCli(command, {path, QStringLiteral("--format"), QStringLiteral("xml")}).status,
                  2);
        EXPECT_EQ(runCli(command, {}).status, 2);
        EXPECT_EQ(runCli(command, {QStringLiteral("/no/such/file.sqlite")}).status, 1);
    }
    EXPECT_EQ(
        runCli(&cli::runNvtxSummary, {path, QStringLiteral("--gpu"), QStringLiteral("--base")})
            .status,
        2);
}

// JSON: one object per row with the CSV's columns as keys; a queue time nobody had is null.
TEST(CliStatsReports, JsonHasTheCsvColumnsAndNullForNoQueueTime) {
    const QString path = fixture("nsys2025.5-cuda-graphs.sqlite");
    const CliResult csv = runCli(&cli::runLaunchSummary, {path});
    const CliResult json =
        runCli(&cli::runLaunchSummary, {path, QStringLiteral("--format"), QStringLiteral("json")});
    ASSERT_EQ(json.status, 0);
    const QJsonArray rows = QJsonDocument::fromJson(json.out.toUtf8()).array();
    const auto parsed = parseCsv(csv.out);
    ASSERT_EQ(qsizetype(parsed.size() - 1), rows.size());
    for (qsizetype i = 0; i < rows.size(); ++i) {
        const QJsonObject o = rows[i].toObject();
        EXPECT_EQ(o.keys().size(), parsed[0].size());
        EXPECT_EQ(o[QStringLiteral("name")].toString(), parsed[std::size_t(i) + 1][0]);
        EXPECT_EQ(o[QStringLiteral("queue_avg_ns")].isNull(),
                  parsed[std::size_t(i) + 1][3].isEmpty());
    }
}
