// SPDX-License-Identifier: MIT
// TensorBoard's PyTorch profiler recommendations, exposed_communication and straggler
// (model/analysis/recommendations.cpp): hand-written Kineto traces whose answers are worked out
// below, the ResNet-50 fixture against the plugin's step breakdown (tbplugin_oracle) and against
// the plugin's Tensor Core rule followed on the JSON, the same fixture rewritten as a 4-worker
// data loader would have recorded it, and the V100 memory fixture against its [memory] events.
#include "formats/open.h"
#include "model/analysis/findings.h"
#include "model/reports/findingtext.h"
#include "tests/support/kinetoscan.h"
#include "tests/support/tbplugin_oracle.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <gtest/gtest.h>
#include <zlib.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <map>
#include <set>

using namespace strobe;
using namespace strobe::test;

namespace {

// ---- helpers ----

QByteArray gunzipFile(const std::string& path) {
    QFile f(QString::fromStdString(path));
    EXPECT_TRUE(f.open(QIODevice::ReadOnly));
    const QByteArray packed = f.readAll();
    z_stream z{};
    EXPECT_EQ(inflateInit2(&z, 15 + 32), Z_OK);
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(packed.constData()));
    z.avail_in = uInt(packed.size());
    QByteArray out;
    char buffer[1 << 16];
    int rc = Z_OK;
    while (rc == Z_OK) {
        z.next_out = reinterpret_cast<Bytef*>(buffer);
        z.avail_out = sizeof buffer;
        rc = inflate(&z, Z_NO_FLUSH);
        out.append(buffer, qsizetype(sizeof buffer - z.avail_out));
    }
    EXPECT_EQ(rc, Z_STREAM_END);
    inflateEnd(&z);
    return out;
}

std::string writeFile(const QTemporaryDir& dir, const char* name, const QByteArray& bytes) {
    const QString path = dir.filePath(QString::fromLatin1(name));
    QFile f(path);
    EXPECT_TRUE(f.open(QIODevice::WriteOnly));
    f.write(bytes);
    return path.toStdString();
}

std::unique_ptr<Trace> load(const std::string& path) {
    LoadResult r = loadTrace(QString::fromStdString(path));
    EXPECT_TRUE(r.ok()) << r.error.toStdString();
    return std::move(r.trace);
}

FindingOptions only(FindingRule rule) {
    FindingOptions o;
    o.only = {rule};
    return o;
}

std::vector<const Finding*> of(const Findings& all, FindingRule rule) {
    std::vector<const Finding*> out;
    for (const Finding& f : all.findings)
        if (f.rule == rule)
            out.push_back(&f);
    return out;
}

std::optional<MissingData> skipped(const Findings& all, FindingRule rule) {
    for (const SkippedRule& s : all.skipped)
        if (s.rule == rule)
            return s.missing;
    return std::nullopt;
}

std::int64_t ns(const std::optional<std::int64_t>& whole, const std::optional<double>& value) {
    return exactNs(whole, value).value_or(0);
}

// The plugin's steps' time and a category's time, summed over the steps (TbRole order).
std::pair<std::int64_t, std::int64_t> oracleShare(const TbResult& r, TbRole role) {
    std::int64_t total = 0, part = 0;
    for (const TbStep& s : r.steps) {
        total += s.end - s.start;
        part += s.of(role);
    }
    return {part, total};
}

// Strobe's choices where they differ from the plugin (test_operators_oracle.cpp says why).
constexpr TbOptions kStrobeChoices{.gpuUserAnnotations = false,
                                   .unmatchedRuntimesByContainment = true,
                                   .collectiveKernelsByContainment = true};

// ---- a hand-written trace ----

// Thread 1 of pid 1, times in us. ProfilerStep#1 [0, 1000) and #2 [1000, 2000); a data loader
// [10, 10 + loader) and [1010, 1010 + loader); aten::mm [200, 220) launching `mmKernel`
// [300, 600) and aten::mm [1150, 1170) launching it at [1200, 1400); with `nccl`,
// nccl:all_reduce [1420, 1440) launching an NCCL kernel [1450, 1850) on stream 20 (no compute
// under it); with `memory`, GPU 0 holds 500,000 B at 100, 950,000 B at 400, 400,000 B at 800;
// with `major`, deviceProperties give GPU 0 that compute capability and 1,000,000 B.
struct Synth {
    int loader = 100;
    const char* mmKernel = "volta_sgemm_128x64_nn";
    bool nccl = true;
    bool memory = true;
    std::optional<int> major = 8;
};

QByteArray synthJson(const Synth& s) {
    QStringList e;
    const auto op = [&](const char* cat, const QString& name, int ts, int dur, int ext) {
        e << QStringLiteral(R"({"ph":"X","cat":"%1","name":"%2","pid":1,"tid":1,"ts":%3,"dur":%4,)"
                            R"("args":{"External id":%5}})")
                 .arg(QLatin1String(cat), name)
                 .arg(ts)
                 .arg(dur)
                 .arg(ext);
    };
    const auto launch = [&](int ts, int corr, int ext, const char* kernel, int kts, int kdur,
                            int stream) {
        e << QStringLiteral(
                 R"({"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,)"
                 R"("tid":1,"ts":%1,"dur":5,"args":{"correlation":%2,"External id":%3}})")
                 .arg(ts)
                 .arg(corr)
                 .arg(ext);
        e << QStringLiteral(R"({"ph":"X","cat":"kernel","name":"%1","pid":0,"tid":%2,"ts":%3,)"
                            R"("dur":%4,"args":{"device":0,"stream":%2,"correlation":%5,)"
                            R"("External id":%6,"grid":[160,1,1],"block":[256,1,1]}})")
                 .arg(QLatin1String(kernel))
                 .arg(stream)
                 .arg(kts)
                 .arg(kdur)
                 .arg(corr)
                 .arg(ext);
    };
    op("user_annotation", QStringLiteral("ProfilerStep#1"), 0, 1000, 1);
    op("user_annotation", QStringLiteral("ProfilerStep#2"), 1000, 1000, 2);
    const QString loader =
        QStringLiteral("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__");
    op("cpu_op", loader, 10, s.loader, 3);
    op("cpu_op", loader, 1010, s.loader, 4);
    op("cpu_op", QStringLiteral("aten::mm"), 200, 20, 11);
    launch(205, 101, 11, s.mmKernel, 300, 300, 7);
    op("cpu_op", QStringLiteral("aten::mm"), 1150, 20, 12);
    launch(1155, 102, 12, s.mmKernel, 1200, 200, 7);
    if (s.nccl) {
        op("cpu_op", QStringLiteral("nccl:all_reduce"), 1420, 20, 13);
        launch(1425, 103, 13, "ncclKernel_AllReduce_RING_LL_Sum_float", 1450, 400, 20);
    }
    if (s.memory)
        for (const auto& [ts, bytes] : {std::pair{100, 500000}, {400, 950000}, {800, 400000}})
            e << QStringLiteral(R"({"ph":"i","cat":"cpu_instant_event","s":"t","name":"[memory]",)"
                                R"("pid":1,"tid":1,"ts":%1,"args":{"Device Type":1,"Device Id":0,)"
                                R"("Total Allocated":%2}})")
                     .arg(ts)
                     .arg(bytes);
    QString props;
    if (s.major)
        props = QStringLiteral(R"(,"deviceProperties":[{"id":0,"name":"NVIDIA A100-SXM4-80GB",)"
                               R"("computeMajor":%1,"computeMinor":0,"totalGlobalMem":1000000,)"
                               R"("numSms":108}])")
                    .arg(*s.major);
    return (QStringLiteral(R"({"traceEvents":[)") % e.join(QLatin1Char(',')) % u']' % props % u'}')
        .toUtf8();
}

class Recommendations : public ::testing::Test {
protected:
    struct Loaded {
        std::unique_ptr<Trace> trace;
        TbResult oracle;
    };
    Loaded make(const Synth& s) {
        const std::string path = writeFile(dir, "synth.json", synthJson(s));
        return {load(path), tensorBoardOracle(scanKineto(path), kStrobeChoices)};
    }
    QTemporaryDir dir;
};

TEST_F(Recommendations, DataLoadingIsThePluginsShareOfTheSteps) {
    const Loaded t = make({});
    ASSERT_TRUE(t.trace);
    const auto [loader, total] = oracleShare(t.oracle, TbRole::DataLoader);
    ASSERT_EQ(t.oracle.steps.size(), 2u);
    EXPECT_EQ(loader, 200'000); // two 100 us loaders, nothing of higher priority under them
    EXPECT_EQ(total, 2'000'000);
    const Findings all = computeFindings(*t.trace, only(FindingRule::DataLoading));
    const auto found = of(all, FindingRule::DataLoading);
    ASSERT_EQ(found.size(), 1u);
    const Finding& f = *found[0];
    EXPECT_EQ(f.timeNs, loader);
    EXPECT_EQ(f.baseNs, total);
    EXPECT_EQ(f.base, ShareBase::Step);
    EXPECT_DOUBLE_EQ(f.sharePercent, 10.0);
    EXPECT_DOUBLE_EQ(f.threshold, 5.0);
    EXPECT_EQ(f.count, 2u);
    ASSERT_EQ(f.evidence.size(), 2u);
    EXPECT_EQ(f.evidence[0].range, (TimeRange{10'000, 110'000}));
    EXPECT_EQ(f.evidence[1].range, (TimeRange{1'010'000, 1'110'000}));
    const FindingWords words = findingWords(*t.trace, f);
    EXPECT_EQ(words.finding,
              QStringLiteral("Data loading takes 10.0 % of the steps' time (200.0 \u00b5s of "
                             "2.000 ms), in 2 data-loader ranges."));
    EXPECT_TRUE(words.nextStep.contains(u"num_workers"));
    const ReportTable table = evidenceTable(*t.trace, f);
    ASSERT_EQ(table.rows.size(), 2u);
    EXPECT_EQ(table.rows[0][0].text,
              QStringLiteral("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__"));
    EXPECT_EQ(table.rows[0][4].text, QStringLiteral("100000"));

    // The plugin's test is "share > 5 %": at a threshold of exactly 10 % it says nothing, and a
    // 10 us loader (1 % of the steps) says nothing at the default.
    FindingOptions at10 = only(FindingRule::DataLoading);
    at10.dataLoadingPercent = 10;
    EXPECT_TRUE(of(computeFindings(*t.trace, at10), FindingRule::DataLoading).empty());
    Synth fast;
    fast.loader = 10;
    const Loaded clean = make(fast);
    EXPECT_TRUE(
        of(computeFindings(*clean.trace, only(FindingRule::DataLoading)), FindingRule::DataLoading)
            .empty());
}

TEST_F(Recommendations, CommunicationAndExposedCommunication) {
    const Loaded t = make({});
    const auto [comm, total] = oracleShare(t.oracle, TbRole::Communication);
    // The NCCL kernel's 400 us and nccl:all_reduce's 20 us outside any kernel.
    EXPECT_EQ(comm, 420'000);
    const Findings all = computeFindings(*t.trace);
    const auto c = of(all, FindingRule::Communication);
    ASSERT_EQ(c.size(), 1u);
    EXPECT_EQ(c[0]->timeNs, comm);
    EXPECT_EQ(c[0]->baseNs, total);
    EXPECT_DOUBLE_EQ(c[0]->sharePercent, 100.0 * 420'000 / 2'000'000);
    ASSERT_EQ(c[0]->evidence.size(), 1u); // only step 2 communicates
    EXPECT_DOUBLE_EQ(c[0]->evidence[0].value, 420'000);
    EXPECT_EQ(findingWords(*t.trace, *c[0]).finding,
              QStringLiteral("Communication takes 21.0 % of the steps' time (420.0 \u00b5s of "
                             "2.000 ms) over 2 steps, most in ProfilerStep#2 (420.0 \u00b5s)."));
    // Exposed: the NCCL kernel with no compute under it, 400 us of the 2 ms of steps, on GPU 0.
    const auto x = of(all, FindingRule::ExposedCommunication);
    ASSERT_EQ(x.size(), 1u);
    EXPECT_EQ(x[0]->deviceId, 0u);
    EXPECT_EQ(x[0]->timeNs, 400'000);
    EXPECT_DOUBLE_EQ(x[0]->sharePercent, 20.0);
    ASSERT_EQ(x[0]->evidence.size(), 1u);
    EXPECT_EQ(x[0]->evidence[0].range, (TimeRange{1'000'000, 2'000'000}));
    EXPECT_TRUE(findingWords(*t.trace, *x[0]).finding.contains(u"ProfilerStep#2 (400.0 \u00b5s)"));
    // A single trace with NCCL: straggler needs the job.
    EXPECT_EQ(skipped(all, FindingRule::Straggler), MissingData::Job);

    FindingOptions high;
    high.communicationPercent = 25;
    high.exposedCommunicationPercent = 20; // 20 % is not over 20 %
    const Findings quiet = computeFindings(*t.trace, high);
    EXPECT_TRUE(of(quiet, FindingRule::Communication).empty());
    EXPECT_TRUE(of(quiet, FindingRule::ExposedCommunication).empty());

    Synth alone;
    alone.nccl = false;
    const Loaded single = make(alone);
    const Findings none = computeFindings(*single.trace);
    EXPECT_TRUE(of(none, FindingRule::Communication).empty());
    EXPECT_EQ(skipped(none, FindingRule::ExposedCommunication), MissingData::Communication);
    EXPECT_EQ(skipped(none, FindingRule::Straggler), std::nullopt); // no NCCL: nothing to say
    EXPECT_TRUE(of(none, FindingRule::Straggler).empty());
}

TEST_F(Recommendations, GpuUtilizationOverTheSteps) {
    const Loaded t = make({});
    // Busy: [300, 600) + [1200, 1400) + [1450, 1850) = 900 us of the steps' [0, 2000).
    TbRanges kernels =
        tbMergeRanges({{300'000, 600'000}, {1'200'000, 1'400'000}, {1'450'000, 1'850'000}});
    const TbRanges span = {{t.oracle.steps.front().start, t.oracle.steps.back().end}};
    std::int64_t busy = 0;
    for (const auto& [a, b] : tbIntersection(kernels, span))
        busy += b - a;
    ASSERT_EQ(busy, 900'000);
    const Findings all = computeFindings(*t.trace, only(FindingRule::GpuUtilization));
    const auto f = of(all, FindingRule::GpuUtilization);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0]->deviceId, 0u);
    EXPECT_DOUBLE_EQ(f[0]->measured, 45.0);
    EXPECT_EQ(f[0]->timeNs, 1'100'000);
    EXPECT_EQ(f[0]->baseNs, 2'000'000);
    ASSERT_EQ(f[0]->evidence.size(), 2u);
    // Least busy first: step 1 (300 us of 1 ms), then step 2 (600 us).
    EXPECT_DOUBLE_EQ(f[0]->evidence[0].value, 30.0);
    EXPECT_DOUBLE_EQ(f[0]->evidence[1].value, 60.0);
    EXPECT_EQ(findingWords(*t.trace, *f[0]).finding,
              QStringLiteral("GPU 0 is busy 45.0 % of the steps' time, under 50.0 %: idle "
                             "1.100 ms of 2.000 ms."));
    FindingOptions low = only(FindingRule::GpuUtilization);
    low.gpuUtilizationPercent = 45; // 45 % is not under 45 %
    EXPECT_TRUE(of(computeFindings(*t.trace, low), FindingRule::GpuUtilization).empty());
}

TEST_F(Recommendations, TensorCoresOnEligibleOperatorsWithoutTensorCoreKernels) {
    const Loaded t = make({});
    const Findings all = computeFindings(*t.trace, only(FindingRule::TensorCores));
    const auto f = of(all, FindingRule::TensorCores);
    ASSERT_EQ(f.size(), 1u);
    // aten::mm's kernels (300 + 200 us) of the operators' 900 us (nccl:all_reduce's 400 us).
    EXPECT_EQ(f[0]->timeNs, 500'000);
    EXPECT_DOUBLE_EQ(f[0]->measured, 100.0 * 500'000 / 900'000);
    EXPECT_EQ(f[0]->baseNs, 900'000);
    EXPECT_EQ(f[0]->count, 2u);
    EXPECT_EQ(f[0]->subject, QStringLiteral("aten::mm"));
    ASSERT_EQ(f[0]->evidence.size(), 1u);
    EXPECT_EQ(f[0]->evidence[0].range, (TimeRange{200'000, 220'000}));
    EXPECT_TRUE(findingWords(*t.trace, *f[0]).finding.contains(u"compute capability 8.0"));

    Synth tc;
    tc.mmKernel = "sm80_xmma_gemm_f16f16_f16f32_f32_nn_n_tilesize96x128x32_stage4";
    EXPECT_TRUE(of(computeFindings(*make(tc).trace, only(FindingRule::TensorCores)),
                   FindingRule::TensorCores)
                    .empty());
    Synth pascal;
    pascal.major = 6;
    const Findings p = computeFindings(*make(pascal).trace, only(FindingRule::TensorCores));
    EXPECT_TRUE(of(p, FindingRule::TensorCores).empty());
    EXPECT_EQ(skipped(p, FindingRule::TensorCores), std::nullopt);
    Synth named;
    named.major = 0; // recorded as 0 (not known): "NVIDIA A100-SXM4-80GB" says 8.0
    const Loaded n = make(named);
    const Findings byName = computeFindings(*n.trace, only(FindingRule::TensorCores));
    const auto nf = of(byName, FindingRule::TensorCores);
    ASSERT_EQ(nf.size(), 1u);
    EXPECT_TRUE(findingWords(*n.trace, *nf[0]).finding.contains(u"compute capability 8.0"));
    Synth unknown;
    unknown.major.reset();
    const Findings u = computeFindings(*make(unknown).trace, only(FindingRule::TensorCores));
    EXPECT_EQ(skipped(u, FindingRule::TensorCores), MissingData::ComputeCapability);
}

// Only the lowest eligible operators count (tensor_cores_parser.py's "bottom" operators): a
// kernel aten::linear launches itself, around an aten::addmm, is not eligible time.
TEST_F(Recommendations, TensorCoresCountTheLowestEligibleOperatorsOnly) {
    const char* const json = R"({"traceEvents":[
 {"ph":"X","cat":"user_annotation","name":"ProfilerStep#1","pid":1,"tid":1,"ts":0,"dur":1000},
 {"ph":"X","cat":"cpu_op","name":"aten::linear","pid":1,"tid":1,"ts":100,"dur":100,"args":{"External id":1}},
 {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":105,"dur":5,"args":{"correlation":11,"External id":1}},
 {"ph":"X","cat":"cpu_op","name":"aten::addmm","pid":1,"tid":1,"ts":120,"dur":60,"args":{"External id":2}},
 {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":125,"dur":5,"args":{"correlation":12,"External id":2}},
 {"ph":"X","cat":"cpu_op","name":"aten::relu","pid":1,"tid":1,"ts":250,"dur":10,"args":{"External id":3}},
 {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":252,"dur":5,"args":{"correlation":13,"External id":3}},
 {"ph":"X","cat":"kernel","name":"k_bias","pid":0,"tid":7,"ts":300,"dur":50,"args":{"device":0,"stream":7,"correlation":11,"External id":1}},
 {"ph":"X","cat":"kernel","name":"volta_sgemm_64x64_nn","pid":0,"tid":7,"ts":400,"dur":100,"args":{"device":0,"stream":7,"correlation":12,"External id":2}},
 {"ph":"X","cat":"kernel","name":"k_relu","pid":0,"tid":7,"ts":600,"dur":20,"args":{"device":0,"stream":7,"correlation":13,"External id":3}}
],"deviceProperties":[{"id":0,"name":"Tesla V100-SXM2-32GB","computeMajor":7,"computeMinor":0}]})";
    const auto trace = load(writeFile(dir, "bottom.json", QByteArray(json)));
    ASSERT_TRUE(trace);
    const Findings all = computeFindings(*trace, only(FindingRule::TensorCores));
    const auto f = of(all, FindingRule::TensorCores);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0]->timeNs, 100'000);                            // aten::addmm's kernel alone
    EXPECT_DOUBLE_EQ(f[0]->measured, 100.0 * 100'000 / 170'000); // of all three operators'
    EXPECT_EQ(f[0]->subject, QStringLiteral("aten::addmm"));
    EXPECT_EQ(f[0]->count, 1u);
}

TEST_F(Recommendations, MemoryPeakOverTheGpusMemory) {
    const Loaded t = make({});
    const Findings all = computeFindings(*t.trace, only(FindingRule::MemoryPeak));
    const auto f = of(all, FindingRule::MemoryPeak);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_DOUBLE_EQ(f[0]->measured, 95.0);
    EXPECT_EQ(f[0]->timeNs, 400'000); // over 90 % from 400 us until the next sample at 800 us
    EXPECT_EQ(f[0]->count, 1u);
    ASSERT_EQ(f[0]->evidence.size(), 1u);
    EXPECT_EQ(f[0]->evidence[0].range, (TimeRange{400'000, 800'000}));
    EXPECT_DOUBLE_EQ(f[0]->evidence[0].value, 950'000);
    EXPECT_EQ(findingWords(*t.trace, *f[0]).finding,
              QStringLiteral("GPU 0's allocated memory peaks at 927.73 KiB, 95.0 % of its "
                             "976.56 KiB; it stays over 90.0 % for 400.0 \u00b5s."));
    FindingOptions high = only(FindingRule::MemoryPeak);
    high.memoryPeakPercent = 95;
    EXPECT_TRUE(of(computeFindings(*t.trace, high), FindingRule::MemoryPeak).empty());
    FindingOptions low = only(FindingRule::MemoryPeak);
    low.memoryPeakPercent = 45; // 500,000 B at 100 us counts too: 100 to 800 us
    const Findings lAll = computeFindings(*t.trace, low);
    const auto l = of(lAll, FindingRule::MemoryPeak);
    ASSERT_EQ(l.size(), 1u);
    EXPECT_EQ(l[0]->timeNs, 700'000);

    Synth noMemory;
    noMemory.memory = false;
    EXPECT_EQ(skipped(computeFindings(*make(noMemory).trace, only(FindingRule::MemoryPeak)),
                      FindingRule::MemoryPeak),
              MissingData::MemoryRecord);
    Synth noSize;
    noSize.major.reset(); // no deviceProperties: the GPU's memory size is unknown
    EXPECT_EQ(skipped(computeFindings(*make(noSize).trace, only(FindingRule::MemoryPeak)),
                      FindingRule::MemoryPeak),
              MissingData::MemoryRecord);
}

TEST_F(Recommendations, RulesWithoutStepsOrGpuWorkSayWhatTheyLack) {
    const std::string path = writeFile(dir, "empty.json", QByteArrayLiteral(R"({"traceEvents":[
        {"ph":"i","cat":"cpu_instant_event","s":"t","name":"mark","pid":1,"tid":1,"ts":5}]})"));
    const auto trace = load(path);
    ASSERT_TRUE(trace);
    const Findings all = computeFindings(*trace);
    EXPECT_EQ(skipped(all, FindingRule::DataLoading), MissingData::Steps);
    EXPECT_EQ(skipped(all, FindingRule::Communication), MissingData::Steps);
    EXPECT_EQ(skipped(all, FindingRule::GpuUtilization), MissingData::GpuWork);
    EXPECT_EQ(skipped(all, FindingRule::TensorCores), MissingData::GpuWork);
    EXPECT_EQ(skipped(all, FindingRule::MemoryPeak), MissingData::MemoryRecord);
    EXPECT_EQ(skipped(all, FindingRule::ExposedCommunication), MissingData::Communication);
    EXPECT_EQ(skipped(all, FindingRule::Straggler), std::nullopt);
}

// ---- real fixtures ----

const char* const kResnet = "resnet50-kineto-2021.pt.trace.json.gz";

bool isLoaderName(const std::string& name) {
    return name.starts_with("enumerate(DataLoader)#") && name.ends_with(".__next__");
}

TEST(RecommendationsFixtures, ResNet50DataLoadingEqualsThePlugins) {
    const std::string path = kinetoFixturePath(kResnet);
    const TbResult oracle = tensorBoardOracle(scanKineto(path), kStrobeChoices);
    const auto [loader, total] = oracleShare(oracle, TbRole::DataLoader);
    const auto trace = load(path);
    ASSERT_TRUE(trace);
    const Findings all = computeFindings(*trace);
    const auto f = of(all, FindingRule::DataLoading);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0]->timeNs, loader);
    EXPECT_EQ(f[0]->baseNs, total);
    EXPECT_DOUBLE_EQ(f[0]->sharePercent, 100.0 * double(loader) / double(total));
    EXPECT_EQ(f[0]->count, 6u); // one __next__ per step
    std::cout << "resnet50 data_loading: " << findingWords(*trace, *f[0]).finding.toStdString()
              << '\n';
    // No NCCL: nothing about stragglers, and nothing exposed to say.
    EXPECT_EQ(skipped(all, FindingRule::Straggler), std::nullopt);
    EXPECT_EQ(skipped(all, FindingRule::ExposedCommunication), MissingData::Communication);
    // Kineto 2021 recorded no memory.
    EXPECT_EQ(skipped(all, FindingRule::MemoryPeak), MissingData::MemoryRecord);
}

// The same trace as a DataLoader with num_workers=4 records it: __next__ only takes a ready
// batch from the workers' queue (400 us here), and the operators it ran inside (collation,
// transforms) run in the worker processes, outside the trace.
TEST(RecommendationsFixtures, ResNet50WithFourWorkersHasNoDataLoadingFinding) {
    QJsonDocument doc = QJsonDocument::fromJson(gunzipFile(kinetoFixturePath(kResnet)));
    QJsonObject root = doc.object();
    const QJsonArray events = root.value(QStringLiteral("traceEvents")).toArray();
    struct Range {
        QJsonValue pid, tid;
        double start, end;
    };
    std::vector<Range> loaders;
    for (const QJsonValue v : events) {
        const QJsonObject e = v.toObject();
        if (isLoaderName(e.value(QStringLiteral("name")).toString().toStdString()))
            loaders.push_back({e.value(QStringLiteral("pid")), e.value(QStringLiteral("tid")),
                               e.value(QStringLiteral("ts")).toDouble(),
                               e.value(QStringLiteral("ts")).toDouble() +
                                   e.value(QStringLiteral("dur")).toDouble()});
    }
    ASSERT_EQ(loaders.size(), 6u);
    QJsonArray rewritten;
    std::size_t dropped = 0;
    for (const QJsonValue v : events) {
        QJsonObject e = v.toObject();
        if (isLoaderName(e.value(QStringLiteral("name")).toString().toStdString())) {
            e.insert(QStringLiteral("dur"), 400);
            rewritten.append(e);
            continue;
        }
        const double ts = e.value(QStringLiteral("ts")).toDouble();
        const bool inside = std::any_of(loaders.begin(), loaders.end(), [&](const Range& r) {
            return e.value(QStringLiteral("pid")) == r.pid &&
                   e.value(QStringLiteral("tid")) == r.tid && ts >= r.start && ts < r.end;
        });
        if (inside && e.value(QStringLiteral("ph")).toString() == QLatin1String("X")) {
            ++dropped;
            continue;
        }
        rewritten.append(e);
    }
    EXPECT_EQ(dropped, 3150u); // the operators the loaders ran
    root.insert(QStringLiteral("traceEvents"), rewritten);
    QTemporaryDir dir;
    const std::string path =
        writeFile(dir, "workers4.json", QJsonDocument(root).toJson(QJsonDocument::Compact));

    const TbResult oracle = tensorBoardOracle(scanKineto(path), kStrobeChoices);
    const auto [loader, total] = oracleShare(oracle, TbRole::DataLoader);
    // The GPU still runs the previous step's kernels under most of the 400 us, and kernels come
    // first: the plugin counts the rest.
    EXPECT_LE(loader, 6 * 400'000);
    const auto trace = load(path);
    ASSERT_TRUE(trace);
    EXPECT_TRUE(
        of(computeFindings(*trace, only(FindingRule::DataLoading)), FindingRule::DataLoading)
            .empty());
    // With no threshold it does show, with the plugin's share (0.2 %).
    FindingOptions any = only(FindingRule::DataLoading);
    any.dataLoadingPercent = 0;
    const Findings fAll = computeFindings(*trace, any);
    const auto f = of(fAll, FindingRule::DataLoading);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0]->timeNs, loader);
    EXPECT_EQ(f[0]->baseNs, total);
    EXPECT_LT(f[0]->sharePercent, 0.5);
    std::cout << "resnet50, 4 workers: " << findingWords(*trace, *f[0]).finding.toStdString()
              << '\n';
}

// The plugin's TC_OP_Allowlist (tensor_core.py), copied here independently of Strobe's.
const std::set<std::string> kEligible = {"aten::_convolution",
                                         "aten::_convolution_nogroup",
                                         "aten::conv1d",
                                         "aten::conv2d",
                                         "aten::conv3d",
                                         "aten::conv_tbc",
                                         "aten::conv_transpose1d",
                                         "aten::conv_transpose2d",
                                         "aten::conv_transpose3d",
                                         "aten::convolution",
                                         "aten::cudnn_convolution",
                                         "aten::cudnn_convolution_transpose",
                                         "aten::prelu",
                                         "aten::addmm",
                                         "aten::addmv",
                                         "aten::addr",
                                         "aten::matmul",
                                         "aten::mm",
                                         "aten::mv",
                                         "aten::linear",
                                         "aten::addbmm",
                                         "aten::baddbmm",
                                         "aten::bmm",
                                         "aten::chain_matmul",
                                         "aten::linalg_multi_dot",
                                         "aten::_thnn_fused_lstm_cell",
                                         "aten::_thnn_fused_gru_cell",
                                         "aten::lstm_cell",
                                         "aten::gru_cell",
                                         "aten::rnn_tanh_cell",
                                         "aten::rnn_relu_cell",
                                         "CudnnConvolutionBackward",
                                         "BmmBackward0",
                                         "aten::cudnn_convolution_transpose_backward",
                                         "CudnnConvolutionTransposeBackward",
                                         "MmBackward",
                                         "aten::cudnn_convolution_backward_weight",
                                         "aten::addmm_",
                                         "AddmvBackward",
                                         "MvBackward",
                                         "aten::cudnn_convolution_transpose_backward_weight",
                                         "aten::cudnn_convolution_transpose_backward_input",
                                         "AddmmBackward",
                                         "aten::cudnn_convolution_backward_input",
                                         "AddbmmBackward",
                                         "aten::cudnn_convolution_backward"};

// tensor_cores_parser.py's ratio followed on the JSON: each operator's own kernels by External
// id, the "bottom" eligible operators (eligible, with no eligible operator nested inside on its
// thread) over every operator the plugin lists.
struct TensorCoreOracle {
    std::int64_t kernels = 0, tensorCore = 0, operators = 0, eligible = 0;
    std::map<std::string, std::int64_t> byName;
};

TensorCoreOracle tensorCoreOracle(const ScannedTrace& scan) {
    static const char* const kTc[] = {"h884",
                                      "s884",
                                      "h1688",
                                      "s1688",
                                      "hmma",
                                      "i8816",
                                      "16816",
                                      "dgrad_1x1_stride_2x2",
                                      "first_layer_wgrad_kernel",
                                      "conv1x1",
                                      "conv2d_c1_k1",
                                      "direct_group",
                                      "xmma_implicit_gemm",
                                      "xmma_sparse_conv",
                                      "xmma_warp_specialized_implicit_gemm",
                                      "xmma_gemm",
                                      "xmma_sparse_gemm",
                                      "c1688"};
    struct Op {
        std::string name;
        std::int64_t start, end;
        bool listed = false, eligibleBelow = false;
    };
    std::map<std::pair<std::int64_t, std::int64_t>, std::vector<std::size_t>> byThread;
    std::vector<Op> ops;
    std::map<std::int64_t, std::size_t> byExternal;
    for (const ScannedEvent& e : scan.events) {
        if (e.ph != "X" || (e.cat != "Operator" && e.cat != "cpu_op"))
            continue;
        const std::int64_t s = ns(e.tsInt, e.ts);
        Op op{e.name, s, s + ns(e.durInt, e.dur)};
        op.listed = !isLoaderName(e.name) && !e.name.starts_with("Optimizer.") &&
                    !e.name.starts_with("ProfilerStep#") && e.name != "DataParallel.forward" &&
                    e.name != "DistributedDataParallel.forward";
        if (e.externalId)
            byExternal.emplace(*e.externalId, ops.size());
        byThread[{e.pid.value_or(0), e.tid.value_or(0)}].push_back(ops.size());
        ops.push_back(op);
    }
    for (auto& [thread, list] : byThread) {
        std::stable_sort(list.begin(), list.end(), [&](std::size_t a, std::size_t b) {
            return ops[a].start != ops[b].start ? ops[a].start < ops[b].start
                                                : ops[a].end > ops[b].end;
        });
        std::vector<std::size_t> stack;
        for (const std::size_t i : list) {
            while (!stack.empty() && ops[stack.back()].end <= ops[i].start)
                stack.pop_back();
            if (kEligible.count(ops[i].name))
                for (const std::size_t p : stack)
                    ops[p].eligibleBelow = true;
            stack.push_back(i);
        }
    }
    TensorCoreOracle r;
    for (const ScannedEvent& e : scan.events) {
        if (e.ph != "X" || (e.cat != "Kernel" && e.cat != "kernel"))
            continue;
        const std::int64_t d = ns(e.durInt, e.dur);
        r.kernels += d;
        if (std::any_of(std::begin(kTc), std::end(kTc),
                        [&](const char* p) { return e.name.find(p) != std::string::npos; }))
            r.tensorCore += d;
        const auto it = e.externalId ? byExternal.find(*e.externalId) : byExternal.end();
        if (it == byExternal.end())
            continue;
        const Op& op = ops[it->second];
        if (op.listed)
            r.operators += d;
        if (kEligible.count(op.name) && !op.eligibleBelow) {
            r.eligible += d;
            r.byName[op.name] += d;
        }
    }
    return r;
}

TEST(RecommendationsFixtures, ResNet50TensorCoresEqualThePluginsRule) {
    const std::string path = kinetoFixturePath(kResnet);
    const TensorCoreOracle want = tensorCoreOracle(scanKineto(path));
    ASSERT_EQ(want.tensorCore, 0); // FP32 on a V100: no Tensor Core kernel
    ASSERT_GT(want.eligible, 0);
    const auto trace = load(path);
    ASSERT_TRUE(trace);
    const Findings fAll = computeFindings(*trace, only(FindingRule::TensorCores));
    const auto f = of(fAll, FindingRule::TensorCores);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0]->deviceId, 0u);
    EXPECT_EQ(f[0]->timeNs, want.eligible);
    EXPECT_EQ(f[0]->baseNs, want.kernels);
    EXPECT_DOUBLE_EQ(f[0]->measured, 100.0 * double(want.eligible) / double(want.operators));
    const auto top =
        std::max_element(want.byName.begin(), want.byName.end(),
                         [](const auto& a, const auto& b) { return a.second < b.second; });
    EXPECT_EQ(f[0]->subject.toStdString(), top->first);
    ASSERT_EQ(f[0]->evidence.size(), want.byName.size());
    EXPECT_DOUBLE_EQ(f[0]->evidence[0].value, double(top->second));
    std::cout << "resnet50 tensor_cores: " << findingWords(*trace, *f[0]).finding.toStdString()
              << '\n';
}

TEST(RecommendationsFixtures, V100MemoryPeakAgainstItsMemoryEvents) {
    const std::string path = kinetoFixturePath("hta-v100-memory-events.json.gz");
    const ScannedTrace scan = scanKineto(path);
    std::map<std::int64_t, std::int64_t> peak; // GPU -> largest Total Allocated
    for (const ScannedEvent& e : scan.events)
        if (e.name == "[memory]" && e.memoryDeviceType == 1 && e.memoryDeviceId && e.totalAllocated)
            peak[*e.memoryDeviceId] = std::max(peak[*e.memoryDeviceId], *e.totalAllocated);
    ASSERT_EQ(peak.size(), 1u);
    const auto [device, bytes] = *peak.begin();
    // deviceProperties' totalGlobalMem of that GPU, read from the JSON here.
    const QJsonArray props = QJsonDocument::fromJson(gunzipFile(path))
                                 .object()
                                 .value(QStringLiteral("deviceProperties"))
                                 .toArray();
    double total = 0;
    for (const QJsonValue p : props)
        if (p.toObject().value(QStringLiteral("id")).toInteger() == device)
            total = p.toObject().value(QStringLiteral("totalGlobalMem")).toDouble();
    ASSERT_GT(total, 0);
    const double percent = 100.0 * double(bytes) / total; // 19.4 %
    const auto trace = load(path);
    ASSERT_TRUE(trace);
    EXPECT_TRUE(of(computeFindings(*trace, only(FindingRule::MemoryPeak)), FindingRule::MemoryPeak)
                    .empty());
    FindingOptions low = only(FindingRule::MemoryPeak);
    low.memoryPeakPercent = std::floor(percent);
    const Findings fAll = computeFindings(*trace, low);
    const auto f = of(fAll, FindingRule::MemoryPeak);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0]->deviceId, std::uint32_t(device));
    EXPECT_DOUBLE_EQ(f[0]->measured, percent);
    ASSERT_EQ(f[0]->evidence.size(), 1u);
    EXPECT_DOUBLE_EQ(f[0]->evidence[0].value, double(bytes));
    std::cout << "v100 memory_peak: " << findingWords(*trace, *f[0]).finding.toStdString() << '\n';
}

TEST(RecommendationsFixtures, DdpTraceCommunicationEqualsThePluginsShare) {
    const std::string path = kinetoFixturePath("hta-a100-nccl-ddp.json.gz");
    const TbResult oracle = tensorBoardOracle(scanKineto(path), kStrobeChoices);
    const auto [comm, total] = oracleShare(oracle, TbRole::Communication);
    const auto trace = load(path);
    ASSERT_TRUE(trace);
    FindingOptions any;
    any.communicationPercent = 0;
    any.only = {FindingRule::DataLoading,    FindingRule::Communication,
                FindingRule::GpuUtilization, FindingRule::TensorCores,
                FindingRule::MemoryPeak,     FindingRule::ExposedCommunication,
                FindingRule::Straggler};
    const Findings all = computeFindings(*trace, any);
    const auto f = of(all, FindingRule::Communication);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0]->timeNs, comm);
    EXPECT_EQ(f[0]->baseNs, total);
    EXPECT_EQ(skipped(all, FindingRule::Straggler), MissingData::Job);
    for (const Finding& x : all.findings)
        std::cout << "ddp " << findingRuleId(x.rule).toStdString() << ": "
                  << findingWords(*trace, x).finding.toStdString() << '\n';
}

// Exposed communication on a real DDP rank against the plugin's range helpers on the JSON: per
// step (the plugin's device-side steps), the NCCL kernels' union minus the other kernels' union.
TEST(RecommendationsFixtures, DdpTraceExposedCommunicationEqualsTheRangeArithmetic) {
    const std::string path = kinetoFixturePath("hta-a100-nccl-ddp.json.gz");
    const ScannedTrace scan = scanKineto(path);
    const TbResult oracle = tensorBoardOracle(scan, kStrobeChoices);
    std::map<std::int64_t, std::pair<TbRanges, TbRanges>> byDevice; // NCCL, compute
    for (const ScannedEvent& e : scan.events) {
        if (e.ph != "X" || e.cat != "kernel" || !e.device)
            continue;
        std::string lower = e.name;
        std::transform(lower.begin(), lower.end(), lower.begin(),
                       [](unsigned char c) { return char(std::tolower(c)); });
        const std::int64_t start = ns(e.tsInt, e.ts);
        auto& ranges = byDevice[*e.device];
        (lower.find("nccl") != std::string::npos ? ranges.first : ranges.second)
            .emplace_back(start, start + std::max<std::int64_t>(1, ns(e.durInt, e.dur)));
    }
    std::map<std::int64_t, std::int64_t> want;
    std::int64_t steps = 0;
    for (const TbStep& step : oracle.steps)
        steps += step.end - step.start;
    for (const auto& [device, ranges] : byDevice) {
        const TbRanges exposed =
            tbSubtraction(tbMergeRanges(ranges.first), tbMergeRanges(ranges.second));
        for (const TbStep& step : oracle.steps)
            for (const auto& [a, b] : tbIntersection(exposed, {{step.start, step.end}}))
                want[device] += b - a;
    }
    ASSERT_GT(want[0], 0);
    const auto trace = load(path);
    ASSERT_TRUE(trace);
    FindingOptions any = only(FindingRule::ExposedCommunication);
    any.exposedCommunicationPercent = 0;
    const Findings all = computeFindings(*trace, any);
    const auto f = of(all, FindingRule::ExposedCommunication);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0]->deviceId, 0u);
    EXPECT_EQ(f[0]->timeNs, want[0]);
    EXPECT_EQ(f[0]->baseNs, steps);
    std::cout << "ddp exposed_communication: " << findingWords(*trace, *f[0]).finding.toStdString()
              << '\n';
}

// How long the rules take on the largest Kineto fixture (reported, not asserted: CI machines
// differ). The inputs computeFindings shares are built first, so this is the rules alone.
TEST(RecommendationsFixtures, TimeOnTheLargestFixture) {
    const auto trace = load(kinetoFixturePath("hta-v100-memory-events.json.gz"));
    ASSERT_TRUE(trace);
    const StepBreakdown steps = computeStepBreakdown(*trace);
    const std::vector<GpuStepMetrics> gpus = computeGpuStepMetrics(
        *trace, {steps.steps.front().range.start, steps.steps.back().range.end});
    const OperatorForest forest = buildOperatorForest(*trace);
    FindingOptions o;
    o.only = {FindingRule::DataLoading,    FindingRule::Communication,
              FindingRule::GpuUtilization, FindingRule::TensorCores,
              FindingRule::MemoryPeak,     FindingRule::ExposedCommunication,
              FindingRule::Straggler};
    const auto t0 = std::chrono::steady_clock::now();
    const Findings all = computeFindings(*trace, o, {&steps, &gpus, &forest});
    const auto t1 = std::chrono::steady_clock::now();
    std::cout << "recommendation rules on hta-v100-memory-events: "
              << std::chrono::duration<double, std::milli>(t1 - t0).count() << " ms, "
              << all.findings.size() << " findings\n";
    EXPECT_EQ(skipped(all, FindingRule::Straggler), MissingData::Job);
}

} // namespace
