// SPDX-License-Identifier: MIT
// The synthetic Kineto trace is what a PyTorch training loop writes: ProfilerStep#N ranges with
// the data loader's inside, operators nested as ATen nests them, launches inside operators and
// carrying the innermost one's External id. Checked through the reader (nesting, containment)
// and through an independent DOM scan of the same file (External ids, correlations).
#include "formats/kineto/synth/kinetosynth.h"
#include "formats/open.h"
#include "tests/support/kinetoscan.h"

#include <gtest/gtest.h>

#include <QFile>
#include <QTemporaryDir>
#include <algorithm>
#include <map>
#include <set>

using namespace strobe;
using namespace strobe::test;
using strobe::kinetosynth::KinetoSynthOptions;
using strobe::kinetosynth::KinetoSynthStats;

namespace {

constexpr std::uint32_t kMainTid = 3141592, kAutogradTid = 3141650;

std::string synthPath(const QTemporaryDir& dir, const char* name) {
    return dir.filePath(QString::fromLatin1(name)).toStdString();
}

QByteArray bytesOf(const std::string& path) {
    QFile f(QString::fromStdString(path));
    EXPECT_TRUE(f.open(QIODevice::ReadOnly));
    return f.readAll();
}

// One synthetic trace, written once for the suite, loaded and scanned.
class KinetoSynth : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        s_dir = new QTemporaryDir;
        s_path = synthPath(*s_dir, "train.json");
        KinetoSynthOptions o;
        o.events = 30000;
        o.seed = 3;
        std::string error;
        s_stats = new KinetoSynthStats;
        ASSERT_TRUE(kinetosynth::writeKinetoTrace(s_path, o, &error, s_stats)) << error;
        LoadResult r = loadTrace(QString::fromStdString(s_path));
        ASSERT_TRUE(r.ok()) << r.error.toStdString();
        s_trace = r.trace.release();
        s_scan = new ScannedTrace(scanKineto(s_path));
    }
    static void TearDownTestSuite() {
        delete s_scan;
        delete s_trace;
        delete s_stats;
        delete s_dir;
    }
    // The lane of `kind` of the thread with `tid`.
    static const Lane* laneOf(LaneKind kind, std::uint32_t tid) {
        const Trace& t = *s_trace;
        for (const Lane& l : t.lanes()) {
            if (l.kind() == kind && t.threads()[l.owner()].tid == tid)
                return &l;
        }
        return nullptr;
    }
    static std::string_view name(const Lane& l, std::uint32_t i) {
        return s_trace->strings().view(l.nameId(i));
    }
    // The event one row up that contains event i (its parent), or none.
    static std::optional<std::uint32_t> parentOf(const Lane& l, std::uint32_t i) {
        const std::uint16_t row = l.row(i);
        if (row == 0)
            return std::nullopt;
        for (const std::uint32_t j : l.stabbing(l.start(i))) {
            if (l.row(j) == row - 1 && l.start(j) <= l.start(i) && l.end(j) >= l.end(i))
                return j;
        }
        return std::nullopt;
    }

    static inline QTemporaryDir* s_dir = nullptr;
    static inline std::string s_path;
    static inline KinetoSynthStats* s_stats = nullptr;
    static inline Trace* s_trace = nullptr;
    static inline ScannedTrace* s_scan = nullptr;
};

} // namespace

TEST_F(KinetoSynth, CountsAreTheGeneratorsAndTheRequest) {
    const TraceCounts& c = s_trace->counts();
    const KinetoSynthStats& st = *s_stats;
    // About the requested number: whole layers, the last step closed.
    EXPECT_GE(st.events, 30000u);
    EXPECT_LT(st.events, 30200u);
    EXPECT_EQ(s_scan->events.size(), st.events);
    EXPECT_EQ(c.kernels, st.kernels);
    EXPECT_EQ(c.memcpys, st.memcpys);
    EXPECT_EQ(c.memsets, st.memsets);
    EXPECT_EQ(c.cudaApiCalls, st.runtimeCalls);
    EXPECT_EQ(c.cpuOps, st.cpuOps);
    EXPECT_EQ(c.nvtxRanges, st.annotations);
    EXPECT_EQ(c.pythonFunctions, st.pythonFunctions);
    EXPECT_EQ(s_trace->syncs().size(), st.syncs);
    EXPECT_GT(st.memcpys, 0u);
    EXPECT_GT(st.memsets, 0u);
    EXPECT_GT(st.steps, 10u);
    for (const TraceWarning& w : s_trace->warnings())
        ADD_FAILURE() << w.kind.toStdString() << ": " << w.message.toStdString();
}

TEST_F(KinetoSynth, SameSeedSameBytesAnotherSeedAnotherTrace) {
    QTemporaryDir dir;
    KinetoSynthOptions o;
    o.events = 5000;
    o.seed = 3;
    const std::string a = synthPath(dir, "a.json"), b = synthPath(dir, "b.json"),
                      c = synthPath(dir, "c.json");
    ASSERT_TRUE(kinetosynth::writeKinetoTrace(a, o, nullptr));
    ASSERT_TRUE(kinetosynth::writeKinetoTrace(b, o, nullptr));
    o.seed = 4;
    ASSERT_TRUE(kinetosynth::writeKinetoTrace(c, o, nullptr));
    EXPECT_EQ(bytesOf(a), bytesOf(b));
    EXPECT_NE(bytesOf(a), bytesOf(c));
}

// One ProfilerStep#N per step on the main thread, numbered on from 5 in time order, each holding
// one data-loader range; every main-thread operator lies inside a step.
TEST_F(KinetoSynth, ProfilerStepsCoverTheMainThread) {
    const Lane* annotations = laneOf(LaneKind::Nvtx, kMainTid);
    const Lane* ops = laneOf(LaneKind::CpuOps, kMainTid);
    ASSERT_TRUE(annotations && ops);
    std::vector<std::uint32_t> steps;
    std::uint64_t loaders = 0, optimizerSteps = 0;
    for (std::uint32_t i = 0; i < annotations->size(); ++i) {
        const std::string_view n = name(*annotations, i);
        if (n.substr(0, 13) == "ProfilerStep#") {
            EXPECT_EQ(annotations->row(i), 0u);
            EXPECT_EQ(n, "ProfilerStep#" + std::to_string(5 + steps.size()));
            steps.push_back(i);
            continue;
        }
        const auto parent = parentOf(*annotations, i);
        ASSERT_TRUE(parent) << n;
        EXPECT_EQ(name(*annotations, *parent).substr(0, 13), "ProfilerStep#") << n;
        loaders += n == "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__";
        optimizerSteps += n == "Optimizer.step#SGD.step";
    }
    EXPECT_EQ(steps.size(), s_stats->steps);
    EXPECT_EQ(loaders, steps.size());
    EXPECT_GE(optimizerSteps + 1, steps.size()); // the last step may be cut short
    for (std::size_t k = 1; k < steps.size(); ++k)
        EXPECT_LE(annotations->end(steps[k - 1]), annotations->start(steps[k]));
    for (std::uint32_t i = 0; i < ops->size(); ++i) {
        const auto in = std::count_if(steps.begin(), steps.end(), [&](std::uint32_t s) {
            return annotations->start(s) <= ops->start(i) && ops->end(i) <= annotations->end(s);
        });
        EXPECT_EQ(in, 1) << name(*ops, i) << " at " << ops->start(i);
    }
}

// The chains ATen records, parent by parent (one row up, containing the child).
TEST_F(KinetoSynth, OperatorsNestAsATenNestsThem) {
    const std::map<std::string_view, std::vector<std::string_view>> chains = {
        {"aten::cudnn_convolution", {"aten::_convolution", "aten::convolution", "aten::conv2d"}},
        {"aten::addmm", {"aten::linear"}},
        {"aten::clamp_min_", {"aten::relu_"}},
        {"aten::cat", {"aten::stack"}},
        {"aten::convolution_backward",
         {"ConvolutionBackward0", "autograd::engine::evaluate_function: ConvolutionBackward0"}},
        {"aten::threshold_backward",
         {"ReluBackward0", "autograd::engine::evaluate_function: ReluBackward0"}},
    };
    std::map<std::string_view, std::uint64_t> seen;
    for (const std::uint32_t tid : {kMainTid, kAutogradTid}) {
        const Lane* ops = laneOf(LaneKind::CpuOps, tid);
        ASSERT_TRUE(ops);
        for (std::uint32_t i = 0; i < ops->size(); ++i) {
            const auto chain = chains.find(name(*ops, i));
            if (chain == chains.end())
                continue;
            ++seen[chain->first];
            std::uint32_t at = i;
            for (const std::string_view expected : chain->second) {
                const auto parent = parentOf(*ops, at);
                ASSERT_TRUE(parent) << chain->first << " at " << ops->start(i);
                EXPECT_EQ(name(*ops, *parent), expected) << chain->first;
                at = *parent;
            }
        }
    }
    for (const auto& [op, chain] : chains)
        EXPECT_GT(seen[op], s_stats->steps / 2) << op;
    // Backward operators run on the autograd thread only.
    const Lane* mainOps = laneOf(LaneKind::CpuOps, kMainTid);
    for (std::uint32_t i = 0; i < mainOps->size(); ++i)
        EXPECT_EQ(name(*mainOps, i).find("Backward"), std::string_view::npos);
}

// In the JSON: every operator's External id is unique; a launch's runtime call and its GPU
// operation share a correlation and carry the External id of the innermost operator around the
// call on its thread.
TEST_F(KinetoSynth, LaunchesCarryTheInnermostOperatorsExternalId) {
    // Times in nanoseconds: the JSON writes microseconds with three decimals.
    auto ns = [](double us) { return std::llround(us * 1000.0); };
    struct Range {
        std::int64_t start, end, external;
        bool operator<(const Range& o) const { return start < o.start; }
    };
    std::map<std::int64_t, std::vector<Range>> opsByTid;
    std::set<std::int64_t> externals;
    for (const ScannedEvent& e : s_scan->events) {
        if (e.ph != "X" || (e.cat != "cpu_op" && e.cat != "user_annotation"))
            continue;
        ASSERT_TRUE(e.externalId) << e.name;
        EXPECT_TRUE(externals.insert(*e.externalId).second) << "repeated " << *e.externalId;
        opsByTid[*e.tid].push_back({ns(*e.ts), ns(*e.ts) + ns(*e.dur), *e.externalId});
    }
    EXPECT_EQ(externals.size(), s_stats->cpuOps + s_stats->annotations);
    for (auto& [tid, ranges] : opsByTid)
        std::sort(ranges.begin(), ranges.end());
    std::map<std::int64_t, std::int64_t> gpuExternal; // by correlation
    for (const ScannedEvent& e : s_scan->events) {
        if (e.ph == "X" && (e.cat == "kernel" || e.cat == "gpu_memcpy" || e.cat == "gpu_memset")) {
            ASSERT_TRUE(e.correlation && e.externalId);
            EXPECT_TRUE(gpuExternal.emplace(*e.correlation, *e.externalId).second);
        }
    }
    std::size_t launches = 0;
    for (const ScannedEvent& e : s_scan->events) {
        if (e.ph != "X" || e.cat != "cuda_runtime" || !e.correlation ||
            !gpuExternal.count(*e.correlation))
            continue;
        ++launches;
        const std::int64_t start = ns(*e.ts), end = start + ns(*e.dur);
        // The containing range that starts last is the innermost (ranges nest).
        const std::vector<Range>& ranges = opsByTid[*e.tid];
        auto it = std::upper_bound(ranges.begin(), ranges.end(), Range{start, 0, 0});
        std::optional<std::int64_t> innermost;
        while (it != ranges.begin() && !innermost) {
            --it;
            if (it->end >= end)
                innermost = it->external;
        }
        ASSERT_TRUE(innermost) << e.name << " at " << start;
        EXPECT_EQ(e.externalId, innermost) << e.name << " at " << start;
        EXPECT_EQ(gpuExternal[*e.correlation], *innermost);
    }
    EXPECT_EQ(launches, gpuExternal.size());
    EXPECT_EQ(launches, s_stats->kernels + s_stats->memcpys + s_stats->memsets);
}

// Through the reader: every kernel, copy and set has its runtime call, which lies inside an
// operator (a CpuOps range) of the launching thread, and every operator recorded its shapes.
TEST_F(KinetoSynth, EveryLaunchIsInsideAnOperatorOnItsThread) {
    const Trace& t = *s_trace;
    std::vector<EventRef> calls;
    for (const KernelRecord& k : t.kernels())
        calls.push_back(k.api);
    for (const MemcpyRecord& m : t.memcpys())
        calls.push_back(m.api);
    for (const MemsetRecord& m : t.memsets())
        calls.push_back(m.api);
    EXPECT_EQ(calls.size(), s_stats->kernels + s_stats->memcpys + s_stats->memsets);
    for (const EventRef call : calls) {
        ASSERT_TRUE(call.isValid());
        const Lane& api = t.lane(call.lane);
        ASSERT_EQ(api.kind(), LaneKind::CudaApi);
        const Lane* ops = laneOf(LaneKind::CpuOps, t.threads()[api.owner()].tid);
        ASSERT_TRUE(ops);
        const TimeNs s = api.start(call.index), e = api.end(call.index);
        const std::vector<std::uint32_t> around = ops->overlapping(s, e);
        EXPECT_TRUE(
            std::any_of(around.begin(), around.end(),
                        [&](std::uint32_t i) { return ops->start(i) <= s && e <= ops->end(i); }))
            << name(api, call.index) << " at " << s;
    }
    std::set<std::string_view> convShapes;
    for (const std::uint32_t tid : {kMainTid, kAutogradTid}) {
        const Lane* ops = laneOf(LaneKind::CpuOps, tid);
        for (std::uint32_t i = 0; i < ops->size(); ++i) {
            const std::string_view shapes = t.strings().view(t.cpuOpInputShapes(ops->payload(i)));
            EXPECT_EQ(shapes.substr(0, 1), "[") << name(*ops, i);
            if (name(*ops, i) == "aten::conv2d")
                convShapes.insert(shapes);
        }
    }
    // The stem's convolution, and one per distinct block shape after it.
    EXPECT_TRUE(convShapes.count("[[32, 3, 224, 224], [64, 3, 7, 7], [], [], [], [], []]"));
    EXPECT_GE(convShapes.size(), 3u);
}
