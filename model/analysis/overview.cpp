// SPDX-License-Identifier: MIT
#include "model/analysis/overview.h"

#include "model/analysis/nvtxstats.h"

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
    for (const GpuGap& g : gaps.gaps) {
        if (g.deviceId != b.deviceId)
            continue;
        if (window && (g.range.end <= window->start || g.range.start >= window->end))
            continue;
        if (g.enclosingNvtx.isValid()) {
            const Lane& l = t.lane(g.enclosingNvtx.lane);
            byRange[nvtxRangeName(t, l.domain(), l.nameId(g.enclosingNvtx.index))] += g.duration();
        } else {
            byCause[std::size_t(g.cause)] += g.duration();
        }
        f.gapTotal += g.duration();
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

// Among the kernels launching fewer blocks than the GPU has SMs, the one filling the least of
// the GPU; its longest launch for the detail pane.
OverviewFinding fillFinding(const Trace& t, const GpuBreakdown& b, std::optional<TimeRange> w) {
    OverviewFinding f;
    f.question = FindingQuestion::Fill;
    f.gpu = b;
    const GpuInfo* gpu = t.gpuById(b.deviceId);
    if (!gpu || gpu->smCount == 0) {
        f.answer = FindingAnswer::NoSmCount;
        return f;
    }
    f.smCount = gpu->smCount;
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
        // Durations and their sum saturate (types.h): a hostile file's clamped times reach 2^62.
        const TimeNs d = saturatingSub(e, s);
        u.time = saturatingAdd(u.time, d);
        ++u.launches;
        if (d > u.longestNs) {
            u.longestNs = d;
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
        f.answer = FindingAnswer::EveryKernelFills;
        return f;
    }
    f.answer = FindingAnswer::Underfilled;
    f.target = FindingTarget::Kernel;
    f.event = best->second.longest;
    f.configs = {best->first};
    f.blocks = blocksOf(best->first);
    f.launches = best->second.launches;
    f.kernelNs = best->second.time;
    f.warpSlotFraction = fill(best->first);
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

OverviewFinding memoryFinding(const Trace& t, const GpuBreakdown& b,
                              std::optional<TimeRange> window) {
    OverviewFinding f;
    f.question = FindingQuestion::Memory;
    f.gpu = b;
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
        o.findings.push_back(fillFinding(trace, b, window));
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
