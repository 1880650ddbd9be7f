// SPDX-License-Identifier: MIT
#pragma once

#include "model/types.h"

#include <QString>
#include <optional>

namespace strobe {
class LaneLayout;
class Trace;
} // namespace strobe

namespace strobe::cli {

// Keeps in `layout` (laid out for `trace`) the lanes `spec` names: "all", "gpu" (kernels,
// memcpys, memsets, unified memory), "cpu" (API, OS runtime and NVTX lanes) or a regular
// expression searched in each lane's label ("GPU 0 / Stream 7 / Kernels"). Other lanes are
// hidden and so are the groups left empty. Returns the error sentence (an invalid expression,
// or a spec that keeps no lane of `file`), or an empty string.
QString selectLanes(const Trace& trace, const QString& spec, const QString& file,
                    LaneLayout& layout);

// "NAME" or "NAME#K": the range named exactly the text (its first instance) or, when none is and
// the text ends in "#K", the K-th (1-based) range named NAME. The whole name wins because PyTorch
// names its steps "ProfilerStep#552".
struct RangeSpec {
    QString text;     // the whole text: the name looked for first
    QString name;     // NAME of "NAME#K"; empty when the text does not end in '#' and K >= 1
    int instance = 1; // K
};
// nullopt when the text is empty.
std::optional<RangeSpec> parseRangeSpec(const QString& text);

struct FoundRange {
    std::optional<TimeRange> range; // the range's own span, trace time
    QString error;                  // when not found: the sentence saying why
};
// The first range named `spec.text`, else the `spec.instance`-th range named `spec.name`, across
// every NVTX lane of `trace`, counted in order of start (then lane, then position in the lane).
FoundRange findNamedRange(const Trace& trace, const RangeSpec& spec, const QString& file);

// `range` widened by `percent` % of its duration on each side (at least 1 ns of window).
TimeRange withMargin(TimeRange range, int percent);

} // namespace strobe::cli
