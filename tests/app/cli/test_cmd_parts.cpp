// SPDX-License-Identifier: MIT
// Each command reads only the parts of a trace it needs (docs/CLI.md), and prints exactly what
// it prints after a full load; info says which counts it did not read.
#include "formats/nsys/synth/synthtrace.h"
#include "tests/app/cli/clitesthelpers.h"
#include "tests/support/sqlitequery.h"

#include <gtest/gtest.h>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

using namespace strobe;
using strobe::test::CliResult;

namespace {

using Command = int (*)(const QStringList&, cli::Io);

struct Case {
    const char* name;
    Command command;
    QStringList options; // after FILE
};

const std::vector<Case>& cases() {
    static const std::vector<Case> all = {
        {"kernel-summary", &cli::runKernelSummary, {}},
        {"kernel-summary --base", &cli::runKernelSummary, {QStringLiteral("--base")}},
        {"kernel-summary json",
         &cli::runKernelSummary,
         {QStringLiteral("--format"), QStringLiteral("json")}},
        {"kernels", &cli::runKernels, {}},
        {"nvtx-summary", &cli::runNvtxSummary, {}},
        {"nvtx-summary --raw", &cli::runNvtxSummary, {QStringLiteral("--raw")}},
        {"memory-summary", &cli::runMemorySummary, {}},
        {"gaps", &cli::runGaps, {}},
        {"gaps json", &cli::runGaps, {QStringLiteral("--format"), QStringLiteral("json")}},
        {"gaps text", &cli::runGaps, {QStringLiteral("--format"), QStringLiteral("text")}},
        {"breakdown", &cli::runBreakdown, {}},
        {"breakdown json",
         &cli::runBreakdown,
         {QStringLiteral("--format"), QStringLiteral("json")}},
        {"ops", &cli::runOps, {}},
        {"ops shapes", &cli::runOps, {QStringLiteral("--group-by"), QStringLiteral("shapes")}},
        {"steps json", &cli::runSteps, {QStringLiteral("--format"), QStringLiteral("json")}},
        {"analyze text", &cli::runAnalyze, {QStringLiteral("--format"), QStringLiteral("text")}},
        {"job", &cli::runJob, {}},
        {"job steps", &cli::runJob, {QStringLiteral("--what"), QStringLiteral("steps")}},
    };
    return all;
}

class EveryFixture : public ::testing::TestWithParam<QString> {};

// A synthetic trace (every table the generator writes) in `dir`.
QString writeSynth(const QTemporaryDir& dir, const char* name) {
    const QString path = dir.filePath(QString::fromLatin1(name));
    synth::SynthOptions o;
    o.events = 20'000;
    std::string error;
    EXPECT_TRUE(synth::writeSynthTrace(path.toStdString(), o, &error)) << error;
    return path;
}

} // namespace

TEST_P(EveryFixture, EachCommandPrintsWhatAFullLoadPrints) {
    const QString path = test::fixture(GetParam().toUtf8().constData());
    for (const Case& c : cases()) {
        const QStringList args = QStringList{path} + c.options;
        const CliResult own = test::runCli(c.command, args);
        const CliResult full = test::runCli(c.command, args, kAllTraceParts);
        EXPECT_EQ(own.status, 0) << c.name << ": " << own.err.toStdString();
        EXPECT_EQ(own.status, full.status) << c.name;
        EXPECT_FALSE(own.out.isEmpty()) << c.name;
        EXPECT_EQ(own.out, full.out) << c.name;
        EXPECT_EQ(own.err, full.err) << c.name;
    }
}

TEST_P(EveryFixture, KernelSummaryCountsEveryKernelRow) {
    const QString path = test::fixture(GetParam().toUtf8().constData());
    test::SqlDb db(path);
    const bool hasKernels = db.hasTable("CUPTI_ACTIVITY_KIND_KERNEL");
    const CliResult r = test::runCli(&cli::runKernelSummary, {path});
    ASSERT_EQ(r.status, 0) << r.err.toStdString();
    const auto rows = test::parseCsv(r.out);
    ASSERT_FALSE(rows.empty());
    const qsizetype instances = rows.front().indexOf(QStringLiteral("instances"));
    ASSERT_GE(instances, 0);
    std::int64_t sum = 0;
    for (std::size_t i = 1; i < rows.size(); ++i)
        sum += rows[i].at(instances).toLongLong();
    const std::int64_t expected =
        hasKernels ? db.query(QStringLiteral("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"))
                         .at(0)
                         .at(0)
                         ->toLongLong()
                   : 0;
    EXPECT_EQ(sum, expected);
}

INSTANTIATE_TEST_SUITE_P(Fixtures, EveryFixture, ::testing::ValuesIn(test::allFixtures()),
                         [](const auto& info) {
                             QString n = info.param;
                             for (QChar& c : n) {
                                 if (!c.isLetterOrNumber())
                                     c = u'_';
                             }
                             return n.toStdString();
                         });

// A command succeeds on a file whose other tables are damaged (any read of them fails), with the
// output it gives on the intact file: it never queried them. info, which reads all, fails.
TEST(CommandParts, CommandsNeverQueryTablesTheyDoNotNeed) {
    const std::string runtime = "CUPTI_ACTIVITY_KIND_RUNTIME",
                      memcpy = "CUPTI_ACTIVITY_KIND_MEMCPY", memset = "CUPTI_ACTIVITY_KIND_MEMSET",
                      kernel = "CUPTI_ACTIVITY_KIND_KERNEL",
                      sync = "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", nvtx = "NVTX_EVENTS",
                      osrt = "OSRT_API";
    struct Damaged {
        const char* name;
        Command command;
        QStringList options;
        std::vector<std::string> tables; // those the command does not need
    };
    const std::vector<Damaged> all = {
        {"kernel-summary", &cli::runKernelSummary, {}, {runtime, memcpy, memset, sync, nvtx, osrt}},
        {"kernels", &cli::runKernels, {}, {memcpy, memset, sync, nvtx, osrt}},
        {"nvtx-summary", &cli::runNvtxSummary, {}, {kernel, runtime, memcpy, memset, sync, osrt}},
        {"memory-summary", &cli::runMemorySummary, {}, {kernel, runtime, sync, nvtx, osrt}},
        {"breakdown", &cli::runBreakdown, {}, {runtime, sync, nvtx, osrt}},
        {"breakdown --range",
         &cli::runBreakdown,
         {QStringLiteral("--range"), QStringLiteral("forward")},
         {runtime, sync, osrt}},
    };
    QTemporaryDir dir;
    const QString intact = writeSynth(dir, "intact.sqlite");
    for (const Damaged& d : all) {
        const QString damaged = writeSynth(dir, "damaged.sqlite");
        for (const std::string& t : d.tables)
            test::damageTable(damaged.toStdString(), t);
        const CliResult good = test::runCli(d.command, QStringList{intact} + d.options);
        const CliResult r = test::runCli(d.command, QStringList{damaged} + d.options);
        ASSERT_EQ(good.status, 0) << d.name << ": " << good.err.toStdString();
        EXPECT_EQ(r.status, 0) << d.name << ": " << r.err.toStdString();
        EXPECT_FALSE(r.out.isEmpty()) << d.name;
        EXPECT_EQ(r.out, good.out) << d.name;
        const CliResult info = test::runCli(&cli::runInfo, {damaged});
        EXPECT_EQ(info.status, 1) << d.name;
        EXPECT_TRUE(info.err.contains(QLatin1String("damaged"))) << info.err.toStdString();
        QFile::remove(damaged);
    }
}

// info on a trace read in part: the counts of the parts not read are "not read" and null, never
// 0, and the per-GPU work is not computed.
TEST(CommandParts, InfoSaysWhatItDidNotRead) {
    const QString path = test::fixture("nsys2024.5-cloverleaf.sqlite");
    test::SqlDb db(path);
    const QString kernels =
        *db.query(QStringLiteral("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL")).at(0).at(0);
    ASSERT_GT(kernels.toLongLong(), 0);
    const CliResult text = test::runCli(&cli::runInfo, {path}, TracePart::Kernels);
    ASSERT_EQ(text.status, 0) << text.err.toStdString();
    EXPECT_TRUE(
        text.out.contains(QStringLiteral("Events:      ") % kernels %
                          QStringLiteral(" kernels, memcpys not read, memsets not read, "
                                         "CUDA API calls not read, NVTX ranges not read, "
                                         "NVTX marks not read, OS runtime calls not read\n")))
        << text.out.toStdString();
    EXPECT_TRUE(text.out.contains(
        QLatin1String("  work and idle time not computed: only part of the trace was read\n")));

    const CliResult json =
        test::runCli(&cli::runInfo, {path, QStringLiteral("--json")}, TracePart::Kernels);
    ASSERT_EQ(json.status, 0) << json.err.toStdString();
    const QJsonObject o = QJsonDocument::fromJson(json.out.toUtf8()).object();
    const QJsonObject c = o[QStringLiteral("counts")].toObject();
    EXPECT_EQ(c[QStringLiteral("kernels")].toInteger(), kernels.toLongLong());
    for (const char* key : {"memcpys", "memsets", "cuda_api_calls", "nvtx_ranges", "nvtx_marks",
                            "osrt_calls", "cpu_ops"})
        EXPECT_TRUE(c[QLatin1String(key)].isNull()) << key;
    const auto gpus = o[QStringLiteral("gpus")].toArray();
    ASSERT_FALSE(gpus.isEmpty());
    for (const auto& g : gpus) {
        EXPECT_TRUE(g.toObject()[QStringLiteral("work_recorded")].isNull());
        EXPECT_TRUE(g.toObject()[QStringLiteral("kernel_ns")].isNull());
    }

    // A full load prints every count, 0 included.
    const CliResult whole = test::runCli(&cli::runInfo, {path, QStringLiteral("--json")});
    const QJsonObject w = QJsonDocument::fromJson(whole.out.toUtf8()).object();
    EXPECT_EQ(w[QStringLiteral("counts")].toObject()[QStringLiteral("memsets")].toInteger(-1), 0);
    EXPECT_TRUE(w[QStringLiteral("gpus")]
                    .toArray()
                    .at(0)
                    .toObject()[QStringLiteral("work_recorded")]
                    .isBool());
}
