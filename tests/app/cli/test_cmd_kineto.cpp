// SPDX-License-Identifier: MIT
// strobe-cli on Kineto traces: info's keys and format line, the table commands, and gaps
// against the union of GPU work computed independently from the JSON.
#include "tests/app/cli/clitesthelpers.h"
#include "tests/support/kinetoscan.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <algorithm>
#include <gtest/gtest.h>
#include <map>

using namespace strobe;
using namespace strobe::test;

namespace {

QString kineto(const char* name) {
    return QString::fromStdString(kinetoFixturePath(name));
}

bool isGpuOp(const ScannedEvent& e) {
    return e.ph == "X" && (e.cat == "kernel" || e.cat == "Kernel" || e.cat == "gpu_memcpy" ||
                           e.cat == "Memcpy" || e.cat == "gpu_memset" || e.cat == "Memset");
}

// Gaps at least `minNs` long per device from the JSON: GPU operations as
// [start, max(end, start + 1)), swept per device. Integer-microsecond traces only (exact).
std::vector<std::array<qint64, 3>> expectedGaps(const ScannedTrace& t, qint64 minNs) {
    std::map<qint64, std::vector<std::pair<qint64, qint64>>> byDevice;
    for (const ScannedEvent& e : t.events) {
        if (!isGpuOp(e))
            continue;
        const qint64 s = *e.tsInt * 1000;
        byDevice[e.device ? *e.device : *e.pid].push_back(
            {s, std::max(s + *e.durInt * 1000, s + 1)});
    }
    std::vector<std::array<qint64, 3>> out;
    for (auto& [device, ev] : byDevice) {
        std::sort(ev.begin(), ev.end());
        qint64 reach = ev.front().second;
        for (const auto& [s, e] : ev) {
            if (s > reach && s - reach >= minNs)
                out.push_back({device, reach, s});
            reach = std::max(reach, e);
        }
    }
    return out;
}

} // namespace

TEST(CliKineto, InfoJsonKeepsItsKeysAndAddsCpuOps) {
    const QString path = kineto("hta-a100-nccl-ddp.json.gz");
    const CliResult r = runCli(&cli::runInfo, {path, QStringLiteral("--json")});
    ASSERT_EQ(r.status, 0) << r.err.toStdString();
    const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
    EXPECT_EQ(o[QStringLiteral("format")].toString(), QStringLiteral("kineto-json"));
    EXPECT_TRUE(o[QStringLiteral("nsys_version")].isNull());
    EXPECT_EQ(o[QStringLiteral("schema_version")].toString(), QStringLiteral("1"));
    EXPECT_EQ(o[QStringLiteral("rank")].toInt(), 0);
    EXPECT_EQ(o[QStringLiteral("world_size")].toInt(), 2);
    const QJsonObject c = o[QStringLiteral("counts")].toObject();
    const ScannedTrace scan = scanKineto(path.toStdString());
    auto count = [&](std::initializer_list<const char*> cats) {
        return std::count_if(scan.events.begin(), scan.events.end(), [&](const ScannedEvent& e) {
            return e.ph == "X" &&
                   std::any_of(cats.begin(), cats.end(), [&](const char* k) { return e.cat == k; });
        });
    };
    EXPECT_EQ(c[QStringLiteral("kernels")].toInteger(), count({"kernel"}));
    EXPECT_EQ(c[QStringLiteral("memcpys")].toInteger(), count({"gpu_memcpy"}));
    EXPECT_EQ(c[QStringLiteral("memsets")].toInteger(), count({"gpu_memset"}));
    EXPECT_EQ(c[QStringLiteral("cuda_api_calls")].toInteger(),
              count({"cuda_runtime", "cuda_driver"}));
    EXPECT_EQ(c[QStringLiteral("nvtx_ranges")].toInteger(), count({"user_annotation"}));
    EXPECT_EQ(c[QStringLiteral("cpu_ops")].toInteger(), count({"cpu_op"}));
    EXPECT_EQ(c[QStringLiteral("osrt_calls")].toInteger(), 0);
    const QStringList keys = {QStringLiteral("kernels"),     QStringLiteral("memcpys"),
                              QStringLiteral("memsets"),     QStringLiteral("cuda_api_calls"),
                              QStringLiteral("nvtx_ranges"), QStringLiteral("nvtx_marks"),
                              QStringLiteral("osrt_calls"),  QStringLiteral("cpu_ops")};
    EXPECT_EQ(c.keys().size(), keys.size());
    for (const QString& k : keys)
        EXPECT_TRUE(c.contains(k)) << k.toStdString();
}

TEST(CliKineto, InfoTextNamesFormatSchemaAndRank) {
    const CliResult r = runCli(&cli::runInfo, {kineto("hta-sampled-rank1.json.gz")});
    ASSERT_EQ(r.status, 0) << r.err.toStdString();
    EXPECT_TRUE(r.out.contains(QStringLiteral(
        "Format:      kineto-json (PyTorch Profiler, schema 1, rank 1 of 128, nccl)\n")))
        << r.out.toStdString();
    const CliResult old = runCli(&cli::runInfo, {kineto("resnet50-kineto-2021.pt.trace.json.gz")});
    EXPECT_TRUE(
        old.out.contains(QStringLiteral("Format:      kineto-json (PyTorch Profiler, schema 1)\n")))
        << old.out.toStdString();
}

TEST(CliKineto, TableCommandsAcceptKinetoFiles) {
    const QString path = kineto("hta-v100-memory-events.json.gz");
    const CliResult k = runCli(&cli::runKernels, {path});
    ASSERT_EQ(k.status, 0) << k.err.toStdString();
    EXPECT_EQ(parseCsv(k.out).size(), 19370u + 1);
    for (auto* cmd : {&cli::runKernelSummary, &cli::runNvtxSummary, &cli::runMemorySummary}) {
        const CliResult s = runCli(cmd, {path});
        ASSERT_EQ(s.status, 0) << s.err.toStdString();
        EXPECT_GT(parseCsv(s.out).size(), 1u);
    }
    // kernel-summary groups by the name as written: one row per distinct JSON kernel name.
    const ScannedTrace scan = scanKineto(path.toStdString());
    std::set<std::string> names;
    for (const ScannedEvent& e : scan.events) {
        if (e.ph == "X" && e.cat == "kernel")
            names.insert(e.name);
    }
    EXPECT_EQ(parseCsv(runCli(&cli::runKernelSummary, {path}).out).size(), names.size() + 1);
}

class KinetoGaps : public ::testing::TestWithParam<const char*> {};

TEST_P(KinetoGaps, CsvListsExactlyTheIndependentGaps) {
    const QString path = kineto(GetParam());
    const ScannedTrace scan = scanKineto(path.toStdString());
    for (qint64 minNs : {qint64(100'000), qint64(1000)}) {
        const CliResult r =
            runCli(&cli::runGaps, {path, QStringLiteral("--min-ns"), QString::number(minNs)});
        ASSERT_EQ(r.status, 0) << r.err.toStdString();
        const auto records = parseCsv(r.out);
        const auto expected = expectedGaps(scan, minNs);
        ASSERT_EQ(records.size() - 1, expected.size()) << "min-ns " << minNs;
        ASSERT_FALSE(expected.empty());
        std::map<QString, int> causes;
        for (std::size_t i = 0; i < expected.size(); ++i) {
            const QStringList& f = records[i + 1];
            EXPECT_EQ(f[0].toLongLong(), expected[i][0]);
            EXPECT_EQ(f[1].toLongLong(), expected[i][1]);
            EXPECT_EQ(f[2].toLongLong(), expected[i][2]);
            ++causes[f[4]];
        }
        // The causes use the CPU side: not everything is "no CPU activity" or unknown.
        EXPECT_GT(causes[QStringLiteral("launch-overhead")] + causes[QStringLiteral("sync")] +
                      causes[QStringLiteral("cpu-busy")],
                  0);
    }
}

INSTANTIATE_TEST_SUITE_P(IntegerTimestampFixtures, KinetoGaps,
                         ::testing::Values("hta-sampled-rank0.json.gz",
                                           "hta-v100-memory-events.json.gz",
                                           "resnet50-kineto-2021.pt.trace.json.gz"));
