// SPDX-License-Identifier: MIT
#include "model/analysis/findings.h"

#include "model/analysis/findingrules.h"

#include <algorithm>
#include <tuple>

namespace strobe {

namespace {

constexpr std::array<const char*, kFindingRuleCount> kRuleIds = {
    "cuda_memcpy_async", "cuda_memcpy_sync",      "cuda_memset_sync", "cuda_api_sync",
    "gpu_gaps",          "gpu_time_util",         "data_loading",     "communication",
    "gpu_utilization",   "tensor_cores",          "memory_peak",      "launch_overhead",
    "small_grid",        "exposed_communication", "pageable_copies",  "straggler",
};

} // namespace

QString findingRuleId(FindingRule rule) {
    return QString::fromLatin1(kRuleIds[std::size_t(rule)]);
}

std::optional<FindingRule> findingRuleFromId(QStringView id) {
    for (std::size_t i = 0; i < kRuleIds.size(); ++i)
        if (id == QLatin1String(kRuleIds[i]))
            return FindingRule(i);
    return std::nullopt;
}

bool FindingOptions::runs(FindingRule r) const {
    return only.empty() || std::find(only.begin(), only.end(), r) != only.end();
}

namespace findingrules {

void Sink::skip(FindingRule rule, MissingData missing) {
    const bool seen = std::any_of(skipped.begin(), skipped.end(),
                                  [rule](const SkippedRule& s) { return s.rule == rule; });
    if (!seen)
        skipped.push_back({rule, missing});
}

} // namespace findingrules

Findings computeFindings(const Trace& trace, const FindingOptions& options,
                         const FindingInputs& inputs, const AnalysisCancel& cancelled) {
    Findings result;
    result.span = trace.timeRange();
    const auto stop = [&] { return cancelled && cancelled(); };

    // What the caller did not bring is computed here, once, for every rule.
    std::optional<StepBreakdown> steps;
    if (!inputs.steps) {
        steps = computeStepBreakdown(trace, cancelled);
        if (stop())
            return {};
    }
    const StepBreakdown& stepBreakdown = inputs.steps ? *inputs.steps : *steps;
    std::optional<std::vector<GpuStepMetrics>> gpus;
    if (!inputs.gpus) {
        gpus.emplace();
        if (!stepBreakdown.steps.empty())
            *gpus = computeGpuStepMetrics(
                trace,
                {stepBreakdown.steps.front().range.start, stepBreakdown.steps.back().range.end},
                cancelled);
        if (stop())
            return {};
    }
    std::optional<OperatorForest> forest;
    if (!inputs.forest) {
        forest = buildOperatorForest(trace, cancelled);
        if (stop())
            return {};
    }

    const findingrules::Context ctx{trace,
                                    options,
                                    stepBreakdown,
                                    inputs.gpus ? *inputs.gpus : *gpus,
                                    inputs.forest ? *inputs.forest : *forest,
                                    cancelled};
    findingrules::Sink sink;
    findingrules::runExpertRules(ctx, sink);
    if (stop())
        return {};
    findingrules::runRecommendationRules(ctx, sink);
    if (stop())
        return {};
    findingrules::runLaunchRules(ctx, sink);
    if (stop())
        return {};

    // Each group skips the rules `options` leaves out; what one reports anyway is dropped here.
    std::erase_if(sink.findings, [&](const Finding& f) { return !options.runs(f.rule); });
    std::erase_if(sink.skipped, [&](const SkippedRule& s) { return !options.runs(s.rule); });

    // Ranked by the time at stake; equal times keep the rules' order, then the GPUs'.
    std::stable_sort(sink.findings.begin(), sink.findings.end(),
                     [](const Finding& a, const Finding& b) {
                         return std::tuple(-a.timeNs, a.rule, a.deviceId.value_or(0)) <
                                std::tuple(-b.timeNs, b.rule, b.deviceId.value_or(0));
                     });
    std::sort(sink.skipped.begin(), sink.skipped.end(),
              [](const SkippedRule& a, const SkippedRule& b) { return a.rule < b.rule; });
    result.findings = std::move(sink.findings);
    result.skipped = std::move(sink.skipped);
    return result;
}

} // namespace strobe
