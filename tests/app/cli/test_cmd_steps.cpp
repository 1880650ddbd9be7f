// SPDX-License-Identifier: MIT
// strobe-cli steps: its header, each step's GPU categories against the union of the GPU work
// computed here from an independent scan of the JSON (kinetoscan.h), the categories adding up to
// the step, the average row, JSON against CSV, a plain CUDA export (one whole-trace step), usage
// errors.
#include "tests/app/cli/clitesthelpers.h"
#include "tests/support/kinetoscan.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>

using namespace strobe;
using namespace strobe::test;

namespace {

const QString kHeader =
    QStringLiteral("step,start_ns,end_ns,kernel_ns,memcpy_ns,memset_ns,communication_ns,"
                   "runtime_ns,dataloader_ns,cpu_exec_ns,other_ns,total_ns");
constexpr int kFirstCategory = 3, kCategories = 8, kTotal = 11;

QString resnet() {
    return QString::fromStdString(kinetoFixturePath("resnet50-kineto-2021.pt.trace.json.gz"));
}

CliResult steps(const QStringList& args) {
    return runCli(&cli::runSteps, args);
}

std::vector<QStringList> stepRows(const QStringList& args) {
    return csvRows(&cli::runSteps, args, kHeader);
}

qint64 column(const QStringList& row, int c) {
    return row[c].toLongLong();
}

using Intervals = std::vector<std::pair<qint64, qint64>>;

// Sorted, disjoint union of [start, end) intervals; empty ones vanish.
Intervals unite(Intervals v) {
    std::sort(v.begin(), v.end());
    Intervals out;
    for (const auto& [s, e] : v) {
        if (e <= s)
            continue;
        if (!out.empty() && s <= out.back().second)
            out.back().second = std::max(out.back().second, e);
        else
            out.push_back({s, e});
    }
    return out;
}

// Length of `a` inside [from, to) and outside `minus`.
qint64 lengthWithin(const Intervals& a, qint64 from, qint64 to, const Intervals& minus = {}) {
    qint64 total = 0;
    for (const auto& [s0, e0] : a) {
        qint64 s = std::max(s0, from), e = std::min(e0, to);
        if (e <= s)
            continue;
        qint64 covered = 0;
        for (const auto& [ms, me] : minus)
            covered += std::max<qint64>(0, std::min(me, e) - std::max(ms, s));
        total += (e - s) - covered;
    }
    return total;
}

// Kernels, memcpys and memsets of an integer-microsecond trace, each as one union.
struct GpuWork {
    Intervals kernels, memcpys, memsets;
};

GpuWork gpuWork(const ScannedTrace& t) {
    GpuWork w;
    for (const ScannedEvent& e : t.events) {
        if (e.ph != "X" || !e.tsInt || !e.durInt)
            continue;
        const std::pair<qint64, qint64> r{*e.tsInt * 1000, (*e.tsInt + *e.durInt) * 1000};
        if (e.cat == "Kernel" || e.cat == "kernel")
            w.kernels.push_back(r);
        else if (e.cat == "Memcpy" || e.cat == "gpu_memcpy")
            w.memcpys.push_back(r);
        else if (e.cat == "Memset" || e.cat == "gpu_memset")
            w.memsets.push_back(r);
    }
    w.kernels = unite(w.kernels);
    w.memcpys = unite(w.memcpys);
    w.memsets = unite(w.memsets);
    return w;
}

} // namespace

TEST(CliSteps, ResNetStepsSplitByWhatRan) {
    const ScannedTrace scan = scanKineto(resnet().toStdString());
    const GpuWork work = gpuWork(scan);
    const auto profilerSteps =
        std::count_if(scan.events.begin(), scan.events.end(), [](const ScannedEvent& e) {
            return e.ph == "X" && e.name.starts_with("ProfilerStep#");
        });
    ASSERT_EQ(profilerSteps, 6);
    const std::vector<QStringList> rows = stepRows({resnet()});
    ASSERT_GE(rows.size(), 2u); // at least one step, then the average
    const std::size_t n = rows.size() - 1;
    EXPECT_GE(n, 5u); // at most the last step dropped as cut short
    std::array<double, kCategories + 1> mean{};
    for (std::size_t i = 0; i < n; ++i) {
        const QStringList& r = rows[i];
        ASSERT_EQ(r.size(), 12);
        SCOPED_TRACE(r[0].toStdString());
        EXPECT_EQ(r[0], QString::number(5 + int(i))); // the trace's own numbers, in time order
        const qint64 start = column(r, 1), end = column(r, 2);
        EXPECT_EQ(end - start, column(r, kTotal));
        if (i > 0) {
            EXPECT_GE(start, column(rows[i - 1], 2)); // device-side steps never overlap
        }
        qint64 sum = 0;
        for (int c = kFirstCategory; c < kFirstCategory + kCategories; ++c) {
            EXPECT_GE(column(r, c), 0);
            sum += column(r, c);
            mean[std::size_t(c - kFirstCategory)] += double(column(r, c));
        }
        mean[kCategories] += double(column(r, kTotal));
        EXPECT_EQ(sum, column(r, kTotal)); // every instant in exactly one category
        // Kernels first, then memcpys where no kernel runs, then memsets where neither does.
        EXPECT_EQ(column(r, 3), lengthWithin(work.kernels, start, end));
        EXPECT_EQ(column(r, 4), lengthWithin(work.memcpys, start, end, work.kernels));
        EXPECT_EQ(column(r, 5), lengthWithin(work.memsets, start, end, unite([&] {
                                                 Intervals both = work.kernels;
                                                 both.insert(both.end(), work.memcpys.begin(),
                                                             work.memcpys.end());
                                                 return both;
                                             }())));
        EXPECT_EQ(column(r, 6), 0); // no NCCL or Gloo in a single-GPU ResNet
        EXPECT_GT(column(r, 3), 0);
        EXPECT_GT(column(r, 7), 0); // CUDA runtime calls where the GPU is idle
    }
    const QStringList& average = rows.back();
    EXPECT_EQ(average[0], QStringLiteral("average"));
    EXPECT_TRUE(average[1].isEmpty());
    EXPECT_TRUE(average[2].isEmpty());
    for (int c = kFirstCategory; c <= kTotal; ++c)
        EXPECT_EQ(column(average, c),
                  std::llround(mean[std::size_t(c - kFirstCategory)] / double(n)))
            << c;
}

TEST(CliSteps, JsonCarriesTheCsvRowsAndTheSource) {
    const CliResult csv = steps({resnet()});
    const CliResult json = steps({resnet(), QStringLiteral("--format"), QStringLiteral("json")});
    ASSERT_EQ(csv.status, 0);
    ASSERT_EQ(json.status, 0) << json.err.toStdString();
    std::vector<QStringList> rows = parseCsv(csv.out);
    const QStringList header = rows.front();
    rows.erase(rows.begin());
    QJsonParseError error;
    const QJsonObject o = QJsonDocument::fromJson(json.out.toUtf8(), &error).object();
    ASSERT_EQ(error.error, QJsonParseError::NoError) << error.errorString().toStdString();
    for (const char* key : {"source", "family", "dropped_tail_steps", "steps", "gpus"})
        EXPECT_TRUE(o.contains(QLatin1String(key))) << key;
    EXPECT_EQ(o[QStringLiteral("source")].toString(), QStringLiteral("profiler_steps"));
    EXPECT_EQ(o[QStringLiteral("family")].toString(), QStringLiteral("ProfilerStep"));
    // Every ProfilerStep of the trace is a row or a dropped tail step.
    EXPECT_EQ(o[QStringLiteral("dropped_tail_steps")].toInteger() + qint64(rows.size()) - 1, 6);
    const QJsonArray array = o[QStringLiteral("steps")].toArray();
    ASSERT_EQ(std::size_t(array.size()), rows.size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const QJsonObject s = array[qsizetype(i)].toObject();
        ASSERT_EQ(s.keys().size(), header.size());
        for (qsizetype c = 0; c < header.size(); ++c) {
            const QJsonValue v = s[header[c]];
            const QString text = v.isNull()     ? QString()
                                 : v.isString() ? v.toString()
                                                : QString::number(v.toInteger());
            EXPECT_EQ(text, rows[i][c]) << header[c].toStdString() << " row " << i;
        }
    }
    // The GPU metrics over the steps' time: the ResNet-50 trace ran its kernels on GPU 0, its
    // span is the first step's start to the last kept step's end, and Kineto recorded the
    // blocks per SM and occupancy of every kernel.
    const QJsonArray gpus = o[QStringLiteral("gpus")].toArray();
    ASSERT_EQ(gpus.size(), 1);
    const QJsonObject g = gpus[0].toObject();
    EXPECT_EQ(g[QStringLiteral("device")].toInteger(), 0);
    EXPECT_EQ(QString::number(g[QStringLiteral("span_start_ns")].toInteger()), rows.front()[1]);
    EXPECT_EQ(QString::number(g[QStringLiteral("span_end_ns")].toInteger()),
              rows[rows.size() - 2][2]);
    EXPECT_EQ(g[QStringLiteral("sm_efficiency_basis")].toString(), QStringLiteral("recorded"));
    EXPECT_EQ(g[QStringLiteral("achieved_occupancy_basis")].toString(), QStringLiteral("recorded"));
    const double util = g[QStringLiteral("utilization_percent")].toDouble();
    EXPECT_NEAR(util,
                100.0 * double(g[QStringLiteral("busy_ns")].toInteger()) /
                    double(g[QStringLiteral("span_end_ns")].toInteger() -
                           g[QStringLiteral("span_start_ns")].toInteger()),
                0.006);
    EXPECT_GT(util, 50.0);
    EXPECT_LT(util, 60.0);
    EXPECT_EQ(g[QStringLiteral("tensor_core_percent")].toDouble(), 0.0); // fp32 on a V100
}

TEST(CliSteps, PlainCudaExportIsOneWholeTraceStep) {
    const QString path = fixture("nsys2022.2-vectoradd-a.sqlite");
    const std::vector<QStringList> rows = stepRows({path});
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[1][0], QStringLiteral("average"));
    const qint64 total = column(rows[0], kTotal);
    EXPECT_GT(total, 0);
    EXPECT_EQ(column(rows[0], 2) - column(rows[0], 1), total);
    qint64 sum = 0;
    for (int c = kFirstCategory; c < kTotal; ++c) {
        sum += column(rows[0], c);
        EXPECT_EQ(column(rows[1], c), column(rows[0], c)); // one step: its own average
    }
    EXPECT_EQ(sum, total);
    EXPECT_EQ(column(rows[0], 8), 0); // no data loading
    SqlDb db(path);
    const auto kernels = db.query(
        QStringLiteral("SELECT COUNT(*), MIN(start), MAX([end]) FROM CUPTI_ACTIVITY_KIND_KERNEL"));
    ASSERT_FALSE(kernels.empty());
    ASSERT_GT(kernels[0][0]->toLongLong(), 0);
    // The step holds every kernel.
    EXPECT_LE(column(rows[0], 1), kernels[0][1]->toLongLong());
    EXPECT_GE(column(rows[0], 2), kernels[0][2]->toLongLong());
    EXPECT_GT(column(rows[0], 3), 0);
    const CliResult json = steps({path, QStringLiteral("--format"), QStringLiteral("json")});
    ASSERT_EQ(json.status, 0);
    const QJsonObject o = QJsonDocument::fromJson(json.out.toUtf8()).object();
    EXPECT_EQ(o[QStringLiteral("source")].toString(), QStringLiteral("whole_trace"));
    EXPECT_EQ(o[QStringLiteral("dropped_tail_steps")].toInteger(), 0);
    EXPECT_EQ(o[QStringLiteral("steps")].toArray().size(), 2);
}

TEST(CliSteps, PartialLoadPrintsWhatAFullLoadPrints) {
    for (const QString& path : {resnet(), fixture("nsys2026.2-h100-2gpu-nvtx.sqlite"),
                                fixture("nsys2022.2-vectoradd-a.sqlite")}) {
        CliResult full;
        QTextStream out(&full.out), err(&full.err);
        full.status = cli::runSteps({path}, cli::Io{out, err, kAllTraceParts});
        out.flush();
        const CliResult partial = steps({path});
        ASSERT_EQ(full.status, 0);
        ASSERT_EQ(partial.status, 0);
        EXPECT_EQ(partial.out, full.out) << path.toStdString();
    }
}

TEST(CliSteps, UsageErrorsExitTwo) {
    const QString f = resnet();
    for (const QStringList& args :
         {QStringList{}, QStringList{f, QStringLiteral("--range"), QStringLiteral("x")},
          QStringList{f, QStringLiteral("--format"), QStringLiteral("text")}, QStringList{f, f}}) {
        const CliResult r = steps(args);
        EXPECT_EQ(r.status, 2) << args.join(u' ').toStdString();
        EXPECT_EQ(r.err.count(u'\n'), 1) << r.err.toStdString();
        EXPECT_TRUE(r.out.isEmpty());
    }
    const CliResult missing = steps({QStringLiteral("/nonexistent/trace.sqlite")});
    EXPECT_EQ(missing.status, 1);
    EXPECT_EQ(missing.err.count(u'\n'), 1) << missing.err.toStdString();
}
