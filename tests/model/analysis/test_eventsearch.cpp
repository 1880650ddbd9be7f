// SPDX-License-Identifier: MIT
// The timeline's search (issue 44, item 16): names of every lane kind, substring and regular
// expression, case, no match, a bad pattern, cancellation, the time order the next / previous
// keys walk, where each match sits in its row, and a real export against SQL.
#include "model/analysis/eventsearch.h"

#include "formats/open.h"
#include "model/tracebuilder.h"
#include "tests/support/sqlitequery.h"

#include <QThread>
#include <gtest/gtest.h>

using namespace strobe;

namespace {

// Process 1, thread 1 "main" (CUDA API, OS runtime, NVTX, CPU ops two deep, Python), thread 2
// (OS runtime), a start/end NVTX range; GPU 0 stream 7 (kernels, two rows), stream 8 (a memcpy
// and a memset) and a unified-memory migration. Times in ns.
std::shared_ptr<const Trace> everyKind() {
    TraceBuilder b(QStringLiteral("every-kind"));
    b.setProcessName(1, b.intern("train"));
    b.setThreadName(1, 1, b.intern("main"));
    b.setThreadName(1, 2, b.intern("loader"));
    GpuInfo gpu;
    gpu.id = 0;
    gpu.name = b.intern("Test GPU");
    b.addGpu(gpu);
    const auto api = [&](TimeNs s, TimeNs e, const char* name, std::uint32_t corr) {
        ApiCallRecord r;
        r.correlationId = corr;
        b.addApiCall(1, 1, s, e, b.intern(name), r);
    };
    api(100, 200, "cudaLaunchKernel_v7000", 1);
    api(300, 400, "cudaLaunchKernel_v7000", 2);
    api(500, 600, "cudaMemcpyAsync_v3020", 3);
    b.addOsrtCall(1, 1, 700, 800, b.intern("ioctl"), OsrtRecord{});
    b.addOsrtCall(1, 2, 0, 1000, b.intern("pthread_cond_wait"), OsrtRecord{});
    NvtxRecord push;
    b.addNvtx(1, 1, 0, 0, 5000, b.intern("train_step"), push, std::nullopt);
    b.addNvtx(1, 1, 0, 10, 2000, b.intern("Forward"), push, std::nullopt);
    NvtxRecord startEnd;
    startEnd.style = NvtxStyle::StartEnd;
    b.addNvtx(1, 1, 0, 0, 9000, b.intern("epoch 1"), startEnd, std::nullopt);
    b.addCpuOp(LaneKind::CpuOps, 1, 1, 40, 300, b.intern("aten::linear"), CpuOpRecord{});
    b.addCpuOp(LaneKind::CpuOps, 1, 1, 50, 150, b.intern("aten::mm"), CpuOpRecord{});
    b.addCpuOp(LaneKind::CpuOps, 1, 1, 320, 330, b.intern("aten::mm"), CpuOpRecord{});
    b.addCpuOp(LaneKind::CpuOps, 1, 1, 340, 350, b.intern("aten::add"), CpuOpRecord{});
    b.addCpuOp(LaneKind::Python, 1, 1, 30, 400, b.intern("train.py(12): forward"), CpuOpRecord{});
    KernelConfig gemm;
    gemm.shortName = b.intern("Kernel");
    gemm.demangledName = b.intern("void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_64x64>()");
    KernelConfig relu;
    relu.shortName = b.intern("vectorized_elementwise_kernel");
    relu.demangledName = b.intern("void at::native::vectorized_elementwise_kernel<4>()");
    b.addKernel(1, 0, 1, 7, 1000, 3000, gemm, 1u, std::nullopt);
    b.addKernel(1, 0, 1, 7, 2000, 2500, relu, 2u, std::nullopt); // overlaps: second row
    b.addKernel(1, 0, 1, 7, 3500, 3600, gemm, 4u, std::nullopt);
    MemcpyRecord copy;
    copy.copyKind = MemcpyKind::HtoD;
    b.addMemcpy(1, 0, 1, 8, 4000, 4500, b.intern("[CUDA memcpy Host-to-Device]"), copy);
    MemsetRecord set;
    b.addMemset(1, 0, 1, 8, 4600, 4700, b.intern("[CUDA memset]"), set);
    MemcpyRecord migration;
    migration.copyKind = MemcpyKind::UnifiedHtoD;
    b.addMemcpy(1, 0, 1, 8, 6000, 6100, b.intern("[Unified Memory HtoD migration]"), migration);
    return std::shared_ptr<const Trace>(b.finish());
}

struct Found {
    LaneKind kind;
    QString name;
    TimeNs start;
    friend bool operator==(const Found&, const Found&) = default;
};

void PrintTo(const Found& f, std::ostream* os) {
    *os << int(f.kind) << ' ' << f.name.toStdString() << " @" << f.start;
}

std::vector<Found> found(const Trace& t, const EventSearchResult& r) {
    std::vector<Found> out;
    for (EventRef ref : r.inTimeOrder()) {
        const Lane& l = t.lane(ref.lane);
        out.push_back({l.kind(), t.string(l.nameId(ref.index)), l.start(ref.index)});
    }
    return out;
}

std::vector<Found> search(const Trace& t, const QString& text, bool regex = false,
                          bool caseSensitive = false) {
    const EventSearchResult r = searchEvents(t, {text, regex, caseSensitive});
    EXPECT_FALSE(r.patternError());
    EXPECT_FALSE(r.wasCancelled());
    std::vector<Found> f = found(t, r);
    EXPECT_EQ(f.size(), r.count());
    return f;
}

} // namespace

TEST(EventSearch, FindsNamesInEveryLaneKind) {
    const auto t = everyKind();
    using K = LaneKind;
    const auto s = [](const char* n) { return QString::fromUtf8(n); };
    EXPECT_EQ(search(*t, s("launch")),
              (std::vector<Found>{{K::CudaApi, s("cudaLaunchKernel_v7000"), 100},
                                  {K::CudaApi, s("cudaLaunchKernel_v7000"), 300}}));
    EXPECT_EQ(search(*t, s("ioctl")), (std::vector<Found>{{K::Osrt, s("ioctl"), 700}}));
    EXPECT_EQ(search(*t, s("forward")),
              (std::vector<Found>{{K::Nvtx, s("Forward"), 10},
                                  {K::Python, s("train.py(12): forward"), 30}}));
    EXPECT_EQ(search(*t, s("epoch")), (std::vector<Found>{{K::NvtxStartEnd, s("epoch 1"), 0}}));
    EXPECT_EQ(search(*t, s("aten::mm")), (std::vector<Found>{{K::CpuOps, s("aten::mm"), 50},
                                                             {K::CpuOps, s("aten::mm"), 320}}));
    // Kernels by either name: "Kernel" is the short name of the CUTLASS GEMM, "elementwise" of
    // the other; "tensorop" is only in the GEMM's demangled name.
    EXPECT_EQ(search(*t, s("tensorop")), (std::vector<Found>{{K::Kernels, s("Kernel"), 1000},
                                                             {K::Kernels, s("Kernel"), 3500}}));
    EXPECT_EQ(search(*t, s("elementwise")),
              (std::vector<Found>{{K::Kernels, s("vectorized_elementwise_kernel"), 2000}}));
    EXPECT_EQ(search(*t, s("memcpy")),
              (std::vector<Found>{{K::CudaApi, s("cudaMemcpyAsync_v3020"), 500},
                                  {K::Memcpy, s("[CUDA memcpy Host-to-Device]"), 4000}}));
    EXPECT_EQ(search(*t, s("memset")), (std::vector<Found>{{K::Memset, s("[CUDA memset]"), 4600}}));
    EXPECT_EQ(search(*t, s("migration")),
              (std::vector<Found>{{K::Uvm, s("[Unified Memory HtoD migration]"), 6000}}));
    // Thread, process and GPU names are not event names.
    EXPECT_TRUE(search(*t, s("loader")).empty());
    EXPECT_TRUE(search(*t, s("Test GPU")).empty());
}

TEST(EventSearch, CaseIsIgnoredUnlessAsked) {
    const auto t = everyKind();
    // "cuda" in any case: two launches, the copy call, the memcpy and the memset.
    EXPECT_EQ(search(*t, QStringLiteral("CUDA")).size(), 5u);
    EXPECT_EQ(search(*t, QStringLiteral("cuda"), false, true).size(), 3u);
    const std::vector<Found> upper = search(*t, QStringLiteral("CUDA"), false, true);
    ASSERT_EQ(upper.size(), 2u);
    EXPECT_EQ(upper[0].name, QStringLiteral("[CUDA memcpy Host-to-Device]"));
    EXPECT_EQ(upper[1].name, QStringLiteral("[CUDA memset]"));
    EXPECT_EQ(search(*t, QStringLiteral("forward"), false, true).size(), 1u); // the Python frame
    // Non-ASCII text is compared as Qt compares it.
    EXPECT_TRUE(search(*t, QStringLiteral("\u00e9poch")).empty());
}

TEST(EventSearch, RegularExpressions) {
    const auto t = everyKind();
    EXPECT_EQ(search(*t, QStringLiteral("^aten::(mm|add)$"), true).size(), 3u);
    // API calls also match as they are shown, without the _vNNNN suffix.
    EXPECT_EQ(search(*t, QStringLiteral("^cudaLaunchKernel$"), true).size(), 2u);
    EXPECT_EQ(search(*t, QStringLiteral("_v\\d+$"), true).size(), 3u);
    EXPECT_EQ(search(*t, QStringLiteral("^FORWARD$"), true).size(), 1u);
    EXPECT_TRUE(search(*t, QStringLiteral("^FORWARD$"), true, true).empty());
    // A regular expression is searched anywhere in the name, as the table filters do.
    EXPECT_EQ(search(*t, QStringLiteral("s1688gemm"), true).size(), 2u);
}

TEST(EventSearch, NoMatchAndEmptyText) {
    const auto t = everyKind();
    for (const QString& text : {QStringLiteral("no such name"), QString()}) {
        const EventSearchResult r = searchEvents(*t, {text, false, false});
        EXPECT_EQ(r.count(), 0u);
        EXPECT_TRUE(r.lanes().empty());
        EXPECT_FALSE(r.first().isValid());
        EXPECT_FALSE(r.next(EventRef{0, 0}).isValid());
        EXPECT_FALSE(r.previous(EventRef{0, 0}).isValid());
        EXPECT_EQ(r.rankOf(EventRef{0, 0}), 0u);
        EXPECT_FALSE(r.patternError());
    }
}

TEST(EventSearch, ABadPatternIsOneErrorAndNoMatch) {
    const auto t = everyKind();
    const EventSearchResult r = searchEvents(*t, {QStringLiteral("aten::(mm"), true, false});
    ASSERT_TRUE(r.patternError());
    EXPECT_EQ(r.patternError()->reason, QStringLiteral("missing closing parenthesis"));
    EXPECT_EQ(r.patternError()->offset, 9);
    EXPECT_EQ(r.count(), 0u);
    // The same text as plain text is no error: it is looked for as it is.
    EXPECT_FALSE(searchEvents(*t, {QStringLiteral("aten::(mm"), false, false}).patternError());
}

TEST(EventSearch, ACancelledSearchStopsWithNothing) {
    const auto t = everyKind();
    std::atomic<bool> cancel{true};
    const EventSearchResult r = searchEvents(*t, {QStringLiteral("a"), false, false}, &cancel);
    EXPECT_TRUE(r.wasCancelled());
    EXPECT_EQ(r.count(), 0u);
    cancel = false;
    EXPECT_GT(searchEvents(*t, {QStringLiteral("a"), false, false}, &cancel).count(), 10u);
}

// Next and previous walk the matches in time order (start, then lane, then index), and the
// rank is the position the bar shows ("3 of 12").
TEST(EventSearch, NextPreviousAndRankFollowTimeOrder) {
    const auto t = everyKind();
    const EventSearchResult r = searchEvents(*t, {QStringLiteral("a"), false, false});
    const std::vector<EventRef> all = r.inTimeOrder();
    ASSERT_EQ(all.size(), r.count());
    ASSERT_GE(all.size(), 12u);
    for (std::size_t i = 1; i < all.size(); ++i) {
        const TimeNs a = t->lane(all[i - 1].lane).start(all[i - 1].index);
        const TimeNs b = t->lane(all[i].lane).start(all[i].index);
        ASSERT_LE(a, b);
    }
    EXPECT_EQ(r.first(), all.front());
    EXPECT_EQ(r.last(), all.back());
    EventRef at = r.first();
    for (std::size_t i = 0; i < all.size(); ++i) {
        EXPECT_EQ(at, all[i]) << i;
        EXPECT_EQ(r.rankOf(at), i + 1);
        EXPECT_TRUE(r.contains(at));
        at = r.next(at);
    }
    EXPECT_FALSE(at.isValid()); // no wrapping: the bar wraps
    at = r.last();
    for (std::size_t i = all.size(); i-- > 0;) {
        EXPECT_EQ(at, all[i]) << i;
        at = r.previous(at);
    }
    EXPECT_FALSE(at.isValid());
    // From an event that is no match: the next one after its start.
    EXPECT_EQ(r.firstStartingAtOrAfter(301), r.next(r.firstStartingAtOrAfter(300)));
    EXPECT_EQ(r.firstStartingAtOrAfter(1'000'000), EventRef{});
}

// The highlight reads each match's row position: a lane of several rows says which.
TEST(EventSearch, MatchesKnowTheirRows) {
    const auto t = everyKind();
    const EventSearchResult r = searchEvents(*t, {QStringLiteral("aten::mm"), false, false});
    ASSERT_EQ(r.lanes().size(), 1u);
    const LaneMatches& m = r.lanes()[0];
    const Lane& l = t->lane(m.lane);
    ASSERT_EQ(l.rowCount(), 2);
    // Row 0: linear [40, 300), mm [320, 330), add [340, 350); row 1: mm [50, 150).
    EXPECT_EQ(std::vector<std::uint32_t>(m.rowPositions(0).begin(), m.rowPositions(0).end()),
              (std::vector<std::uint32_t>{1}));
    EXPECT_EQ(std::vector<std::uint32_t>(m.rowPositions(1).begin(), m.rowPositions(1).end()),
              (std::vector<std::uint32_t>{0}));
    EXPECT_TRUE(m.rowPositions(2).empty());
    const EventSearchResult k = searchEvents(*t, {QStringLiteral("elementwise"), false, false});
    ASSERT_EQ(k.lanes().size(), 1u);
    EXPECT_EQ(k.lanes()[0].rowPositions(1).size(), 1u); // the overlapping kernel's row
    EXPECT_TRUE(k.lanes()[0].rowPositions(0).empty());
}

// A set of events given by reference (a finding's evidence) is a result like a search's: the
// same lanes, rows and time order as searching their name, duplicates and bad refs left out.
TEST(EventSearch, AnEventSetIsMarkedLikeTheSearchForItsEvents) {
    const auto t = everyKind();
    const EventSearchResult byName = searchEvents(*t, {QStringLiteral("aten::mm"), false, false});
    const std::vector<EventRef> mm = byName.inTimeOrder();
    ASSERT_EQ(mm.size(), 2u);
    const std::uint32_t lanes = std::uint32_t(t->lanes().size());
    const std::vector<EventRef> given = {mm[1],
                                         mm[0],
                                         mm[1],
                                         EventRef{},
                                         EventRef{lanes, 0},
                                         EventRef{mm[0].lane, t->lane(mm[0].lane).size()}};
    const EventSearchResult set = eventSetOf(*t, given);
    EXPECT_EQ(set.trace(), t.get());
    EXPECT_EQ(set.count(), 2u);
    EXPECT_EQ(set.inTimeOrder(), mm);
    ASSERT_EQ(set.lanes().size(), 1u);
    const LaneMatches& m = set.lanes()[0];
    for (std::uint16_t row = 0; row < 3; ++row) {
        const auto want = byName.lanes()[0].rowPositions(row);
        const auto got = m.rowPositions(row);
        EXPECT_EQ(std::vector<std::uint32_t>(got.begin(), got.end()),
                  std::vector<std::uint32_t>(want.begin(), want.end()))
            << "row " << row;
    }
    EXPECT_TRUE(set.contains(mm[0]));
    EXPECT_EQ(set.next(mm[0]), mm[1]);
    EXPECT_EQ(eventSetOf(*t, {}).count(), 0u);
    EXPECT_TRUE(eventSetOf(*t, {}).lanes().empty());
}

// Past a million events the lanes are scanned on several threads: the same answer, and many
// matches placed in their rows by one walk of each row.
TEST(EventSearch, ABigTraceGivesTheSameCounts) {
    TraceBuilder b(QStringLiteral("big"));
    const StringId names[] = {b.intern("aten::mm"), b.intern("aten::add"), b.intern("aten::relu")};
    constexpr std::uint32_t kThreads = 4, kPerThread = 300'000;
    for (std::uint32_t tid = 1; tid <= kThreads; ++tid) {
        for (std::uint32_t i = 0; i < kPerThread; ++i) {
            const TimeNs s = TimeNs(i) * 100;
            // An outer op and one inside it every other slot: two rows.
            b.addCpuOp(LaneKind::CpuOps, 1, tid, s, s + 90, names[i % 3], CpuOpRecord{});
            if (i % 2 == 0)
                b.addCpuOp(LaneKind::CpuOps, 1, tid, s + 10, s + 20, names[(i + 1) % 3],
                           CpuOpRecord{});
        }
    }
    const std::shared_ptr<const Trace> t(b.finish());
    const EventSearchResult r = searchEvents(*t, {QStringLiteral("mm"), false, false});
    // Per thread: outer mm at i % 3 == 0 (100,000), inner mm at even i with (i + 1) % 3 == 0,
    // i = 2 mod 6 (50,000).
    EXPECT_EQ(r.count(), 4u * 150'000u);
    ASSERT_EQ(r.lanes().size(), 4u);
    for (const LaneMatches& m : r.lanes()) {
        EXPECT_EQ(m.rowPositions(0).size(), 100'000u);
        EXPECT_EQ(m.rowPositions(1).size(), 50'000u);
        const RowView inner = t->lane(m.lane).rowView(1);
        EXPECT_EQ(inner.start(m.rowPositions(1)[0]), 210); // i = 2
    }
    EXPECT_EQ(r.rankOf(r.last()), r.count());
}

// Per-call names (PyTorch's "op_id = N" NVTX ranges) make tables of many strings: those are
// matched in chunks on several threads, each with its own regular expression.
TEST(EventSearch, ManyDistinctNamesGiveTheSameCounts) {
    TraceBuilder b(QStringLiteral("many-names"));
    constexpr int kRanges = 70'000;
    for (int i = 0; i < kRanges; ++i) {
        const std::string name = "aten::mm, op_id = " + std::to_string(i);
        b.addNvtx(1, 1, 0, TimeNs(i) * 10, TimeNs(i) * 10 + 5, b.intern(name), NvtxRecord{},
                  std::nullopt);
    }
    const std::shared_ptr<const Trace> t(b.finish());
    ASSERT_GT(t->strings().size(), std::size_t(kRanges));
    // op ids ending in 7: 7, 17, ..., 69997.
    const EventSearchResult r = searchEvents(*t, {QStringLiteral("op_id = \\d*7$"), true, false});
    EXPECT_EQ(r.count(), std::size_t(kRanges / 10));
    EXPECT_EQ(searchEvents(*t, {QStringLiteral("OP_ID = 6999"), false, false}).count(), 11u);
}

// A real export: the kernels whose short or demangled name holds "gemm", and the CUDA API calls
// whose name starts with cudaLaunchKernel, counted in SQL.
TEST(EventSearch, AgreesWithSqlOnARealExport) {
    const std::string path = test::fixturePath("nsys2026.2-h100-2gpu-nvtx.sqlite");
    const LoadResult loaded = loadTrace(QString::fromStdString(path));
    ASSERT_TRUE(loaded.trace) << loaded.error.toStdString();
    const Trace& t = *loaded.trace;
    const std::int64_t gemms = test::queryInt(
        path, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k "
              "JOIN StringIds s ON s.id = k.shortName JOIN StringIds d ON d.id = k.demangledName "
              "WHERE s.value LIKE '%gemm%' OR d.value LIKE '%gemm%'");
    ASSERT_GT(gemms, 100);
    const EventSearchResult r = searchEvents(t, {QStringLiteral("GEMM"), false, false});
    std::size_t kernels = 0;
    for (const LaneMatches& m : r.lanes())
        kernels += t.lane(m.lane).kind() == LaneKind::Kernels ? m.events.size() : 0;
    EXPECT_EQ(std::int64_t(kernels), gemms);

    // cudaLaunchKernel_v7000 (2,788) and cudaLaunchKernelExC_v11060 (558): the substring finds
    // both, the regular expression on the name as drawn only the first.
    const auto calls = [&](const std::string& glob) {
        return test::queryInt(path, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN "
                                    "StringIds s ON s.id = r.nameId WHERE s.value GLOB '" +
                                        glob + "'");
    };
    const std::int64_t all = calls("cudaLaunchKernel*"), plain = calls("cudaLaunchKernel_v*");
    ASSERT_GT(all, plain);
    ASSERT_GT(plain, 100);
    EXPECT_EQ(
        std::int64_t(searchEvents(t, {QStringLiteral("cudalaunchkernel"), false, false}).count()),
        all);
    const EventSearchResult l =
        searchEvents(t, {QStringLiteral("^cudaLaunchKernel$"), true, false});
    EXPECT_EQ(std::int64_t(l.count()), plain);
    for (const LaneMatches& m : l.lanes())
        EXPECT_EQ(t.lane(m.lane).kind(), LaneKind::CudaApi);
}
