// SPDX-License-Identifier: MIT
// The kernel table's query without the table: which kernels pass the filters, and in which
// order each sort key puts them (ties by start).
#include "model/analysis/kernelquery.h"

#include "model/tracebuilder.h"
#include "tests/model/analysis/launchchaintestdata.h"

#include <gtest/gtest.h>

using namespace strobe;

namespace {

// Kernels in start order: 0 "gemm" 300 ns on stream 7, 1 "Copy" 100 ns on stream 3, 2 "gemm"
// 300 ns on stream 3 (a duration tie with 0), 3 "axpy" 50 ns on stream 7.
std::shared_ptr<const KernelTableData> sample() {
    TraceBuilder b(QStringLiteral("kernelquery"));
    GpuInfo g;
    g.id = 0;
    b.addGpu(g);
    const auto config = [&](const char* name, std::int32_t grid) {
        KernelConfig c;
        c.shortName = b.intern(name);
        c.demangledName = b.intern(std::string("void ") + name + "()");
        c.grid = {grid, 1, 1};
        return b.kernelConfig(c);
    };
    const std::uint32_t gemm = config("gemm", 8), copy = config("Copy", 2),
                        axpy = config("axpy", 4);
    b.addKernel(1, 0, 1, 7, 1000, 1300, gemm, 11, std::nullopt);
    b.addKernel(1, 0, 1, 3, 2000, 2100, copy, 12, std::nullopt);
    b.addKernel(1, 0, 1, 3, 3000, 3300, gemm, 13, std::nullopt);
    b.addKernel(1, 0, 1, 7, 4000, 4050, axpy, 14, std::nullopt);
    return std::make_shared<const KernelTableData>(
        gatherKernelTableData(std::shared_ptr<const Trace>(b.finish())));
}

using Order = std::vector<std::uint32_t>;

TEST(KernelQuery, EachKeySortsAscendingWithTiesByStart) {
    const auto d = sample();
    ASSERT_EQ(d->start, (std::vector<TimeNs>{1000, 2000, 3000, 4000}));
    EXPECT_EQ(kernelPermutation(*d, KernelSortKey::Start, false), (Order{0, 1, 2, 3}));
    EXPECT_EQ(kernelPermutation(*d, KernelSortKey::Duration, false), (Order{3, 1, 0, 2}));
    EXPECT_EQ(kernelPermutation(*d, KernelSortKey::End, false), (Order{0, 1, 2, 3}));
    EXPECT_EQ(kernelPermutation(*d, KernelSortKey::Stream, false), (Order{1, 2, 0, 3}));
    EXPECT_EQ(kernelPermutation(*d, KernelSortKey::Grid, false), (Order{1, 3, 0, 2}));
    EXPECT_EQ(kernelPermutation(*d, KernelSortKey::CorrelationId, false), (Order{0, 1, 2, 3}));
    // Names case-insensitively: axpy < Copy < gemm.
    EXPECT_EQ(kernelPermutation(*d, KernelSortKey::Name, false), (Order{3, 1, 0, 2}));
    EXPECT_EQ(kernelPermutation(*d, KernelSortKey::Name, true), (Order{3, 1, 0, 2}));
}

// By the innermost launching operator's name, case-insensitively, kernels without one first; the
// forest travels with the query to the worker that sorts.
TEST(KernelQuery, OperatorKeySortsByTheInnermostLaunchingOperator) {
    const std::shared_ptr<const Trace> trace = test::launchChainTrace();
    const KernelTableData d = gatherKernelTableData(trace);
    const OperatorForest f = buildOperatorForest(*trace);
    ASSERT_TRUE(f.hasOperators());
    ASSERT_NE(kernelOperator(f, 1), kNoOpNode);
    EXPECT_EQ(f.nameOf(kernelOperator(f, 1)), QStringLiteral("aten::cudnn_convolution"));
    EXPECT_EQ(f.nameOf(kernelOperator(f, 2)), QStringLiteral("aten::relu"));
    EXPECT_EQ(kernelOperator(f, 4), kNoOpNode);
    EXPECT_EQ(kernelOperator(f, 99), kNoOpNode);
    EXPECT_EQ(kernelPermutation(d, KernelSortKey::Operator, false, &f), (Order{4, 0, 1, 3, 2}));
    EXPECT_EQ(kernelPermutation(d, KernelSortKey::Operator, false), (Order{0, 1, 2, 3, 4}));

    KernelRowQuery q;
    q.data = std::make_shared<const KernelTableData>(d);
    q.key = KernelSortKey::Operator;
    q.descending = true;
    q.configPass.assign(trace->kernelConfigs().size(), 1);
    q.operators = std::make_shared<const OperatorForest>(f);
    EXPECT_EQ(computeKernelRows(q).rows, (Order{2, 3, 1, 0, 4}));
}

TEST(KernelQuery, RowsFilterAndReverse) {
    KernelRowQuery q;
    q.data = sample();
    q.key = KernelSortKey::Duration;
    q.descending = true;
    q.configPass = {1, 1, 1};
    KernelRows all = computeKernelRows(q);
    EXPECT_EQ(all.rows, (Order{2, 0, 1, 3})); // the reverse of the ascending order
    EXPECT_EQ(all.rowOf, (std::vector<std::int32_t>{1, 2, 0, 3}));
    ASSERT_TRUE(all.query.permutation);
    EXPECT_EQ(*all.query.permutation, (Order{3, 1, 0, 2}));

    q.configPass = {1, 0, 1};        // no Copy
    q.range = TimeRange{1300, 3001}; // touching kernel 0's end: out; kernel 2 starts inside
    const KernelRows some = computeKernelRows(q);
    EXPECT_EQ(some.rows, (Order{2}));
    EXPECT_EQ(some.rowOf, (std::vector<std::int32_t>{-1, -1, 0, -1}));

    EXPECT_TRUE(computeKernelRows(KernelRowQuery{}).rows.empty());
}

TEST(KernelQuery, ConfigPassCombinesTheListAndTheName) {
    const auto d = sample();
    const Trace* t = d->trace.get();
    EXPECT_EQ(kernelConfigPass(t, {}, NameFilter(), false), (std::vector<std::uint8_t>{1, 1, 1}));
    EXPECT_EQ(kernelConfigPass(t, {2, 9}, NameFilter(), false),
              (std::vector<std::uint8_t>{0, 0, 1})); // 9: no such config, ignored
    EXPECT_EQ(kernelConfigPass(t, {}, NameFilter(QStringLiteral("COPY"), false), false),
              (std::vector<std::uint8_t>{0, 1, 0}));
    EXPECT_EQ(kernelConfigPass(t, {0, 1}, NameFilter(QStringLiteral("^void [ag]"), true), true),
              (std::vector<std::uint8_t>{1, 0, 0}));
    // Issue 44, item 1: either name matches, whichever is shown ("cutlass" is found in
    // "void cutlass::Kernel<...>" without ticking Demangled): short names have no "void".
    EXPECT_EQ(kernelConfigPass(t, {}, NameFilter(QStringLiteral("^void"), true), false),
              (std::vector<std::uint8_t>{1, 1, 1}));
    EXPECT_EQ(kernelConfigPass(t, {}, NameFilter(QStringLiteral("void a"), false), false),
              (std::vector<std::uint8_t>{0, 0, 1}));
    EXPECT_EQ(kernelConfigPass(t, {}, NameFilter(QStringLiteral("^copy$"), true), true),
              (std::vector<std::uint8_t>{0, 1, 0}));
    EXPECT_TRUE(kernelConfigPass(nullptr, {}, NameFilter(), false).empty());
}

} // namespace
