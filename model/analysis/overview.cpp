// SPDX-License-Identifier: MIT
#include "model/analysis/overview.h"

#include "model/analysis/gridfill.h"
#include "model/analysis/nvtxstats.h"

#include <algorithm>
#include <array>
#include <map>

namespace strobe {

namespace {

OverviewFinding idleFinding(const Trace& t, const GpuBreakdown& b, const GapAnalysis& gaps,
                            std::optional<TimeRange> window) {
    std::map<QString, TimeNs> byRange; // gaps inside an NVTX range, by its name
    std::array<TimeNs, std::size_t(GapCause::Unknown) + 1> byCause{}; // the others
    OverviewFinding f;
    f.question = FindingQuestion::Starved;
    f.gpu = b;
    f.target = FindingTarget::Gaps;
    f.gapThreshold = gaps.threshold;
    f.window = window;
    for (const GpuGap& g : gaps.gaps) {
        if (g.deviceId != b.deviceId)
            continue;
        if (window && (g.range.end <= window->start || g.range.start >= window->end))
            continue;
        // Over a window, the part of the gap inside it: the shares are of the window.
        const TimeNs ns =
            window ? std::min(g.range.end, window->end) - std::max(g.range.start, window->start)
                   : g.duration();
        if (g.enclosingNvtx.isValid()) {
            const Lane& l = t.lane(g.enclosingNvtx.lane);
            byRange[nvtxRangeName(t, l.domain(), l.nameId(g.enclosingNvtx.index))] += ns;
        } else {
            byCause[std::size_t(g.cause)] += ns;
        }
        f.gapTotal = saturatingAdd(f.gapTotal, ns);
        ++f.gapCount;
    }
    for (const auto& [name, ns] : byRange)
        f.idleShares.push_back({name, GapCause::Unknown, ns});
    for (std::size_t c = 0; c < byCause.size(); ++c) {
        if (byCause[c] > 0)
            f.idleShares.push_back({std::nullopt, GapCause(c), byCause[c]});
    }
    const double idlePct =
        b.span.duration() > 0 ? 100.0 * double(b.idle) / double(b.span.duration()) : 0.0;
    f.answer = idlePct < kStarvedPercent ? FindingAnswer::KeptBusy
               : f.gapCount > 0          ? FindingAnswer::HostStarves
                                         : FindingAnswer::IdleOutsideGaps;
    return f;
}

// Among the computing kernels launching fewer blocks than the GPU has SMs, the configuration
// with the most time at stake (its kernel time in the window times the share of SMs it leaves
// empty): a tiny one-block launch leaves the GPU as empty, but costs nothing. Communication kernels
// are left out: NCCL sizes its grid by its channels on purpose, and communication has its own
// question. The longest launch of the configuration goes to the detail pane.
OverviewFinding fillFinding(const Trace& t, const KernelClassTable& table, const GpuBreakdown& b,
                            std::optional<TimeRange> w) {
    OverviewFinding f;
    f.question = FindingQuestion::Fill;
    f.gpu = b;
    // The SM count and warp limit as strobe-cli info finds them: the trace's, else the
    // architecture table's by compute capability or name (which has no SM count).
    f.limits = resolveGpuLimits(t, b.deviceId);
    const GpuInfo& gpu = f.limits.gpu;
    if (gpu.smCount == 0) {
        f.answer = FindingAnswer::NoSmCount;
        return f;
    }
    f.smCount = gpu.smCount;
    // The configurations launching fewer blocks than the GPU has SMs (gridfill.h, as small_grid
    // counts them), communication kernels left out.
    std::vector<KernelConfigUse> uses;
    for (const KernelConfigUse& u : kernelUseByConfig(t, b.deviceId, w)) {
        const KernelConfig& c = t.kernelConfigs()[u.config];
        if (leavesSmsEmpty(c, gpu.smCount) && !table.isCommunication(t.strings().view(c.shortName)))
            uses.push_back(u);
    }
    const auto blocksOf = [&](std::uint32_t config) {
        return gridBlocks(t.kernelConfigs()[config]);
    };
    // The share of the GPU's warp slots a launch takes (of its SMs when no warp limit is known).
    const auto fill = [&](std::uint32_t config) {
        const KernelConfig& c = t.kernelConfigs()[config];
        const std::int64_t threads = std::int64_t(c.block[0]) * c.block[1] * c.block[2];
        const std::int64_t warps =
            blocksOf(config) * std::max<std::int64_t>(1, (threads + 31) / 32);
        return gpu.maxWarpsPerSm > 0
                   ? double(warps) / (double(gpu.smCount) * double(gpu.maxWarpsPerSm))
                   : double(blocksOf(config)) / double(gpu.smCount);
    };
    // The time at stake: the SM time the configuration leaves without a block, its kernel time
    // times the share of SMs it leaves empty (so 128 blocks on 132 SMs count for little even
    // when long). Ties: the one filling less, then the first configuration.
    const auto atStake = [&](const auto& it) {
        return double(it->time) * double(std::int64_t(gpu.smCount) - blocksOf(it->config)) /
               double(gpu.smCount);
    };
    auto best = uses.end();
    for (auto it = uses.begin(); it != uses.end(); ++it) {
        if (best == uses.end() || atStake(it) > atStake(best) ||
            (atStake(it) == atStake(best) && fill(it->config) < fill(best->config)))
            best = it;
    }
    if (best == uses.end()) {
        f.answer = FindingAnswer::EveryKernelFills;
        return f;
    }
    f.answer = FindingAnswer::Underfilled;
    f.target = FindingTarget::Kernel;
    f.event = best->longest;
    f.configs = {best->config};
    f.blocks = blocksOf(best->config);
    f.launches = best->launches;
    f.kernelNs = best->time;
    f.warpSlotFraction = fill(best->config);
    return f;
}

OverviewFinding commFinding(const Trace& t, const KernelClassTable& table, const GpuBreakdown& b) {
    OverviewFinding f;
    f.question = FindingQuestion::Communication;
    f.gpu = b;
    if (b.communication == 0) {
        f.answer = FindingAnswer::NoCommunication;
        return f;
    }
    for (std::uint32_t i = 0; i < t.kernelConfigs().size(); ++i) {
        if (table.isCommunication(t.strings().view(t.kernelConfigs()[i].shortName)))
            f.configs.push_back(i);
    }
    f.answer = FindingAnswer::Communication;
    f.target = FindingTarget::Communication;
    return f;
}

// The GPU's unified-memory migrations overlapping its span, counted, and their union clipped to
// the span. They are not stream work (nothing queued waits for them), so they stay out of the
// breakdown's memory and idle time; the memory answer gives them as a share of their own.
void migrationsOf(const Trace& t, const GpuBreakdown& b, OverviewFinding& f) {
    std::vector<TimeRange> ranges;
    for (const MemcpyRecord& m : t.memcpys()) {
        const Lane& l = t.lane(m.self.lane);
        if (l.kind() != LaneKind::Uvm || t.streams()[m.stream].deviceId != b.deviceId)
            continue;
        const TimeNs s = l.start(m.self.index), e = effectiveEnd(s, l.end(m.self.index));
        if (e <= b.span.start || s >= b.span.end) {
            ++f.migrationsOutside;
            continue;
        }
        ++f.migrations;
        ranges.push_back({std::max(s, b.span.start), std::min(e, b.span.end)});
    }
    f.migrationNs = length(merged(std::move(ranges)));
}

OverviewFinding memoryFinding(const Trace& t, const GpuBreakdown& b,
                              std::optional<TimeRange> window) {
    OverviewFinding f;
    f.question = FindingQuestion::Memory;
    f.gpu = b;
    f.window = window;
    migrationsOf(t, b, f);
    const GpuMemoryTrack* track = t.gpuMemoryOf(b.deviceId);
    const GpuMemorySample* peak = track ? track->peak(window) : nullptr;
    if (!peak) {
        f.answer = FindingAnswer::NoMemoryRecord;
        return f;
    }
    const GpuInfo* gpu = t.gpuById(b.deviceId);
    if (gpu && gpu->totalMemory > 0)
        f.totalMemory = gpu->totalMemory;
    f.answer = FindingAnswer::MemoryPeak;
    f.target = FindingTarget::Moment;
    f.time = peak->time;
    f.peakAllocated = peak->allocated;
    return f;
}

} // namespace

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
        o.findings.push_back(fillFinding(trace, table, b, window));
    for (const GpuBreakdown& b : o.gpus)
        o.findings.push_back(commFinding(trace, table, b));
    for (const GpuBreakdown& b : o.gpus)
        o.findings.push_back(memoryFinding(trace, b, window));
    if (const auto iterations = detectIterationRange(trace)) {
        o.iterationName = iterations->name;
        for (std::size_t i = 0; i < iterations->instances.size(); ++i) {
            const TimeRange r = iterations->instances[i];
            o.iterations.push_back({i, iterations->labels[i], r, source.breakdown(r)});
        }
    }
    return o;
}

} // namespace strobe
