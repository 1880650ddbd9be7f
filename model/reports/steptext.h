// SPDX-License-Identifier: MIT
#pragma once

// The sentences beside the step breakdown (the Overview's step chart): per GPU, the metrics
// TensorBoard's PyTorch profiler plugin showed there (model/analysis/gpumetrics.h).

#include "model/analysis/gpumetrics.h"

#include <QString>

namespace strobe {

// "GPU 0: busy 55.5 % of the steps' time, est. SM efficiency 54.7 % (recorded by the profiler),
// est. achieved occupancy 49.1 % (recorded by the profiler), Tensor Cores 0.0 % of kernel time."
// A value the trace cannot give reads "unknown".
QString gpuMetricsText(const GpuStepMetrics& gpu);

// What the operator forest left out, for the Operators panel: "3 ranges that cross an enclosing
// one on their thread were left out (their launches count for the range around them)." Empty
// when nothing was.
QString operatorWarningsText(const OperatorWarnings& warnings);

} // namespace strobe
