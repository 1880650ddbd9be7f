// SPDX-License-Identifier: MIT
#pragma once

#include "model/types.h"

#include <optional>

class QPainter;

namespace strobe {

struct PaintContext;
class TimelineFrame;

// The live state drawn over the lanes on every paint (hover, selection, cursor, measured range).
struct OverlayState {
    EventRef hover;
    EventRef selection;
    std::optional<TimeRange> measured;
    std::optional<TimeNs> cursor;
};

// The live layer over the lanes: the measured range, the hovered event's outline, the selection,
// its partner (launch <-> GPU work) with an arrow or an off-screen indicator, and the cursor.
// Rectangles come from `frame`, the frame the lanes were drawn from, so the outlines sit on what
// was drawn; it keeps no state.
void paintOverlay(QPainter& p, const PaintContext& ctx, const TimelineFrame& frame,
                  const OverlayState& state);

} // namespace strobe
