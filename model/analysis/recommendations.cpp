// SPDX-License-Identifier: MIT
// TensorBoard's PyTorch profiler recommendations (data.py's RunProfileData.analyze), with
// exposed_communication and straggler. Definitions, thresholds and sources: docs/FINDINGS.md.
#include "model/analysis/breakdown.h"
#include "model/analysis/findingrules.h"
#include "model/analysis/gpuarchitecture.h"
#include "model/analysis/intervalset.h"
#include "model/kernelclass.h"

#include <algorithm>
#include <array>
#include <map>
#include <unordered_map>

namespace strobe::findingrules {

namespace {

// The evidence tables list at most this many rows (each rule's most telling first).
constexpr std::size_t kEvidenceRows = 100;

void keepFirstRows(std::vector<FindingEvidence>& rows) {
    if (rows.size() > kEvidenceRows)
        rows.resize(kEvidenceRows);
}

// One evidence row (assigned by member: other rules' fields stay at their defaults).
FindingEvidence evidenceRow(EventRef event, TimeRange range, std::optional<std::uint32_t> device,
                            double value) {
    FindingEvidence row;
    row.event = event;
    row.range = range;
    row.deviceId = device;
    row.value = value;
    return row;
}

double percentOf(TimeNs part, TimeNs whole) {
    return whole > 0 ? 100.0 * double(part) / double(whole) : 0.0;
}

TimeNs stepsTime(const StepBreakdown& s) {
    TimeNs total = 0;
    for (const StepTimes& step : s.steps)
        total = saturatingAdd(total, step.total());
    return total;
}

TimeNs categoryTime(const StepBreakdown& s, StepCategory c) {
    TimeNs total = 0;
    for (const StepTimes& step : s.steps)
        total = saturatingAdd(total, step.of(c));
    return total;
}

// One evidence row per step, with `value` the step's own measure, largest first (ties: time
// order), leaving out steps whose measure is 0 when `skipZero`.
std::vector<FindingEvidence> stepRows(const StepBreakdown& s, const std::vector<double>& values,
                                      std::optional<std::uint32_t> device, bool skipZero,
                                      bool ascending = false) {
    std::vector<FindingEvidence> rows;
    for (std::size_t i = 0; i < s.steps.size(); ++i)
        if (!skipZero || values[i] > 0)
            rows.push_back(evidenceRow(s.steps[i].event, s.steps[i].range, device, values[i]));
    std::stable_sort(rows.begin(), rows.end(),
                     [ascending](const FindingEvidence& a, const FindingEvidence& b) {
                         return ascending ? a.value < b.value : a.value > b.value;
                     });
    keepFirstRows(rows);
    return rows;
}

// A share of the steps' time (data_loading, communication): the category's time summed over the
// steps over the steps' time summed, which is the plugin's average category over average step.
void stepShareRule(const Context& ctx, Sink& out, FindingRule rule, StepCategory category,
                   double threshold) {
    if (!ctx.options.runs(rule))
        return;
    const TimeNs base = stepsTime(ctx.steps);
    if (base <= 0) { // no steps, or a whole-trace step of no length
        out.skip(rule, MissingData::Steps);
        return;
    }
    const TimeNs time = categoryTime(ctx.steps, category);
    const double share = percentOf(time, base);
    if (time <= 0 || share <= threshold) // the plugin's test is "ratio > threshold"
        return;
    Finding f;
    f.rule = rule;
    f.timeNs = time;
    f.sharePercent = share;
    f.base = ShareBase::Step;
    f.baseNs = base;
    f.measured = share;
    f.threshold = threshold;
    f.count = ctx.steps.steps.size();
    if (category == StepCategory::Communication) {
        std::vector<double> values;
        for (const StepTimes& step : ctx.steps.steps)
            values.push_back(double(step.of(category)));
        f.evidence = stepRows(ctx.steps, values, std::nullopt, true);
    }
    out.findings.push_back(std::move(f));
}

// data_loading's evidence: the data-loading ranges of the steps, longest first; its count.
void dataLoaderRanges(const Context& ctx, Finding& f) {
    const Trace& t = ctx.trace;
    const bool kineto = t.metadata().format == QLatin1String("kineto-json");
    const TimeRange hostSteps{ctx.steps.steps.front().host.start, ctx.steps.steps.back().host.end};
    std::unordered_map<StringId, bool> isLoader;
    for (std::uint32_t l = 0; l < t.lanes().size(); ++l) {
        const Lane& lane = t.lane(l);
        if (lane.kind() != LaneKind::CpuOps && lane.kind() != LaneKind::Nvtx)
            continue;
        for (std::uint32_t i = 0; i < lane.size(); ++i) {
            if (lane.kind() == LaneKind::Nvtx) {
                const std::uint32_t rec = lane.payload(i);
                if (t.nvtxStyle(rec) != NvtxStyle::PushPop || !t.nvtxHasEnd(rec))
                    continue;
            }
            const TimeRange r{lane.start(i), lane.end(i)};
            if (r.end <= hostSteps.start || r.start >= hostSteps.end)
                continue;
            const StringId name = lane.nameId(i);
            auto it = isLoader.find(name);
            if (it == isLoader.end())
                it = isLoader.emplace(name, isStepDataLoaderName(t.string(name), kineto)).first;
            if (it->second)
                f.evidence.push_back(
                    evidenceRow(EventRef{l, i}, r, std::nullopt, double(r.duration())));
        }
    }
    std::stable_sort(
        f.evidence.begin(), f.evidence.end(),
        [](const FindingEvidence& a, const FindingEvidence& b) { return a.value > b.value; });
    f.count = f.evidence.size();
    keepFirstRows(f.evidence);
}

std::uint32_t kernelDevice(const Trace& t, std::size_t k) {
    return t.streams()[t.kernelStreamIndex(k)].deviceId;
}

// Each GPU's kernels as a union of intervals, for the per-step busy time.
std::map<std::uint32_t, IntervalSet> kernelUnions(const Trace& t) {
    std::map<std::uint32_t, std::vector<TimeRange>> ranges;
    for (std::size_t k = 0; k < t.kernelCount(); ++k) {
        const EventRef ref = t.kernelRef(k);
        const Lane& lane = t.lane(ref.lane);
        ranges[kernelDevice(t, k)].push_back({lane.start(ref.index), lane.end(ref.index)});
    }
    std::map<std::uint32_t, IntervalSet> out;
    for (auto& [device, r] : ranges)
        out.emplace(device, merged(std::move(r)));
    return out;
}

void gpuUtilization(const Context& ctx, Sink& out) {
    const FindingRule rule = FindingRule::GpuUtilization;
    if (!ctx.options.runs(rule))
        return;
    if (ctx.trace.kernelCount() == 0) {
        out.skip(rule, MissingData::GpuWork);
        return;
    }
    if (ctx.steps.steps.empty() || ctx.gpus.empty()) {
        out.skip(rule, MissingData::Steps);
        return;
    }
    std::optional<std::map<std::uint32_t, IntervalSet>> unions;
    for (const GpuStepMetrics& m : ctx.gpus) {
        const double utilization = 100.0 * m.utilization;
        const TimeNs span = m.span.duration();
        if (span <= 0 || utilization >= ctx.options.gpuUtilizationPercent)
            continue;
        if (!unions)
            unions = kernelUnions(ctx.trace);
        Finding f;
        f.rule = rule;
        f.timeNs = span - m.busyTime;
        f.sharePercent = percentOf(f.timeNs, span);
        f.base = ShareBase::Step;
        f.baseNs = span;
        f.deviceId = m.deviceId;
        f.measured = utilization;
        f.threshold = ctx.options.gpuUtilizationPercent;
        f.count = ctx.steps.steps.size();
        std::vector<double> busy;
        const auto it = unions->find(m.deviceId);
        for (const StepTimes& step : ctx.steps.steps)
            busy.push_back(it == unions->end()
                               ? 0.0
                               : percentOf(lengthWithin(it->second, step.range), step.total()));
        f.evidence = stepRows(ctx.steps, busy, m.deviceId, false, true);
        out.findings.push_back(std::move(f));
    }
}

// TensorBoard's TC_OP_Allowlist (tensor_core.py): operators whose work Tensor Cores can do.
constexpr std::array<std::string_view, 46> kTensorCoreEligibleOps = {
    "aten::_convolution",
    "aten::_convolution_nogroup",
    "aten::conv1d",
    "aten::conv2d",
    "aten::conv3d",
    "aten::conv_tbc",
    "aten::conv_transpose1d",
    "aten::conv_transpose2d",
    "aten::conv_transpose3d",
    "aten::convolution",
    "aten::cudnn_convolution",
    "aten::cudnn_convolution_transpose",
    "aten::prelu",
    "aten::addmm",
    "aten::addmv",
    "aten::addr",
    "aten::matmul",
    "aten::mm",
    "aten::mv",
    "aten::linear",
    "aten::addbmm",
    "aten::baddbmm",
    "aten::bmm",
    "aten::chain_matmul",
    "aten::linalg_multi_dot",
    "aten::_thnn_fused_lstm_cell",
    "aten::_thnn_fused_gru_cell",
    "aten::lstm_cell",
    "aten::gru_cell",
    "aten::rnn_tanh_cell",
    "aten::rnn_relu_cell",
    "CudnnConvolutionBackward",
    "BmmBackward0",
    "aten::cudnn_convolution_transpose_backward",
    "CudnnConvolutionTransposeBackward",
    "MmBackward",
    "aten::cudnn_convolution_backward_weight",
    "aten::addmm_",
    "AddmvBackward",
    "MvBackward",
    "aten::cudnn_convolution_transpose_backward_weight",
    "aten::cudnn_convolution_transpose_backward_input",
    "AddmmBackward",
    "aten::cudnn_convolution_backward_input",
    "AddbmmBackward",
    "aten::cudnn_convolution_backward",
};

bool isTensorCoreEligible(const QString& name) {
    const QByteArray utf8 = name.toUtf8();
    const std::string_view v(utf8.constData(), std::size_t(utf8.size()));
    return std::find(kTensorCoreEligibleOps.begin(), kTensorCoreEligibleOps.end(), v) !=
           kTensorCoreEligibleOps.end();
}

// AMD GPUs report their gfx version as the compute capability; Tensor Cores and the plugin's
// kernel name patterns are NVIDIA's.
bool isAmd(const Trace& t, const GpuInfo& gpu) {
    const QString name = t.string(gpu.name);
    return name.contains(u"AMD") || name.contains(u"Radeon") || name.contains(u"Instinct");
}

// The GPU's compute capability: recorded, else implied by its product or chip name (as strobe-cli
// info and the kernel details resolve it); none for a GPU the trace does not list or name.
std::optional<ComputeCapability> capabilityOf(const Trace& t, std::uint32_t device) {
    const GpuLimits l = resolveGpuLimits(t, device);
    if (l.gpu.computeMajor > 0)
        return ComputeCapability{l.gpu.computeMajor, l.gpu.computeMinor};
    if (l.capability.major > 0)
        return l.capability;
    return std::nullopt;
}

struct TensorCoreDevice {
    TimeNs kernelTime = 0;     // every kernel on the GPU
    TimeNs tensorCoreTime = 0; // kernels whose names use Tensor Cores
    TimeNs operatorTime = 0;   // kernels launched by an operator itself (the plugin's "ops")
    TimeNs eligibleTime = 0;   // ... by a bottom Tensor-Core-eligible operator
    std::uint64_t eligibleCalls = 0;
    struct ByName {
        TimeNs kernels = 0;
        std::uint32_t longest = kNoOpNode;
    };
    std::map<std::uint32_t, ByName> byName; // forest name index -> its kernels and longest call
};

void tensorCores(const Context& ctx, Sink& out) {
    const FindingRule rule = FindingRule::TensorCores;
    if (!ctx.options.runs(rule))
        return;
    const Trace& t = ctx.trace;
    if (t.kernelCount() == 0) {
        out.skip(rule, MissingData::GpuWork);
        return;
    }
    const OperatorForest& forest = ctx.forest;
    // Bottom eligible nodes: eligible by name with no eligible node below them (the plugin marks
    // an operator eligible when a child is, and counts only the lowest ones).
    std::vector<bool> eligibleName(forest.names().size());
    for (std::size_t n = 0; n < eligibleName.size(); ++n)
        eligibleName[n] = isTensorCoreEligible(forest.names()[n]);
    const auto& nodes = forest.nodes();
    std::vector<bool> eligibleBelow(nodes.size());
    for (std::uint32_t i = 0; i < nodes.size(); ++i) {
        if (!eligibleName[nodes[i].name])
            continue;
        for (std::uint32_t p = nodes[i].parent; p != kNoOpNode && !eligibleBelow[p];
             p = nodes[p].parent)
            eligibleBelow[p] = true;
    }
    std::map<std::uint32_t, TensorCoreDevice> devices;
    std::vector<bool> callCounted(nodes.size());
    const auto& owners = forest.owners().kernels;
    // Whether each launch configuration's kernel uses Tensor Cores, decided on first use: the
    // name search runs once per configuration, not once per kernel.
    enum : std::int8_t { kUnknown = -1, kNo = 0, kYes = 1 };
    std::vector<std::int8_t> usesTc(t.kernelConfigs().size(), kUnknown);
    std::uint32_t lastDevice = 0;
    TensorCoreDevice* dev = nullptr;
    for (std::size_t k = 0; k < t.kernelCount(); ++k) {
        if ((k & 0xFFFF) == 0 && ctx.stop())
            return;
        const EventRef ref = t.kernelRef(k);
        const Lane& lane = t.lane(ref.lane);
        const TimeNs d = saturatingSub(lane.end(ref.index), lane.start(ref.index));
        const std::uint32_t device = kernelDevice(t, k);
        if (!dev || device != lastDevice) {
            dev = &devices[device];
            lastDevice = device;
        }
        dev->kernelTime = saturatingAdd(dev->kernelTime, d);
        const std::uint32_t config = t.kernelConfigIndex(k);
        if (usesTc[config] == kUnknown) {
            const KernelConfig& c = t.kernelConfigs()[config];
            const StringId name = c.demangledName != kNoString ? c.demangledName : c.shortName;
            usesTc[config] =
                name != kNoString && usesTensorCores(t.strings().view(name)) ? kYes : kNo;
        }
        if (usesTc[config] == kYes)
            dev->tensorCoreTime = saturatingAdd(dev->tensorCoreTime, d);
        const std::uint32_t owner = k < owners.size() ? owners[k] : kNoOpNode;
        if (owner == kNoOpNode)
            continue;
        const OpNode& node = nodes[owner];
        if (node.kind == OpNodeKind::Operator)
            dev->operatorTime = saturatingAdd(dev->operatorTime, d);
        if (!eligibleName[node.name] || eligibleBelow[owner])
            continue;
        dev->eligibleTime = saturatingAdd(dev->eligibleTime, d);
        TensorCoreDevice::ByName& byName = dev->byName[node.name];
        byName.kernels = saturatingAdd(byName.kernels, d);
        if (byName.longest == kNoOpNode || node.duration() > nodes[byName.longest].duration())
            byName.longest = owner;
        if (!callCounted[owner]) {
            callCounted[owner] = true;
            ++dev->eligibleCalls;
        }
    }
    bool anyCapability = false;
    for (const auto& [device, dev] : devices) {
        const GpuInfo* gpu = t.gpuById(device);
        const std::optional<ComputeCapability> capability = capabilityOf(t, device);
        if (!gpu || !capability)
            continue;
        anyCapability = true;
        if (capability->major < 7 || isAmd(t, *gpu) || dev.tensorCoreTime > 0 ||
            dev.eligibleTime <= 0 || dev.operatorTime <= 0)
            continue;
        Finding f;
        f.rule = rule;
        f.timeNs = dev.eligibleTime;
        f.sharePercent = percentOf(dev.eligibleTime, dev.kernelTime);
        f.base = ShareBase::GpuTime;
        f.baseNs = dev.kernelTime;
        f.deviceId = device;
        f.measured = percentOf(dev.eligibleTime, dev.operatorTime);
        f.threshold = 0;
        f.count = dev.eligibleCalls;
        for (const auto& [name, byName] : dev.byName) {
            const OpNode& longest = nodes[byName.longest];
            f.evidence.push_back(evidenceRow(longest.event, {longest.start, longest.end}, device,
                                             double(byName.kernels)));
        }
        std::stable_sort(
            f.evidence.begin(), f.evidence.end(),
            [](const FindingEvidence& a, const FindingEvidence& b) { return a.value > b.value; });
        const auto top = std::max_element(
            dev.byName.begin(), dev.byName.end(),
            [](const auto& a, const auto& b) { return a.second.kernels < b.second.kernels; });
        f.subject = forest.names()[top->first];
        out.findings.push_back(std::move(f));
    }
    if (!anyCapability)
        out.skip(rule, MissingData::ComputeCapability);
}

void memoryPeak(const Context& ctx, Sink& out) {
    const FindingRule rule = FindingRule::MemoryPeak;
    if (!ctx.options.runs(rule))
        return;
    const Trace& t = ctx.trace;
    const double threshold = ctx.options.memoryPeakPercent;
    bool measured = false;
    for (const GpuMemoryTrack& track : t.gpuMemory()) {
        const GpuInfo* gpu = t.gpuById(track.deviceId);
        const GpuMemorySample* peak = track.peak();
        if (!gpu || gpu->totalMemory == 0 || !peak)
            continue;
        measured = true;
        const double total = double(gpu->totalMemory);
        const double percent = 100.0 * double(peak->allocated) / total;
        if (percent <= threshold) // the plugin's test is "peak > total * 0.9"
            continue;
        // Each sample holds until the next one (the last until the trace's end).
        Finding f;
        TimeRange peakRange{peak->time, peak->time};
        const auto& s = track.samples;
        for (std::size_t i = 0; i < s.size(); ++i) {
            const TimeNs until =
                i + 1 < s.size() ? s[i + 1].time : std::max(s[i].time, t.timeRange().end);
            if (&s[i] == peak)
                peakRange.end = until;
            if (100.0 * double(s[i].allocated) / total > threshold) {
                f.timeNs = saturatingAdd(f.timeNs, saturatingSub(until, s[i].time));
                ++f.count;
            }
        }
        f.rule = rule;
        f.base = ShareBase::Span;
        f.baseNs = t.timeRange().duration();
        f.sharePercent = percentOf(f.timeNs, f.baseNs);
        f.deviceId = track.deviceId;
        f.measured = percent;
        f.threshold = threshold;
        f.evidence.push_back(
            evidenceRow(EventRef{}, peakRange, track.deviceId, double(peak->allocated)));
        out.findings.push_back(std::move(f));
    }
    if (!measured)
        out.skip(rule, MissingData::MemoryRecord);
}

// exposed_communication and straggler, which share the breakdown of the communication kernels.
// True when a kernel of the trace is a communication kernel by the active class table (as
// BreakdownSource sorts them): one look per launch configuration, not per kernel.
bool hasCommunicationKernels(const Trace& t) {
    const KernelClassTable& table = KernelClassTable::active();
    return std::any_of(t.kernelConfigs().begin(), t.kernelConfigs().end(),
                       [&](const KernelConfig& c) {
                           return table.isCommunication(t.strings().view(c.shortName));
                       });
}

void communicationRules(const Context& ctx, Sink& out) {
    const bool exposed = ctx.options.runs(FindingRule::ExposedCommunication);
    const bool straggler = ctx.options.runs(FindingRule::Straggler);
    if (!exposed && !straggler)
        return;
    const bool communicates = hasCommunicationKernels(ctx.trace) ||
                              categoryTime(ctx.steps, StepCategory::Communication) > 0;
    // A single trace is one rank; the straggler is found across the ranks of a job.
    if (straggler && communicates)
        out.skip(FindingRule::Straggler, MissingData::Job);
    if (!exposed)
        return;
    if (!communicates) {
        out.skip(FindingRule::ExposedCommunication, MissingData::Communication);
        return;
    }
    if (stepsTime(ctx.steps) <= 0) {
        out.skip(FindingRule::ExposedCommunication, MissingData::Steps);
        return;
    }
    // Per GPU, each step's exposed communication.
    const BreakdownSource source(ctx.trace, KernelClassTable::active());
    const std::vector<std::uint32_t> devices = source.deviceIds();
    std::map<std::uint32_t, std::vector<double>> perStep;
    for (const std::uint32_t device : devices)
        perStep[device].resize(ctx.steps.steps.size());
    for (std::size_t i = 0; i < ctx.steps.steps.size(); ++i) {
        if ((i & 0xFF) == 0 && ctx.stop())
            return;
        const std::vector<TimeNs> e = source.exposedCommunication(ctx.steps.steps[i].range);
        for (std::size_t d = 0; d < devices.size(); ++d)
            perStep[devices[d]][i] = double(e[d]);
    }
    const TimeNs base = stepsTime(ctx.steps);
    const double threshold = ctx.options.exposedCommunicationPercent;
    for (const auto& [device, values] : perStep) {
        TimeNs time = 0;
        for (const double v : values)
            time = saturatingAdd(time, TimeNs(v));
        const double share = percentOf(time, base);
        if (time <= 0 || share <= threshold)
            continue;
        Finding f;
        f.rule = FindingRule::ExposedCommunication;
        f.timeNs = time;
        f.sharePercent = share;
        f.base = ShareBase::Step;
        f.baseNs = base;
        f.deviceId = device;
        f.measured = share;
        f.threshold = threshold;
        f.count = ctx.steps.steps.size();
        f.evidence = stepRows(ctx.steps, values, device, true);
        out.findings.push_back(std::move(f));
    }
}

} // namespace

void runRecommendationRules(const Context& ctx, Sink& out) {
    stepShareRule(ctx, out, FindingRule::DataLoading, StepCategory::DataLoader,
                  ctx.options.dataLoadingPercent);
    if (!out.findings.empty() && out.findings.back().rule == FindingRule::DataLoading)
        dataLoaderRanges(ctx, out.findings.back());
    if (ctx.stop())
        return;
    stepShareRule(ctx, out, FindingRule::Communication, StepCategory::Communication,
                  ctx.options.communicationPercent);
    gpuUtilization(ctx, out);
    if (ctx.stop())
        return;
    tensorCores(ctx, out);
    if (ctx.stop())
        return;
    memoryPeak(ctx, out);
    communicationRules(ctx, out);
}

} // namespace strobe::findingrules
