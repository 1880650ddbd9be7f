// SPDX-License-Identifier: MIT
// launch_overhead and small_grid (docs/FINDINGS.md, "Launch rules"): HTA's kernel launch
// statistics per GPU, and the kernels with a large share of GPU time that do not fill the GPU.
#include "model/analysis/findingrules.h"
#include "model/analysis/gpuarchitecture.h"
#include "model/analysis/gridfill.h"
#include "model/analysis/occupancy.h"
#include "model/kernelclass.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

namespace strobe::findingrules {

namespace {

// The most evidence rows one finding lists (the launches with the most at stake first).
constexpr std::size_t kMaxEvidence = 100;
// How often the loops over every kernel ask whether to stop.
constexpr std::size_t kCancelStride = 1 << 16;

double percentOf(double part, double whole) {
    return whole > 0 ? std::min(100.0, 100.0 * part / whole) : 0.0;
}

// One kernel launch in one of HTA's categories, for the evidence.
struct Candidate {
    TimeNs excess = 0; // the call's time beyond the kernel's, 0 when the kernel is longer
    TimeNs delay = 0;  // kernel start - call end
    std::uint32_t kernel = 0;
};

struct DeviceLaunches {
    TimeNs kernelNs = 0;      // every kernel's duration, summed
    TimeNs shortKernelNs = 0; // of kernels under shortKernelNs
    TimeNs excess = 0;        // the short kernels' launch time beyond them (the time at stake)
    Finding::LaunchCounts counts;
    std::vector<Candidate> candidates;
};

// HTA's get_cuda_kernel_launch_stats over each GPU's kernels: cpu_duration (the launching
// call's), gpu_duration (the kernel's), launch_delay (kernel start - call end, as HTA's
// documentation defines it), and its three categories with launchCallNs and launchDelayNs as
// runtime_cutoff and launch_delay_cutoff.
void launchOverhead(const Context& ctx, Sink& out) {
    const Trace& t = ctx.trace;
    const FindingOptions& o = ctx.options;
    if (t.kernelCount() == 0) {
        out.skip(FindingRule::LaunchOverhead, MissingData::GpuWork);
        return;
    }
    std::map<std::uint32_t, DeviceLaunches> devices;
    const auto kernels = t.kernels();
    bool anyCall = false;
    DeviceLaunches* current = nullptr; // std::map keeps it valid while others are added
    std::uint32_t currentDevice = 0;
    for (std::size_t i = 0; i < t.kernelCount(); ++i) {
        if (i % kCancelStride == 0 && ctx.stop())
            return;
        // Kernels come in runs on one GPU: look the device up only when it changes.
        const std::uint32_t device = t.streams()[t.kernelStreamIndex(i)].deviceId;
        if (!current || device != currentDevice) {
            current = &devices[device];
            currentDevice = device;
        }
        DeviceLaunches& d = *current;
        const EventRef self = t.kernelRef(i);
        const Lane& kl = t.lane(self.lane);
        const TimeNs ks = kl.start(self.index), ke = kl.end(self.index);
        const TimeNs gpu = saturatingSub(ke, ks);
        d.kernelNs = saturatingAdd(d.kernelNs, gpu);
        if (gpu < o.shortKernelNs)
            d.shortKernelNs = saturatingAdd(d.shortKernelNs, gpu);
        const EventRef api = t.kernelApi(i);
        if (!api.isValid())
            continue;
        anyCall = true;
        // A graph's kernels share one cudaGraphLaunch: its time is not each kernel's launch.
        if (kernels[std::uint32_t(i)].graphNodeId)
            continue;
        const Lane& al = t.lane(api.lane);
        const TimeNs as = al.start(api.index), ae = al.end(api.index);
        const TimeNs cpu = saturatingSub(ae, as);
        const TimeNs delay = saturatingSub(ks, ae);
        ++d.counts.launches;
        const bool slow = cpu > o.launchCallNs;
        const bool shorter = !slow && gpu < cpu;
        const bool delayed = delay > o.launchDelayNs;
        d.counts.slowCalls += slow ? 1 : 0;
        d.counts.delayed += delayed ? 1 : 0;
        if (shorter) {
            ++d.counts.shortKernels;
            d.excess = saturatingAdd(d.excess, cpu - gpu);
        }
        if (slow || shorter || delayed)
            d.candidates.push_back(
                {std::max<TimeNs>(0, saturatingSub(cpu, gpu)), delay, std::uint32_t(i)});
    }
    if (!anyCall) {
        out.skip(FindingRule::LaunchOverhead, MissingData::ApiCalls);
        return;
    }
    for (auto& [device, d] : devices) {
        if (d.counts.shortKernels == 0)
            continue;
        Finding f;
        f.rule = FindingRule::LaunchOverhead;
        f.deviceId = device;
        f.timeNs = d.excess;
        // The launches are CPU time: a share of the trace's span, which holds them (the GPU's
        // kernels alone may span less than their calls).
        f.base = ShareBase::Span;
        f.baseNs = t.timeRange().duration();
        f.sharePercent = percentOf(double(f.timeNs), double(f.baseNs));
        f.count = d.counts.shortKernels;
        f.measured = percentOf(double(d.shortKernelNs), double(d.kernelNs));
        f.threshold = double(o.shortKernelNs);
        f.launch = d.counts;
        f.launch.callCutoffNs = o.launchCallNs;
        f.launch.delayCutoffNs = o.launchDelayNs;
        // The launches with the most launch time beyond their kernel, then the longest delays.
        const auto before = [](const Candidate& a, const Candidate& b) {
            return std::tuple(-a.excess, -a.delay, a.kernel) <
                   std::tuple(-b.excess, -b.delay, b.kernel);
        };
        const std::size_t n = std::min(kMaxEvidence, d.candidates.size());
        std::partial_sort(d.candidates.begin(), d.candidates.begin() + std::ptrdiff_t(n),
                          d.candidates.end(), before);
        for (std::size_t k = 0; k < n; ++k) {
            const EventRef self = t.kernelRef(d.candidates[k].kernel);
            const Lane& l = t.lane(self.lane);
            FindingEvidence e;
            e.event = self;
            e.range = {l.start(self.index), l.end(self.index)};
            e.deviceId = device;
            e.value = double(d.candidates[k].delay);
            f.evidence.push_back(e);
        }
        out.findings.push_back(std::move(f));
    }
}

// The configuration's theoretical occupancy in percent on the GPU of `limits`, when the trace
// records what it needs (registers and shared memory) and the launch can run.
std::optional<double> occupancyPercent(const GpuLimits& limits, const KernelConfig& c) {
    if (limits.source == GpuLimitsSource::Unknown || c.detail == LaunchDetail::None ||
        !c.recorded(KernelField::Registers) || !c.recorded(KernelField::SharedMemory))
        return std::nullopt;
    const OccupancyResult r = computeOccupancy(limits.gpu, c);
    if (!r.valid || r.limit == OccupancyLimit::BlockSize || r.limit == OccupancyLimit::None)
        return std::nullopt;
    return 100.0 * r.occupancy;
}

// Per GPU, each launch configuration (gridfill.h, as the Overview's fill question counts them)
// with at least smallGridGpuPercent of the GPU's kernel time whose grid has fewer blocks than
// the GPU has SMs or whose theoretical occupancy is under smallGridOccupancyPercent.
// Communication kernels are left out, as the Overview leaves them: NCCL sizes its grid by its
// channels on purpose.
void smallGrid(const Context& ctx, Sink& out) {
    const Trace& t = ctx.trace;
    const FindingOptions& o = ctx.options;
    if (t.kernelCount() == 0) {
        out.skip(FindingRule::SmallGrid, MissingData::GpuWork);
        return;
    }
    const std::vector<KernelConfigUse> uses = kernelUseByConfig(t, std::nullopt);
    if (ctx.stop())
        return;
    std::map<std::uint32_t, TimeNs> gpuTime;
    for (const KernelConfigUse& u : uses)
        gpuTime[u.deviceId] = saturatingAdd(gpuTime[u.deviceId], u.time);
    const KernelClassTable& table = KernelClassTable::active();
    std::map<std::uint32_t, GpuLimits> limitsOf;
    // The findings' index by (device, config), for the evidence pass.
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::size_t> found;
    std::vector<Finding> findings;
    for (const auto& [device, total] : gpuTime) {
        const GpuLimits limits = resolveGpuLimits(t, device);
        if (limits.gpu.smCount == 0)
            out.skip(FindingRule::SmallGrid, MissingData::SmCount);
        limitsOf.emplace(device, limits);
    }
    for (const KernelConfigUse& u : uses) {
        const GpuLimits& limits = limitsOf.at(u.deviceId);
        const std::uint32_t sms = limits.gpu.smCount;
        const TimeNs total = gpuTime.at(u.deviceId);
        const double share = percentOf(double(u.time), double(total));
        if (sms == 0 || u.time == 0 || share < o.smallGridGpuPercent)
            continue;
        const KernelConfig& c = t.kernelConfigs()[u.config];
        if (table.isCommunication(t.strings().view(c.shortName)))
            continue;
        const bool fewBlocks = leavesSmsEmpty(c, sms);
        const std::optional<double> occupancy = occupancyPercent(limits, c);
        const bool lowOccupancy = occupancy && *occupancy < o.smallGridOccupancyPercent;
        if (!fewBlocks && !lowOccupancy)
            continue;
        // The share of the GPU the launches use: SMs with a block, and under the occupancy
        // threshold the warps short of it. The rest of the kernel's time is at stake.
        const double used = (fewBlocks ? double(gridBlocks(c)) / double(sms) : 1.0) *
                            (lowOccupancy && o.smallGridOccupancyPercent > 0
                                 ? *occupancy / o.smallGridOccupancyPercent
                                 : 1.0);
        Finding f;
        f.rule = FindingRule::SmallGrid;
        f.deviceId = u.deviceId;
        f.timeNs = TimeNs(std::llround(double(u.time) * (1.0 - used)));
        f.base = ShareBase::GpuTime;
        f.baseNs = total;
        f.sharePercent = percentOf(double(f.timeNs), double(total));
        f.subject = t.string(c.shortName);
        f.count = u.launches;
        f.measured = share;
        f.threshold = o.smallGridGpuPercent;
        f.blocks = gridBlocks(c);
        f.smCount = sms;
        f.occupancyPercent = occupancy;
        found.emplace(std::pair(u.deviceId, u.config), findings.size());
        findings.push_back(std::move(f));
    }
    if (findings.empty())
        return;
    // The evidence: each configuration's launches, the longest first (ties in start order).
    std::vector<std::vector<std::pair<TimeNs, std::uint32_t>>> launches(findings.size());
    for (std::size_t i = 0; i < t.kernelCount(); ++i) {
        if (i % kCancelStride == 0 && ctx.stop())
            return;
        const auto it =
            found.find({t.streams()[t.kernelStreamIndex(i)].deviceId, t.kernelConfigIndex(i)});
        if (it == found.end())
            continue;
        const EventRef self = t.kernelRef(i);
        const Lane& l = t.lane(self.lane);
        launches[it->second].emplace_back(-saturatingSub(l.end(self.index), l.start(self.index)),
                                          std::uint32_t(i));
    }
    for (std::size_t k = 0; k < findings.size(); ++k) {
        auto& v = launches[k];
        const std::size_t n = std::min(kMaxEvidence, v.size());
        std::partial_sort(v.begin(), v.begin() + std::ptrdiff_t(n), v.end());
        for (std::size_t j = 0; j < n; ++j) {
            const EventRef self = t.kernelRef(v[j].second);
            const Lane& l = t.lane(self.lane);
            FindingEvidence e;
            e.event = self;
            e.range = {l.start(self.index), l.end(self.index)};
            e.deviceId = findings[k].deviceId;
            e.value = double(findings[k].blocks);
            findings[k].evidence.push_back(e);
        }
        out.findings.push_back(std::move(findings[k]));
    }
}

} // namespace

void runLaunchRules(const Context& ctx, Sink& out) {
    if (ctx.options.runs(FindingRule::LaunchOverhead))
        launchOverhead(ctx, out);
    if (ctx.stop())
        return;
    if (ctx.options.runs(FindingRule::SmallGrid))
        smallGrid(ctx, out);
}

} // namespace strobe::findingrules
