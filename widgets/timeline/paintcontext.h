// SPDX-License-Identifier: MIT
#pragma once

#include "model/analysis/gaps.h"
#include "model/lod/timemapping.h"
#include "model/types.h"
#include "widgets/timeline/timelinecolors.h"

#include <QFont>
#include <cstdint>

namespace strobe {

class LaneLayout;
class Trace;

// Everything one paint of the lane canvas needs, computed once per paint and passed by const
// reference to every lane painter.
struct PaintContext {
    const Trace* trace = nullptr;
    const LaneLayout* layout = nullptr;
    TimeRange view;
    TimeMapping map;
    double nsPerPx = 1.0;
    int width = 0;  // logical pixels
    int height = 0; // logical pixels
    int scrollY = 0;
    qreal dpr = 1.0;
    TimeNs idleThreshold = kDefaultIdleThresholdNs;
    TimelinePalette palette;
    QFont font;

    // Snaps a logical x to the device pixel grid, so bars stay crisp at any devicePixelRatio.
    double snap(double x) const { return std::floor(x * dpr + 0.5) / dpr; }
};

} // namespace strobe
