// SPDX-License-Identifier: MIT
#pragma once

#include "types.h"

#include <QString>
#include <vector>

namespace strobe {

// A duration for people: "523 ns", "12.4 µs", "1.235 ms", "2.5 s" (4 significant digits).
QString formatDuration(TimeNs d);
// A ruler label: `t` in the largest unit it reaches, with just enough decimals to tell ticks
// `step` apart ("1.234567 s" at 2 µs steps, "500 ns", "0").
QString formatTickLabel(TimeNs t, TimeNs step);

struct RulerTicks {
    TimeNs step = 1;           // 1, 2 or 5 times a power of ten, in ns
    std::vector<TimeNs> ticks; // absolute times of the ticks inside the view
};

// Ticks at least `minSpacingPx` apart for `view` drawn `widthPx` wide, aligned on multiples of
// the step counted from `origin` (the trace start, so labels read as time into the trace).
RulerTicks computeTicks(TimeRange view, TimeNs origin, int widthPx, int minSpacingPx);

} // namespace strobe
