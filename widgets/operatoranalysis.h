// SPDX-License-Identifier: MIT
#pragma once

#include "model/analysis/gpumetrics.h"
#include "model/analysis/operators.h"
#include "model/analysis/steps.h"
#include "widgets/workerpriority.h"

#include <memory>

namespace strobe {

// What the views show of a loaded trace's framework operators (docs/OPERATORS.md), computed
// once per trace on a worker (analyzeOperators) and shared read-only: the Operators panel, the
// detail pane's operator chain and the kernel table's Operator column take it from the main
// window (MainWindow::operatorAnalysisChanged), as the flame graph and the Overview's step chart
// can.
struct OperatorAnalysis {
    std::shared_ptr<const Trace> trace;           // the trace it describes
    std::shared_ptr<const OperatorForest> forest; // never null
    OperatorTable byName;                         // operatorTable(grouped by name)
    StepBreakdown steps;
    // Per GPU, the metrics beside the steps over their time (first step's start to last's end).
    std::vector<GpuStepMetrics> gpus;
    // True when it describes `t` (a panel may hold a newer trace than the analysis, or none).
    bool describes(const Trace* t) const { return t && trace.get() == t; }
};

// Builds the forest, the operator table by name and the step breakdown of `trace`; safe on any
// thread. Null when `cancelled` returned true meanwhile (a newer trace replaced it). The forest
// is freed off the calling thread when its last reference goes (shareFreedOffThread).
inline std::shared_ptr<const OperatorAnalysis>
analyzeOperators(std::shared_ptr<const Trace> trace, const AnalysisCancel& cancelled = {}) {
    if (!trace)
        return nullptr;
    auto a = std::make_unique<OperatorAnalysis>();
    a->trace = std::move(trace);
    const Trace& t = *a->trace;
    std::shared_ptr<const OperatorForest> forest = shareFreedOffThread(
        std::make_unique<const OperatorForest>(buildOperatorForest(t, cancelled)));
    if (cancelled && cancelled())
        return nullptr;
    a->byName = operatorTable(t, *forest, OperatorGrouping::Name);
    if (cancelled && cancelled())
        return nullptr;
    a->steps = computeStepBreakdown(t, cancelled);
    if (cancelled && cancelled())
        return nullptr;
    if (!a->steps.steps.empty())
        a->gpus = computeGpuStepMetrics(
            t, {a->steps.steps.front().range.start, a->steps.steps.back().range.end}, cancelled);
    if (cancelled && cancelled())
        return nullptr;
    a->forest = std::move(forest);
    return shareFreedOffThread(std::unique_ptr<const OperatorAnalysis>(std::move(a)));
}

} // namespace strobe
