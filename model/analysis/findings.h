// SPDX-License-Identifier: MIT
#pragma once

// Findings: what is wrong with a trace, ranked by the time at stake, each with the events that
// prove it. The rules and their sources' definitions (Nsight Systems' expert rules, TensorBoard's
// PyTorch profiler recommendations, HTA's launch statistics) are in docs/FINDINGS.md. Typed
// results only; the sentences and evidence tables are model/reports/findingtext.h's.

#include "model/analysis/gpumetrics.h"
#include "model/analysis/operators.h"
#include "model/analysis/steps.h"
#include "model/trace.h"

#include <QString>
#include <QStringView>
#include <array>
#include <cstdint>
#include <optional>
#include <vector>

namespace strobe {

// Every rule, in the order `strobe-cli analyze --help` lists them (and ties rank).
enum class FindingRule : std::uint8_t {
    // Nsight Systems' expert rules (nsys analyze), same names and defaults.
    CudaMemcpyAsync, // asynchronous memcpy to or from pageable memory
    CudaMemcpySync,  // synchronous memcpy
    CudaMemsetSync,  // synchronous memset
    CudaApiSync,     // synchronisation calls (cudaDeviceSynchronize, cudaStreamSynchronize, ...)
    GpuGaps,         // a GPU idle for at least gpuGapMinNs, leading and trailing idle excluded
    GpuTimeUtil,     // the span cut into chunks; chunks under the threshold busy, merged
    // TensorBoard's PyTorch profiler recommendations, from the step breakdown.
    DataLoading,    // data loading over dataLoadingPercent of the step
    Communication,  // communication over communicationPercent of the step
    GpuUtilization, // a GPU busy under gpuUtilizationPercent of the steps
    TensorCores,    // Tensor-Core-eligible operators whose kernels use none (try AMP)
    MemoryPeak,     // the memory peak over memoryPeakPercent of the GPU's memory
    // Strobe's own, from HTA's kernel launch statistics and the breakdown.
    LaunchOverhead,       // kernels shorter than their launch, slow launches, launch delays
    SmallGrid,            // a kernel with a large share of GPU time that does not fill the GPU
    ExposedCommunication, // communication not hidden under compute over a share of a step
    PageableCopies,       // host-to-device copies from pageable memory (try pin_memory=True)
    Straggler,            // a rank the others wait for (needs a job of several ranks)
};
inline constexpr std::size_t kFindingRuleCount = 16;

// The rule's id as `strobe-cli analyze --rule` spells it: nsys's six as nsys spells them
// ("cuda_memcpy_async", ..., "gpu_time_util"), then "data_loading", "communication",
// "gpu_utilization", "tensor_cores", "memory_peak", "launch_overhead", "small_grid",
// "exposed_communication", "pageable_copies", "straggler".
QString findingRuleId(FindingRule rule);
std::optional<FindingRule> findingRuleFromId(QStringView id);

// The rules' thresholds; the defaults are their sources' (docs/FINDINGS.md).
struct FindingOptions {
    // gpu_gaps: nsys's "gap" option, 500 ms.
    TimeNs gpuGapMinNs = 500'000'000;
    // gpu_time_util: nsys's "threshold" (percent) and "chunks".
    double gpuTimeUtilThresholdPercent = 50;
    int gpuTimeUtilChunks = 30;
    // TensorBoard's recommendations.
    double dataLoadingPercent = 5;
    double communicationPercent = 10;
    double gpuUtilizationPercent = 50;
    double memoryPeakPercent = 90;
    // HTA's get_cuda_kernel_launch_stats cut-offs, and the short-kernel share's limit.
    TimeNs launchCallNs = 50'000;
    TimeNs launchDelayNs = 100'000;
    TimeNs shortKernelNs = 10'000;
    // small_grid: a kernel with at least this share of GPU time ...
    double smallGridGpuPercent = 5;
    // ... whose grid has fewer blocks than the GPU has SMs, or this theoretical occupancy.
    double smallGridOccupancyPercent = 25;
    // exposed_communication: over this share of a step.
    double exposedCommunicationPercent = 10;
    // Only these rules (empty: all).
    std::vector<FindingRule> only;
    bool runs(FindingRule r) const;
};

// What a finding's share is a share of.
enum class ShareBase : std::uint8_t {
    Span,    // the trace's span (first to last event), or the GPU's span for a per-GPU rule
    Step,    // the steps' time (computeStepBreakdown), summed over the steps as timeNs is
    GpuTime, // the GPU time of all kernels (small_grid, launch_overhead's short kernels)
};

// One row of a finding's evidence: an event to jump to, or a stretch of time (a gap, a chunk)
// with no single event.
struct FindingEvidence {
    EventRef event;  // invalid for a stretch of time
    TimeRange range; // the event's extent, or the stretch
    std::optional<std::uint32_t> deviceId;
    // The process of a stretch measured per process and GPU (gpu_gaps, gpu_time_util), which no
    // event names; none otherwise.
    std::optional<std::uint32_t> pid;
    // A rule's own measure of the row (docs/FINDINGS.md per rule): gpu_time_util's busy percent,
    // launch_overhead's launch delay, small_grid's blocks ...; 0 where the rule has none.
    double value = 0;
    // The rank a row of a job's finding concerns (straggler: the late rank); none in a trace's.
    std::optional<std::uint32_t> rank;
};

struct Finding {
    FindingRule rule = FindingRule::CudaMemcpyAsync;
    TimeNs timeNs = 0;       // the time at stake, what the findings are ranked by
    double sharePercent = 0; // timeNs over baseNs, 0..100
    ShareBase base = ShareBase::Span;
    TimeNs baseNs = 0;
    std::optional<std::uint32_t> deviceId; // the GPU it concerns, when one
    QString subject;         // what it names (a kernel, an API call, an operator), else empty
    std::uint64_t count = 0; // the events it rests on (calls, copies, gaps, chunks, launches)
    double measured = 0;     // the rule's measured value (docs/FINDINGS.md per rule)
    double threshold = 0;    // the threshold it was compared with
    // small_grid: the kernel's blocks per launch and the GPU's SMs; tensor_cores: 0.
    std::int64_t blocks = 0;
    std::uint32_t smCount = 0;
    // small_grid: the configuration's theoretical occupancy, 0..100 (nullopt: not computable).
    std::optional<double> occupancyPercent;
    // launch_overhead: the GPU's kernel launches in HTA's categories (docs/FINDINGS.md).
    struct LaunchCounts {
        std::uint64_t launches = 0;     // kernels with a recorded launching call, not in a graph
        std::uint64_t shortKernels = 0; // the kernel shorter than its call, the call not slow
        std::uint64_t slowCalls = 0;    // the launching call over launchCallNs
        std::uint64_t delayed = 0;      // the kernel starting over launchDelayNs after its call
        TimeNs callCutoffNs = 0;        // launchCallNs and launchDelayNs as the rule used them
        TimeNs delayCutoffNs = 0;
    } launch;
    // The events that prove it, in the order the evidence table lists them.
    std::vector<FindingEvidence> evidence;
};

// The data a rule needs and this trace lacks.
enum class MissingData : std::uint8_t {
    MemoryKinds,       // no copy records its host memory kind (pageable or pinned)
    ApiCalls,          // no CUDA API calls recorded
    GpuWork,           // no kernels, copies or memsets
    Steps,             // no training steps or CPU operators to take a step breakdown from
    Communication,     // (not an error) no communication kernels
    SmCount,           // the GPU's SM count is not recorded and its name is not in the table
    ComputeCapability, // the GPU's compute capability is not recorded (tensor_cores)
    MemoryRecord,      // no memory allocations recorded, or the GPU's memory size
    Job,               // a single trace: straggler needs every rank of a job
};

struct SkippedRule {
    FindingRule rule = FindingRule::CudaMemcpyAsync;
    MissingData missing = MissingData::GpuWork;
};

struct Findings {
    std::vector<Finding> findings;    // ranked: timeNs descending, then rule order, then device
    std::vector<SkippedRule> skipped; // each rule at most once
    TimeRange span;                   // the trace's
};

// What computeFindings reuses when the caller already has it (the GUI's OperatorAnalysis);
// null members are computed.
struct FindingInputs {
    const StepBreakdown* steps = nullptr;
    const std::vector<GpuStepMetrics>* gpus = nullptr;
    const OperatorForest* forest = nullptr;
};

// Runs the rules `options` selects over the whole trace. Safe on any thread; empty when
// `cancelled` returned true. O(n log n) in the events.
Findings computeFindings(const Trace& trace, const FindingOptions& options = {},
                         const FindingInputs& inputs = {}, const AnalysisCancel& cancelled = {});

} // namespace strobe
