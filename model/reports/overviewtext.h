// SPDX-License-Identifier: MIT
#pragma once

// Where the Overview's findings (model/analysis/overview.h) become words, translatable in the
// "Overview" context: the panel lays out what these say.

#include "model/analysis/overview.h"

#include <QString>

namespace strobe {

class Trace;

// "27.6 %": one decimal; 0.0 % of nothing.
QString percentText(TimeNs part, TimeNs whole);
// "Is the GPU starved?", "Do the kernels fill the GPU?", "Is communication expensive?", "Is GPU
// memory the limit?"
QString findingQuestionText(FindingQuestion question);
// One or two sentences with the numbers, e.g. "GPU 0 idle 27.6 % of its span (12 gaps of at
// least 100.0 µs; top cause: Data Load, 91.0 % of the gap time). The host starves the GPU:
// while "Data Load" runs, no work reaches it." `f` must come from buildOverview on `trace`.
QString findingText(const Trace& trace, const OverviewFinding& f);

} // namespace strobe
