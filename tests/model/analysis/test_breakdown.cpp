// SPDX-License-Identifier: MIT
// computeBreakdown against an independent sweep over the SQL rows of every real fixture, the
// gap panel's idle time, and a synthetic trace with known overlaps.
#include "model/analysis/breakdown.h"
#include "model/analysis/gaps.h"
#include "model/lod/utilization.h"
#include "tests/model/analysis/analysistestdata.h"
#include "tests/model/analysis/gaptestdata.h"
#include "tests/support/sqlitequery.h"

#include <QDir>
#include <gtest/gtest.h>
#include <map>

using namespace strobe;

namespace {

// Sweep categories: kernel classes 0..6, communication, copy directions, memset.
constexpr int kComm = kKernelClassCount, kCopy0 = kComm + 1, kMemset = kCopy0 + kCopyDirectionCount,
              kCats = kMemset + 1;

struct Row {
    TimeNs start, end;
    int cat;
};

CopyDirection directionOfSqlKind(int k) {
    switch (k) {
    case 1:
    case 3:
        return CopyDirection::HtoD;
    case 2:
    case 4:
        return CopyDirection::DtoH;
    case 5:
    case 6:
    case 7:
    case 8:
        return CopyDirection::DtoD;
    case 10:
        return CopyDirection::PtoP;
    default:
        return CopyDirection::Other;
    }
}

// Everything the breakdown reports, by a difference-array sweep over elementary segments
// between all boundaries: no interval sets, no lanes.
GpuBreakdown sweep(std::vector<Row> rows, const KernelClassTable& table) {
    std::vector<TimeNs> cuts;
    for (const Row& r : rows) {
        cuts.push_back(r.start);
        cuts.push_back(r.end);
    }
    std::sort(cuts.begin(), cuts.end());
    cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
    std::vector<std::array<int, kCats>> delta(cuts.size() + 1, std::array<int, kCats>{});
    const auto at = [&](TimeNs t) {
        return std::size_t(std::lower_bound(cuts.begin(), cuts.end(), t) - cuts.begin());
    };
    for (const Row& r : rows) {
        ++delta[at(r.start)][r.cat];
        --delta[at(r.end)][r.cat];
    }
    std::vector<KernelClass> order;
    for (const KernelClassRule& rule : table.rules())
        if (std::find(order.begin(), order.end(), rule.cls) == order.end())
            order.push_back(rule.cls);
    for (int c = 0; c < kKernelClassCount; ++c)
        if (std::find(order.begin(), order.end(), KernelClass(c)) == order.end())
            order.push_back(KernelClass(c));
    GpuBreakdown b;
    b.span = {cuts.front(), cuts.back()};
    std::array<int, kCats> active{};
    TimeNs busy = 0;
    for (std::size_t i = 0; i + 1 < cuts.size(); ++i) {
        for (int c = 0; c < kCats; ++c)
            active[c] += delta[i][c];
        const TimeNs len = cuts[i + 1] - cuts[i];
        bool compute = false, memory = active[kMemset] > 0;
        for (int c = 0; c < kKernelClassCount; ++c)
            compute |= active[c] > 0;
        for (int d = 0; d < kCopyDirectionCount; ++d) {
            memory |= active[kCopy0 + d] > 0;
            if (active[kCopy0 + d] > 0)
                b.copies[d] += len;
        }
        const bool comm = active[kComm] > 0;
        if (compute) {
            b.compute += len;
            for (KernelClass c : order)
                if (active[int(c)] > 0) {
                    b.classes[int(c)] += len;
                    break;
                }
        }
        b.communication += comm ? len : 0;
        b.exposedCommunication += comm && !compute ? len : 0;
        b.memory += memory ? len : 0;
        b.memoryOnly += memory && !compute && !comm ? len : 0;
        b.memset += active[kMemset] > 0 ? len : 0;
        busy += compute || comm || memory ? len : 0;
    }
    b.idle = b.span.duration() - busy;
    return b;
}

void expectEqual(const GpuBreakdown& got, const GpuBreakdown& want, const std::string& what) {
    EXPECT_EQ(got.span, want.span) << what;
    EXPECT_EQ(got.compute, want.compute) << what;
    EXPECT_EQ(got.communication, want.communication) << what;
    EXPECT_EQ(got.exposedCommunication, want.exposedCommunication) << what;
    EXPECT_EQ(got.memory, want.memory) << what;
    EXPECT_EQ(got.memoryOnly, want.memoryOnly) << what;
    EXPECT_EQ(got.idle, want.idle) << what;
    EXPECT_EQ(got.classes, want.classes) << what;
    EXPECT_EQ(got.copies, want.copies) << what;
    EXPECT_EQ(got.memset, want.memset) << what;
}

// Rows per device straight from the export's tables.
std::map<std::uint32_t, std::vector<Row>> sqlRows(const std::string& path,
                                                  const KernelClassTable& table) {
    std::map<std::uint32_t, std::vector<Row>> out;
    const auto add = [&](const std::vector<std::string>& r, int cat) {
        const TimeNs s = TimeNs(std::stoll(r[1]));
        out[std::uint32_t(std::stoul(r[0]))].push_back(
            {s, std::max(TimeNs(std::stoll(r[2])), s + 1), cat});
    };
    if (test::hasTable(path, "CUPTI_ACTIVITY_KIND_KERNEL")) {
        for (const auto& r : test::query(path, "SELECT k.deviceId, k.start, k.[end], s.value FROM "
                                               "CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON "
                                               "s.id = k.shortName"))
            add(r, table.isCommunication(r[3]) ? kComm : int(table.classify(r[3])));
    }
    if (test::hasTable(path, "CUPTI_ACTIVITY_KIND_MEMCPY")) {
        for (const auto& r : test::query(path, "SELECT deviceId, start, [end], copyKind FROM "
                                               "CUPTI_ACTIVITY_KIND_MEMCPY WHERE copyKind < 11"))
            add(r, kCopy0 + int(directionOfSqlKind(std::stoi(r[3]))));
    }
    if (test::hasTable(path, "CUPTI_ACTIVITY_KIND_MEMSET")) {
        for (const auto& r :
             test::query(path, "SELECT deviceId, start, [end] FROM CUPTI_ACTIVITY_KIND_MEMSET"))
            add(r, kMemset);
    }
    return out;
}

class FixtureBreakdown : public ::testing::TestWithParam<std::string> {};

TEST_P(FixtureBreakdown, EveryCategoryEqualsAnIndependentSweep) {
    const std::string path = test::fixturePath(GetParam());
    LoadResult r = loadTrace(QString::fromStdString(path));
    ASSERT_TRUE(r.ok()) << r.error.toStdString();
    const KernelClassTable& table = KernelClassTable::defaults();
    const auto rows = sqlRows(path, table);
    const auto got = computeBreakdown(*r.trace, table);
    ASSERT_EQ(got.size(), rows.size());
    std::size_t i = 0;
    for (const auto& [device, deviceRows] : rows) {
        ASSERT_EQ(got[i].deviceId, device);
        GpuBreakdown want = sweep(deviceRows, table);
        expectEqual(got[i], want, GetParam() + " device " + std::to_string(device));
        // A window over the middle half: every category clipped to it.
        const TimeRange w{want.span.start + want.span.duration() / 4,
                          want.span.end - want.span.duration() / 4};
        std::vector<Row> clipped;
        for (Row row : deviceRows) {
            row.start = std::max(row.start, w.start);
            row.end = std::min(row.end, w.end);
            if (row.start < row.end)
                clipped.push_back(row);
        }
        // The window's own ends bound the sweep's span.
        clipped.push_back({w.start, w.start, 0});
        clipped.push_back({w.end, w.end, 0});
        const auto windowed = BreakdownSource(*r.trace, table).breakdown(w);
        expectEqual(windowed[i], sweep(clipped, table), GetParam() + " window");
        ++i;
    }
}

TEST_P(FixtureBreakdown, IdleEqualsTheGapPanelsGapsPlusTheEdges) {
    LoadResult r = loadTrace(QString::fromStdString(test::fixturePath(GetParam())));
    ASSERT_TRUE(r.ok());
    const GapAnalysis gaps = findGaps(*r.trace, 1);
    for (const GpuBreakdown& b : computeBreakdown(*r.trace, KernelClassTable::defaults())) {
        TimeNs sum = 0;
        for (const GpuGap& g : gaps.gaps)
            sum += g.deviceId == b.deviceId ? g.duration() : 0;
        EXPECT_EQ(b.idle, sum) << GetParam(); // over its own span there is no edge
        // Over a window wider than the span by 1 us each side, the edges add 2 us.
        const TimeRange wide{b.span.start - 1000, b.span.end + 1000};
        const auto w = computeBreakdown(*r.trace, KernelClassTable::defaults(), wide);
        const auto it = std::find_if(
            w.begin(), w.end(), [&](const GpuBreakdown& x) { return x.deviceId == b.deviceId; });
        ASSERT_NE(it, w.end());
        EXPECT_EQ(it->idle, sum + 2000);
        EXPECT_EQ(it->span.duration(), b.span.duration() + 2000);
    }
}

INSTANTIATE_TEST_SUITE_P(AllNsys, FixtureBreakdown, ::testing::ValuesIn(test::nsysFixtures()));

// GEMM [1000, 2000) on stream 7, NCCL [1500, 2500) on stream 8 (half under the GEMM, then
// under the attention kernel until 2100), softmax [1200, 1300) and flash attention
// [1900, 2100) on stream 9, a copy [2400, 2600) and a zero-length memset at 3000.
std::unique_ptr<Trace> overlapTrace() {
    using test::KernelSpec;
    TraceBuilder b(QStringLiteral("overlap"));
    GpuInfo g;
    g.id = 0;
    b.addGpu(g);
    const std::vector<KernelSpec> kernels{
        {"sm90_xmma_gemm_f16", "", 1000, 1000, 1, 7},
        {"ncclDevKernel_AllReduce_Sum_f32_RING_LL", "", 1500, 1000, 1, 8},
        {"softmax_warp_forward", "", 1200, 100, 1, 9},
        {"flash_fwd_kernel", "", 1900, 200, 1, 9},
    };
    for (const KernelSpec& k : kernels)
        b.addKernel(1, 0, 1, k.stream, k.start, k.start + k.duration, test::makeConfig(b, k),
                    std::nullopt, std::nullopt);
    MemcpyRecord m;
    m.copyKind = MemcpyKind::HtoD;
    b.addMemcpy(1, 0, 1, 10, 2400, 2600, b.intern("[CUDA memcpy HtoD]"), m);
    b.addMemset(1, 0, 1, 10, 3000, 3000, b.intern("[CUDA memset]"), MemsetRecord{});
    return b.finish();
}

TEST(Breakdown, NcclPartlyHiddenUnderComputeGivesTheExactExposedTime) {
    const auto t = overlapTrace();
    const auto all = computeBreakdown(*t, KernelClassTable::defaults());
    ASSERT_EQ(all.size(), 1u);
    const GpuBreakdown& b = all[0];
    EXPECT_EQ(b.span, (TimeRange{1000, 3001}));
    EXPECT_EQ(b.compute, 1100);
    EXPECT_EQ(b.communication, 1000);
    EXPECT_EQ(b.exposedCommunication, 400); // [2100, 2500)
    EXPECT_DOUBLE_EQ(b.overlapPercent(), 60.0);
    EXPECT_EQ(b.memory, 201);
    EXPECT_EQ(b.memoryOnly, 101); // [2500, 2600) and the memset's 1 ns
    EXPECT_EQ(b.idle, 2001 - 1600 - 1);
    // Attention comes first in the table, so it owns [1900, 2100); softmax hides under GEMM.
    EXPECT_EQ(b.classTime(KernelClass::Attention), 200);
    EXPECT_EQ(b.classTime(KernelClass::Gemm), 900);
    EXPECT_EQ(b.classTime(KernelClass::Softmax), 0);
    EXPECT_EQ(b.copies[int(CopyDirection::HtoD)], 200);
    EXPECT_EQ(b.memset, 1);
    // The stacked bar adds up to the span exactly.
    TimeNs bar = b.exposedCommunication + b.memoryOnly + b.idle;
    for (TimeNs c : b.classes)
        bar += c;
    EXPECT_EQ(bar, b.span.duration());

    const auto w = computeBreakdown(*t, KernelClassTable::defaults(), TimeRange{1400, 1600});
    EXPECT_EQ(w[0].compute, 200);
    EXPECT_EQ(w[0].communication, 100);
    EXPECT_EQ(w[0].exposedCommunication, 0);
    EXPECT_EQ(w[0].idle, 0);
    const auto idle = computeBreakdown(*t, KernelClassTable::defaults(), TimeRange{5000, 6000});
    EXPECT_EQ(idle[0].idle, 1000);
    EXPECT_EQ(idle[0].compute, 0);
    const auto inverted = computeBreakdown(*t, KernelClassTable::defaults(), TimeRange{9, 3});
    EXPECT_EQ(inverted[0].span.duration(), 0);
    EXPECT_EQ(inverted[0].idle, 0);
}

TEST(Breakdown, ExposedCommunicationAloneEqualsTheWholeBreakdowns) {
    const auto t = overlapTrace();
    const BreakdownSource source(*t, KernelClassTable::defaults());
    // Every window with ends on a 100 ns grid over the trace and past it, the inverted ones
    // included: the lean per-window figure is the full breakdown's.
    for (TimeNs from = 800; from <= 3200; from += 100)
        for (TimeNs to = 700; to <= 3300; to += 100) {
            const TimeRange w{from, to};
            const auto full = source.breakdown(w);
            const auto lean = source.exposedCommunication(w);
            ASSERT_EQ(lean.size(), full.size());
            for (std::size_t i = 0; i < full.size(); ++i)
                EXPECT_EQ(lean[i], full[i].exposedCommunication) << from << ".." << to;
        }
    EXPECT_EQ(source.exposedCommunication({1000, 3001}), (std::vector<TimeNs>{400}));
}

TEST(Breakdown, AUserTableChangesClassesAndCommunication) {
    const auto t = overlapTrace();
    QString error;
    // "xmma" now counts as communication; softmax before everything.
    const auto table = KernelClassTable::fromJson(
        R"({"communication": ["nccl", "xmma"],
            "classes": [{"class": "softmax", "patterns": ["SOFTMAX"]}]})",
        &error);
    ASSERT_TRUE(table) << error.toStdString();
    const GpuBreakdown b = computeBreakdown(*t, *table)[0];
    EXPECT_EQ(b.communication, 1500);                  // [1000, 2500)
    EXPECT_EQ(b.compute, 300);                         // softmax + flash
    EXPECT_EQ(b.classTime(KernelClass::Softmax), 100); // patterns are case-insensitive
    EXPECT_EQ(b.classTime(KernelClass::Other), 200);   // flash: no rule for it now
    EXPECT_EQ(b.exposedCommunication, 1500 - 300);
}

} // namespace
