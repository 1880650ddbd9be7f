// SPDX-License-Identifier: MIT
#pragma once

// Where a gap's cause and evidence (model/analysis/gaps.h) become words: the CLI's detail
// column, CSV export, the gaps panel, the gap table and the timeline's idle-band tooltip all
// say it through these, so they say it the same way.

#include "model/analysis/gaps.h"

#include <QString>

namespace strobe {

class Trace;

// Short label for people: "Launch overhead", "Synchronisation", "CPU busy", "CPU waiting",
// "No CPU activity", "Unknown".
QString gapCauseLabel(GapCause cause);
// The label with the wait it names, for a CPU wait whose call is known: "CPU waiting in poll";
// otherwise gapCauseLabel.
QString gapCauseText(const Trace& trace, const GpuGap& gap);
// One sentence (two with the copies of a kernels-only analysis) naming the thread and event of
// the rule that explained `gap`, with its numbers: "main [101] waited in cudaDeviceSynchronize
// for 96% of the gap (1.200 ms) while the GPU idled." Empty for a gap nothing explained
// (GapRule::None). `gap` must come from findGaps or explainGap on `trace`.
QString gapDetailText(const Trace& trace, const GpuGap& gap);

} // namespace strobe
