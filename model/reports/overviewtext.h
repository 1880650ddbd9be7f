// SPDX-License-Identifier: MIT
#pragma once

// Where the Overview's findings (model/analysis/overview.h) become words, translatable in the
// "Overview" context: the panel lays out what these say.

#include "model/analysis/overview.h"

#include <QString>
#include <QStringList>
#include <vector>

namespace strobe {

class Trace;

// "27.6 %": one decimal; 0.0 % of nothing.
QString percentText(TimeNs part, TimeNs whole);
// Each part's share of their sum, one decimal, rounded so that the shares shown add up to
// 100.0 % (largest remainder: the spare tenths go to the parts rounded down the most, ties to
// the first); a part with time whose share rounds to nothing says "<0.1 %", an empty one
// "0.0 %". For a legend whose parts make up a whole.
QStringList roundedShareTexts(const std::vector<TimeNs>& parts);
// "Is the GPU starved?", "Do the kernels fill the GPU?", "Is communication expensive?", "Is GPU
// memory the limit?"
QString findingQuestionText(FindingQuestion question);
// A few sentences with the numbers, e.g. "GPU 0 idle 30.12 ms, 27.6 % of its span: 29.80 ms in
// 12 gaps of at least 100.0 µs (24.1 % of the trace), the rest in shorter stretches. Top cause:
// the range "Data Load", 91.0 % of the gap time. The host starves the GPU: while "Data Load"
// runs, no work reaches it." The gap figures are gapFiguresText's, as the GPU Gaps panel says
// them. `f` must come from buildOverview on `trace`.
QString findingText(const Trace& trace, const OverviewFinding& f);

} // namespace strobe
