// SPDX-License-Identifier: MIT
// The operator forest, its statistics and the step breakdown on a small PyTorch-like trace whose
// every number is worked out by hand below from docs/OPERATORS.md's definitions.

#include "model/analysis/operators.h"
#include "model/analysis/steps.h"
#include "model/tracebuilder.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>

namespace strobe {
namespace {

// Thread 1 (main): ProfilerStep#5 [0, 1000) (a user annotation) holding
//   aten::conv2d [100, 500) > aten::convolution [110, 490) > aten::cudnn_convolution [120, 480)
//     with cudaLaunchKernel [130, 140) -> K1 [2000, 2500); conv2d itself calls
//     cudaLaunchKernel [492, 497) -> K2 [2600, 2700);
//   aten::add_ [600, 700) whose only child is aten::add_ [610, 690) (one call, merged), calling
//     cudaLaunchKernel [620, 630) -> K3 [2800, 2900);
//   aten::mm [710, 800) and aten::bad [750, 900), which crosses it (left out).
// cudaLaunchKernel [1100, 1110) outside any operator -> K4 [3000, 3100).
// Thread 2 (autograd): autograd::engine::evaluate_function: MmBackward0 [200, 600) >
//   aten::mm [210, 590) calling cudaLaunchKernel [220, 230) -> K5 [3200, 3500).
// K6 [5000, 5050) has no launching call.
struct OperatorTrace {
    std::unique_ptr<Trace> trace;
    std::map<std::string, std::uint32_t> kernel; // kernel index by name

    OperatorTrace() {
        TraceBuilder b(QStringLiteral("ops.json"));
        b.metadata().format = QStringLiteral("kineto-json");
        GpuInfo g;
        b.addGpu(g);
        std::uint32_t corr = 0;
        auto launch = [&](const char* name, std::uint32_t tid, TimeNs s, TimeNs e, TimeNs ks,
                          TimeNs ke) {
            ApiCallRecord a;
            a.correlationId = ++corr;
            b.addApiCall(1, tid, s, e, b.intern("cudaLaunchKernel"), a);
            KernelConfig c;
            c.shortName = c.demangledName = b.intern(name);
            b.addKernel(1, 0, 1, 7, ks, ke, c, corr, std::nullopt);
        };
        auto op = [&](std::uint32_t tid, TimeNs s, TimeNs e, const char* name) {
            b.addCpuOp(LaneKind::CpuOps, 1, tid, s, e, b.intern(name), CpuOpRecord{});
        };
        b.addNvtx(1, 1, kNoString, 0, 1000, b.intern("ProfilerStep#5"), NvtxRecord{}, std::nullopt);
        op(1, 100, 500, "aten::conv2d");
        op(1, 110, 490, "aten::convolution");
        op(1, 120, 480, "aten::cudnn_convolution");
        launch("K1", 1, 130, 140, 2000, 2500);
        launch("K2", 1, 492, 497, 2600, 2700);
        op(1, 600, 700, "aten::add_");
        op(1, 610, 690, "aten::add_");
        launch("K3", 1, 620, 630, 2800, 2900);
        op(1, 710, 800, "aten::mm");
        op(1, 750, 900, "aten::bad");
        launch("K4", 1, 1100, 1110, 3000, 3100);
        op(2, 200, 600, "autograd::engine::evaluate_function: MmBackward0");
        op(2, 210, 590, "aten::mm");
        launch("K5", 2, 220, 230, 3200, 3500);
        KernelConfig c;
        c.shortName = c.demangledName = b.intern("K6");
        b.addKernel(1, 0, 1, 7, 5000, 5050, c, std::nullopt, std::nullopt);
        trace = b.finish();
        for (std::uint32_t k = 0; k < trace->kernelCount(); ++k)
            kernel[trace->string(trace->kernelAt(k).config->shortName).toStdString()] = k;
    }
};

const OperatorRow& rowNamed(const OperatorTable& t, const QString& name) {
    for (const OperatorRow& r : t.rows)
        if (r.name == name)
            return r;
    static const OperatorRow none;
    ADD_FAILURE() << "no row " << name.toStdString();
    return none;
}

TEST(OperatorForest, NestsAttributesAndMergesLikeTheDefinition) {
    OperatorTrace t;
    const OperatorForest f = buildOperatorForest(*t.trace);
    EXPECT_EQ(f.warnings().crossing, 1u);      // aten::bad
    EXPECT_EQ(f.warnings().mergedRepeats, 1u); // the inner aten::add_
    EXPECT_EQ(f.warnings().noOperator, 2u);    // K4 and K6
    // The chain that launched K1, innermost first.
    const std::uint32_t k1 = f.owners().kernels[t.kernel.at("K1")];
    std::vector<QString> chain;
    for (std::uint32_t n : f.operatorChain(k1))
        chain.push_back(f.nameOf(n));
    EXPECT_EQ(chain, (std::vector<QString>{QStringLiteral("aten::cudnn_convolution"),
                                           QStringLiteral("aten::convolution"),
                                           QStringLiteral("aten::conv2d")}));
    // The step is the root of thread 1 and not an operator.
    const OpNode& root = f.node(f.roots().front());
    EXPECT_EQ(root.kind, OpNodeKind::Step);
    EXPECT_EQ(f.nameOf(f.roots().front()), QStringLiteral("ProfilerStep#5"));
    EXPECT_EQ(f.owners().kernels[t.kernel.at("K4")], kNoOpNode);
    EXPECT_EQ(f.owners().kernels[t.kernel.at("K6")], kNoOpNode);
    // nodesAt walks from the step down to the innermost operator.
    const std::vector<std::uint32_t> at = f.nodesAt(0, 135);
    ASSERT_EQ(at.size(), 4u);
    EXPECT_EQ(f.nameOf(at.back()), QStringLiteral("aten::cudnn_convolution"));
    EXPECT_TRUE(f.isWithin(at.back(), at.front()));
    EXPECT_FALSE(f.isWithin(at.front(), at.back()));
}

TEST(OperatorForest, TableHasHostAndDeviceTimesPerName) {
    OperatorTrace t;
    const OperatorForest f = buildOperatorForest(*t.trace);
    const OperatorTable table = operatorTable(*t.trace, f);
    EXPECT_EQ(table.deviceTime, 500 + 100 + 100 + 100 + 300 + 50);

    const OperatorRow& conv = rowNamed(table, QStringLiteral("aten::conv2d"));
    EXPECT_EQ(conv.calls, 1u);
    EXPECT_EQ(conv.hostTotal, 400);
    EXPECT_EQ(conv.hostSelf, 400 - 380 - 5); // its child and its own launch call
    EXPECT_EQ(conv.deviceSelf, 100);         // K2
    EXPECT_EQ(conv.deviceTotal, 600);        // K1 + K2
    EXPECT_NEAR(conv.devicePercent, 100.0 * 100 / 1150, 1e-9);

    const OperatorRow& cudnn = rowNamed(table, QStringLiteral("aten::cudnn_convolution"));
    EXPECT_EQ(cudnn.hostSelf, 360 - 10);
    EXPECT_EQ(cudnn.deviceSelf, 500);

    const OperatorRow& add = rowNamed(table, QStringLiteral("aten::add_"));
    EXPECT_EQ(add.calls, 1u); // merged with its only, same-named child
    EXPECT_EQ(add.hostTotal, 100);
    EXPECT_EQ(add.hostSelf, 90);
    EXPECT_EQ(add.deviceSelf, 100);

    const OperatorRow& mm = rowNamed(table, QStringLiteral("aten::mm"));
    EXPECT_EQ(mm.calls, 2u); // one per thread
    EXPECT_EQ(mm.hostTotal, 90 + 380);
    EXPECT_EQ(mm.hostSelf, 90 + 370);
    EXPECT_EQ(mm.deviceSelf, 300);

    const OperatorRow& bwd =
        rowNamed(table, QStringLiteral("autograd::engine::evaluate_function: MmBackward0"));
    EXPECT_EQ(bwd.hostSelf, 20);
    EXPECT_EQ(bwd.deviceSelf, 0);
    EXPECT_EQ(bwd.deviceTotal, 300);

    const auto noneIt = std::find_if(table.rows.begin(), table.rows.end(),
                                     [](const OperatorRow& r) { return r.noOperator; });
    ASSERT_NE(noneIt, table.rows.end());
    const OperatorRow& none = *noneIt;
    EXPECT_EQ(none.name, QStringLiteral("(no operator)"));
    EXPECT_EQ(none.calls, 2u);
    EXPECT_EQ(none.deviceSelf, 150);
    // Every row's device self adds up to the GPU time: nothing is dropped or counted twice.
    TimeNs sum = 0;
    for (const OperatorRow& r : table.rows)
        sum += r.deviceSelf;
    EXPECT_EQ(sum, table.deviceTime);
    // Ordered by device self time.
    EXPECT_EQ(table.rows.front().name, QStringLiteral("aten::cudnn_convolution"));
    for (std::size_t i = 1; i < table.rows.size(); ++i)
        EXPECT_GE(table.rows[i - 1].deviceSelf, table.rows[i].deviceSelf);
    // The crossing operator is not listed.
    for (const OperatorRow& r : table.rows)
        EXPECT_NE(r.name, QStringLiteral("aten::bad"));
}

TEST(OperatorForest, WindowCountsCallsAndLaunchesInsideIt) {
    OperatorTrace t;
    const OperatorForest f = buildOperatorForest(*t.trace);
    // [0, 550): conv2d and thread 2's operators start inside; add_ and mm (thread 1) do not.
    const OperatorTable table =
        operatorTable(*t.trace, f, OperatorGrouping::Name, TimeRange{0, 550});
    EXPECT_EQ(rowNamed(table, QStringLiteral("aten::mm")).calls, 1u);
    for (const OperatorRow& r : table.rows)
        EXPECT_NE(r.name, QStringLiteral("aten::add_"));
    EXPECT_EQ(table.deviceTime, 500 + 100 + 300); // K1, K2, K5 launched inside
}

TEST(OperatorForest, KernelsOfAnOperatorIncludeItsDescendants) {
    OperatorTrace t;
    const OperatorForest f = buildOperatorForest(*t.trace);
    const auto rows = kernelsOfOperator(*t.trace, f, QStringLiteral("aten::conv2d"));
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[0].kernel, QStringLiteral("K1"));
    EXPECT_EQ(rows[0].total, 500);
    EXPECT_EQ(rows[1].kernel, QStringLiteral("K2"));
    EXPECT_TRUE(kernelsOfOperator(*t.trace, f, QStringLiteral("no such op")).empty());
}

TEST(OperatorForest, TraceWithoutRangesHasOnlyTheNoOperatorRow) {
    TraceBuilder b(QStringLiteral("plain.sqlite"));
    KernelConfig c;
    c.shortName = b.intern("k");
    b.addKernel(1, 0, 1, 7, 0, 10, c, std::nullopt, std::nullopt);
    const auto trace = b.finish();
    const OperatorForest f = buildOperatorForest(*trace);
    EXPECT_TRUE(f.isEmpty());
    EXPECT_FALSE(f.hasOperators());
    const OperatorTable table = operatorTable(*trace, f);
    ASSERT_EQ(table.rows.size(), 1u);
    EXPECT_TRUE(table.rows[0].noOperator);
    EXPECT_EQ(table.rows[0].deviceSelf, 10);
}

TEST(OperatorForest, NsysPyTorchRangesAreOperatorsGroupedByName) {
    TraceBuilder b(QStringLiteral("torch.sqlite"));
    ApiCallRecord a;
    a.correlationId = 1;
    b.addApiCall(1, 1, 20, 30, b.intern("cudaLaunchKernel"), a);
    KernelConfig c;
    c.shortName = b.intern("gemm");
    b.addKernel(1, 0, 1, 7, 100, 160, c, 1u, std::nullopt);
    NvtxRecord outer;
    b.addNvtx(1, 1, kNoString, 0, 50, b.intern("forward"), outer, std::nullopt);
    NvtxRecord inner;
    inner.depth = 1;
    b.addNvtx(1, 1, kNoString, 10, 40, b.intern("aten::mm, seq = 3, op_id = 12"), inner,
              std::nullopt);
    b.addNvtx(1, 1, kNoString, 60, 70, b.intern("aten::mm, op_id = 13"), outer, std::nullopt);
    const auto trace = b.finish();
    const OperatorForest f = buildOperatorForest(*trace);
    EXPECT_TRUE(f.hasOperators());
    const OperatorTable table = operatorTable(*trace, f);
    ASSERT_EQ(table.rows.size(), 1u); // "forward" is an annotation, not an operator
    EXPECT_EQ(table.rows[0].name, QStringLiteral("aten::mm"));
    EXPECT_EQ(table.rows[0].calls, 2u);
    EXPECT_EQ(table.rows[0].hostTotal, 40);
    EXPECT_EQ(table.rows[0].hostSelf, 40 - 10); // the CUDA call is not self time
    EXPECT_EQ(table.rows[0].deviceSelf, 60);
}

TEST(StepBreakdown, SplitsTheDeviceSideStepByPriority) {
    OperatorTrace t;
    const OperatorForest f = buildOperatorForest(*t.trace);
    const StepBreakdown s = computeStepBreakdown(*t.trace);
    EXPECT_EQ(s.source, StepSource::ProfilerSteps);
    ASSERT_EQ(s.steps.size(), 1u);
    const StepTimes& st = s.steps[0];
    EXPECT_EQ(st.name, QStringLiteral("5"));
    EXPECT_EQ(st.host, (TimeRange{0, 1000}));
    EXPECT_EQ(st.range, (TimeRange{0, 3500})); // ends with the last GPU work it launched
    EXPECT_EQ(st.of(StepCategory::Kernel), 1100);
    EXPECT_EQ(st.of(StepCategory::Memcpy), 0);
    EXPECT_EQ(st.of(StepCategory::Runtime), 45);
    EXPECT_EQ(st.of(StepCategory::DataLoader), 0);
    EXPECT_EQ(st.of(StepCategory::CpuExec), 755);
    EXPECT_EQ(st.of(StepCategory::Other), 1600);
    TimeNs sum = 0;
    for (TimeNs v : st.time)
        sum += v;
    EXPECT_EQ(sum, st.total());
    EXPECT_DOUBLE_EQ(s.averageTotal, 3500.0);
    EXPECT_NEAR(s.sharePercent(StepCategory::Kernel), 100.0 * 1100 / 3500, 1e-9);
}

TEST(StepBreakdown, DataLoaderStepsAndTailSteps) {
    // Three steps; the data loader runs at the start of each; the last step launches far fewer
    // kernels than the one before (the profiler stopped): it is dropped as TensorBoard does.
    TraceBuilder b(QStringLiteral("dl.json"));
    b.metadata().format = QStringLiteral("kineto-json");
    std::uint32_t corr = 0;
    KernelConfig c;
    c.shortName = b.intern("k");
    auto launch = [&](TimeNs s, TimeNs ks) {
        ApiCallRecord a;
        a.correlationId = ++corr;
        b.addApiCall(1, 1, s, s + 5, b.intern("cudaLaunchKernel"), a);
        b.addKernel(1, 0, 1, 7, ks, ks + 10, c, corr, std::nullopt);
    };
    for (int i = 0; i < 3; ++i) {
        const TimeNs base = TimeNs(i) * 1000;
        b.addNvtx(1, 1, kNoString, base, base + 1000,
                  b.intern(QStringLiteral("ProfilerStep#%1").arg(7 + i).toStdString()),
                  NvtxRecord{}, std::nullopt);
        NvtxRecord in;
        in.depth = 1;
        b.addNvtx(1, 1, kNoString, base, base + 300,
                  b.intern("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__"), in,
                  std::nullopt);
        const int launches = i < 2 ? 5 : 1;
        for (int k = 0; k < launches; ++k)
            launch(base + 400 + k * 10, base + 500 + k * 20);
    }
    const auto trace = b.finish();
    const OperatorForest f = buildOperatorForest(*trace);
    const StepBreakdown s = computeStepBreakdown(*trace);
    ASSERT_EQ(s.steps.size(), 2u);
    EXPECT_EQ(s.droppedTailSteps, 1u);
    EXPECT_EQ(s.steps[0].name, QStringLiteral("7"));
    EXPECT_EQ(s.steps[1].name, QStringLiteral("8"));
    EXPECT_EQ(s.steps[0].of(StepCategory::DataLoader), 300);
    EXPECT_EQ(s.steps[0].of(StepCategory::Kernel), 50);
    EXPECT_EQ(s.steps[0].of(StepCategory::Runtime), 25);
    EXPECT_EQ(s.steps[0].total(), 1000);
    EXPECT_NEAR(s.sharePercent(StepCategory::DataLoader), 30.0, 1e-9);
}

TEST(StepBreakdown, StepWithoutGpuWorkAndTraceWithoutSteps) {
    TraceBuilder b(QStringLiteral("cpu.json"));
    b.metadata().format = QStringLiteral("kineto-json");
    b.addCpuOp(LaneKind::CpuOps, 1, 1, 100, 400, b.intern("aten::empty"), CpuOpRecord{});
    const auto trace = b.finish();
    const OperatorForest f = buildOperatorForest(*trace);
    const StepBreakdown s = computeStepBreakdown(*trace);
    EXPECT_EQ(s.source, StepSource::WholeTrace);
    ASSERT_EQ(s.steps.size(), 1u);
    EXPECT_EQ(s.steps[0].range, (TimeRange{100, 400}));
    EXPECT_EQ(s.steps[0].of(StepCategory::CpuExec), 300);
    EXPECT_EQ(s.stepsWithoutGpuWork, 1u);
}

} // namespace
} // namespace strobe
