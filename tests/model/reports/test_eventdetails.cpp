// SPDX-License-Identifier: MIT
#include "formats/open.h"
#include "model/analysis/operators.h"
#include "model/reports/eventdetails.h"
#include "tests/model/analysis/analysistestdata.h"
#include "tests/model/analysis/gputabledata.h"
#include "tests/model/analysis/launchchaintestdata.h"
#include "tests/support/sqlitequery.h"

#include <gtest/gtest.h>

using namespace strobe;
using namespace strobe::test;

namespace {

TEST(EventDetails, KernelShowsLaunchApiOccupancyAndWarnings) {
    // 2 blocks on a 4-SM GPU; 100 ns kernel after a 500 ns launch call.
    const auto trace = kernelTrace({{"k", "void k<int>(int)", 10'000, 100, 2}});
    const EventDetails d = describeEvent(*trace, trace->kernels()[0].self);
    EXPECT_EQ(d.title, QStringLiteral("Kernel k"));
    EXPECT_EQ(d.value(QStringLiteral("Kernel"), QStringLiteral("Demangled name")),
              QStringLiteral("void k<int>(int)"));
    EXPECT_EQ(d.value(QStringLiteral("Launch configuration"), QStringLiteral("Threads per block")),
              QStringLiteral("128"));
    EXPECT_EQ(d.value(QStringLiteral("Launch configuration"), QStringLiteral("Total threads")),
              QStringLiteral("256"));
    EXPECT_EQ(d.value(QStringLiteral("Launch API call"), QStringLiteral("API call")),
              QStringLiteral("cudaLaunchKernel"));
    EXPECT_EQ(d.value(QStringLiteral("Launch API call"), QStringLiteral("Launch latency")),
              QStringLiteral("1.000 \u00b5s"));
    EXPECT_EQ(d.value(QStringLiteral("Device"), QStringLiteral("SM count")), QStringLiteral("4"));
    // 128 threads = 4 warps, 32 regs: 16 blocks by registers and warps, 32 by the SM -> 64 warps.
    EXPECT_EQ(d.value(QStringLiteral("Theoretical occupancy"), QStringLiteral("Occupancy")),
              QStringLiteral("100.0 % (64 of 64 warps per SM)"));
    ASSERT_EQ(d.warnings.size(), 2);
    EXPECT_TRUE(d.warnings[0].contains(QStringLiteral("2 blocks")));
    EXPECT_TRUE(d.warnings[1].contains(QStringLiteral("launch overhead")));
    const QString text = d.toText();
    EXPECT_TRUE(text.startsWith(QStringLiteral("Kernel k\n")));
    EXPECT_TRUE(text.contains(QStringLiteral("  Grid: (2, 1, 1)\n")));
}

// Kernels of a load without their launch details (the GPU-side preview's quick pass) say the
// details are still to come, not that the trace recorded none.
TEST(EventDetails, AKernelReadWithoutItsDetailsSaysTheyAreNotReadYet) {
    const QString path =
        QStringLiteral(STROBE_FIXTURES_DIR "/nsys/nsys2026.2-h100-2gpu-nvtx.sqlite");
    LoadOptions lean;
    lean.parts = kAllTraceParts & ~TraceParts(TracePart::KernelDetail);
    const LoadResult quick = loadTrace(path, lean), whole = loadTrace(path);
    ASSERT_TRUE(quick.ok() && whole.ok());
    const QString notRead = QStringLiteral("not read yet (it comes with the whole trace)");
    const EventDetails a = describeEvent(*quick.trace, quick.trace->kernels()[0].self);
    EXPECT_EQ(
        a.value(QStringLiteral("Launch configuration"), QStringLiteral("Launch configuration")),
        notRead);
    EXPECT_EQ(a.value(QStringLiteral("Theoretical occupancy"), QStringLiteral("Occupancy")),
              notRead);
    const EventDetails b = describeEvent(*whole.trace, whole.trace->kernels()[0].self);
    EXPECT_NE(b.value(QStringLiteral("Launch configuration"), QStringLiteral("Grid")), QString());
    EXPECT_FALSE(b.toText().contains(notRead));
}

TEST(EventDetails, ApiCallAndInvalidRef) {
    const auto trace = kernelTrace({{"k", "k", 10'000, 100000, 400}});
    const EventRef api = trace->kernels()[0].api;
    ASSERT_TRUE(api.isValid());
    const EventDetails d = describeEvent(*trace, api);
    EXPECT_EQ(d.title, QStringLiteral("CUDA API cudaLaunchKernel"));
    EXPECT_EQ(d.value(QStringLiteral("Call"), QStringLiteral("Launched GPU work")),
              QStringLiteral("k"));
    EXPECT_TRUE(describeEvent(*trace, EventRef{}).isEmpty());
    EXPECT_TRUE(describeEvent(*trace, trace->kernels()[0].self).warnings.isEmpty());
}

TEST(EventDetails, EveryEventOfARealTraceIsDescribed) {
    LoadResult r =
        loadTrace(QStringLiteral(STROBE_FIXTURES_DIR "/nsys/nsys2026.2-h100-2gpu-nvtx.sqlite"));
    ASSERT_TRUE(r.ok()) << r.error.toStdString();
    const Trace& t = *r.trace;
    for (std::uint32_t l = 0; l < t.lanes().size(); ++l) {
        const std::uint32_t n = std::min<std::uint32_t>(t.lane(l).size(), 50);
        for (std::uint32_t i = 0; i < n; ++i) {
            const EventDetails d = describeEvent(t, EventRef{l, i});
            EXPECT_FALSE(d.isEmpty()) << t.laneLabel(l).toStdString();
            EXPECT_FALSE(d.sections.empty());
        }
    }
    const auto memcpy = t.memcpys().front();
    const EventDetails m = describeEvent(t, memcpy.self);
    // Bytes over duration from the copy's own row: 1 byte per ns is 1 GB/s.
    const auto row =
        test::query(STROBE_FIXTURES_DIR "/nsys/nsys2026.2-h100-2gpu-nvtx.sqlite",
                    "SELECT bytes, end - start FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE start = " +
                        std::to_string(t.lane(memcpy.self.lane).start(memcpy.self.index)));
    ASSERT_EQ(row.size(), 1u);
    EXPECT_EQ(m.value(QStringLiteral("Memory copy"), QStringLiteral("Achieved bandwidth")),
              QString::number(std::stod(row[0][0]) / std::stod(row[0][1]), 'f', 2) +
                  QStringLiteral(" GB/s"));
}

TEST(EventDetails, DetailPaneMarksTheGpuTableAndSaysWhatIsMissing) {
    QTemporaryDir dir;
    const std::string f = "nsys2024.5-cloverleaf.sqlite";
    const LoadResult named = loadTrace(withGpuTable(dir, f, "id, name"));
    ASSERT_TRUE(named.ok());
    const EventDetails d = describeEvent(*named.trace, named.trace->kernels()[0].self);
    EXPECT_EQ(d.value(QStringLiteral("Theoretical occupancy"), QStringLiteral("GPU limits")),
              QStringLiteral("from the architecture table (compute capability 8.0, from the "
                             "name 'NVIDIA A100-SXM4-80GB')"));
    EXPECT_TRUE(d.value(QStringLiteral("Theoretical occupancy"), QStringLiteral("Occupancy"))
                    .endsWith(QStringLiteral(" of 64 warps per SM)")));
    EXPECT_EQ(d.value(QStringLiteral("Device"), QStringLiteral("Compute capability")),
              QStringLiteral("8.0 (from the GPU's name)"));

    const LoadResult full = loadTrace(QString::fromStdString(test::fixturePath(f)));
    const EventDetails fd = describeEvent(*full.trace, full.trace->kernels()[0].self);
    EXPECT_EQ(fd.value(QStringLiteral("Theoretical occupancy"), QStringLiteral("Occupancy")),
              d.value(QStringLiteral("Theoretical occupancy"), QStringLiteral("Occupancy")));
    EXPECT_EQ(fd.value(QStringLiteral("Theoretical occupancy"), QStringLiteral("GPU limits")),
              QStringLiteral("from the trace"));

    const LoadResult none = loadTrace(withGpuTable(dir, f, ""));
    ASSERT_TRUE(none.ok());
    const EventDetails nd = describeEvent(*none.trace, none.trace->kernels()[0].self);
    EXPECT_EQ(nd.value(QStringLiteral("Theoretical occupancy"), QStringLiteral("Occupancy")),
              QStringLiteral("unknown (the trace records no limits, compute capability or name "
                             "for this GPU)"));
}

} // namespace

namespace {

// The operators that launched a kernel, innermost first, each a link to its range, and the
// Python stack of its launching call.
TEST(EventDetails, KernelNamesItsLaunchingOperatorChainAndPythonStack) {
    const std::shared_ptr<const Trace> trace = launchChainTrace();
    const OperatorForest forest = buildOperatorForest(*trace);
    const EventRef bias = trace->kernels()[1].self;
    EXPECT_TRUE(describeEvent(*trace, bias)
                    .value(QStringLiteral("Operators"), QStringLiteral("Launched by"))
                    .isEmpty())
        << "no forest: no section";
    const EventDetails d = describeEvent(*trace, bias, &forest);
    ASSERT_GE(d.sections.size(), 2u);
    EXPECT_EQ(d.sections[1].title, QStringLiteral("Operators")); // right after what it is
    EXPECT_EQ(d.value(QStringLiteral("Operators"), QStringLiteral("Launched by")),
              QStringLiteral("aten::cudnn_convolution <- aten::_convolution <- aten::conv2d"));
    const DetailItem& chain = d.sections[1].items[0];
    ASSERT_EQ(chain.links.size(), 3u);
    EXPECT_EQ(chain.links[0].text, QStringLiteral("aten::cudnn_convolution"));
    EXPECT_EQ(chain.links[0].range, (TimeRange{1200, 4800}));
    EXPECT_EQ(chain.links[2].range, (TimeRange{1000, 5000}));
    EXPECT_EQ(
        trace->string(trace->lane(chain.links[2].event.lane).nameId(chain.links[2].event.index)),
        QStringLiteral("aten::conv2d"));
    const QString python = QStringLiteral("Python stack (innermost first)");
    EXPECT_EQ(d.value(python, QStringLiteral("1")), QStringLiteral("model.py(20): forward"));
    EXPECT_EQ(d.value(python, QStringLiteral("2")), QStringLiteral("train.py(10): main"));
    EXPECT_EQ(d.sections.back().title, python);
    EXPECT_TRUE(d.toText().contains(
        QStringLiteral("  Launched by: aten::cudnn_convolution <- aten::_convolution")));

    // Launched outside any operator: said so, no link; its stack is the outer frame only.
    const EventDetails stray = describeEvent(*trace, trace->kernels()[4].self, &forest);
    EXPECT_EQ(stray.value(QStringLiteral("Operators"), QStringLiteral("Launched by")),
              QStringLiteral("no operator (launched outside any)"));
    EXPECT_EQ(stray.value(python, QStringLiteral("1")), QStringLiteral("train.py(10): main"));
    EXPECT_TRUE(stray.value(python, QStringLiteral("2")).isEmpty());
}

// On a real PyTorch profiler trace: a convolution kernel's chain reaches up to aten::conv2d.
TEST(EventDetails, ResNetConvolutionKernelNamesItsOperatorChain) {
    LoadResult r = loadTrace(
        QStringLiteral(STROBE_FIXTURES_DIR "/kineto/resnet50-kineto-2021.pt.trace.json.gz"));
    ASSERT_TRUE(r.trace) << r.error.toStdString();
    const Trace& t = *r.trace;
    const OperatorForest forest = buildOperatorForest(t);
    ASSERT_TRUE(forest.hasOperators());
    std::optional<std::size_t> conv;
    for (std::size_t k = 0; k < t.kernelCount() && !conv; ++k) {
        const std::uint32_t n = forest.launcherOf(t, t.kernelRef(k));
        if (n != kNoOpNode && forest.nameOf(n) == QStringLiteral("aten::cudnn_convolution"))
            conv = k;
    }
    ASSERT_TRUE(conv);
    const EventDetails d = describeEvent(t, t.kernelRef(*conv), &forest);
    const QString chain = d.value(QStringLiteral("Operators"), QStringLiteral("Launched by"));
    EXPECT_EQ(chain, QStringLiteral("aten::cudnn_convolution <- aten::_convolution <- "
                                    "aten::convolution <- aten::conv2d"));
}

} // namespace
