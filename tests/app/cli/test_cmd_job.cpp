// SPDX-License-Identifier: MIT
// strobe-cli job on the hta-sampled pair against an independent scan of the JSON, the same
// tables from gathered rank summaries, and synthetic jobs (strobe-cli synth --ranks) whose
// straggler, delay and clock skew are known.
#include "tests/app/cli/clitesthelpers.h"
#include "tests/fixtures/hostilefixtures.h"
#include "tests/support/kinetoscan.h"

#include <QCryptographicHash>
#include <QDir>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <algorithm>
#include <map>

using namespace strobe;
using strobe::test::CliResult;
using strobe::test::runCli;

namespace {

const QString kRanksHeader = QStringLiteral(
    "rank,file,gpu,offset_ns,compute_ns,communication_ns,exposed_communication_ns,memory_ns,"
    "idle_ns,span_ns,overlap_percent,collective_wait_ns");
const QString kStepsHeader =
    QStringLiteral("rank,step,start_ns,end_ns,compute_ns,communication_ns,exposed_communication_"
                   "ns,memory_ns,idle_ns,collective_wait_ns");
const QString kCollectivesHeader =
    QStringLiteral("index,kind,rank,start_ns,end_ns,wait_ns,transfer_ns,last_arriver");
const QString kStragglersHeader = QStringLiteral("rank,late_steps,steps,wait_caused_ns");

QStringList pair() {
    return {QString::fromStdString(test::kinetoFixturePath("hta-sampled-rank0.json.gz")),
            QString::fromStdString(test::kinetoFixturePath("hta-sampled-rank1.json.gz"))};
}

std::vector<QStringList> job(const QStringList& inputs, const QString& what, const QString& header,
                             const QStringList& more = {}) {
    return test::csvRows(&cli::runJob, inputs + QStringList{QStringLiteral("--what"), what} + more,
                         header);
}

using Intervals = std::vector<std::pair<std::int64_t, std::int64_t>>;
std::int64_t unionLength(Intervals v) {
    std::sort(v.begin(), v.end());
    std::int64_t n = 0, end = std::numeric_limits<std::int64_t>::min();
    for (const auto& [s, e] : v) {
        n += std::max<std::int64_t>(0, e - std::max(s, end));
        end = std::max(end, e);
    }
    return n;
}

struct Call {
    std::int64_t start = 0, end = 0;
};

// Each rank's NCCL kernels per (stream in order of first use, kind), by start.
std::map<std::pair<int, std::string>, std::vector<Call>> ncclCalls(const test::ScannedTrace& t) {
    std::vector<const test::ScannedEvent*> nccl;
    for (const auto& e : t.events) {
        if (e.ph == "X" && e.cat == "kernel" && e.name.rfind("ncclKernel_", 0) == 0)
            nccl.push_back(&e);
    }
    std::stable_sort(nccl.begin(), nccl.end(),
                     [](auto* a, auto* b) { return *a->tsInt < *b->tsInt; });
    std::map<std::int64_t, int> ordinal;
    std::map<std::pair<int, std::string>, std::vector<Call>> out;
    for (const auto* e : nccl) {
        const int o = ordinal.try_emplace(*e->stream, int(ordinal.size())).first->second;
        const std::string kind = e->name.substr(11, e->name.find('_', 11) - 11);
        out[{o, kind}].push_back({*e->tsInt * 1000, (*e->tsInt + *e->durInt) * 1000});
    }
    return out;
}

} // namespace

TEST(CmdJob, RanksOfTheSampledPairAreTheirJsonsUnions) {
    const auto rows = job(pair(), QStringLiteral("ranks"), kRanksHeader);
    ASSERT_EQ(rows.size(), 2u);
    for (int r = 0; r < 2; ++r) {
        const test::ScannedTrace scan = test::scanKineto(pair()[r].toStdString());
        Intervals compute, comm, all;
        for (const auto& e : scan.events) {
            if (e.ph != "X" ||
                (e.cat != "kernel" && e.cat != "gpu_memcpy" && e.cat != "gpu_memset"))
                continue;
            const std::pair<std::int64_t, std::int64_t> iv{*e.tsInt * 1000,
                                                           (*e.tsInt + *e.durInt) * 1000};
            all.push_back(iv);
            if (e.cat == "kernel")
                (e.name.rfind("nccl", 0) == 0 ? comm : compute).push_back(iv);
        }
        Intervals both = compute;
        both.insert(both.end(), comm.begin(), comm.end());
        const std::int64_t overlap = unionLength(compute) + unionLength(comm) - unionLength(both);
        std::int64_t first = all.front().first, last = all.front().second;
        for (const auto& [s, e] : all) {
            first = std::min(first, s);
            last = std::max(last, e);
        }
        const QStringList& row = rows[std::size_t(r)];
        EXPECT_EQ(row[0], QString::number(r));
        EXPECT_EQ(row[1], pair()[r]);
        EXPECT_EQ(row[2], QStringLiteral("GPU %1").arg(r));
        EXPECT_EQ(row[3], QStringLiteral("0"));
        EXPECT_EQ(row[4].toLongLong(), unionLength(compute));
        EXPECT_EQ(row[5].toLongLong(), unionLength(comm));
        EXPECT_EQ(row[6].toLongLong(), unionLength(comm) - overlap);
        EXPECT_EQ(row[8].toLongLong(), (last - first) - unionLength(all));
        EXPECT_EQ(row[9].toLongLong(), last - first);
        EXPECT_EQ(row[10],
                  QString::number(100.0 * double(overlap) / double(unionLength(comm)), 'f', 2));
    }
}

TEST(CmdJob, JsonGivesHtasWindowBesideEachRank) {
    const CliResult r = runCli(
        &cli::runJob, pair() + QStringList{QStringLiteral("--format"), QStringLiteral("json")});
    ASSERT_EQ(r.status, 0);
    const QJsonArray rows = QJsonDocument::fromJson(r.out.toUtf8()).array();
    ASSERT_EQ(rows.size(), 2);
    // HTA's numbers for the pair (test_ranksummary follows HTA's code on the JSON for them).
    EXPECT_EQ(rows[0][QStringLiteral("hta_compute_ns")].toInteger(), 106'252'000);
    EXPECT_EQ(rows[1][QStringLiteral("hta_communication_ns")].toInteger(), 168'027'000);
    EXPECT_EQ(rows[1][QStringLiteral("hta_overlap_percent")].toDouble(), 20.05);
    EXPECT_EQ(rows[0][QStringLiteral("compute_ns")].toInteger(), 210'320'000);
}

TEST(CmdJob, CollectivesOfTheSampledPairMatchByStreamKindAndOrder) {
    const test::ScannedTrace scans[2] = {test::scanKineto(pair()[0].toStdString()),
                                         test::scanKineto(pair()[1].toStdString())};
    const auto calls0 = ncclCalls(scans[0]), calls1 = ncclCalls(scans[1]);
    // Expected rows (without the index), the k-th call of a key on rank 0 with rank 1's.
    std::vector<std::pair<std::int64_t, QStringList>> expected; // rank 0's start, rows
    std::map<int, std::int64_t> waitOf;
    for (const auto& [key, list0] : calls0) {
        const auto& list1 = calls1.at(key);
        ASSERT_EQ(list0.size(), list1.size());
        for (std::size_t k = 0; k < list0.size(); ++k) {
            const Call c[2] = {list0[k], list1[k]};
            const int last = c[1].start > c[0].start ? 1 : 0;
            const std::int64_t transfer = std::min(c[0].end - c[0].start, c[1].end - c[1].start);
            QStringList rows;
            for (int r = 0; r < 2; ++r) {
                const std::int64_t wait = c[last].start - c[r].start;
                waitOf[r] += wait;
                rows << QStringList{QString::fromStdString(key.second),
                                    QString::number(r),
                                    QString::number(c[r].start),
                                    QString::number(c[r].end),
                                    QString::number(wait),
                                    QString::number(transfer),
                                    QString::number(last)}
                            .join(u',');
            }
            expected.push_back({c[0].start, rows});
        }
    }
    std::stable_sort(expected.begin(), expected.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    const auto rows = job(pair(), QStringLiteral("collectives"), kCollectivesHeader);
    ASSERT_EQ(rows.size(), 2 * expected.size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
        EXPECT_EQ(rows[i][0], QString::number(i / 2));
        EXPECT_EQ(rows[i].mid(1).join(u','), expected[i / 2].second[int(i % 2)]) << i;
    }
    const auto ranks = job(pair(), QStringLiteral("ranks"), kRanksHeader);
    EXPECT_EQ(ranks[0][11].toLongLong(), waitOf[0]);
    EXPECT_EQ(ranks[1][11].toLongLong(), waitOf[1]);
}

TEST(CmdJob, GatheredSummariesGiveTheTracesTables) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    QStringList summaries;
    for (int r = 0; r < 2; ++r) {
        summaries << dir.filePath(QStringLiteral("rank-%1.summary.json").arg(r));
        const CliResult s = runCli(&cli::runJob, {QStringLiteral("summarize"), pair()[r],
                                                  QStringLiteral("-o"), summaries.back()});
        ASSERT_EQ(s.status, 0) << s.err.toStdString();
        EXPECT_TRUE(s.out.isEmpty());
    }
    for (const QString& what : {QStringLiteral("ranks"), QStringLiteral("steps"),
                                QStringLiteral("collectives"), QStringLiteral("stragglers")}) {
        for (const QString& align :
             {QStringLiteral("wall"), QStringLiteral("step:552"), QStringLiteral("collective")}) {
            const QStringList more{QStringLiteral("--align"), align, QStringLiteral("--what"),
                                   what};
            const CliResult traces = runCli(&cli::runJob, pair() + more);
            const CliResult gathered = runCli(&cli::runJob, QStringList{dir.path()} + more);
            EXPECT_EQ(traces.status, 0);
            EXPECT_EQ(gathered.out, traces.out) << what.toStdString() << ' ' << align.toStdString();
            EXPECT_EQ(gathered.err, traces.err);
        }
    }
    const auto steps = job({dir.path()}, QStringLiteral("steps"), kStepsHeader,
                           {QStringLiteral("--format"), QStringLiteral("csv")});
    ASSERT_EQ(steps.size(), 4u);
    EXPECT_EQ(steps[0].mid(0, 4).join(u','),
              QStringLiteral("0,551,1682725898079292000,1682725898686604000"));
}

TEST(CmdJob, AReportOfTwoProcessesSummarisesIntoOneFilePerRank) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString report = test::fixture("nsys2026.2-h100-2gpu-nvtx.sqlite");
    const CliResult s =
        runCli(&cli::runJob, {QStringLiteral("summarize"), report, QStringLiteral("-o"),
                              dir.filePath(QStringLiteral("h100.summary.json"))});
    ASSERT_EQ(s.status, 0) << s.err.toStdString();
    EXPECT_EQ(QDir(dir.path()).entryList(QDir::Files),
              (QStringList{QStringLiteral("h100.rank-0.summary.json"),
                           QStringLiteral("h100.rank-1.summary.json")}));
    const auto fromSummaries = job({dir.path()}, QStringLiteral("ranks"), kRanksHeader);
    const auto fromReport = job({report}, QStringLiteral("ranks"), kRanksHeader);
    ASSERT_EQ(fromSummaries.size(), 2u);
    EXPECT_EQ(fromSummaries, fromReport);
    EXPECT_TRUE(fromReport[1][2].startsWith(QStringLiteral("GPU 1")))
        << fromReport[1][2].toStdString();
}

TEST(CmdJob, StragglersOfTheSampledPairAndTheVerdict) {
    const CliResult r = runCli(
        &cli::runJob, pair() + QStringList{QStringLiteral("--what"), QStringLiteral("stragglers")});
    ASSERT_EQ(r.status, 0);
    EXPECT_TRUE(r.out.startsWith(kStragglersHeader + QStringLiteral("\r\n")))
        << r.out.toStdString();
    EXPECT_TRUE(r.err.contains(QStringLiteral("126 of 128 ranks are missing")));
    EXPECT_TRUE(r.err.endsWith(QStringLiteral("strobe-cli job: no rank is consistently late.\n")))
        << r.err.toStdString();
}

TEST(CmdJob, ASyntheticJobNamesItsStragglerAndItsClockSkew) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const CliResult synth =
        runCli(&cli::runSynth,
               {QStringLiteral("-o"), dir.path(), QStringLiteral("--ranks"), QStringLiteral("8"),
                QStringLiteral("--straggler"), QStringLiteral("5"), QStringLiteral("--delay"),
                QStringLiteral("7"), QStringLiteral("--clock-skew"), QStringLiteral("2"),
                QStringLiteral("--events"), QStringLiteral("5k")});
    ASSERT_EQ(synth.status, 0) << synth.err.toStdString();
    const QStringList aligned{QStringLiteral("--align"), QStringLiteral("collective")};
    const auto calls =
        job({dir.path()}, QStringLiteral("collectives"), kCollectivesHeader, aligned);
    ASSERT_FALSE(calls.empty());
    for (const QStringList& row : calls) {
        EXPECT_EQ(row[7], QStringLiteral("5"));
        EXPECT_EQ(row[5],
                  row[2] == QLatin1String("5") ? QStringLiteral("0") : QStringLiteral("7000000"));
    }
    const auto ranks = job({dir.path()}, QStringLiteral("ranks"), kRanksHeader,
                           {QStringLiteral("--align"), QStringLiteral("step:6")});
    ASSERT_EQ(ranks.size(), 8u);
    for (int r = 0; r < 8; ++r)
        EXPECT_EQ(ranks[std::size_t(r)][3], QString::number(-2'000'000LL * r));
    const CliResult s =
        runCli(&cli::runJob, {dir.path(), QStringLiteral("--what"), QStringLiteral("stragglers")});
    EXPECT_TRUE(s.out.startsWith(kStragglersHeader + QStringLiteral("\r\n5,")))
        << s.out.toStdString();
    EXPECT_TRUE(s.err.contains(QStringLiteral("rank 5 starts its collectives last in")))
        << s.err.toStdString();

    QTemporaryDir fair;
    ASSERT_EQ(runCli(&cli::runSynth,
                     {QStringLiteral("-o"), fair.path(), QStringLiteral("--ranks"),
                      QStringLiteral("2"), QStringLiteral("--events"), QStringLiteral("5k")})
                  .status,
              0);
    const CliResult none =
        runCli(&cli::runJob, {fair.path(), QStringLiteral("--what"), QStringLiteral("stragglers")});
    EXPECT_EQ(none.err, QStringLiteral("strobe-cli job: no rank is consistently late.\n"));
}

TEST(CmdJob, BadInputIsOneSentenceEach) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    // A damaged trace beside a good one: named, the other opens.
    const QString broken = dir.filePath(QStringLiteral("rank-1.json"));
    QFile f(broken);
    ASSERT_TRUE(f.open(QIODevice::WriteOnly));
    f.write("{\"traceEvents\": [");
    f.close();
    const CliResult r = runCli(&cli::runJob, {pair()[0], broken});
    EXPECT_EQ(r.status, 0);
    EXPECT_EQ(test::parseCsv(r.out).size(), 2u);
    EXPECT_TRUE(r.err.startsWith(QStringLiteral("strobe-cli job: warning: 'rank-1.json' is not "
                                                "valid JSON: it is truncated")))
        << r.err.toStdString();
    // Alone, rank 0's collectives have no partner: counted and listed.
    EXPECT_TRUE(r.err.contains(QStringLiteral(
        "10 collectives have no partner on some rank and are left unmatched: rank 0 SendRecv #0 "
        "on stream 0, ")))
        << r.err.toStdString();
    // The same rank twice.
    const CliResult twice = runCli(&cli::runJob, {pair()[0], pair()[0]});
    EXPECT_TRUE(twice.err.contains(
        QStringLiteral("hta-sampled-rank0.json.gz and hta-sampled-rank0.json.gz both claim rank 0; "
                       "hta-sampled-rank0.json.gz is left out.")))
        << twice.err.toStdString();
    // Nothing readable, an empty folder, usage errors.
    EXPECT_EQ(runCli(&cli::runJob, {broken}).status, 1);
    QTemporaryDir empty;
    const CliResult none = runCli(&cli::runJob, {empty.path()});
    EXPECT_EQ(none.status, 1);
    EXPECT_EQ(none.err, QStringLiteral("strobe-cli job: ") + empty.path() +
                            QStringLiteral(" holds no trace or rank summary.\n"));
    EXPECT_EQ(runCli(&cli::runJob,
                     pair() + QStringList{QStringLiteral("--align"), QStringLiteral("step:x")})
                  .status,
              2);
    EXPECT_EQ(
        runCli(&cli::runJob, pair() + QStringList{QStringLiteral("--what"), QStringLiteral("gpus")})
            .status,
        2);
    EXPECT_EQ(runCli(&cli::runJob, {QStringLiteral("summarize"), pair()[0]}).status, 2);
}

TEST(CmdJob, AFolderOfHostileFilesNamesEachThatFailsAndOpensTheRest) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    std::size_t loading = 0;
    for (const fixtures::HostileCase& c : fixtures::hostileCases()) {
        ASSERT_TRUE(fixtures::writeHostileCase(
            c.name, dir.filePath(QString::fromStdString(c.name) + QStringLiteral(".sqlite"))
                        .toStdString()));
        loading += c.loads ? 1 : 0;
    }
    const auto snapshot = [&] {
        QStringList out;
        for (const QFileInfo& f : QDir(dir.path()).entryInfoList(QDir::Files | QDir::Hidden)) {
            QFile file(f.filePath());
            EXPECT_TRUE(file.open(QIODevice::ReadOnly));
            out << f.fileName() + u' ' +
                       QString::fromLatin1(
                           QCryptographicHash::hash(file.readAll(), QCryptographicHash::Sha256)
                               .toHex());
        }
        return out;
    };
    const QStringList before = snapshot();
    QElapsedTimer timer;
    timer.start();
    const CliResult r = runCli(&cli::runJob, {dir.path()});
    EXPECT_LT(timer.elapsed(),
              fixtures::kHostileTimeLimitMs * qint64(fixtures::hostileCases().size()));
    EXPECT_EQ(r.status, loading > 0 ? 0 : 1) << r.err.toStdString();
    EXPECT_EQ(test::parseCsv(r.out).size(), loading + 1) << r.out.toStdString();
    for (const fixtures::HostileCase& c : fixtures::hostileCases()) {
        const QString named = u'\'' + QString::fromStdString(c.name) + QStringLiteral(".sqlite'");
        EXPECT_EQ(r.err.count(named) > 0, !c.loads) << c.name << '\n' << r.err.toStdString();
    }
    for (const QString& s : {r.out, r.err}) {
        EXPECT_FALSE(std::any_of(s.begin(), s.end(), [](QChar c) {
            return (c.unicode() < 0x20 && c != u'\n' && c != u'\r') ||
                   (c.unicode() >= 0x7F && c.unicode() <= 0x9F);
        }));
    }
    EXPECT_EQ(snapshot(), before);
}
