// SPDX-License-Identifier: MIT
#pragma once

#include "model/lod/utilization.h"
#include "model/types.h"

#include <QString>
#include <vector>

namespace strobe {

class Trace;

// The tooltip of a GPU's utilisation strip over the pixel column `span` (at least 1 ns):
// the column's time, its busy share and the kernel and copy shares (which overlap when copies
// run under kernels); over an idle band (one of `gaps`, the stretches at least `threshold` long)
// also the band's duration and cause (explainGap); before the GPU's first or after its last work
// that idle stretch, which is not a gap. A GPU without work says "no GPU work recorded".
QString utilizationTooltip(const Trace& trace, const GpuUtilization& utilization,
                           const std::vector<TimeRange>& gaps, TimeRange span, TimeNs threshold);

} // namespace strobe
