// SPDX-License-Identifier: MIT
// The Trace's slim record storage against what the loaders handed to TraceBuilder: a random
// trace of every record kind, with the rare fields (return values, colours, categories, graph
// node ids, end threads, external ids) set on a few records, must read back every value exactly
// through the decoded record tables and the field accessors; and the sparse and bit columns
// underneath behave as their contracts say.
#include "model/recordcolumns.h"
#include "model/tracebuilder.h"

#include <gtest/gtest.h>
#include <map>
#include <random>

using namespace strobe;

namespace {

struct ApiInput {
    std::uint32_t pid = 0, tid = 0;
    ApiCallRecord rec;
};
struct KernelInput {
    std::uint32_t pid = 0, stream = 0, config = 0;
    std::optional<std::uint32_t> correlation;
    std::optional<std::uint64_t> graphNode;
};
struct NvtxInput {
    std::uint32_t pid = 0, tid = 0;
    NvtxRecord rec;
    std::optional<std::uint32_t> endTid;
};

// Every event starts at its own time, so an event found in a lane names its input.
struct RandomTrace {
    std::map<TimeNs, ApiInput> api;
    std::map<TimeNs, KernelInput> kernels;
    std::map<TimeNs, NvtxInput> nvtx;
    std::map<TimeNs, std::optional<std::uint32_t>> cpuOps;
    std::map<TimeNs, OsrtRecord> osrt;
    std::vector<KernelConfig> configs;
    std::unique_ptr<Trace> trace;
};

// Start times are a random multiple of this plus the event's number, so no two are equal.
constexpr TimeNs kSpacing = 1'000'000;

RandomTrace buildRandomTrace(std::uint32_t seed, int events) {
    RandomTrace r;
    std::mt19937 rng(seed);
    auto pick = [&](int n) { return int(rng() % std::uint32_t(n)); };
    TraceBuilder b(QStringLiteral("random"));
    for (int c = 0; c < 5; ++c) {
        KernelConfig k;
        k.shortName = k.demangledName = b.intern("kernel_" + std::to_string(c));
        k.grid = {c + 1, 1, 1};
        r.configs.push_back(k);
    }
    std::vector<std::pair<std::uint32_t, std::uint32_t>> launches; // (pid, correlation)
    for (int e = 0; e < events; ++e) {
        const TimeNs start = TimeNs(pick(1'000'000)) * kSpacing + e; // unique: e < kSpacing
        const TimeNs end = start + pick(5000);
        const std::uint32_t pid = 100 + std::uint32_t(pick(2));
        switch (pick(5)) {
        case 0: {
            ApiInput in{pid, pid + std::uint32_t(pick(3)), {}};
            in.rec.correlationId = std::uint32_t(e + 1);
            in.rec.eventClass = std::uint8_t(pick(2));
            in.rec.returnValue = pick(10) == 0 ? -std::int64_t(pick(1000)) - 1 : 0;
            b.addApiCall(in.pid, in.tid, start, end, b.intern("cudaLaunchKernel"), in.rec);
            r.api[start] = in;
            launches.emplace_back(pid, in.rec.correlationId);
            break;
        }
        case 1: {
            KernelInput in{pid, std::uint32_t(7 + pick(3)), std::uint32_t(pick(5)), {}, {}};
            if (!launches.empty() && pick(4) != 0) {
                const auto [lpid, corr] = launches[std::size_t(pick(int(launches.size())))];
                in.pid = lpid;
                in.correlation = corr;
            } else if (pick(2) == 0) {
                in.correlation = 5'000'000 + std::uint32_t(e); // no such call: dangling
            }
            if (pick(8) == 0)
                in.graphNode = (std::uint64_t(1) << 40) + std::uint64_t(e);
            b.addKernel(in.pid, 0, 1, in.stream, start, end, r.configs[in.config], in.correlation,
                        in.graphNode);
            r.kernels[start] = in;
            break;
        }
        case 2: {
            NvtxInput in{pid, pid + std::uint32_t(pick(2)), {}, {}};
            in.rec.style = NvtxStyle(pick(3));
            in.rec.hasEnd = in.rec.style == NvtxStyle::Mark || pick(10) != 0;
            if (pick(6) == 0)
                in.rec.color = 0xFF000000u | std::uint32_t(pick(0xFFFFFF));
            if (pick(7) == 0)
                in.rec.category = pick(100) - 50;
            if (in.rec.style == NvtxStyle::StartEnd && pick(3) == 0)
                in.endTid = in.tid + 1;
            b.addNvtx(in.pid, in.tid, pick(2) == 0 ? kNoString : b.intern("domain"), start, end,
                      b.intern("range_" + std::to_string(pick(20))), in.rec, in.endTid);
            r.nvtx[start] = in;
            break;
        }
        case 3: {
            std::optional<std::uint32_t> ext;
            if (pick(3) != 0)
                ext = std::uint32_t(rng());
            b.addCpuOp(pick(2) == 0 ? LaneKind::CpuOps : LaneKind::Python, pid, pid, start, end,
                       b.intern("aten::op"), CpuOpRecord{ext});
            r.cpuOps[start] = ext;
            break;
        }
        default: {
            OsrtRecord o{pick(5) == 0 ? std::int64_t(pick(9)) : 0, std::uint32_t(pick(3))};
            b.addOsrtCall(pid, pid, start, end, b.intern("read"), o);
            r.osrt[start] = o;
            break;
        }
        }
    }
    r.trace = b.finish();
    return r;
}

struct RandomCase {
    std::uint32_t seed;
    int events;
};

// (the last case has lanes of tens of thousands of events: runs of equal starts, many rows)
class RecordStorage : public ::testing::TestWithParam<RandomCase> {};

} // namespace

TEST_P(RecordStorage, EveryValueReadsBackAsTheLoaderGaveIt) {
    const RandomTrace r = buildRandomTrace(GetParam().seed, GetParam().events);
    ASSERT_TRUE(r.trace);
    const Trace& t = *r.trace;
    std::size_t seen = 0;
    std::map<std::pair<std::uint32_t, std::uint32_t>, EventRef> apiOf; // (pid, corr) -> event
    for (std::uint32_t li = 0; li < t.lanes().size(); ++li) {
        const Lane& l = t.lane(li);
        for (std::uint32_t i = 0; i < l.size(); ++i) {
            const EventRef self{li, i};
            const std::uint32_t p = l.payload(i);
            ASSERT_EQ(t.refOfRecord(familyOf(l.kind()), p), self) << li << ' ' << i;
            const TimeNs s = l.start(i);
            ++seen;
            switch (l.kind()) {
            case LaneKind::CudaApi: {
                const ApiInput& in = r.api.at(s);
                const ApiCallRecord a = t.apiCalls()[p];
                EXPECT_EQ(a.correlationId, in.rec.correlationId);
                EXPECT_EQ(a.eventClass, in.rec.eventClass);
                EXPECT_EQ(a.returnValue, in.rec.returnValue);
                EXPECT_EQ(t.threads()[l.owner()].tid, in.tid);
                apiOf.emplace(std::make_pair(in.pid, in.rec.correlationId), self);
                break;
            }
            case LaneKind::Nvtx:
            case LaneKind::NvtxStartEnd: {
                const NvtxInput& in = r.nvtx.at(s);
                const NvtxRecord n = t.nvtx()[p];
                EXPECT_EQ(n.style, in.rec.style);
                EXPECT_EQ(t.nvtxStyle(p), in.rec.style);
                EXPECT_EQ(n.color, in.rec.color);
                EXPECT_EQ(t.nvtxColor(p), in.rec.color);
                EXPECT_EQ(n.category, in.rec.category);
                EXPECT_EQ(n.hasEnd, in.rec.hasEnd);
                EXPECT_EQ(n.depth, t.nvtxDepth(p));
                EXPECT_EQ(n.depth, l.row(i));
                EXPECT_EQ(t.threads()[n.thread].tid, in.tid);
                EXPECT_EQ(n.endThread.has_value(), in.endTid.has_value());
                if (in.endTid) {
                    EXPECT_EQ(t.threads()[*n.endThread].tid, *in.endTid);
                }
                break;
            }
            case LaneKind::CpuOps:
            case LaneKind::Python:
                EXPECT_EQ(t.cpuOps()[p].externalId, r.cpuOps.at(s));
                break;
            case LaneKind::Osrt:
                EXPECT_EQ(t.osrtCalls()[p].returnValue, r.osrt.at(s).returnValue);
                EXPECT_EQ(t.osrtCalls()[p].nestingLevel, r.osrt.at(s).nestingLevel);
                break;
            case LaneKind::Kernels:
                EXPECT_EQ(t.kernels()[p].self, self);
                EXPECT_EQ(t.kernelRef(p), self);
                break;
            default:
                break;
            }
        }
    }
    EXPECT_EQ(seen,
              r.api.size() + r.kernels.size() + r.nvtx.size() + r.cpuOps.size() + r.osrt.size());

    // Kernels: start order, every field, and the launch links in both directions.
    ASSERT_EQ(t.kernelCount(), r.kernels.size());
    auto it = r.kernels.begin();
    for (std::uint32_t k = 0; k < t.kernelCount(); ++k, ++it) {
        const KernelInput& in = it->second;
        const KernelRecord rec = t.kernels()[k];
        const KernelLaunch kl = t.kernelAt(k);
        EXPECT_EQ(kl.start, it->first) << k;
        EXPECT_EQ(t.lane(rec.self.lane).payload(rec.self.index), k);
        EXPECT_EQ(rec.config, t.kernelConfigIndex(k));
        EXPECT_EQ(t.kernelConfigs()[rec.config], r.configs[in.config]);
        EXPECT_EQ(t.streams()[rec.stream].streamId, in.stream);
        EXPECT_EQ(rec.stream, t.kernelStreamIndex(k));
        EXPECT_EQ(rec.correlationId, in.correlation) << k;
        EXPECT_EQ(rec.graphNodeId, in.graphNode) << k;
        const auto api = in.correlation ? apiOf.find({in.pid, *in.correlation}) : apiOf.end();
        if (api == apiOf.end()) {
            EXPECT_FALSE(rec.api.isValid()) << k;
            continue;
        }
        EXPECT_EQ(rec.api, api->second) << k;
        EXPECT_EQ(t.partnerOf(rec.self), api->second);
        // The call points at the first of its kernels in start order.
        const EventRef op = t.apiGpuOp(t.lane(api->second.lane).payload(api->second.index));
        ASSERT_TRUE(op.isValid());
        const auto first = t.kernelIndexOf(op);
        ASSERT_TRUE(first.has_value());
        EXPECT_LE(*first, k);
        EXPECT_EQ(t.kernels()[*first].api, api->second);
    }
}

// A call keeps one GPU operation: its first kernel in start order if it launched any (even one
// that starts after a copy of the same correlation id), else its first copy, else its first set.
TEST(RecordStorageJoin, ACallPointsAtItsKernelBeforeItsCopiesAndAtItsCopyBeforeItsSets) {
    TraceBuilder b(QStringLiteral("join.sqlite"));
    const StringId name = b.intern("op");
    auto call = [&](TimeNs start, std::uint32_t corr) {
        ApiCallRecord r;
        r.correlationId = corr;
        b.addApiCall(1, 10, start, start + 50, name, r);
    };
    call(100, 7); // a copy, then a kernel, then another kernel
    call(200, 8); // a set, then a copy
    call(300, 9); // a set only
    MemcpyRecord copy;
    copy.correlationId = 7;
    b.addMemcpy(1, 0, 1, 2, 1000, 1100, name, copy);
    copy.correlationId = 8;
    b.addMemcpy(1, 0, 1, 2, 2100, 2200, name, copy);
    MemsetRecord set;
    set.correlationId = 8;
    b.addMemset(1, 0, 1, 3, 2000, 2050, name, set);
    set.correlationId = 9;
    b.addMemset(1, 0, 1, 3, 3000, 3050, name, set);
    KernelConfig k;
    k.shortName = k.demangledName = name;
    b.addKernel(1, 0, 1, 4, 1700, 1800, k, 7, std::nullopt); // staged first, starts later
    b.addKernel(1, 0, 1, 4, 1500, 1600, k, 7, std::nullopt);
    const std::unique_ptr<Trace> t = b.finish();
    ASSERT_EQ(t->apiCalls().size(), 3u);
    auto kindOfOp = [&](std::uint32_t i) {
        const EventRef op = t->apiGpuOp(i);
        return op.isValid() ? t->lane(op.lane).kind() : LaneKind::CudaApi;
    };
    ASSERT_EQ(kindOfOp(0), LaneKind::Kernels);
    const auto first = t->kernelIndexOf(t->apiGpuOp(0));
    ASSERT_TRUE(first.has_value());
    EXPECT_EQ(t->kernelAt(*first).start, 1500) << "the call's first kernel in start order";
    EXPECT_EQ(kindOfOp(1), LaneKind::Memcpy);
    EXPECT_EQ(kindOfOp(2), LaneKind::Memset);
    for (std::uint32_t i = 0; i < t->kernelCount(); ++i)
        EXPECT_TRUE(t->kernels()[i].api.isValid()) << "kernel " << i << " links to its call";
}

INSTANTIATE_TEST_SUITE_P(Seeds, RecordStorage,
                         ::testing::Values(RandomCase{1, 900}, RandomCase{2, 900},
                                           RandomCase{3, 900}, RandomCase{4, 900},
                                           RandomCase{5, 250'000}),
                         [](const ::testing::TestParamInfo<RandomCase>& info) {
                             return "Seed" + std::to_string(info.param.seed) + "With" +
                                    std::to_string(info.param.events) + "Events";
                         });

TEST(SparseColumn, FindsOnlyTheIndicesSetAndTheLastValueOfARepeatedOne) {
    SparseColumn<std::int64_t> c;
    c.set(40, -4);
    c.set(7, 70);
    c.set(40, 44);
    c.set(0, 1);
    c.finish();
    EXPECT_EQ(c.size(), 3u);
    EXPECT_EQ(c.at(0), 1);
    EXPECT_EQ(c.at(7), 70);
    EXPECT_EQ(c.at(40), 44);
    EXPECT_EQ(c.at(8), std::nullopt);
    EXPECT_EQ(c.at(41), std::nullopt);
    SparseColumn<std::uint32_t> empty;
    empty.finish();
    EXPECT_EQ(empty.at(0), std::nullopt);
    EXPECT_EQ(empty.memoryBytes(), 0u);
}

TEST(BitColumn, SetsSingleBitsAndReadsFalseBeyondItsEnd) {
    BitColumn b;
    b.resize(130);
    b.set(0);
    b.set(64);
    b.set(129);
    for (std::size_t i = 0; i < 130; ++i)
        EXPECT_EQ(b.test(i), i == 0 || i == 64 || i == 129) << i;
    EXPECT_FALSE(b.test(100000));
}
