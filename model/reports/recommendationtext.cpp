// SPDX-License-Identifier: MIT
// The words of TensorBoard's recommendations, exposed_communication and straggler: what the
// plugin's sentences say (data.py, RunProfileData.analyze), in Strobe's words and with the
// numbers behind them. Definitions: docs/FINDINGS.md.
#include "model/analysis/gpuarchitecture.h"
#include "model/reports/findingtext_rules.h"
#include "model/timeformat.h"

#include <QStringBuilder>

namespace strobe::findingtext {

namespace {

using C = ReportCell;

QString percent(double v) {
    return QString::number(v, 'f', 1) % QStringLiteral(" %");
}

QString gpuName(const Finding& f) {
    return QStringLiteral("GPU %1").arg(f.deviceId.value_or(0));
}

// The event's name on its lane ("ProfilerStep#5", "enumerate(DataLoader)#_SingleProcess..."),
// or empty for a stretch of time.
QString eventName(const Trace& t, EventRef e) {
    if (!e.isValid() || e.lane >= t.lanes().size() || e.index >= t.lane(e.lane).size())
        return {};
    return t.string(t.lane(e.lane).nameId(e.index));
}

C nameCell(const Trace& t, EventRef e) {
    const QString name = eventName(t, e);
    return name.isEmpty() ? C::null() : C::string(name);
}

C ns(TimeNs v) {
    return C::number(std::int64_t(v));
}

C device(const FindingEvidence& row) {
    return row.deviceId ? C::number(std::uint64_t(*row.deviceId)) : C::null();
}

// "the steps' time (1.234 s of 4.487 s)"
QString ofSteps(const Finding& f) {
    return QStringLiteral("%1 of the steps' time (%2 of %3)")
        .arg(percent(f.sharePercent), formatDuration(f.timeNs), formatDuration(f.baseNs));
}

// The step the largest evidence row names: " (most in ProfilerStep#5: 12.00 ms)".
QString largestStep(const Trace& t, const Finding& f) {
    if (f.evidence.empty())
        return {};
    const FindingEvidence& top = f.evidence.front();
    const QString name = eventName(t, top.event);
    if (name.isEmpty())
        return {};
    return QStringLiteral(", most in %1 (%2)").arg(name, formatDuration(TimeNs(top.value)));
}

} // namespace

QString recommendationTitle(FindingRule rule) {
    switch (rule) {
    case FindingRule::DataLoading:
        return QStringLiteral("Data loading in the steps");
    case FindingRule::Communication:
        return QStringLiteral("Communication in the steps");
    case FindingRule::GpuUtilization:
        return QStringLiteral("Low GPU utilization");
    case FindingRule::TensorCores:
        return QStringLiteral("Tensor Cores left unused");
    case FindingRule::MemoryPeak:
        return QStringLiteral("GPU memory at its limit");
    case FindingRule::ExposedCommunication:
        return QStringLiteral("Communication not hidden under compute");
    case FindingRule::Straggler:
        return QStringLiteral("A straggling rank");
    default:
        break;
    }
    return findingRuleId(rule);
}

FindingWords recommendationWords(const Trace& trace, const Finding& f) {
    FindingWords w;
    switch (f.rule) {
    case FindingRule::DataLoading:
        w.finding = QStringLiteral("Data loading takes %1, in %2 data-loader ranges.")
                        .arg(ofSteps(f))
                        .arg(f.count);
        w.nextStep = QStringLiteral(
            "Try num_workers > 0 on the DataLoader, so that worker processes load the next "
            "batches while the GPU computes.");
        break;
    case FindingRule::Communication:
        w.finding = QStringLiteral("Communication takes %1 over %2 steps%3.")
                        .arg(ofSteps(f))
                        .arg(f.count)
                        .arg(largestStep(trace, f));
        w.nextStep = QStringLiteral(
            "Try gradient compression (DDP communication hooks), gradient accumulation or a "
            "larger batch; a larger effective batch may hurt convergence, where the LAMB "
            "optimizer can help.");
        break;
    case FindingRule::GpuUtilization:
        w.finding = QStringLiteral("%1 is busy %2 of the steps' time, under %3: idle %4 of %5.")
                        .arg(gpuName(f), percent(f.measured), percent(f.threshold),
                             formatDuration(f.timeNs), formatDuration(f.baseNs));
        w.nextStep = QStringLiteral(
            "Try a larger batch size so that each step gives the GPU more work; it may change "
            "how fast and how stably the model converges.");
        break;
    case FindingRule::TensorCores: {
        // The capability as the rule resolved it: recorded, else implied by the GPU's name.
        const GpuLimits limits = resolveGpuLimits(trace, f.deviceId.value_or(0));
        const ComputeCapability cc =
            limits.gpu.computeMajor > 0
                ? ComputeCapability{limits.gpu.computeMajor, limits.gpu.computeMinor}
                : limits.capability;
        const QString capability =
            cc.major > 0 ? QStringLiteral(" (compute capability %1)").arg(cc.toString())
                         : QString();
        w.finding = QStringLiteral("No kernel on %1%2 uses Tensor Cores, yet %3 of the operators' "
                                   "kernel time (%4) is in %5 calls of Tensor-Core-eligible "
                                   "operators, most in %6.")
                        .arg(gpuName(f), capability, percent(f.measured), formatDuration(f.timeNs))
                        .arg(f.count)
                        .arg(f.subject);
        w.nextStep = QStringLiteral(
            "Try Automatic Mixed Precision (torch.autocast) so that these operators run in "
            "FP16 or BF16 on the Tensor Cores.");
        break;
    }
    case FindingRule::MemoryPeak: {
        const GpuInfo* gpu = trace.gpuById(f.deviceId.value_or(0));
        const double peak = f.evidence.empty() ? 0.0 : f.evidence.front().value;
        w.finding = QStringLiteral("%1's allocated memory peaks at %2, %3 of its %4; it stays "
                                   "over %5 for %6.")
                        .arg(gpuName(f), formatBytes(std::uint64_t(peak)), percent(f.measured),
                             formatBytes(gpu ? gpu->totalMemory : 0), percent(f.threshold),
                             formatDuration(f.timeNs));
        w.nextStep = QStringLiteral(
            "Try gradient checkpointing or Automatic Mixed Precision to lower the peak, which "
            "also leaves room for a larger batch.");
        break;
    }
    case FindingRule::ExposedCommunication:
        w.finding = QStringLiteral("On %1, communication not hidden under compute takes %2%3.")
                        .arg(gpuName(f), ofSteps(f), largestStep(trace, f));
        w.nextStep = QStringLiteral(
            "Try overlapping communication with the backward pass: DDP's bucket size "
            "(bucket_cap_mb), fewer synchronising calls, or no_sync() with gradient accumulation "
            "so that fewer steps communicate.");
        break;
    case FindingRule::Straggler:
        return stragglerWords(f);
    default:
        break;
    }
    return w;
}

FindingWords stragglerWords(const Finding& f) {
    FindingWords w;
    const QString base = f.base == ShareBase::Step ? QStringLiteral("their steps' time")
                                                   : QStringLiteral("their GPUs' spans");
    w.finding = QStringLiteral("The other ranks wait %1 for %2 (%3 of %4, %5): it arrives last "
                               "at %6 collectives and is late in %7 of %8 steps.")
                    .arg(formatDuration(f.timeNs), f.subject, percent(f.sharePercent), base,
                         formatDuration(f.baseNs))
                    .arg(f.count)
                    .arg(std::uint64_t(f.measured))
                    .arg(std::uint64_t(2 * f.threshold));
    w.nextStep = QStringLiteral(
        "Try balancing the work across ranks: the same batch size and sequence lengths on "
        "each, and no extra work (logging, checkpoints) on one rank only.");
    return w;
}

std::vector<ReportCell> stragglerEvidenceRow(const FindingEvidence& row) {
    return {row.rank ? C::number(std::uint64_t(*row.rank)) : C::null(), ns(row.range.start),
            ns(row.range.end), ns(TimeNs(row.value))};
}

QStringList recommendationEvidenceColumns(FindingRule rule) {
    const QString start = QStringLiteral("start_ns"), end = QStringLiteral("end_ns");
    switch (rule) {
    case FindingRule::DataLoading:
        return {QStringLiteral("range"), QStringLiteral("thread"), start, end,
                QStringLiteral("duration_ns")};
    case FindingRule::Communication:
        return {QStringLiteral("step"), start, end, QStringLiteral("communication_ns")};
    case FindingRule::GpuUtilization:
        return {QStringLiteral("step"), QStringLiteral("device_id"), start, end,
                QStringLiteral("busy_percent")};
    case FindingRule::TensorCores:
        return {QStringLiteral("operator"), QStringLiteral("device_id"),
                QStringLiteral("longest_call_start_ns"), QStringLiteral("longest_call_end_ns"),
                QStringLiteral("kernel_ns")};
    case FindingRule::MemoryPeak:
        return {QStringLiteral("device_id"), start, end, QStringLiteral("allocated_bytes"),
                QStringLiteral("total_bytes")};
    case FindingRule::ExposedCommunication:
        return {QStringLiteral("step"), QStringLiteral("device_id"), start, end,
                QStringLiteral("exposed_ns")};
    case FindingRule::Straggler:
        return {QStringLiteral("rank"), start, end, QStringLiteral("wait_ns")};
    default:
        break;
    }
    return {};
}

std::vector<ReportCell> recommendationEvidenceRow(const Trace& trace, const Finding& finding,
                                                  const FindingEvidence& row) {
    const C start = ns(row.range.start), end = ns(row.range.end);
    switch (finding.rule) {
    case FindingRule::DataLoading: {
        const bool onLane = row.event.isValid() && row.event.lane < trace.lanes().size();
        return {nameCell(trace, row.event),
                onLane ? C::string(trace.threadLabel(trace.lane(row.event.lane).owner()))
                       : C::null(),
                start, end, ns(row.range.duration())};
    }
    case FindingRule::Communication:
        return {nameCell(trace, row.event), start, end, ns(TimeNs(row.value))};
    case FindingRule::GpuUtilization:
        return {nameCell(trace, row.event), device(row), start, end, C::number(row.value, 1)};
    case FindingRule::TensorCores:
        return {nameCell(trace, row.event), device(row), start, end, ns(TimeNs(row.value))};
    case FindingRule::MemoryPeak: {
        const GpuInfo* gpu = trace.gpuById(row.deviceId.value_or(0));
        return {device(row), start, end, C::number(std::uint64_t(row.value)),
                gpu ? C::number(gpu->totalMemory) : C::null()};
    }
    case FindingRule::ExposedCommunication:
        return {nameCell(trace, row.event), device(row), start, end, ns(TimeNs(row.value))};
    case FindingRule::Straggler:
        return stragglerEvidenceRow(row);
    default:
        break;
    }
    return {};
}

} // namespace strobe::findingtext
