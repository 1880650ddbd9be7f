// SPDX-License-Identifier: MIT
// The GPU-metrics sentence under the Overview's step chart.
#include "model/reports/steptext.h"

#include "tests/support/qtprinters.h"

#include <gtest/gtest.h>

using namespace strobe;

namespace {

TEST(StepText, GpuMetricsSaySourceAndWhatIsUnknown) {
    GpuStepMetrics g;
    g.deviceId = 3;
    g.utilization = 0.5551;
    g.smEfficiency = KernelMetricAverage{0.5468, KernelMetricBasis::Recorded, 0};
    g.achievedOccupancy = KernelMetricAverage{49.13, KernelMetricBasis::Estimated, 0};
    g.kernelTime = 1000;
    g.tensorCoreKernelTime = 250;
    EXPECT_EQ(gpuMetricsText(g),
              QStringLiteral("GPU 3: busy 55.5 % of the steps' time, est. SM efficiency 54.7 % "
                             "(recorded by the profiler), est. achieved occupancy 49.1 % "
                             "(estimated by Strobe), Tensor Cores 25.0 % of kernel time."));
    g.smEfficiency.reset();
    g.achievedOccupancy = KernelMetricAverage{10, KernelMetricBasis::Mixed, 2};
    g.kernelTime = 0;
    EXPECT_EQ(gpuMetricsText(g),
              QStringLiteral("GPU 3: busy 55.5 % of the steps' time, est. SM efficiency unknown "
                             "(no blocks per SM recorded or estimable), est. achieved occupancy "
                             "10.0 % (partly recorded, partly estimated)."));
}

TEST(StepText, OperatorWarningsNameWhatWasLeftOut) {
    OperatorWarnings w;
    w.mergedRepeats = 5; // the plugin's own rule, not a warning
    w.noOperator = 7;    // shown as the (no operator) row
    EXPECT_TRUE(operatorWarningsText(w).isEmpty());
    w.crossing = 1;
    EXPECT_EQ(operatorWarningsText(w),
              QStringLiteral("1 range that crosses an enclosing one on its thread was left out "
                             "(its launches count for the range around it)."));
    w.crossing = 12;
    EXPECT_TRUE(operatorWarningsText(w).startsWith(QStringLiteral("12 ranges that cross")));
}

} // namespace
