// SPDX-License-Identifier: MIT
#pragma once

#include "types.h"

#include <QString>
#include <array>
#include <cstdint>

namespace strobe {

// Human-readable values for tables and the detail pane (never for CLI output, which prints
// plain numbers).
QString formatDuration(TimeNs ns);          // "12.345 µs", "980 ns", "1.204 s"
QString formatDuration(double ns);          // same, for means and medians
QString formatBytes(std::uint64_t bytes);   // "48.0 KiB", "512 B"
QString formatBandwidth(double bytesPerNs); // "12.34 GB/s"
QString formatTimestamp(TimeNs ns);         // session time in seconds: "1.234567890 s"
QString formatDim3(const std::array<std::int32_t, 3>& d); // "(128, 1, 1)"

} // namespace strobe
