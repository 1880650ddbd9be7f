// SPDX-License-Identifier: MIT
#pragma once

#include "model/timeformat.h"
#include "model/types.h"

#include <QString>
#include <vector>

namespace strobe {

// A ruler label: `t` in the largest unit it reaches, with just enough decimals to tell ticks
// `step` apart ("1.234567 s" at 2 µs steps, "500 ns", "0").
QString formatTickLabel(TimeNs t, TimeNs step);

struct RulerTicks {
    TimeNs step = 1;                // 1, 2 or 5 times a power of ten, in ns
    std::vector<TimeNs> ticks;      // absolute times of the ticks inside the view
    TimeNs minorStep = 1;           // step / 5, at least 1 ns
    std::vector<TimeNs> minorTicks; // absolute times of the minor ticks inside the view
};

// Ticks at least `minSpacingPx` apart for `view` drawn `widthPx` wide, aligned on multiples of
// the step counted from `origin` (the trace start, so labels read as time into the trace).
// Whatever the view (empty, inverted, spanning all of int64), at most about widthPx /
// minSpacingPx + 2 ticks (never more than kMaxRulerTicks) and five times that many minor ticks,
// and no arithmetic wraps: ticks that cannot be represented are left out.
RulerTicks computeTicks(TimeRange view, TimeNs origin, int widthPx, int minSpacingPx);
inline constexpr std::size_t kMaxRulerTicks = 1024;

} // namespace strobe
