// SPDX-License-Identifier: MIT
#include "model/reports/overviewtext.h"

#include "model/reports/gapsummarytext.h"
#include "model/reports/gaptext.h"
#include "model/reports/labels.h"
#include "model/timeformat.h"
#include "model/trace.h"

#include <QCoreApplication>
#include <QStringBuilder>
#include <algorithm>
#include <map>
#include <numeric>

namespace strobe {

namespace {

QString tr(const char* s) {
    return QCoreApplication::translate("Overview", s);
}

QString oneDecimalPercent(double p) {
    return QString::number(p, 'f', 1) % QStringLiteral(" %");
}

// "the host starves the GPU: ..." for gaps whose top heading is a cause, not a range: what the
// host does instead of feeding the GPU (the rules of docs/GAPS.md).
QString causeVerdict(GapCause cause) {
    switch (cause) {
    case GapCause::LaunchOverhead:
        return tr("launching its work takes longer than the work runs.");
    case GapCause::Sync:
        return tr("the host waits in synchronisation calls that drain it.");
    case GapCause::CpuBusy:
        return tr("the thread that launches its work is busy elsewhere (NVTX ranges, OS runtime "
                  "or other CUDA calls).");
    case GapCause::CpuWait:
        return tr("the thread that launches its work waits in blocking OS calls.");
    case GapCause::NoCpuActivity:
        return tr("its processes make no CUDA call during the gaps.");
    case GapCause::Unknown:
        break;
    }
    return tr("CUDA calls run during the gaps but none explains them.");
}

QString idleText(const Trace& t, const OverviewFinding& f) {
    const GpuBreakdown& b = f.gpu;
    // One heading per range name, then per cause: a range named like a cause's label is still a
    // range (only a range is something that "runs").
    std::map<std::pair<int, QString>, std::pair<GapCause, TimeNs>> byHeading;
    for (const IdleShare& s : f.idleShares) {
        auto& h = byHeading[s.nvtxRange ? std::pair{0, *s.nvtxRange}
                                        : std::pair{1, gapCauseLabel(s.cause)}];
        h.first = s.cause;
        h.second += s.ns;
    }
    auto top = byHeading.end(); // the largest; ties: ranges first, then by name
    for (auto it = byHeading.begin(); it != byHeading.end(); ++it) {
        if (top == byHeading.end() || it->second.second > top->second.second)
            top = it;
    }
    // The span's idle time, then the gap figures as the GPU Gaps panel gives them: over the
    // whole trace a share of the trace, over a selection a share of it.
    const TimeNs base = f.window ? f.window->duration() : t.timeRange().duration();
    const double gapPercent = base > 0 ? 100.0 * double(f.gapTotal) / double(base) : 0.0;
    QString s = tr("GPU %1 idle %2, %3 of %4: %5")
                    .arg(b.deviceId)
                    .arg(formatDuration(b.idle), percentText(b.idle, b.span.duration()),
                         f.window ? tr("the selection") : tr("its span"),
                         gapFiguresText(f.gapTotal, f.gapCount, f.gapThreshold, gapPercent,
                                        f.window ? GapShareBase::Selection : GapShareBase::Trace));
    if (b.idle > f.gapTotal)
        s += tr(", the rest in shorter stretches");
    s += u'.';
    if (top != byHeading.end()) {
        const QString share = percentText(top->second.second, f.gapTotal);
        s = s % u' ' %
            (top->first.first == 0 ? tr("Top cause: the range \"%1\", %2 of the gap time.")
                                   : tr("Top cause: %1, %2 of the gap time."))
                .arg(top->first.second, share);
    }
    if (f.answer == FindingAnswer::KeptBusy)
        return s % u' ' % tr("The GPU is kept busy: the host is not what limits it.");
    if (f.answer == FindingAnswer::HostStarves && top != byHeading.end())
        return s % u' ' % tr("The host starves the GPU:") % u' ' %
               (top->first.first == 0
                    ? tr("while \"%1\" runs, no work reaches it.").arg(top->first.second)
                    : causeVerdict(top->second.first));
    return s % u' ' %
           tr("The idle time is in stretches shorter than %1.").arg(formatDuration(f.gapThreshold));
}

QString fillText(const Trace& t, const OverviewFinding& f) {
    const GpuBreakdown& b = f.gpu;
    switch (f.answer) {
    case FindingAnswer::NoSmCount:
        // The limits as strobe-cli info words them, so that both say the same of this GPU.
        return tr("GPU %1: the trace does not record the SM count, and the architecture table "
                  "cannot give it (products of one architecture differ); occupancy limits %2.")
            .arg(b.deviceId)
            .arg((f.limits.source == GpuLimitsSource::Unknown ? tr("unknown: ") : QString()) %
                 gpuLimitsNote(f.limits));
    case FindingAnswer::EveryKernelFills:
        return tr("GPU %1: every kernel launches at least one block per SM (%2 SMs).")
            .arg(b.deviceId)
            .arg(f.smCount);
    default:
        break;
    }
    const KernelConfig& c = t.kernelConfigs()[f.configs.at(0)];
    // Under 1 % of compute the kernel with the most time at stake is not worth tuning.
    const QString verdict =
        f.kernelNs * 100 < b.compute
            ? tr("the most time any kernel launching fewer blocks than SMs takes, too little to "
                 "matter.")
        : f.smCount - std::uint64_t(f.blocks) == 1
            ? tr("1 SM sits idle while it runs.")
            : tr("%1 SMs sit idle while it runs.").arg(f.smCount - std::uint64_t(f.blocks));
    return tr("%1: %2 on %3 SMs (%4 of the GPU's warp slots), %5, %6 (%7 of compute on GPU %8): "
              "%9")
        .arg(t.string(c.shortName), f.blocks == 1 ? tr("1 block") : tr("%1 blocks").arg(f.blocks),
             QString::number(f.smCount), oneDecimalPercent(100.0 * f.warpSlotFraction),
             f.launches == 1 ? tr("1 launch") : tr("%1 launches").arg(f.launches),
             formatDuration(f.kernelNs), percentText(f.kernelNs, b.compute),
             QString::number(b.deviceId), verdict);
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
    QString copies = tr("copies and memsets take %1 of the span (%2 under no kernel)")
                         .arg(percentText(b.memory, b.span.duration()),
                              percentText(b.memoryOnly, b.span.duration()));
    // Migrations beside them, a share of their own: they are in neither the bar nor its idle.
    if (f.migrations > 0)
        copies +=
            tr("; unified-memory migrations take %1 (%2 in %3 migrations), not in the bar: "
               "they are not stream work")
                .arg(percentText(f.migrationNs, b.span.duration()), formatDuration(f.migrationNs))
                .arg(f.migrations);
    if (f.migrationsOutside > 0)
        copies += (f.migrations > 0 ? tr(" (%1 more outside the %2)")
                                    : tr("; %1 unified-memory migrations, all outside the %2"))
                      .arg(f.migrationsOutside)
                      .arg(f.window ? tr("selection") : tr("span"));
    copies += u'.';
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

QStringList roundedShareTexts(const std::vector<TimeNs>& parts) {
    // In doubles: a hostile trace's saturated durations would overflow tenths in integers.
    const double whole = std::accumulate(parts.begin(), parts.end(), 0.0,
                                         [](double a, TimeNs p) { return a + double(p); });
    std::vector<std::int64_t> tenths(parts.size(), 0);
    std::vector<double> remainder(parts.size(), 0.0);
    std::int64_t given = 0;
    for (std::size_t i = 0; i < parts.size() && whole > 0; ++i) {
        const double exact = 1000.0 * double(parts[i]) / whole;
        tenths[i] = std::int64_t(exact);
        remainder[i] = exact - double(tenths[i]);
        given += tenths[i];
    }
    std::vector<std::size_t> order(parts.size());
    std::iota(order.begin(), order.end(), std::size_t(0));
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return remainder[a] > remainder[b]; });
    for (std::size_t k = 0; whole > 0 && given < 1000 && k < order.size(); ++k, ++given)
        ++tenths[order[k]];
    QStringList out;
    for (std::size_t i = 0; i < parts.size(); ++i)
        out << (tenths[i] == 0 && parts[i] > 0
                    ? QStringLiteral("<0.1 %")
                    : QString::number(double(tenths[i]) / 10.0, 'f', 1) % QStringLiteral(" %"));
    return out;
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
        return idleText(trace, f);
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
