// SPDX-License-Identifier: MIT
#pragma once

#include "model/analysis/findings.h"
#include "widgets/operatoranalysis.h"

#include <memory>

namespace strobe {

// The findings of a loaded trace (docs/FINDINGS.md), computed once per trace on a worker right
// after its OperatorAnalysis, whose step breakdown, GPU metrics and operator forest they reuse
// (FindingInputs), and shared read-only: the Findings panel and the Overview's top findings take
// them from the main window (MainWindow::findingsChanged).
struct FindingAnalysis {
    std::shared_ptr<const OperatorAnalysis> operators; // never null; holds the trace
    Findings findings;
    const Trace& trace() const { return *operators->trace; }
    // True when it describes `t` (a panel may hold a newer trace than the analysis, or none).
    bool describes(const Trace* t) const { return operators && operators->describes(t); }
};

// Runs every rule over the trace `operators` describes, with the default thresholds; safe on
// any thread. Null when `cancelled` returned true meanwhile (a newer trace replaced it).
inline std::shared_ptr<const FindingAnalysis>
analyzeFindings(std::shared_ptr<const OperatorAnalysis> operators,
                const AnalysisCancel& cancelled = {}) {
    if (!operators || !operators->trace || !operators->forest)
        return nullptr;
    auto a = std::make_shared<FindingAnalysis>();
    a->operators = std::move(operators);
    const OperatorAnalysis& op = *a->operators;
    const FindingInputs inputs{&op.steps, &op.gpus, op.forest.get()};
    a->findings = computeFindings(*op.trace, FindingOptions{}, inputs, cancelled);
    if (cancelled && cancelled())
        return nullptr;
    return a;
}

} // namespace strobe
