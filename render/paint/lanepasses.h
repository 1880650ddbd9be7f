// SPDX-License-Identifier: MIT
#pragma once

// The row passes of LanePainter, one per kind of row: each draws one FrameRow's whole rectangle
// (its background included) at row.y, from the frame alone, with the painting caches of a
// LaneLook. They keep no state of their own.

#include <QColor>

class QPainter;
class QString;

namespace strobe {

struct FrameRow;
struct LaneLook;
struct LayoutRow;
struct PaintContext;
class Trace;
class TimelineFrame;

// A lane row's background: the alternate band on every other row.
const QColor& rowBackground(const PaintContext& ctx, const LayoutRow& row);

// A lane row from its draw items (rectangles, or one image line when there are many) with the
// labels that fit, or from its summary columns.
void paintLaneRow(QPainter& p, const PaintContext& ctx, const TimelineFrame& frame,
                  const FrameRow& row, LaneLook& look);
// A projected NVTX row: its draw items in the colours of their CPU-side ranges.
void paintProjectedRow(QPainter& p, const PaintContext& ctx, const FrameRow& row, LaneLook& look);
// A GPU's utilisation strip: kernels above, copies below, idle marks along the bottom.
void paintUtilizationRow(QPainter& p, const PaintContext& ctx, const FrameRow& row, LaneLook& look);
// What a utilisation strip without its utilisation says instead: computed once every GPU row is
// read (a partial picture, TraceMetadata::gpuSampleStride > 1), or still being computed.
QString utilizationPendingText(const Trace* trace);
// Allocated bytes as a filled step plot scaled to the GPU's peak, the peak marked.
void paintMemoryCounterRow(QPainter& p, const PaintContext& ctx, const FrameRow& row);

} // namespace strobe
