// SPDX-License-Identifier: MIT
#pragma once

#include "types.h"

#include <QString>

namespace strobe {

// "850 ns", "12.500 us", "3.250 ms", "1.204 s": the unit that keeps the number below 1000,
// with `decimals` digits after the point (none for plain nanoseconds).
QString formatDuration(TimeNs ns, int decimals = 3);
// A time relative to `origin` (the trace start), formatted like a duration, signed.
QString formatTimestamp(TimeNs t, TimeNs origin, int decimals = 3);
// "1.50 GiB", "512 B": binary units.
QString formatBytes(std::uint64_t bytes);

} // namespace strobe
