// SPDX-License-Identifier: MIT
// TraceBuilder's defences against hostile data: clamped times and row overflow, both counted.
#include "model/tracebuilder.h"

#include <functional>
#include <gtest/gtest.h>
#include <map>
#include <set>
#include <string>
#include <vector>

using namespace strobe;

namespace {

const TraceWarning* findWarning(const Trace& t, const QString& kind) {
    for (const TraceWarning& w : t.warnings()) {
        if (w.kind == kind)
            return &w;
    }
    return nullptr;
}

KernelConfig config(TraceBuilder& b) {
    KernelConfig c;
    c.shortName = c.demangledName = b.intern("k");
    return c;
}

} // namespace

TEST(TraceBuilder, ClampsTimesOutsideTheRepresentableRangeAndCountsThem) {
    TraceBuilder b(QStringLiteral("hostile"));
    const KernelConfig c = config(b);
    constexpr TimeNs kMax = std::numeric_limits<TimeNs>::max();
    b.addKernel(1, 0, 1, 7, -kMax, kMax, c, 1, std::nullopt); // both ends out
    b.addKernel(1, 0, 1, 7, -1, kMax, c, 2, std::nullopt);    // end out
    b.addKernel(1, 0, 1, 7, 100, 200, c, 3, std::nullopt);    // fine
    b.addApiCall(1, 2, kMaxTime, kMaxTime + 10, b.intern("cudaFree"), ApiCallRecord{});
    const auto t = b.finish();
    ASSERT_TRUE(t);
    const TraceWarning* w = findWarning(*t, QStringLiteral("time-out-of-range"));
    ASSERT_NE(w, nullptr);
    EXPECT_EQ(w->count, 3u);
    EXPECT_TRUE(w->message.startsWith(QStringLiteral("3 events have times beyond")));
    EXPECT_EQ(t->timeRange(), (TimeRange{kMinTime, kMaxTime}));
    EXPECT_GT(t->timeRange().duration(), 0);
    TimeNs longest = 0;
    for (std::size_t i = 0; i < t->kernelCount(); ++i) {
        const KernelLaunch k = t->kernelAt(i);
        EXPECT_GE(k.start, kMinTime);
        EXPECT_LE(k.end, kMaxTime);
        EXPECT_GE(k.duration(), 0);
        longest = std::max(longest, k.duration());
    }
    EXPECT_EQ(longest, kMaxTime - kMinTime);
}

TEST(TraceBuilder, NoClampWarningForOrdinaryTimes) {
    TraceBuilder b(QStringLiteral("fine"));
    b.addKernel(1, 0, 1, 7, -5, 5, config(b), 1, std::nullopt);
    const auto t = b.finish();
    EXPECT_EQ(findWarning(*t, QStringLiteral("time-out-of-range")), nullptr);
    EXPECT_EQ(findWarning(*t, QStringLiteral("row-overflow")), nullptr);
}

TEST(TraceBuilder, RowOverflowIsCountedAndNothingIsDropped) {
    TraceBuilder b(QStringLiteral("overlap"));
    const KernelConfig c = config(b);
    const std::uint32_t n = Lane::kMaxRows + 10; // all overlap each other
    for (std::uint32_t i = 0; i < n; ++i)
        b.addKernel(1, 0, 1, 7, TimeNs(i), 1'000'000, c, i, std::nullopt);
    const auto t = b.finish();
    EXPECT_EQ(t->kernelCount(), n);
    const TraceWarning* w = findWarning(*t, QStringLiteral("row-overflow"));
    ASSERT_NE(w, nullptr);
    EXPECT_EQ(w->count, 10u);
    EXPECT_EQ(w->message, QStringLiteral("10 events found all 65535 rows of their lane busy; they "
                                         "are drawn overlapping in its last row."));
}

// Open NVTX ranges end at the trace's end. Staged ends are 32-bit durations with the long ones
// kept beside in index order; closing ranges in place must keep that order, whichever events
// become long or were long already.
TEST(TraceBuilder, OpenRangesEndAtTheTraceEndBesideLongClosedOnes) {
    TraceBuilder b(QStringLiteral("open"));
    const StringId name = b.intern("r");
    NvtxRecord closed;
    NvtxRecord open;
    open.hasEnd = false;
    constexpr TimeNs kLong = 6'000'000'000; // past 2^32 ns
    constexpr TimeNs kLast = 9'000'000'000;
    b.addNvtx(1, 1, kNoString, 9, 109, name, closed, std::nullopt);
    b.addNvtx(1, 1, kNoString, 7, 7, name, open, std::nullopt);       // ends at kLast: long
    b.addNvtx(1, 1, kNoString, 5, kLong, name, closed, std::nullopt); // long already
    b.addNvtx(1, 1, kNoString, 0, 10, name, closed, std::nullopt);
    b.addNvtx(1, 1, kNoString, 8'000'000'000, 8'000'000'000, name, open, std::nullopt); // short
    b.addNvtx(1, 1, kNoString, 20, 15, name, closed, std::nullopt);       // ends before it starts
    b.addNvtx(1, 1, kNoString, 30, 30 + kLong, name, open, std::nullopt); // staged long, open
    b.addNvtx(1, 1, kNoString, 40, 0, name, open, std::nullopt);          // staged negative, open
    b.addKernel(1, 0, 1, 7, 100, kLast, config(b), 1, std::nullopt);
    const auto t = b.finish();
    ASSERT_TRUE(t);
    std::map<TimeNs, TimeNs> endOf; // by start
    for (const Lane& l : t->lanes()) {
        if (l.kind() != LaneKind::Nvtx)
            continue;
        for (std::uint32_t i = 0; i < l.size(); ++i)
            endOf[l.start(i)] = l.end(i);
    }
    const std::map<TimeNs, TimeNs> expected{{0, 10},     {5, kLong}, {7, kLast},
                                            {9, 109},    {20, 15},   {8'000'000'000, kLast},
                                            {30, kLast}, {40, kLast}};
    EXPECT_EQ(endOf, expected);
}

// A reader that adds rows out of their table's order (the nsys reader's sampled passes) keys
// them; the frozen lanes are then those of a read in order, ties included: three kernels of one
// stream start and end together, so which comes first decides their rows.
TEST(TraceBuilder, RowOrderKeysPutTiesInTheTablesOrder) {
    struct Row {
        TimeNs start, end;
        const char* name;
    };
    // The table in order: blocks (keys) of two rows; the ties straddle the blocks.
    const std::vector<std::vector<Row>> blocks = {{{0, 10, "a"}, {0, 10, "b"}},
                                                  {{0, 10, "c"}, {20, 30, "d"}},
                                                  {{20, 30, "e"}, {20, 30, "f"}},
                                                  {{40, 45, "g"}, {40, 45, "h"}}};
    auto lines = [](const Trace& t) {
        std::vector<std::string> out;
        for (const Lane& l : t.lanes()) {
            for (std::uint32_t i = 0; i < l.size(); ++i)
                out.push_back(std::to_string(l.start(i)) + ' ' +
                              t.string(l.nameId(i)).toStdString() + " row " +
                              std::to_string(l.row(i)));
        }
        return out;
    };
    auto add = [](TraceBuilder& b, const Row& r, std::uint32_t stream) {
        KernelConfig c;
        c.shortName = c.demangledName = b.intern(r.name);
        b.addKernel(1, 0, 1, stream, r.start, r.end, c, std::nullopt, std::nullopt);
    };
    TraceBuilder inOrder(QStringLiteral("in order"));
    for (const auto& block : blocks) {
        for (const Row& r : block)
            add(inOrder, r, 7);
    }
    // The same blocks in the order of two passes (every other block first), keyed by position.
    TraceBuilder passes(QStringLiteral("passes"));
    for (const std::size_t k : {0, 2, 1, 3}) {
        passes.setRowOrderKey(std::int64_t(k) * 100);
        for (const Row& r : blocks[k])
            add(passes, r, 7);
    }
    const auto a = inOrder.finish(), b = passes.finish();
    ASSERT_TRUE(a && b);
    const std::vector<std::string> expected = {"0 a row 0",  "0 b row 1",  "0 c row 2",
                                               "20 d row 0", "20 e row 1", "20 f row 2",
                                               "40 g row 0", "40 h row 1"};
    EXPECT_EQ(lines(*a), expected);
    EXPECT_EQ(lines(*b), expected);

    // A partial copy of the GPU side keeps the keys (its lanes numbered without the CPU's): the
    // blocks read so far, in the table's order.
    TraceBuilder partial(QStringLiteral("partial"));
    partial.addApiCall(1, 2, 0, 5, partial.intern("cudaLaunchKernel"), ApiCallRecord{});
    for (const std::size_t k : {1, 0}) {
        partial.setRowOrderKey(std::int64_t(k) * 100);
        for (const Row& r : blocks[k])
            add(partial, r, 7);
    }
    const auto preview = partial.finishGpuPreview();
    ASSERT_TRUE(preview);
    EXPECT_EQ(lines(*preview),
              (std::vector<std::string>{"0 a row 0", "0 b row 1", "0 c row 2", "20 d row 0"}));
}

// A hash that skipped a field would let a file of configurations differing only there pile up
// in one bucket; each field, changed alone, changes the hash (and swapping two words does too).
TEST(KernelConfigHash, EveryFieldReachesTheHash) {
    const KernelConfig base = [] {
        KernelConfig c;
        c.shortName = 3, c.demangledName = 4, c.mangledName = 5;
        c.grid = {64, 2, 1}, c.block = {256, 1, 1};
        c.registersPerThread = 32, c.staticSharedBytes = 1024, c.dynamicSharedBytes = 2048;
        c.localBytesPerThread = 16, c.localBytesTotal = 1 << 20, c.sharedMemoryExecuted = 4096;
        c.launchType = 1, c.cacheConfig = 2, c.sharedMemLimitConfig = 3;
        return c;
    }();
    std::vector<std::function<void(KernelConfig&)>> changes = {
        [](KernelConfig& c) { c.shortName++; },
        [](KernelConfig& c) { c.demangledName++; },
        [](KernelConfig& c) { c.mangledName++; },
        [](KernelConfig& c) { c.grid[0]++; },
        [](KernelConfig& c) { c.grid[1]++; },
        [](KernelConfig& c) { c.grid[2]++; },
        [](KernelConfig& c) { c.block[0]++; },
        [](KernelConfig& c) { c.block[1]++; },
        [](KernelConfig& c) { c.block[2]++; },
        [](KernelConfig& c) { std::swap(c.grid, c.block); },
        [](KernelConfig& c) { c.registersPerThread++; },
        [](KernelConfig& c) { c.staticSharedBytes++; },
        [](KernelConfig& c) { c.dynamicSharedBytes++; },
        [](KernelConfig& c) { c.localBytesPerThread++; },
        [](KernelConfig& c) { c.localBytesTotal += std::uint64_t(1) << 40; },
        [](KernelConfig& c) { c.sharedMemoryExecuted++; },
        [](KernelConfig& c) { c.launchType++; },
        [](KernelConfig& c) { c.cacheConfig++; },
        [](KernelConfig& c) { c.sharedMemLimitConfig++; },
        [](KernelConfig& c) { c.detail = LaunchDetail::None; },
        [](KernelConfig& c) { c.shortNameDerived = true; },
        [](KernelConfig& c) { c.unrecorded = 1; },
        [](KernelConfig& c) { c.recordedOccupancy.blocksPerSm = 2.0f; },
        [](KernelConfig& c) { c.recordedOccupancy.warpsPerSm = 2.0f; },
        [](KernelConfig& c) { c.recordedOccupancy.achievedOccupancyPercent = 2.0f; },
    };
    const KernelConfigHash hash;
    std::set<std::size_t> seen{hash(base)};
    for (std::size_t i = 0; i < changes.size(); ++i) {
        KernelConfig c = base;
        changes[i](c);
        ASSERT_FALSE(c == base) << i;
        EXPECT_TRUE(seen.insert(hash(c)).second) << "change " << i << " left the hash as before";
    }
}
