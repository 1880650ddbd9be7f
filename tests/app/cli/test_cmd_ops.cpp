// SPDX-License-Identifier: MIT
// strobe-cli ops: its headers, its rows against an attribution computed here from an independent
// scan of the JSON (kinetoscan.h), --range per step and per family, --group-by shapes against the
// name grouping, JSON against CSV, the partial load against a full one, a plain CUDA export
// (GPU work, no operator), usage errors and names from the file.
#include "tests/app/cli/clitesthelpers.h"
#include "tests/support/kinetoscan.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <algorithm>
#include <gtest/gtest.h>
#include <map>
#include <unordered_map>

using namespace strobe;
using namespace strobe::test;

namespace {

const QString kHeader = QStringLiteral(
    "name,calls,host_self_ns,host_total_ns,device_self_ns,device_total_ns,device_percent");
const QString kShapesHeader =
    QStringLiteral("name,input_shapes,calls,host_self_ns,host_total_ns,device_self_ns,"
                   "device_total_ns,device_percent");

QString resnet() {
    return QString::fromStdString(kinetoFixturePath("resnet50-kineto-2021.pt.trace.json.gz"));
}

CliResult ops(const QStringList& args) {
    return runCli(&cli::runOps, args);
}

std::vector<QStringList> opsRows(const QStringList& args, const QString& header = kHeader) {
    return csvRows(&cli::runOps, args, header);
}

bool isGpuOp(const ScannedEvent& e) {
    return e.ph == "X" && (e.cat == "Kernel" || e.cat == "kernel" || e.cat == "Memcpy" ||
                           e.cat == "gpu_memcpy" || e.cat == "Memset" || e.cat == "gpu_memset");
}

// TensorBoard's Operator view leaves these ranges out of its table (docs/OPERATORS.md).
bool leftOutOfTable(const std::string& name) {
    return name.starts_with("ProfilerStep#") || name.starts_with("enumerate(DataLoader)#") ||
           name.starts_with("Optimizer.") || name == "DataParallel.forward" ||
           name == "DistributedDataParallel.forward";
}

// Device self time per operator name, found here: each GPU operation belongs to the innermost
// operator of its launching runtime call's thread whose [ts, ts + dur) holds the call's start;
// "" for the operations no table operator launched. Integer-microsecond traces only.
struct Attribution {
    std::map<std::string, qint64> deviceSelf;
    std::map<std::string, qint64> rawCalls; // events per table operator name
    qint64 gpuTime = 0;
};

Attribution attribute(const ScannedTrace& t) {
    std::unordered_map<std::int64_t, const ScannedEvent*> runtimeByCorrelation;
    std::map<std::int64_t, std::vector<const ScannedEvent*>> opsByThread;
    Attribution a;
    for (const ScannedEvent& e : t.events) {
        if (e.ph != "X")
            continue;
        if ((e.cat == "Runtime" || e.cat == "cuda_runtime") && e.correlation)
            runtimeByCorrelation[*e.correlation] = &e;
        if (e.cat == "Operator" || e.cat == "cpu_op") {
            opsByThread[*e.tid].push_back(&e);
            if (!leftOutOfTable(e.name))
                ++a.rawCalls[e.name];
        }
    }
    for (const ScannedEvent& g : t.events) {
        if (!isGpuOp(g))
            continue;
        const qint64 ns = *g.durInt * 1000;
        a.gpuTime += ns;
        std::string owner;
        const auto call =
            g.correlation ? runtimeByCorrelation.find(*g.correlation) : runtimeByCorrelation.end();
        if (call != runtimeByCorrelation.end()) {
            const std::int64_t at = *call->second->tsInt;
            const ScannedEvent* innermost = nullptr;
            for (const ScannedEvent* op : opsByThread[*call->second->tid]) {
                if (*op->tsInt > at || at >= *op->tsInt + *op->durInt)
                    continue;
                if (!innermost || *op->tsInt > *innermost->tsInt ||
                    (*op->tsInt == *innermost->tsInt && *op->durInt < *innermost->durInt))
                    innermost = op;
            }
            if (innermost && !leftOutOfTable(innermost->name))
                owner = innermost->name;
        }
        a.deviceSelf[owner] += ns;
    }
    return a;
}

qint64 column(const QStringList& row, int c) {
    return row[c].toLongLong();
}

// calls per name, summed over the rows (several per name under --group-by shapes).
std::map<QString, qint64> callsByName(const std::vector<QStringList>& rows, int callsColumn) {
    std::map<QString, qint64> out;
    for (const QStringList& r : rows)
        out[r[0]] += column(r, callsColumn);
    return out;
}

} // namespace

TEST(CliOps, ResNetRowsMatchAnIndependentAttribution) {
    const ScannedTrace scan = scanKineto(resnet().toStdString());
    const Attribution expected = attribute(scan);
    ASSERT_EQ(expected.gpuTime, 603'558'000); // 9096 kernels, memcpys and memsets
    const std::vector<QStringList> rows = opsRows({resnet()});
    // Every table operator name once, and "(no operator)" only when some GPU work has none.
    const bool noOperatorWork = expected.deviceSelf.contains("");
    EXPECT_FALSE(noOperatorWork);
    ASSERT_EQ(rows.size(), expected.rawCalls.size() + (noOperatorWork ? 1 : 0));
    EXPECT_EQ(rows.size(), 76u);
    qint64 deviceSelfSum = 0;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const QStringList& r = rows[i];
        ASSERT_EQ(r.size(), 7);
        const std::string name =
            r[0] == QLatin1String("(no operator)") ? std::string() : r[0].toStdString();
        SCOPED_TRACE(name);
        const auto self = expected.deviceSelf.find(name);
        EXPECT_EQ(column(r, 4), self == expected.deviceSelf.end() ? 0 : self->second);
        deviceSelfSum += column(r, 4);
        if (!name.empty()) {
            // Merged repeats (an operator whose only child has its name) make one call of two.
            EXPECT_GE(column(r, 1), 1);
            EXPECT_LE(column(r, 1), expected.rawCalls.at(name));
        }
        EXPECT_GE(column(r, 3), column(r, 2)); // host total >= host self
        EXPECT_GE(column(r, 5), column(r, 4)); // device total >= device self
        EXPECT_NEAR(r[6].toDouble(), 100.0 * double(column(r, 4)) / double(expected.gpuTime),
                    0.005 + 1e-9);
        EXPECT_EQ(r[6].section(u'.', 1).size(), 2); // 2 decimals
        if (i > 0) {
            EXPECT_GE(column(rows[i - 1], 4), column(r, 4)); // by device self descending
        }
    }
    // The "(no operator)" row plus every operator's device self is all the GPU work.
    EXPECT_EQ(deviceSelfSum, expected.gpuTime);
    EXPECT_EQ(rows.front()[0], QStringLiteral("aten::cudnn_convolution_backward_weight"));
    EXPECT_EQ(column(rows.front(), 4), 142'461'000);
}

TEST(CliOps, JsonCarriesTheCsvRows) {
    for (const QStringList& options :
         {QStringList{}, QStringList{QStringLiteral("--group-by"), QStringLiteral("shapes")}}) {
        const CliResult csv = ops(QStringList{resnet()} + options);
        const CliResult json = ops(
            QStringList{resnet(), QStringLiteral("--format"), QStringLiteral("json")} + options);
        ASSERT_EQ(csv.status, 0);
        ASSERT_EQ(json.status, 0) << json.err.toStdString();
        std::vector<QStringList> rows = parseCsv(csv.out);
        const QStringList header = rows.front();
        rows.erase(rows.begin());
        QJsonParseError error;
        const QJsonArray array = QJsonDocument::fromJson(json.out.toUtf8(), &error).array();
        ASSERT_EQ(error.error, QJsonParseError::NoError) << error.errorString().toStdString();
        ASSERT_EQ(std::size_t(array.size()), rows.size());
        for (std::size_t i = 0; i < rows.size(); ++i) {
            const QJsonObject o = array[qsizetype(i)].toObject();
            ASSERT_EQ(o.keys().size(), header.size());
            for (qsizetype c = 0; c < header.size(); ++c) {
                const QJsonValue v = o[header[c]];
                const QString text =
                    v.isString()
                        ? v.toString()
                        : QString::number(v.toDouble(), 'f',
                                          header[c] == QLatin1String("device_percent") ? 2 : 0);
                EXPECT_EQ(text, rows[i][c]) << header[c].toStdString() << " row " << i;
            }
        }
    }
}

TEST(CliOps, GroupByShapesSplitsTheNameRows) {
    const std::vector<QStringList> byName = opsRows({resnet()});
    const std::vector<QStringList> byShapes =
        opsRows({resnet(), QStringLiteral("--group-by"), QStringLiteral("shapes")}, kShapesHeader);
    ASSERT_GT(byShapes.size(), byName.size()); // resnet50 records input shapes
    EXPECT_EQ(callsByName(byShapes, 2), callsByName(byName, 1));
    std::map<QString, qint64> selfByName;
    for (const QStringList& r : byShapes)
        selfByName[r[0]] += column(r, 5);
    for (const QStringList& r : byName)
        EXPECT_EQ(selfByName[r[0]], column(r, 4)) << r[0].toStdString();
    const auto conv = std::find_if(byShapes.begin(), byShapes.end(), [](const QStringList& r) {
        return r[0] == QLatin1String("aten::cudnn_convolution");
    });
    ASSERT_NE(conv, byShapes.end());
    EXPECT_TRUE((*conv)[1].startsWith(u'[')) << (*conv)[1].toStdString();
}

TEST(CliOps, RangeCountsTheCallsInsideItsInstances) {
    const std::map<QString, qint64> whole = callsByName(opsRows({resnet()}), 1);
    qint64 wholeCalls = 0;
    for (const auto& [name, calls] : whole)
        wholeCalls += calls;
    // One step by its exact name; the family by its prefix: the sum of its steps.
    std::map<QString, qint64> perStepSum;
    qint64 stepDeviceSum = 0;
    for (int step = 5; step <= 10; ++step) {
        const std::vector<QStringList> rows = opsRows(
            {resnet(), QStringLiteral("--range"), QStringLiteral("ProfilerStep#%1").arg(step)});
        ASSERT_FALSE(rows.empty()) << step;
        qint64 calls = 0;
        for (const QStringList& r : rows) {
            perStepSum[r[0]] += column(r, 1);
            calls += column(r, 1);
            stepDeviceSum += column(r, 4);
        }
        EXPECT_GT(calls, 0);
        EXPECT_LT(calls, wholeCalls) << step;
    }
    const std::vector<QStringList> family =
        opsRows({resnet(), QStringLiteral("--range"), QStringLiteral("ProfilerStep")});
    EXPECT_EQ(callsByName(family, 1), perStepSum);
    qint64 familyDevice = 0;
    for (const QStringList& r : family)
        familyDevice += column(r, 4);
    EXPECT_EQ(familyDevice, stepDeviceSum);
    EXPECT_LE(familyDevice, 603'558'000);
    // device_percent is recomputed over the family's GPU time, not summed.
    double percent = 0;
    for (const QStringList& r : family)
        percent += r[6].toDouble();
    EXPECT_NEAR(percent, 100.0, 0.005 * double(family.size()));
}

TEST(CliOps, RangeThatMatchesNothingExitsOneWithASentence) {
    const CliResult r = ops({resnet(), QStringLiteral("--range"), QStringLiteral("NoSuchStep")});
    EXPECT_EQ(r.status, 1);
    EXPECT_TRUE(r.out.isEmpty());
    EXPECT_EQ(r.err.count(u'\n'), 1) << r.err.toStdString();
    EXPECT_TRUE(r.err.startsWith(QStringLiteral("strobe-cli ops: ")));
    EXPECT_TRUE(r.err.endsWith(QStringLiteral(" has no range named 'NoSuchStep'.\n")))
        << r.err.toStdString();
}

TEST(CliOps, UsageErrorsExitTwo) {
    const QString f = resnet();
    for (const QStringList& args :
         {QStringList{}, QStringList{f, QStringLiteral("--bogus")},
          QStringList{f, QStringLiteral("--group-by"), QStringLiteral("kernel")},
          QStringList{f, QStringLiteral("--format"), QStringLiteral("xml")},
          QStringList{f, QStringLiteral("--range")},
          QStringList{f, QStringLiteral("--range"), QString()}, QStringList{f, f}}) {
        const CliResult r = ops(args);
        EXPECT_EQ(r.status, 2) << args.join(u' ').toStdString();
        EXPECT_EQ(r.err.count(u'\n'), 1) << r.err.toStdString();
        EXPECT_TRUE(r.out.isEmpty());
    }
    const CliResult missing = ops({QStringLiteral("/nonexistent/trace.json")});
    EXPECT_EQ(missing.status, 1);
    EXPECT_EQ(missing.err.count(u'\n'), 1) << missing.err.toStdString();
}

TEST(CliOps, PlainCudaExportIsAllNoOperator) {
    const QString path = fixture("nsys2022.2-vectoradd-a.sqlite");
    const std::vector<QStringList> rows = opsRows({path});
    ASSERT_EQ(rows.size(), 1u);
    SqlDb db(path);
    qint64 gpu = 0;
    for (const char* table : {"CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY",
                              "CUPTI_ACTIVITY_KIND_MEMSET"}) {
        if (!db.hasTable(table))
            continue;
        const auto sum = db.query(QStringLiteral("SELECT SUM([end] - start) FROM ") %
                                  QString::fromLatin1(table));
        if (!sum.empty() && sum[0][0])
            gpu += sum[0][0]->toLongLong();
    }
    ASSERT_GT(gpu, 0);
    EXPECT_EQ(rows[0][0], QStringLiteral("(no operator)"));
    EXPECT_EQ(column(rows[0], 2), 0); // no host side
    EXPECT_EQ(column(rows[0], 4), gpu);
    EXPECT_EQ(column(rows[0], 5), gpu);
    EXPECT_EQ(rows[0][6], QStringLiteral("100.00"));
}

TEST(CliOps, PartialLoadPrintsWhatAFullLoadPrints) {
    for (const QString& path : {resnet(), fixture("nsys2026.2-h100-2gpu-nvtx.sqlite"),
                                fixture("nsys2022.2-vectoradd-a.sqlite")}) {
        for (const QStringList& options :
             {QStringList{}, QStringList{QStringLiteral("--group-by"), QStringLiteral("shapes")}}) {
            CliResult full;
            QTextStream out(&full.out), err(&full.err);
            full.status =
                cli::runOps(QStringList{path} + options, cli::Io{out, err, kAllTraceParts});
            out.flush();
            const CliResult partial = ops(QStringList{path} + options);
            ASSERT_EQ(full.status, 0);
            ASSERT_EQ(partial.status, 0);
            EXPECT_EQ(partial.out, full.out) << path.toStdString();
        }
    }
}

// Names come from the file: escaped controls and no spreadsheet formulas in CSV, the name as
// recorded in JSON. One operator launching one kernel, every number known.
TEST(CliOps, NamesFromTheFileAreNeutralised) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("hostile.json"));
    QFile file(path);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write(R"({"schemaVersion": 1, "traceEvents": [
 {"ph": "X", "cat": "cpu_op", "name": "=HYPERLINK(\"x\")\u001b[2J", "pid": 1, "tid": 1,
  "ts": 100, "dur": 50, "args": {"External id": 1}},
 {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1,
  "ts": 110, "dur": 5, "args": {"correlation": 7}},
 {"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 120, "dur": 10,
  "args": {"device": 0, "context": 1, "stream": 7, "correlation": 7}}]})");
    file.close();
    const std::vector<QStringList> rows = opsRows({path});
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0], (QStringList{QStringLiteral("'=HYPERLINK(\"x\")\\x1B[2J"),
                                    QStringLiteral("1"), QStringLiteral("45000"),
                                    QStringLiteral("50000"), QStringLiteral("10000"),
                                    QStringLiteral("10000"), QStringLiteral("100.00")}));
    const CliResult json = ops({path, QStringLiteral("--format"), QStringLiteral("json")});
    ASSERT_EQ(json.status, 0);
    EXPECT_FALSE(json.out.contains(QChar(0x1B)));
    const QJsonArray array = QJsonDocument::fromJson(json.out.toUtf8()).array();
    ASSERT_EQ(array.size(), 1);
    EXPECT_EQ(array[0].toObject()[QStringLiteral("name")].toString(),
              QStringLiteral("=HYPERLINK(\"x\")\x1b[2J"));
}
