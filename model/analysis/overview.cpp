// SPDX-License-Identifier: MIT
#include "model/analysis/overview.h"

#include "model/analysis/nvtxstats.h"
#include "model/timeformat.h"

#include <QCoreApplication>
#include <QStringBuilder>
#include <map>

namespace strobe {

namespace {

QString tr(const char* s) {
    return QCoreApplication::translate("Overview", s);
}

// Below this share of its span idle, a GPU counts as kept busy.
constexpr double kStarvedPercent = 10.0;

OverviewFinding idleFinding(const Trace& t, const GpuBreakdown& b, const GapAnalysis& gaps,
                            std::optional<TimeRange> window) {
    std::map<QString, TimeNs> byCause; // enclosing NVTX range, or the cause's label
    std::uint64_t count = 0;
    TimeNs gapTotal = 0;
    for (const GpuGap& g : gaps.gaps) {
        if (g.deviceId != b.deviceId)
            continue;
        if (window && (g.range.end <= window->start || g.range.start >= window->end))
            continue;
        QString key = gapCauseLabel(g.cause);
        if (g.enclosingNvtx.isValid()) {
            const Lane& l = t.lane(g.enclosingNvtx.lane);
            key = nvtxRangeName(t, l.domain(), l.nameId(g.enclosingNvtx.index));
        }
        byCause[key] += g.duration();
        gapTotal += g.duration();
        ++count;
    }
    OverviewFinding f;
    f.question = tr("Is the GPU starved?");
    f.target = FindingTarget::Gaps;
    const double idlePct =
        b.span.duration() > 0 ? 100.0 * double(b.idle) / double(b.span.duration()) : 0.0;
    QString s = tr("GPU %1 idle %2 of its span (%3 gaps of at least %4")
                    .arg(b.deviceId)
                    .arg(percentText(b.idle, b.span.duration()))
                    .arg(count)
                    .arg(formatDuration(gaps.threshold));
    auto top = byCause.end();
    for (auto it = byCause.begin(); it != byCause.end(); ++it) {
        if (top == byCause.end() || it->second > top->second)
            top = it;
    }
    if (top != byCause.end())
        s = s % tr("; top cause: %1, %2 of the gap time")
                    .arg(top->first, percentText(top->second, gapTotal));
    s += QStringLiteral(").");
    if (idlePct < kStarvedPercent)
        s = s % u' ' % tr("The GPU is kept busy: the host is not what limits it.");
    else if (top != byCause.end())
        s = s % u' ' %
            tr("The host starves the GPU: while \"%1\" runs, no work reaches it.").arg(top->first);
    else
        s = s % u' ' % tr("The idle time is before the first or after the last work.");
    f.text = s;
    return f;
}

// Among the kernels launching fewer blocks than the GPU has SMs, the one filling the least of
// the GPU; its longest launch for the detail pane.
OverviewFinding fillFinding(const Trace& t, const GpuBreakdown& b, std::optional<TimeRange> w) {
    OverviewFinding f;
    f.question = tr("Do the kernels fill the GPU?");
    const GpuInfo* gpu = t.gpuById(b.deviceId);
    if (!gpu || gpu->smCount == 0) {
        f.text = tr("GPU %1: the trace does not record the SM count.").arg(b.deviceId);
        return f;
    }
    struct Use {
        TimeNs time = 0;
        std::uint64_t launches = 0;
        EventRef longest;
        TimeNs longestNs = -1;
    };
    std::map<std::uint32_t, Use> uses;
    for (std::size_t i = 0; i < t.kernelCount(); ++i) {
        if (t.streams()[t.kernelStreamIndex(i)].deviceId != b.deviceId)
            continue;
        const std::uint32_t config = t.kernelConfigIndex(i);
        const KernelConfig& c = t.kernelConfigs()[config];
        const std::int64_t blocks = std::int64_t(c.grid[0]) * c.grid[1] * c.grid[2];
        if (blocks <= 0 || blocks >= std::int64_t(gpu->smCount))
            continue;
        const EventRef self = t.kernelRef(i);
        const Lane& l = t.lane(self.lane);
        const TimeNs s = l.start(self.index), e = l.end(self.index);
        if (w && (e <= w->start || s >= w->end))
            continue;
        Use& u = uses[config];
        u.time += e - s;
        ++u.launches;
        if (e - s > u.longestNs) {
            u.longestNs = e - s;
            u.longest = self;
        }
    }
    // The one filling the smallest share of the GPU's warp slots (blocks when the trace does
    // not record the warp limit); ties: the one taking more time.
    const auto blocksOf = [&](std::uint32_t config) {
        const KernelConfig& c = t.kernelConfigs()[config];
        return std::int64_t(c.grid[0]) * c.grid[1] * c.grid[2];
    };
    const auto fill = [&](std::uint32_t config) {
        const KernelConfig& c = t.kernelConfigs()[config];
        const std::int64_t threads = std::int64_t(c.block[0]) * c.block[1] * c.block[2];
        const std::int64_t warps =
            blocksOf(config) * std::max<std::int64_t>(1, (threads + 31) / 32);
        return gpu->maxWarpsPerSm > 0
                   ? double(warps) / (double(gpu->smCount) * double(gpu->maxWarpsPerSm))
                   : double(blocksOf(config)) / double(gpu->smCount);
    };
    auto best = uses.end();
    for (auto it = uses.begin(); it != uses.end(); ++it) {
        if (best == uses.end() || fill(it->first) < fill(best->first) ||
            (fill(it->first) == fill(best->first) && it->second.time > best->second.time))
            best = it;
    }
    if (best == uses.end()) {
        f.text = tr("GPU %1: every kernel launches at least one block per SM (%2 SMs).")
                     .arg(b.deviceId)
                     .arg(gpu->smCount);
        return f;
    }
    const KernelConfig& c = t.kernelConfigs()[best->first];
    f.target = FindingTarget::Kernel;
    f.event = best->second.longest;
    f.configs = {best->first};
    f.text = tr("%1: %2 blocks on %3 SMs (%8 of the GPU's warp slots), %4 launches, %5 (%6 of "
                "compute on GPU %7): most SMs sit idle while it runs.")
                 .arg(t.string(c.shortName))
                 .arg(blocksOf(best->first))
                 .arg(gpu->smCount)
                 .arg(best->second.launches)
                 .arg(formatDuration(best->second.time))
                 .arg(percentText(best->second.time, b.compute))
                 .arg(b.deviceId)
                 .arg(QString::number(100.0 * fill(best->first), 'f', 1) % QStringLiteral(" %"));
    return f;
}

OverviewFinding commFinding(const Trace& t, const KernelClassTable& table, const GpuBreakdown& b) {
    OverviewFinding f;
    f.question = tr("Is communication expensive?");
    if (b.communication == 0) {
        f.text = tr("GPU %1 runs no communication (NCCL) kernels.").arg(b.deviceId);
        return f;
    }
    for (std::uint32_t i = 0; i < t.kernelConfigs().size(); ++i) {
        if (table.isCommunication(t.strings().view(t.kernelConfigs()[i].shortName)))
            f.configs.push_back(i);
    }
    f.target = FindingTarget::Communication;
    f.text = tr("GPU %1: communication %2 of the span, %3 exposed (%4 of it hidden under "
                "compute).")
                 .arg(b.deviceId)
                 .arg(percentText(b.communication, b.span.duration()),
                      percentText(b.exposedCommunication, b.span.duration()),
                      QString::number(b.overlapPercent(), 'f', 1) % QStringLiteral(" %"));
    return f;
}

OverviewFinding memoryFinding(const Trace& t, const GpuBreakdown& b,
                              std::optional<TimeRange> window) {
    OverviewFinding f;
    f.question = tr("Is GPU memory the limit?");
    const QString copies = tr("copies and memsets take %1 of the span (%2 under no kernel).")
                               .arg(percentText(b.memory, b.span.duration()),
                                    percentText(b.memoryOnly, b.span.duration()));
    const GpuMemoryTrack* track = t.gpuMemoryOf(b.deviceId);
    const GpuMemorySample* peak = track ? track->peak(window) : nullptr;
    if (!peak) {
        f.text = tr("GPU %1: %2 The trace records no GPU memory use: profile with nsys "
                    "--cuda-memory-usage=true or torch.profiler(profile_memory=True) to see the "
                    "peak.")
                     .arg(b.deviceId)
                     .arg(copies);
        return f;
    }
    const GpuInfo* gpu = t.gpuById(b.deviceId);
    const QString total =
        gpu && gpu->totalMemory > 0
            ? tr(" of %1 (%2)")
                  .arg(formatBytes(gpu->totalMemory),
                       QString::number(100.0 * double(peak->allocated) / double(gpu->totalMemory),
                                       'f', 1) %
                           QStringLiteral(" %"))
            : QString();
    f.target = FindingTarget::Moment;
    f.time = peak->time;
    f.text = tr("GPU %1: peak GPU memory %2%3 allocated, at %4; %5")
                 .arg(b.deviceId)
                 .arg(formatBytes(peak->allocated), total,
                      formatTimestamp(peak->time, t.timeRange().start), copies);
    return f;
}

} // namespace

QString percentText(TimeNs part, TimeNs whole) {
    const double p = whole > 0 ? 100.0 * double(part) / double(whole) : 0.0;
    return QString::number(p, 'f', 1) % QStringLiteral(" %");
}

Overview buildOverview(const Trace& trace, const KernelClassTable& table,
                       std::optional<TimeRange> window, TimeNs gapThreshold) {
    Overview o;
    o.window = window;
    const BreakdownSource source(trace, table);
    o.gpus = source.breakdown(window);
    const GapAnalysis gaps = findGaps(trace, gapThreshold);
    // By question, then by GPU.
    for (const GpuBreakdown& b : o.gpus)
        o.findings.push_back(idleFinding(trace, b, gaps, window));
    for (const GpuBreakdown& b : o.gpus)
        o.findings.push_back(fillFinding(trace, b, window));
    for (const GpuBreakdown& b : o.gpus)
        o.findings.push_back(commFinding(trace, table, b));
    for (const GpuBreakdown& b : o.gpus)
        o.findings.push_back(memoryFinding(trace, b, window));
    if (const auto iterations = detectIterationRange(trace)) {
        o.iterationLabel = iterations->name;
        for (std::size_t i = 0; i < iterations->instances.size(); ++i) {
            const TimeRange r = iterations->instances[i];
            o.iterations.push_back({i, r, source.breakdown(r)});
        }
    }
    return o;
}

} // namespace strobe
