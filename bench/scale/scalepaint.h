// SPDX-License-Identifier: MIT
#pragma once

// The scale benchmark's paint figures: the real TimelineView painted offscreen, and the window
// query of one row.

#include "model/trace.h"

#include <memory>
#include <vector>

namespace strobe::bench {

struct PaintStats {
    std::vector<double> zoomOut, random;
    std::vector<TimeRange> randomWindows; // the window of each random frame, in order
    double replayedMs = -1; // mean of the slowest random frames painted again (--paint-only)
};

// Paints the real TimelineView into an offscreen image: 50 frames at full zoom-out and 200 at
// random zoom and pan positions, each with a cold geometry cache (the cost after the view moved).
// With `replays`, the ten slowest random frames are then painted that many times more each, so
// that a profiler sees mostly them (--paint-only).
PaintStats measurePaint(std::shared_ptr<const Trace> trace, int replays = 0);

struct PaintFigures {
    double zoomOutP95 = 0, randomP99 = 0;
    double scaling = -1; // the large trace's random p95 / the small one's; -1: no small trace
};

// Paints the loaded trace (with `paintOnly`: also its slowest frames again), then the small one
// of `smallEvents` events and seed `seed`.
PaintFigures measureBothPaints(std::shared_ptr<const Trace> trace, bool paintOnly,
                               std::uint64_t smallEvents, std::uint64_t seed);

// Average microseconds to locate the visible window [a, b) in one row: firstEndingAfter(a) and
// firstStartingAtOrAfter(b), over many random windows in rows of at least 1,000 events.
double measureWindowQuery(const Trace& t);

} // namespace strobe::bench
