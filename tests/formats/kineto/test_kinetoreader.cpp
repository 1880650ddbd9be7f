// SPDX-License-Identifier: MIT
// The Kineto reader on every real fixture, against an independent DOM scan of the same JSON.
#include "formats/open.h"
#include "model/analysis/nvtxprojection.h"
#include "model/analysis/occupancy.h"
#include "model/reports/eventdetails.h"
#include "tests/support/kinetoscan.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

using namespace strobe;
using namespace strobe::test;

namespace {

bool isAny(const std::string& s, std::initializer_list<const char*> names) {
    return std::any_of(names.begin(), names.end(), [&](const char* n) { return s == n; });
}

struct Expected {
    std::uint64_t kernels = 0, memcpys = 0, memsets = 0, api = 0, annotations = 0, marks = 0,
                  cpuOps = 0, python = 0;
};

Expected countByCategory(const ScannedTrace& t) {
    Expected x;
    for (const ScannedEvent& e : t.events) {
        if (e.ph == "X") {
            x.kernels += isAny(e.cat, {"kernel", "Kernel"});
            x.memcpys += isAny(e.cat, {"gpu_memcpy", "Memcpy"});
            x.memsets += isAny(e.cat, {"gpu_memset", "Memset"});
            x.api += isAny(e.cat, {"cuda_runtime", "cuda_driver", "Runtime"});
            x.annotations += e.cat == "user_annotation";
            x.cpuOps += isAny(e.cat, {"cpu_op", "Operator"});
            x.python += e.cat == "python_function";
        } else if (e.ph == "i" || e.ph == "I") {
            x.marks += e.scope != "g" && e.pid.has_value();
        }
    }
    return x;
}

class KinetoFixture : public ::testing::TestWithParam<std::string> {
protected:
    void SetUp() override {
        path = kinetoFixturePath(GetParam());
        scan = scanKineto(path);
        LoadResult r = loadTrace(QString::fromStdString(path));
        ASSERT_TRUE(r.ok()) << r.error.toStdString();
        trace = std::move(r.trace);
    }
    std::string path;
    ScannedTrace scan;
    std::unique_ptr<Trace> trace;
};

std::uint64_t eventsInLanes(const Trace& t, LaneKind kind) {
    std::uint64_t n = 0;
    for (const Lane& l : t.lanes())
        n += l.kind() == kind ? l.size() : 0;
    return n;
}

} // namespace

TEST_P(KinetoFixture, CountsPerCategoryEqualAnIndependentScan) {
    const Expected x = countByCategory(scan);
    const TraceCounts& c = trace->counts();
    EXPECT_EQ(trace->metadata().format, QStringLiteral("kineto-json"));
    EXPECT_EQ(c.kernels, x.kernels);
    EXPECT_EQ(c.memcpys, x.memcpys);
    EXPECT_EQ(c.memsets, x.memsets);
    EXPECT_EQ(c.cudaApiCalls, x.api);
    EXPECT_EQ(c.nvtxRanges, x.annotations);
    EXPECT_EQ(c.nvtxMarks, x.marks);
    EXPECT_EQ(c.cpuOps, x.cpuOps);
    EXPECT_EQ(c.pythonFunctions, x.python);
    EXPECT_EQ(c.osrtCalls, 0u);
    // And every counted event is on a lane: nothing dropped between counting and storing.
    EXPECT_EQ(trace->kernelCount(), x.kernels);
    EXPECT_EQ(eventsInLanes(*trace, LaneKind::Memcpy), x.memcpys);
    EXPECT_EQ(eventsInLanes(*trace, LaneKind::Memset), x.memsets);
    EXPECT_EQ(eventsInLanes(*trace, LaneKind::CudaApi), x.api);
    EXPECT_EQ(eventsInLanes(*trace, LaneKind::CpuOps), x.cpuOps);
    EXPECT_EQ(eventsInLanes(*trace, LaneKind::Python), x.python);
    EXPECT_EQ(eventsInLanes(*trace, LaneKind::Nvtx), x.annotations + x.marks);
    EXPECT_EQ(eventsInLanes(*trace, LaneKind::Osrt), 0u);
    for (const TraceWarning& w : trace->warnings())
        EXPECT_NE(w.kind, QStringLiteral("malformed-event")) << w.message.toStdString();
}

TEST_P(KinetoFixture, KernelLaunchParametersEqualTheJson) {
    using Row = std::tuple<std::string, std::array<std::int64_t, 3>, std::array<std::int64_t, 3>,
                           std::int64_t, std::int64_t>;
    std::vector<Row> fromJson, fromTrace;
    for (const ScannedEvent& e : scan.events) {
        if (e.ph != "X" || !isAny(e.cat, {"kernel", "Kernel"}))
            continue;
        fromJson.emplace_back(e.name, e.grid.value_or(std::array<std::int64_t, 3>{0, 0, 0}),
                              e.block.value_or(std::array<std::int64_t, 3>{0, 0, 0}),
                              e.registers.value_or(0), e.sharedMemory.value_or(0));
    }
    for (std::size_t i = 0; i < trace->kernelCount(); ++i) {
        const KernelConfig& c = *trace->kernelAt(i).config;
        fromTrace.emplace_back(std::string(trace->strings().view(c.demangledName)),
                               std::array<std::int64_t, 3>{c.grid[0], c.grid[1], c.grid[2]},
                               std::array<std::int64_t, 3>{c.block[0], c.block[1], c.block[2]},
                               c.registersPerThread, c.staticSharedBytes + c.dynamicSharedBytes);
    }
    std::sort(fromJson.begin(), fromJson.end());
    std::sort(fromTrace.begin(), fromTrace.end());
    EXPECT_EQ(fromTrace, fromJson);
}

TEST_P(KinetoFixture, EveryKernelWithACorrelationIdIsLinkedToItsRuntimeCall) {
    std::set<std::int64_t> runtimeCorrelations;
    std::uint64_t expectLinked = 0;
    for (const ScannedEvent& e : scan.events) {
        if (e.ph == "X" && isAny(e.cat, {"cuda_runtime", "cuda_driver", "Runtime"}) &&
            e.correlation)
            runtimeCorrelations.insert(*e.correlation);
    }
    for (const ScannedEvent& e : scan.events) {
        if (e.ph == "X" && isAny(e.cat, {"kernel", "Kernel"}) && e.correlation)
            expectLinked += runtimeCorrelations.count(*e.correlation);
    }
    std::uint64_t linked = 0;
    for (const KernelRecord& k : trace->kernels()) {
        if (!k.correlationId)
            continue;
        ASSERT_TRUE(k.api.isValid()) << "kernel with correlation " << *k.correlationId;
        const Lane& l = trace->lane(k.api.lane);
        ASSERT_EQ(l.kind(), LaneKind::CudaApi);
        EXPECT_EQ(trace->apiCalls()[l.payload(k.api.index)].correlationId, *k.correlationId);
        EXPECT_EQ(trace->partnerOf(k.self), k.api);
        ++linked;
    }
    EXPECT_EQ(linked, expectLinked);
    EXPECT_GT(linked, 0u);
}

// PyTorch 2.x writes each NCCL kernel's communicator and message in its args; the reader keeps
// the process group's name and In msg nelems times the dtype's size (-1: not kept).
TEST_P(KinetoFixture, CollectiveProcessGroupAndBytesEqualTheJson) {
    const std::map<std::string, std::int64_t> elementBytes = {
        {"Float", 4}, {"Double", 8}, {"Half", 2}, {"BFloat16", 2}, {"Int", 4},
        {"Long", 8},  {"Short", 2},  {"Char", 1}, {"Byte", 1},     {"Bool", 1}};
    using Row = std::tuple<std::string, std::string, std::int64_t>;
    std::vector<Row> fromJson, fromTrace;
    std::size_t withGroup = 0;
    for (const ScannedEvent& e : scan.events) {
        if (e.ph != "X" || !isAny(e.cat, {"kernel", "Kernel"}))
            continue;
        std::int64_t bytes = -1;
        if (const auto size = elementBytes.find(e.dtype.value_or(""));
            e.inMsgNelems && size != elementBytes.end())
            bytes = *e.inMsgNelems * size->second;
        withGroup += e.processGroupName ? 1 : 0;
        fromJson.emplace_back(e.name, e.processGroupName.value_or(""), bytes);
    }
    for (std::size_t i = 0; i < trace->kernelCount(); ++i) {
        const KernelRecord k = trace->kernels()[i];
        const KernelConfig& c = trace->kernelConfigs()[k.config];
        fromTrace.emplace_back(std::string(trace->strings().view(c.demangledName)),
                               k.processGroup == kNoString
                                   ? std::string()
                                   : std::string(trace->strings().view(k.processGroup)),
                               k.messageBytes ? std::int64_t(*k.messageBytes) : -1);
    }
    std::sort(fromJson.begin(), fromJson.end());
    std::sort(fromTrace.begin(), fromTrace.end());
    EXPECT_EQ(fromTrace, fromJson);
    if (GetParam() == "hta-a100-nccl-ddp.json.gz") {
        // 15 all-reduces and 6 broadcasts in process group "0"; the first all-reduce of
        // 6,637,568 floats.
        EXPECT_EQ(withGroup, 21u);
        EXPECT_NE(std::find(fromTrace.begin(), fromTrace.end(),
                            Row{"ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned "
                                "long, ncclWork*)",
                                "0", 6637568 * 4}),
                  fromTrace.end());
    }
}

TEST_P(KinetoFixture, KernelTimesMatchTheJsonToTheNanosecond) {
    std::vector<std::pair<std::int64_t, std::int64_t>> fromJson, fromTrace;
    bool integral = true;
    for (const ScannedEvent& e : scan.events) {
        if (e.ph != "X" || !isAny(e.cat, {"kernel", "Kernel"}))
            continue;
        integral = integral && e.tsInt && e.durInt;
        // Integers are exact; decimals through a double are within a nanosecond.
        fromJson.emplace_back(e.tsInt ? *e.tsInt * 1000 : std::llround(*e.ts * 1000.0),
                              e.durInt ? *e.durInt * 1000 : std::llround(*e.dur * 1000.0));
    }
    for (std::size_t i = 0; i < trace->kernelCount(); ++i) {
        const KernelLaunch k = trace->kernelAt(i);
        fromTrace.emplace_back(k.start, k.duration());
    }
    std::sort(fromJson.begin(), fromJson.end());
    std::sort(fromTrace.begin(), fromTrace.end());
    ASSERT_EQ(fromTrace.size(), fromJson.size());
    for (std::size_t i = 0; i < fromJson.size(); ++i) {
        if (integral) {
            ASSERT_EQ(fromTrace[i], fromJson[i]) << i;
        } else {
            ASSERT_LE(std::llabs(fromTrace[i].first - fromJson[i].first), 1) << i;
            ASSERT_LE(std::llabs(fromTrace[i].second - fromJson[i].second), 1) << i;
        }
    }
}

TEST_P(KinetoFixture, RankWorldSizeAndGpusAsRecorded) {
    const TraceMetadata& m = trace->metadata();
    EXPECT_EQ(m.rank.has_value(), scan.rank.has_value());
    if (scan.rank) {
        EXPECT_EQ(std::int64_t(*m.rank), *scan.rank);
    }
    EXPECT_EQ(m.worldSize.has_value(), scan.worldSize.has_value());
    if (scan.worldSize) {
        EXPECT_EQ(std::int64_t(*m.worldSize), *scan.worldSize);
    }
    std::size_t named = 0;
    for (const GpuInfo& g : trace->gpus())
        named += g.name != kNoString;
    EXPECT_EQ(named, scan.deviceProperties);
    // Processes are the program's: the JSON's per-GPU pseudo-processes are not among them.
    std::set<std::int64_t> cpuPids;
    for (const ScannedEvent& e : scan.events) {
        if (e.ph == "X" && isAny(e.cat, {"cpu_op", "Operator", "cuda_runtime", "Runtime"}))
            cpuPids.insert(*e.pid);
    }
    std::set<std::int64_t> pids;
    for (const ProcessInfo& p : trace->processes())
        pids.insert(p.pid);
    EXPECT_EQ(pids, cpuPids);
}

// Every operator's input shapes, as the scan's own str() of its Input Dims (or Input dims) list,
// paired with its name; "" for an operator without them. No fixture has a malformed one.
TEST_P(KinetoFixture, OperatorInputShapesEqualTheJson) {
    using Row = std::pair<std::string, std::string>;
    std::vector<Row> fromJson, fromTrace;
    for (const ScannedEvent& e : scan.events) {
        if (e.ph == "X" && isAny(e.cat, {"cpu_op", "Operator"}))
            fromJson.emplace_back(e.name, e.inputDims.value_or(""));
    }
    for (std::uint32_t li = 0; li < trace->lanes().size(); ++li) {
        const Lane& l = trace->lane(li);
        for (std::uint32_t i = 0; l.kind() == LaneKind::CpuOps && i < l.size(); ++i) {
            const CpuOpRecord op = trace->cpuOps()[l.payload(i)];
            fromTrace.emplace_back(std::string(trace->strings().view(l.nameId(i))),
                                   std::string(trace->strings().view(op.inputShapes)));
        }
    }
    std::sort(fromJson.begin(), fromJson.end());
    std::sort(fromTrace.begin(), fromTrace.end());
    EXPECT_EQ(fromTrace, fromJson);
    for (const TraceWarning& w : trace->warnings())
        EXPECT_FALSE(w.kind.endsWith(QStringLiteral("input-dims"))) << w.message.toStdString();
}

INSTANTIATE_TEST_SUITE_P(AllFixtures, KinetoFixture, ::testing::ValuesIn(kinetoFixtures()),
                         [](const auto& info) {
                             std::string n = info.param;
                             std::replace_if(
                                 n.begin(), n.end(), [](char c) { return !std::isalnum(c); }, '_');
                             return n;
                         });

namespace {
std::unique_ptr<Trace> load(const char* name) {
    LoadResult r = loadTrace(QString::fromStdString(kinetoFixturePath(name)));
    EXPECT_TRUE(r.ok()) << r.error.toStdString();
    return std::move(r.trace);
}

const KernelLaunch* findKernel(const Trace& t, std::string_view prefix, KernelLaunch& out) {
    for (std::size_t i = 0; i < t.kernelCount(); ++i) {
        const KernelLaunch k = t.kernelAt(i);
        if (t.strings().view(k.config->demangledName).substr(0, prefix.size()) == prefix) {
            out = k;
            return &out;
        }
    }
    return nullptr;
}
} // namespace

TEST(KinetoReader, DecimalTimestampsKeepEveryNanosecond) {
    // "ts": 4458676983543.183, "dur": 41.407 in the file.
    auto t = load("hta-a100-nccl-ddp.json.gz");
    std::size_t found = 0;
    for (std::size_t i = 0; i < t->kernelCount(); ++i) {
        const KernelLaunch k = t->kernelAt(i);
        if (k.start == 4458676983543183) {
            EXPECT_EQ(k.end, 4458676983543183 + 41407);
            EXPECT_TRUE(
                t->strings().view(k.config->demangledName).starts_with("void cudnn::bn_bw"));
            ++found;
        }
    }
    EXPECT_EQ(found, 1u);
    // "ts": 88437691101.749, "dur": 0.02 and the cpu_op "op1" at 88437691101.729 for 0.04.
    auto s = load("small-before-fix.trace.json");
    ASSERT_EQ(s->kernelCount(), 1u);
    EXPECT_EQ(s->kernelAt(0).start, 88437691101749);
    EXPECT_EQ(s->kernelAt(0).duration(), 20);
    bool sawOp = false;
    for (const Lane& l : s->lanes()) {
        if (l.kind() != LaneKind::CpuOps)
            continue;
        for (std::uint32_t i = 0; i < l.size(); ++i) {
            if (s->string(l.nameId(i)) == QStringLiteral("op1")) {
                EXPECT_EQ(l.start(i), 88437691101729);
                EXPECT_EQ(l.end(i), 88437691101769);
                sawOp = true;
            }
        }
    }
    EXPECT_TRUE(sawOp);
}

TEST(KinetoReader, GpuPropertiesMakeOccupancyWorkBesideKinetosOwnEstimate) {
    auto t = load("hta-sampled-rank0.json.gz"); // no deviceProperties: no occupancy
    ASSERT_FALSE(t->gpus().empty());
    EXPECT_FALSE(t->gpus().front().hasLimits());
    auto a = load("hta-a100-nccl-ddp.json.gz");
    const GpuInfo* g = a->gpuById(0);
    ASSERT_TRUE(g);
    EXPECT_EQ(a->string(g->name), QStringLiteral("NVIDIA A100-PG509-200"));
    EXPECT_EQ(g->smCount, 108u);
    EXPECT_EQ(g->maxWarpsPerSm, 64u); // 2048 threads per SM / 32
    EXPECT_EQ(g->maxRegistersPerSm, 65536u);
    EXPECT_EQ(g->maxShmemPerSm, 167936u);
    KernelLaunch k;
    ASSERT_TRUE(
        findKernel(*a, "void cudnn::bn_bw_1C11_kernel_new<float, float, float2, 32, true, 1>", k));
    // grid [512,1,1], block [512,1,1], 40 registers, 400 B shared: 16 warps per block; registers
    // (40*32 -> 1280 per warp, 20480 per block) allow 3 blocks: 48 of 64 warps.
    EXPECT_EQ(k.config->detail, LaunchDetail::Basic);
    const OccupancyResult o = computeOccupancy(*g, *k.config);
    ASSERT_TRUE(o.valid);
    EXPECT_EQ(o.activeBlocksPerSm, 3u);
    EXPECT_EQ(o.limit, OccupancyLimit::Registers);
    ASSERT_TRUE(k.config->recordedOccupancy.blocksPerSm);
    EXPECT_FLOAT_EQ(*k.config->recordedOccupancy.blocksPerSm, 4.740741f);
    const EventDetails d = describeEvent(*a, k.record.self);
    EXPECT_EQ(d.value(QStringLiteral("Theoretical occupancy"), QStringLiteral("Occupancy")),
              QStringLiteral("75.0 % (48 of 64 warps per SM)"));
    EXPECT_FALSE(d.value(QStringLiteral("Occupancy recorded by the profiler"),
                         QStringLiteral("Estimated achieved occupancy"))
                     .isEmpty());
    EXPECT_EQ(d.value(QStringLiteral("Launch configuration"), QStringLiteral("Shared memory")),
              QStringLiteral("400 B"));
    EXPECT_TRUE(d.value(QStringLiteral("Kernel"), QStringLiteral("Name (derived)")) ==
                QStringLiteral("bn_bw_1C11_kernel_new"));
}

TEST(KinetoReader, AmdTraceOpensWithLaunchParametersUnknown) {
    auto t = load("hta-mi250-rocm6.2.json.gz");
    ASSERT_EQ(t->kernelCount(), 14u);
    for (std::size_t i = 0; i < t->kernelCount(); ++i) {
        const KernelLaunch k = t->kernelAt(i);
        EXPECT_EQ(k.config->detail, LaunchDetail::None);
        EXPECT_EQ(k.stream->deviceId, 2u) << "args.device, not the pid";
        EXPECT_TRUE(k.record.api.isValid());
    }
    const EventDetails d = describeEvent(*t, t->kernelAt(0).record.self);
    EXPECT_EQ(
        d.value(QStringLiteral("Launch configuration"), QStringLiteral("Launch configuration")),
        QStringLiteral("unknown (the trace recorded none)"));
    EXPECT_EQ(d.value(QStringLiteral("Theoretical occupancy"), QStringLiteral("Occupancy")),
              QStringLiteral("unknown (no launch configuration recorded)"));
}

TEST(KinetoReader, UserAnnotationsProjectOntoTheGpuLikeKinetosGpuAnnotations) {
    // Kineto's gpu_user_annotation events are its projection of record_function ranges; the
    // projection Strobe computes from the annotations and their launches must agree.
    const std::string path = kinetoFixturePath("hta-a100-nccl-ddp.json.gz");
    const ScannedTrace scan = scanKineto(path);
    std::multiset<std::string> kinetoNames;
    for (const ScannedEvent& e : scan.events) {
        if (e.ph == "X" && e.cat == "gpu_user_annotation")
            kinetoNames.insert(e.name);
    }
    ASSERT_FALSE(kinetoNames.empty());
    auto t = load("hta-a100-nccl-ddp.json.gz");
    std::multiset<std::string> projected;
    for (const ProjectedNvtxLane& p : buildProjectedNvtx(*t)) {
        EXPECT_EQ(p.deviceId, 0u);
        for (std::uint32_t i = 0; i < p.lane.size(); ++i)
            projected.insert(std::string(t->strings().view(p.lane.nameId(i))));
    }
    for (const std::string& n : kinetoNames)
        EXPECT_TRUE(projected.count(n)) << n;
}

// What the operator statistics group by, on the two fixtures that record it: how many operators
// carry shapes, and the exact text of known ones.
TEST(KinetoReader, InputShapesInPythonNotation) {
    struct Case {
        const char* file;
        std::size_t withShapes;
        const char* op;
        const char* shapes;
    };
    for (const Case& c :
         {Case{"resnet50-kineto-2021.pt.trace.json.gz", 23622, "aten::cudnn_convolution",
               "[[32, 3, 224, 224], [64, 3, 7, 7], [], [], [], [], [], [], []]"},
          Case{"hta-sampled-rank0.json.gz", 2011, "aten::sum", "[[2048, 3906], [], [], []]"}}) {
        SCOPED_TRACE(c.file);
        const std::unique_ptr<Trace> t = load(c.file);
        ASSERT_TRUE(t);
        std::size_t withShapes = 0, matching = 0;
        for (std::uint32_t li = 0; li < t->lanes().size(); ++li) {
            const Lane& l = t->lane(li);
            for (std::uint32_t i = 0; l.kind() == LaneKind::CpuOps && i < l.size(); ++i) {
                const std::string_view shapes =
                    t->strings().view(t->cpuOpInputShapes(l.payload(i)));
                withShapes += !shapes.empty();
                matching += t->strings().view(l.nameId(i)) == c.op && shapes == c.shapes;
            }
        }
        EXPECT_EQ(withShapes, c.withShapes);
        EXPECT_GT(matching, 0u);
    }
}
