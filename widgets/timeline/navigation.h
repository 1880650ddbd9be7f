// SPDX-License-Identifier: MIT
#pragma once

#include "model/types.h"

namespace strobe {

// Pure zoom and pan arithmetic of the timeline; the view calls these and stores the result in
// ViewState. `bounds` is the trace's range: the view may show up to 5% of its span past each end.
namespace navigation {

inline constexpr TimeNs kMinSpan = 20; // ns: deeper zoom shows nothing new

// Span limited to [kMinSpan, 1.1 x bounds span], start kept inside the allowed margin.
TimeRange clampView(TimeRange view, TimeRange bounds);
// Scales the span by `factor` (< 1 zooms in) keeping `anchor` at the same pixel.
TimeRange zoomAround(TimeRange view, TimeNs anchor, double factor, TimeRange bounds);
// Shifts the view by `delta` ns (positive: later).
TimeRange panBy(TimeRange view, TimeNs delta, TimeRange bounds);
// The view that shows `event` drawn `widthPx` wide. The zoom is kept when the event fits: at most
// 90% of the span and at least `minPx` pixels wide (unchanged when already inside, else centred);
// otherwise the view becomes about five times its duration, centred.
TimeRange revealRange(TimeRange view, TimeRange event, double widthPx, double minPx = 3.0);

} // namespace navigation
} // namespace strobe
