// SPDX-License-Identifier: MIT
#pragma once

// Human-readable values for the tables and the detail pane, on top of timeformat.h (never for
// CLI output, which prints plain numbers).

#include "model/timeformat.h"
#include "model/types.h"

#include <QString>
#include <array>
#include <cstdint>

namespace strobe {

QString formatMeanDuration(double ns);                    // "12.5 ns", "1.235 us": means, medians
QString formatBandwidth(double bytesPerNs);               // "12.34 GB/s"
QString formatDim3(const std::array<std::int32_t, 3>& d); // "(128, 1, 1)"

} // namespace strobe
