// SPDX-License-Identifier: MIT
#include "model/reports/overviewtext.h"

#include "model/reports/gaptext.h"
#include "model/timeformat.h"
#include "model/trace.h"

#include <QCoreApplication>
#include <QStringBuilder>
#include <map>

namespace strobe {

namespace {

QString tr(const char* s) {
    return QCoreApplication::translate("Overview", s);
}

QString oneDecimalPercent(double p) {
    return QString::number(p, 'f', 1) % QStringLiteral(" %");
}

QString idleText(const OverviewFinding& f) {
    const GpuBreakdown& b = f.gpu;
    // One heading per name: a range named like a cause's label counts with it.
    std::map<QString, TimeNs> byHeading;
    for (const IdleShare& s : f.idleShares)
        byHeading[s.nvtxRange ? *s.nvtxRange : gapCauseLabel(s.cause)] += s.ns;
    QString s = tr("GPU %1 idle %2 of its span (%3 gaps of at least %4")
                    .arg(b.deviceId)
                    .arg(percentText(b.idle, b.span.duration()))
                    .arg(f.gapCount)
                    .arg(formatDuration(f.gapThreshold));
    auto top = byHeading.end(); // the largest; ties: the first by name
    for (auto it = byHeading.begin(); it != byHeading.end(); ++it) {
        if (top == byHeading.end() || it->second > top->second)
            top = it;
    }
    if (top != byHeading.end())
        s = s % tr("; top cause: %1, %2 of the gap time")
                    .arg(top->first, percentText(top->second, f.gapTotal));
    s += QStringLiteral(").");
    if (f.answer == FindingAnswer::KeptBusy)
        s = s % u' ' % tr("The GPU is kept busy: the host is not what limits it.");
    else if (f.answer == FindingAnswer::HostStarves && top != byHeading.end())
        s = s % u' ' %
            tr("The host starves the GPU: while \"%1\" runs, no work reaches it.").arg(top->first);
    else
        s = s % u' ' % tr("The idle time is before the first or after the last work.");
    return s;
}

QString fillText(const Trace& t, const OverviewFinding& f) {
    const GpuBreakdown& b = f.gpu;
    switch (f.answer) {
    case FindingAnswer::NoSmCount:
        return tr("GPU %1: the trace does not record the SM count.").arg(b.deviceId);
    case FindingAnswer::EveryKernelFills:
        return tr("GPU %1: every kernel launches at least one block per SM (%2 SMs).")
            .arg(b.deviceId)
            .arg(f.smCount);
    default:
        break;
    }
    const KernelConfig& c = t.kernelConfigs()[f.configs.at(0)];
    return tr("%1: %2 blocks on %3 SMs (%8 of the GPU's warp slots), %4 launches, %5 (%6 of "
              "compute on GPU %7): most SMs sit idle while it runs.")
        .arg(t.string(c.shortName))
        .arg(f.blocks)
        .arg(f.smCount)
        .arg(f.launches)
        .arg(formatDuration(f.kernelNs))
        .arg(percentText(f.kernelNs, b.compute))
        .arg(b.deviceId)
        .arg(oneDecimalPercent(100.0 * f.warpSlotFraction));
}

QString commText(const OverviewFinding& f) {
    const GpuBreakdown& b = f.gpu;
    if (f.answer == FindingAnswer::NoCommunication)
        return tr("GPU %1 runs no communication (NCCL) kernels.").arg(b.deviceId);
    return tr("GPU %1: communication %2 of the span, %3 exposed (%4 of it hidden under "
              "compute).")
        .arg(b.deviceId)
        .arg(percentText(b.communication, b.span.duration()),
             percentText(b.exposedCommunication, b.span.duration()),
             oneDecimalPercent(b.overlapPercent()));
}

QString memoryText(const Trace& t, const OverviewFinding& f) {
    const GpuBreakdown& b = f.gpu;
    const QString copies = tr("copies and memsets take %1 of the span (%2 under no kernel).")
                               .arg(percentText(b.memory, b.span.duration()),
                                    percentText(b.memoryOnly, b.span.duration()));
    if (f.answer != FindingAnswer::MemoryPeak)
        return tr("GPU %1: %2 The trace records no GPU memory use: profile with nsys "
                  "--cuda-memory-usage=true or torch.profiler(profile_memory=True) to see the "
                  "peak.")
            .arg(b.deviceId)
            .arg(copies);
    const QString total =
        f.totalMemory
            ? tr(" of %1 (%2)")
                  .arg(formatBytes(*f.totalMemory),
                       oneDecimalPercent(100.0 * double(f.peakAllocated) / double(*f.totalMemory)))
            : QString();
    return tr("GPU %1: peak GPU memory %2%3 allocated, at %4; %5")
        .arg(b.deviceId)
        .arg(formatBytes(f.peakAllocated), total, formatTimestamp(f.time, t.timeRange().start),
             copies);
}

} // namespace

QString percentText(TimeNs part, TimeNs whole) {
    const double p = whole > 0 ? 100.0 * double(part) / double(whole) : 0.0;
    return oneDecimalPercent(p);
}

QString findingQuestionText(FindingQuestion question) {
    switch (question) {
    case FindingQuestion::Starved:
        return tr("Is the GPU starved?");
    case FindingQuestion::Fill:
        return tr("Do the kernels fill the GPU?");
    case FindingQuestion::Communication:
        return tr("Is communication expensive?");
    case FindingQuestion::Memory:
        break;
    }
    return tr("Is GPU memory the limit?");
}

QString findingText(const Trace& trace, const OverviewFinding& f) {
    switch (f.question) {
    case FindingQuestion::Starved:
        return idleText(f);
    case FindingQuestion::Fill:
        return fillText(trace, f);
    case FindingQuestion::Communication:
        return commText(f);
    case FindingQuestion::Memory:
        break;
    }
    return memoryText(trace, f);
}

} // namespace strobe
