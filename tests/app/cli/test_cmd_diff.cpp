// SPDX-License-Identifier: MIT
// strobe-cli diff against independent SQL, the known synthetic pair and the sample before/after;
// strobe-cli synth --sample.
#include "tests/app/cli/clitesthelpers.h"
#include "tests/fixtures/comparisonfixtures.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <gtest/gtest.h>

using namespace strobe;
using namespace strobe::test;

namespace {

const QStringList kKernelHeader{QStringLiteral("name"),        QStringLiteral("count_a"),
                                QStringLiteral("count_b"),     QStringLiteral("total_ns_a"),
                                QStringLiteral("total_ns_b"),  QStringLiteral("delta_ns"),
                                QStringLiteral("median_ns_a"), QStringLiteral("median_ns_b")};

class DiffCommand : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        dir = new QTemporaryDir;
        std::string error;
        ASSERT_TRUE(
            fixtures::writeComparisonSide(pairA().toStdString(), fixtures::PairSide::A, &error));
        ASSERT_TRUE(
            fixtures::writeComparisonSide(pairB().toStdString(), fixtures::PairSide::B, &error));
    }
    static void TearDownTestSuite() { delete dir; }
    static QString pairA() { return dir->filePath(QStringLiteral("a.sqlite")); }
    static QString pairB() { return dir->filePath(QStringLiteral("b.sqlite")); }
    static inline QTemporaryDir* dir = nullptr;
};

TEST_F(DiffCommand, KernelsEqualSqlOnTheVectorAddPair) {
    const QString a = fixture("nsys2022.2-vectoradd-a.sqlite");
    const QString b = fixture("nsys2022.2-vectoradd-b.sqlite");
    const CliResult r = runCli(cli::runDiff, {a, b});
    ASSERT_EQ(r.status, 0) << r.err.toStdString();
    const auto rows = parseCsv(r.out);
    ASSERT_GE(rows.size(), 2u);
    EXPECT_EQ(rows[0], kKernelHeader);
    const QString sql = QStringLiteral("SELECT s.value, count(*), sum(k.end - k.start) FROM "
                                       "CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = "
                                       "k.demangledName GROUP BY s.value");
    const auto sa = SqlDb(a).query(sql), sb = SqlDb(b).query(sql);
    ASSERT_EQ(sa.size(), 1u); // one kernel on each side, of the same name
    ASSERT_EQ(sb.size(), 1u);
    ASSERT_EQ(rows.size(), 2u);
    const qint64 ta = sa[0][2]->toLongLong(), tb = sb[0][2]->toLongLong();
    EXPECT_EQ(rows[1], (QStringList{*sa[0][0], *sa[0][1], *sb[0][1], *sa[0][2], *sb[0][2],
                                    QString::number(tb - ta), *sa[0][2] + QStringLiteral(".0"),
                                    *sb[0][2] + QStringLiteral(".0")}));
}

TEST_F(DiffCommand, SelfDiffIsAllZeroInEveryTable) {
    const QString f = fixture("nsys2026.2-h100-2gpu-nvtx.sqlite");
    for (const char* what : {"kernels", "nvtx", "gpus"}) {
        const CliResult r =
            runCli(cli::runDiff, {f, f, QStringLiteral("--what"), QString::fromLatin1(what)});
        ASSERT_EQ(r.status, 0) << r.err.toStdString();
        const auto rows = parseCsv(r.out);
        ASSERT_GT(rows.size(), 1u) << what;
        const QStringList& h = rows[0];
        for (std::size_t i = 1; i < rows.size(); ++i) {
            for (qsizetype c = 1; c < h.size(); ++c) {
                if (h[c] == QLatin1String("delta_ns")) {
                    EXPECT_EQ(rows[i][c], QStringLiteral("0")) << what;
                }
                if (h[c].endsWith(QLatin1String("_a"))) { // each A column equals its B column
                    EXPECT_EQ(rows[i][c], rows[i][c + 1]) << what << " " << h[c].toStdString();
                }
            }
        }
    }
    const CliResult gpus = runCli(cli::runDiff, {f, f, QStringLiteral("--what=gpus")});
    EXPECT_EQ(parseCsv(gpus.out)[0],
              (QStringList{QStringLiteral("device_id"), QStringLiteral("kernel_ns_a"),
                           QStringLiteral("kernel_ns_b"), QStringLiteral("copy_ns_a"),
                           QStringLiteral("copy_ns_b"), QStringLiteral("idle_ns_a"),
                           QStringLiteral("idle_ns_b"), QStringLiteral("gaps_a"),
                           QStringLiteral("gaps_b"), QStringLiteral("device_id_b")}));
    EXPECT_EQ(parseCsv(gpus.out).size(), 3u); // two GPUs
}

TEST_F(DiffCommand, KnownPairPerIteration) {
    const CliResult r = runCli(
        cli::runDiff, {pairA(), pairB(), QStringLiteral("--range"), QStringLiteral("Iteration")});
    ASSERT_EQ(r.status, 0) << r.err.toStdString();
    EXPECT_EQ(r.err,
              QStringLiteral("strobe-cli diff: per instance of 'Iteration': 2 in A, 3 in B.\n"));
    const auto rows = parseCsv(r.out);
    ASSERT_EQ(rows.size(), 5u);
    const QStringList ranged = kKernelHeader + QStringList{QStringLiteral("per_instance_ns_a"),
                                                           QStringLiteral("per_instance_ns_b")};
    EXPECT_EQ(rows[0], ranged);
    EXPECT_EQ(rows[1],
              (QStringList{QStringLiteral("alpha"), QStringLiteral("2"), QStringLiteral("3"),
                           QStringLiteral("2000"), QStringLiteral("6000"), QStringLiteral("4000"),
                           QStringLiteral("1000.0"), QStringLiteral("2000.0"),
                           QStringLiteral("1000.0"), QStringLiteral("2000.0")}));
    EXPECT_EQ(rows[2][0], QStringLiteral("gamma"));
    EXPECT_EQ(rows[2][5], QStringLiteral("-700"));
    EXPECT_EQ(rows[4][0], QStringLiteral("delta"));
    EXPECT_EQ(rows[4][1], QStringLiteral("0"));
    const CliResult nvtx =
        runCli(cli::runDiff, {pairA(), pairB(), QStringLiteral("--what"), QStringLiteral("nvtx")});
    const auto n = parseCsv(nvtx.out);
    ASSERT_EQ(n.size(), 5u);
    EXPECT_EQ(n[0], (QStringList{QStringLiteral("range"), QStringLiteral("count_a"),
                                 QStringLiteral("count_b"), QStringLiteral("total_ns_a"),
                                 QStringLiteral("total_ns_b"), QStringLiteral("delta_ns")}));
    EXPECT_EQ(n[2],
              (QStringList{QStringLiteral("aten::mm"), QStringLiteral("2"), QStringLiteral("3"),
                           QStringLiteral("120"), QStringLiteral("180"), QStringLiteral("60")}));
}

TEST_F(DiffCommand, JsonHasBothSidesAndTheThreeTables) {
    const CliResult r =
        runCli(cli::runDiff, {pairA(), pairB(), QStringLiteral("--range"), QStringLiteral("auto"),
                              QStringLiteral("--format"), QStringLiteral("json")});
    ASSERT_EQ(r.status, 0) << r.err.toStdString();
    EXPECT_TRUE(r.err.contains(QLatin1String("'Iteration' (detected): 2 in A, 3 in B")));
    QJsonParseError error;
    const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8(), &error).object();
    ASSERT_EQ(error.error, QJsonParseError::NoError) << r.out.toStdString();
    const QJsonObject a = o[QStringLiteral("a")].toObject(), b = o[QStringLiteral("b")].toObject();
    EXPECT_EQ(a[QStringLiteral("file")].toString(), pairA());
    EXPECT_EQ(a[QStringLiteral("format")].toString(), QStringLiteral("nsys-sqlite"));
    EXPECT_EQ(a[QStringLiteral("span_ns")].toArray(), (QJsonArray{1000, 20000}));
    EXPECT_EQ(b[QStringLiteral("span_ns")].toArray(), (QJsonArray{1000, 30000}));
    EXPECT_EQ(a[QStringLiteral("range")].toString(), QStringLiteral("Iteration"));
    EXPECT_TRUE(a[QStringLiteral("range_detected")].toBool());
    EXPECT_EQ(a[QStringLiteral("instances")].toInt(), 2);
    EXPECT_EQ(b[QStringLiteral("instances")].toInt(), 3);
    EXPECT_EQ(a[QStringLiteral("mean_instance_ns")].toDouble(), 9000.0);
    EXPECT_EQ(a[QStringLiteral("kernels_per_instance")].toDouble(), 2.5);
    const QJsonArray kernels = o[QStringLiteral("kernels")].toArray();
    ASSERT_EQ(kernels.size(), 4);
    EXPECT_EQ(kernels[0].toObject()[QStringLiteral("name")].toString(), QStringLiteral("alpha"));
    EXPECT_EQ(kernels[0].toObject()[QStringLiteral("delta_ns")].toInt(), 4000);
    EXPECT_EQ(kernels[0].toObject()[QStringLiteral("per_instance_ns_b")].toDouble(), 2000.0);
    EXPECT_EQ(o[QStringLiteral("nvtx")].toArray().size(), 4);
    ASSERT_EQ(o[QStringLiteral("gpus")].toArray().size(), 1);
    EXPECT_EQ(
        o[QStringLiteral("gpus")].toArray()[0].toObject()[QStringLiteral("kernel_ns_b")].toInt(),
        7800);
    // --what keeps one table; without a range the sides say so with nulls.
    const CliResult one =
        runCli(cli::runDiff, {pairA(), pairB(), QStringLiteral("--what"), QStringLiteral("gpus"),
                              QStringLiteral("--format"), QStringLiteral("json")});
    const QJsonObject g = QJsonDocument::fromJson(one.out.toUtf8()).object();
    EXPECT_TRUE(g.contains(QStringLiteral("gpus")));
    EXPECT_FALSE(g.contains(QStringLiteral("kernels")));
    EXPECT_FALSE(g.contains(QStringLiteral("nvtx")));
    EXPECT_TRUE(g[QStringLiteral("a")].toObject()[QStringLiteral("instances")].isNull());
    EXPECT_TRUE(g[QStringLiteral("a")].toObject()[QStringLiteral("range")].isNull());
}

TEST_F(DiffCommand, ErrorsAreOneSentenceWithTheRightStatus) {
    struct Case {
        QStringList args;
        int status;
        const char* says;
    };
    const QString a = pairA(), b = pairB();
    const Case cases[] = {
        {{a}, 2, "needs two trace files"},
        {{a, b, QStringLiteral("--what"), QStringLiteral("memory")}, 2, "--what must be"},
        {{a, b, QStringLiteral("--format"), QStringLiteral("xml")}, 2, "--format must be"},
        {{a, b, QStringLiteral("--base"), QStringLiteral("--config")}, 2, "cannot be combined"},
        {{a, b, QStringLiteral("--range"), QStringLiteral("Epoch")}, 2, "neither trace has"},
        {{a, b, QStringLiteral("--range"), QString()}, 2, "--range needs"},
        {{fixture("nsys2022.2-vectoradd-a.sqlite"), fixture("nsys2022.2-vectoradd-b.sqlite"),
          QStringLiteral("--range"), QStringLiteral("auto")},
         2,
         "found no iteration range"},
        {{a, dir->filePath(QStringLiteral("missing.sqlite"))}, 1, "missing.sqlite"},
    };
    for (const Case& c : cases) {
        const CliResult r = runCli(cli::runDiff, c.args);
        EXPECT_EQ(r.status, c.status) << c.args.join(u' ').toStdString();
        EXPECT_TRUE(r.err.contains(QLatin1String(c.says))) << r.err.toStdString();
        EXPECT_EQ(r.err.count(u'\n'), 1) << r.err.toStdString();
        EXPECT_TRUE(r.out.isEmpty());
    }
    // Only one side has the range: a warning, and the other side's numbers.
    const CliResult oneSided =
        runCli(cli::runDiff, {a, fixture("nsys2022.2-vectoradd-a.sqlite"),
                              QStringLiteral("--range"), QStringLiteral("Iteration")});
    EXPECT_EQ(oneSided.status, 0);
    EXPECT_TRUE(oneSided.err.contains(QLatin1String("warning: B has no instance of 'Iteration'")))
        << oneSided.err.toStdString();
}

TEST_F(DiffCommand, SynthWritesTheSampleBeforeAndAfter) {
    const QString before = dir->filePath(QStringLiteral("before.sqlite"));
    const QString after = dir->filePath(QStringLiteral("after.sqlite"));
    EXPECT_EQ(runCli(cli::runSynth, {QStringLiteral("-o"), before, QStringLiteral("--sample"),
                                     QStringLiteral("before")})
                  .status,
              0);
    const CliResult w =
        runCli(cli::runSynth,
               {QStringLiteral("-o"), after, QStringLiteral("--sample"), QStringLiteral("after")});
    ASSERT_EQ(w.status, 0) << w.err.toStdString();
    EXPECT_TRUE(w.out.contains(QLatin1String("after its data-loader fix")));
    // The after variant: the same kernels, far less GPU idle time.
    const CliResult r =
        runCli(cli::runDiff, {before, after, QStringLiteral("--what"), QStringLiteral("gpus")});
    ASSERT_EQ(r.status, 0) << r.err.toStdString();
    const auto rows = parseCsv(r.out);
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[1][1], rows[1][2]);               // kernel busy unchanged
    EXPECT_GT(rows[1][5].toLongLong(), 250'000'000); // ~0.3 s idle before (19 x 15.6 ms)
    EXPECT_EQ(rows[1][6], QStringLiteral("0"));
    EXPECT_EQ(rows[1][8], QStringLiteral("0"));

    const CliResult bad =
        runCli(cli::runSynth,
               {QStringLiteral("-o"), after, QStringLiteral("--sample"), QStringLiteral("later")});
    EXPECT_EQ(bad.status, 2);
    EXPECT_TRUE(bad.err.contains(QLatin1String("--sample must be before or after")));
    const CliResult mixed =
        runCli(cli::runSynth,
               {QStringLiteral("-o"), after, QStringLiteral("--sample"), QStringLiteral("after"),
                QStringLiteral("--events"), QStringLiteral("10k")});
    EXPECT_EQ(mixed.status, 2);
    EXPECT_TRUE(mixed.err.contains(QLatin1String("takes no --events")));
    const CliResult unwritable = runCli(
        cli::runSynth, {QStringLiteral("-o"), dir->filePath(QStringLiteral("no/such/x.sqlite")),
                        QStringLiteral("--sample"), QStringLiteral("after")});
    EXPECT_EQ(unwritable.status, 1);
    EXPECT_EQ(unwritable.err.count(u'\n'), 1);
}

// Issue 44 item 7: an A100 (rank 0 of 2, its work on GPU 0) against a V100 (rank 1 of 2, its
// work on GPU 1). The GPUs that ran work are paired by position, not by id, the table says which
// of B's GPUs each row holds, and the notes name what differs.
TEST_F(DiffCommand, DifferentGpusAndRanksArePairedByPositionAndNamed) {
    const QString a = QStringLiteral(STROBE_FIXTURES_DIR "/kineto/hta-a100-nccl-ddp.json.gz");
    const QString b = QStringLiteral(STROBE_FIXTURES_DIR "/kineto/hta-v100-memory-events.json.gz");
    const CliResult r = runCli(cli::runDiff, {a, b, QStringLiteral("--what=gpus")});
    ASSERT_EQ(r.status, 0) << r.err.toStdString();
    const auto rows = parseCsv(r.out);
    ASSERT_GE(rows.size(), 2u);
    EXPECT_EQ(rows[0].back(), QStringLiteral("device_id_b"));
    // GPU 0 of A (155.2 ms of kernels) beside GPU 1 of B (977.9 ms), in one row.
    EXPECT_EQ(rows[1].mid(0, 3), (QStringList{QStringLiteral("0"), QStringLiteral("155215315"),
                                              QStringLiteral("977859000")}));
    EXPECT_EQ(rows[1].back(), QStringLiteral("1"));
    EXPECT_TRUE(r.err.contains(QLatin1String(
        "A and B differ: GPU NVIDIA A100-PG509-200 in A, Tesla V100-SXM2-32GB in B; rank 0 in "
        "A, 1 in B.")))
        << r.err.toStdString();
    EXPECT_TRUE(r.err.contains(QLatin1String("GPU 0 of A with GPU 1 of B"))) << r.err.toStdString();
}

// Issue 44 item 8: without a range the totals depend on how long each trace ran; the notes say
// the verdict is per launch and name a range that repeats in both.
TEST_F(DiffCommand, WithoutARangeTheNotesGiveTheVerdictsBasisAndARangeToAlignOn) {
    const CliResult r = runCli(cli::runDiff, {pairA(), pairB()});
    ASSERT_EQ(r.status, 0) << r.err.toStdString();
    EXPECT_TRUE(r.err.contains(QLatin1String("per-launch medians and rates per second")))
        << r.err.toStdString();
    EXPECT_TRUE(r.err.contains(QLatin1String("--range 'Iteration' (2 in A, 3 in B)")))
        << r.err.toStdString();
    // With a range nothing of the kind is said.
    const CliResult ranged = runCli(
        cli::runDiff, {pairA(), pairB(), QStringLiteral("--range"), QStringLiteral("Iteration")});
    EXPECT_FALSE(ranged.err.contains(QLatin1String("medians"))) << ranged.err.toStdString();
}

TEST_F(DiffCommand, ListedInTheHelp) {
    const CliResult r = runCli(cli::runCommandLine, {QStringLiteral("--help")});
    EXPECT_TRUE(r.out.contains(QLatin1String("diff A B [--base]")));
    EXPECT_TRUE(r.out.contains(QLatin1String("--sample before|after")));
    const CliResult diffHelp =
        runCli(cli::runCommandLine, {QStringLiteral("diff"), QStringLiteral("--help")});
    EXPECT_EQ(diffHelp.status, 0);
    EXPECT_TRUE(diffHelp.out.contains(QLatin1String("--range NAME|auto")));
}

} // namespace
