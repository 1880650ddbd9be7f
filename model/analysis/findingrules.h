// SPDX-License-Identifier: MIT
#pragma once

// The rule groups computeFindings runs (findings.cpp), one source file each. Internal to
// model/analysis: callers use computeFindings.

#include "model/analysis/findings.h"

namespace strobe::findingrules {

// What every rule may read: the trace, the options and the step breakdown, GPU metrics and
// operator forest computeFindings was given or computed.
struct Context {
    const Trace& trace;
    const FindingOptions& options;
    const StepBreakdown& steps;
    const std::vector<GpuStepMetrics>& gpus;
    const OperatorForest& forest;
    const AnalysisCancel& cancelled;
    bool stop() const { return cancelled && cancelled(); }
};

// Where the rules put what they found.
struct Sink {
    std::vector<Finding> findings;
    std::vector<SkippedRule> skipped;
    // Records that `rule` could not run for lack of `missing`; once per rule.
    void skip(FindingRule rule, MissingData missing);
};

// expertrules.cpp: Nsight Systems' six expert rules and pageable_copies.
void runExpertRules(const Context& ctx, Sink& out);
// recommendations.cpp: TensorBoard's five recommendations, exposed_communication, straggler.
void runRecommendationRules(const Context& ctx, Sink& out);
// launchrules.cpp: launch_overhead and small_grid.
void runLaunchRules(const Context& ctx, Sink& out);

} // namespace strobe::findingrules
