// SPDX-License-Identifier: MIT
// Nsight Systems' six expert rules (`nsys analyze`) over Strobe's model, and Strobe's
// pageable_copies. The definitions, nsys's scripts they follow and where Strobe differs are in
// docs/FINDINGS.md ("Nsight Systems' expert rules").
#include "model/analysis/findingrules.h"
#include "model/analysis/gaps.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <map>
#include <queue>
#include <string_view>
#include <tuple>

namespace strobe::findingrules {

namespace {

// nsys's cuda_memcpy_sync leaves out host-to-device copies of 64 KB or less: the CUDA
// programming guide's copies that return before they finish.
constexpr std::uint64_t kSmallHostToDeviceBytes = 65'536;
// Evidence rows kept per finding, the first in nsys's order (nsys analyze prints 50 by default);
// the count and the time at stake cover every row.
constexpr std::size_t kMaxEvidenceRows = 100;

bool sameLetters(std::string_view a, std::string_view b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
        return std::tolower(static_cast<unsigned char>(x)) ==
               std::tolower(static_cast<unsigned char>(y));
    });
}

// SQL's LIKE as nsys's rules use it: '%' for any run of characters, ASCII letters in either case.
bool like(std::string_view s, std::string_view pattern) {
    std::size_t pos = 0;
    bool anchored = true;
    while (!pattern.empty()) {
        const std::size_t cut = pattern.find('%');
        const std::string_view part = pattern.substr(0, cut);
        const bool last = cut == std::string_view::npos;
        if (last && !anchored) // the final literal run must end the string
            return s.size() - pos >= part.size() &&
                   sameLetters(s.substr(s.size() - part.size()), part);
        if (anchored) {
            if (!sameLetters(s.substr(pos, part.size()), part))
                return false;
            pos += part.size();
            if (last)
                return pos == s.size();
        } else {
            std::size_t at = pos;
            while (at + part.size() <= s.size() && !sameLetters(s.substr(at, part.size()), part))
                ++at;
            if (at + part.size() > s.size())
                return false;
            pos = at + part.size();
        }
        pattern.remove_prefix(cut + 1);
        anchored = false;
    }
    return anchored ? pos == s.size() : true;
}

// What nsys's rules make of an API call's name (CUPTI_ACTIVITY_KIND_RUNTIME's nameId).
enum class CallKind : std::uint8_t { Other, MemcpyAsync, MemcpySync, MemsetSync, Sync };

CallKind callKindOf(std::string_view name) {
    if (like(name, "cudaMemcpy%Async%"))
        return CallKind::MemcpyAsync;
    if (like(name, "cudaMemcpy%") && !like(name, "%async%"))
        return CallKind::MemcpySync;
    if (like(name, "cudaMemset%") && !like(name, "%async%"))
        return CallKind::MemsetSync;
    if (like(name, "cudaDeviceSynchronize%") || like(name, "cudaStreamSynchronize%"))
        return CallKind::Sync;
    return CallKind::Other;
}

// callKindOf per string id, each name classified once.
class CallKinds {
public:
    explicit CallKinds(const Trace& trace)
        : m_trace(trace)
        , m_known(trace.strings().size(), 0xFF) {}
    CallKind of(StringId id) {
        if (id >= m_known.size())
            return CallKind::Other;
        if (m_known[id] == 0xFF)
            m_known[id] = std::uint8_t(callKindOf(m_trace.strings().view(id)));
        return CallKind(m_known[id]);
    }
    CallKind ofCall(EventRef call) {
        return call.isValid() ? of(m_trace.lane(call.lane).nameId(call.index)) : CallKind::Other;
    }

private:
    const Trace& m_trace;
    std::vector<std::uint8_t> m_known;
};

TimeRange rangeOf(const Trace& trace, EventRef e) {
    const Lane& l = trace.lane(e.lane);
    return {l.start(e.index), l.end(e.index)};
}

bool isMigration(MemcpyKind k) {
    return k == MemcpyKind::UnifiedHtoD || k == MemcpyKind::UnifiedDtoH ||
           k == MemcpyKind::UnifiedDtoD;
}

// The time covered by `ranges`, overlaps counted once.
TimeNs coveredTime(std::vector<TimeRange> ranges) {
    std::sort(ranges.begin(), ranges.end(),
              [](const TimeRange& a, const TimeRange& b) { return a.start < b.start; });
    TimeNs total = 0;
    std::optional<TimeRange> run;
    for (const TimeRange& r : ranges) {
        if (run && r.start <= run->end) {
            run->end = std::max(run->end, r.end);
            continue;
        }
        if (run)
            total = saturatingAdd(total, run->duration());
        run = r;
    }
    return run ? saturatingAdd(total, run->duration()) : total;
}

// One finding of events: the rows as nsys sorts them (longest first), the time at stake the time
// they cover (calls on several threads, copies on several streams overlapping counted once, so
// that it stays within the trace), the subject the call name with the most of their time.
void pushEventFinding(const Trace& trace, FindingRule rule, std::vector<FindingEvidence> rows,
                      const std::vector<EventRef>& calls, Sink& out) {
    if (rows.empty())
        return;
    Finding f;
    f.rule = rule;
    f.base = ShareBase::Span;
    f.baseNs = trace.timeRange().duration();
    std::map<StringId, TimeNs> byName;
    std::vector<TimeRange> ranges;
    ranges.reserve(rows.size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const TimeNs d = rows[i].range.duration();
        ranges.push_back(rows[i].range);
        f.measured += rows[i].value;
        if (calls[i].isValid()) {
            TimeNs& t = byName[trace.lane(calls[i].lane).nameId(calls[i].index)];
            t = saturatingAdd(t, d);
        }
    }
    StringId top = kNoString;
    TimeNs topNs = -1;
    for (const auto& [name, ns] : byName)
        if (ns > topNs)
            std::tie(top, topNs) = std::tuple(name, ns);
    f.subject = trace.string(top);
    f.count = rows.size();
    f.timeNs = coveredTime(std::move(ranges));
    const std::size_t kept = std::min(rows.size(), kMaxEvidenceRows);
    std::partial_sort(
        rows.begin(), rows.begin() + std::ptrdiff_t(kept), rows.end(),
        [](const FindingEvidence& a, const FindingEvidence& b) {
            return std::tuple(-a.range.duration(), a.range.start, a.event.lane, a.event.index) <
                   std::tuple(-b.range.duration(), b.range.start, b.event.lane, b.event.index);
        });
    rows.resize(kept);
    f.evidence = std::move(rows);
    f.sharePercent = f.baseNs > 0 ? 100.0 * double(f.timeNs) / double(f.baseNs) : 0;
    out.findings.push_back(std::move(f));
}

// The copies rule `rule` keeps; each row's value is its bytes.
template <typename Keep>
void copyRule(const Context& ctx, FindingRule rule, CallKinds& kinds, Keep keep, Sink& out) {
    const Trace& trace = ctx.trace;
    std::vector<FindingEvidence> rows;
    std::vector<EventRef> calls;
    for (const MemcpyRecord& m : trace.memcpys()) {
        if (!keep(m, kinds.ofCall(m.api)))
            continue;
        FindingEvidence e;
        e.event = m.self;
        e.range = rangeOf(trace, m.self);
        e.deviceId = trace.streams()[m.stream].deviceId;
        e.value = double(m.bytes);
        rows.push_back(e);
        calls.push_back(m.api);
    }
    pushEventFinding(trace, rule, std::move(rows), calls, out);
}

void memsetRule(const Context& ctx, CallKinds& kinds, Sink& out) {
    const Trace& trace = ctx.trace;
    std::vector<FindingEvidence> rows;
    std::vector<EventRef> calls;
    for (const MemsetRecord& m : trace.memsets()) {
        if (m.memKind != MemoryKind::Pinned && m.memKind != MemoryKind::Managed)
            continue;
        if (kinds.ofCall(m.api) != CallKind::MemsetSync)
            continue;
        FindingEvidence e;
        e.event = m.self;
        e.range = rangeOf(trace, m.self);
        e.deviceId = trace.streams()[m.stream].deviceId;
        e.value = double(m.bytes);
        rows.push_back(e);
        calls.push_back(m.api);
    }
    pushEventFinding(trace, FindingRule::CudaMemsetSync, std::move(rows), calls, out);
}

void apiSyncRule(const Context& ctx, CallKinds& kinds, Sink& out) {
    const Trace& trace = ctx.trace;
    std::vector<FindingEvidence> rows;
    std::vector<EventRef> calls;
    for (std::uint32_t li = 0; li < trace.lanes().size(); ++li) {
        const Lane& l = trace.lane(li);
        if (l.kind() != LaneKind::CudaApi)
            continue;
        for (std::uint32_t i = 0; i < l.size(); ++i) {
            if (kinds.of(l.nameId(i)) != CallKind::Sync)
                continue;
            FindingEvidence e;
            e.event = {li, i};
            e.range = {l.start(i), l.end(i)};
            rows.push_back(e);
            calls.push_back(e.event);
        }
    }
    const std::size_t before = out.findings.size();
    pushEventFinding(trace, FindingRule::CudaApiSync, std::move(rows), calls, out);
    if (out.findings.size() == before)
        return;
    // A synchronisation call costs GPU time only where the GPU drains and waits for the host to
    // launch again: the time at stake is the GPU idle time in the gaps that Strobe's gap
    // analysis puts down to synchronisation (docs/GAPS.md, at its default threshold), not the
    // host's time in the calls, most of which the GPU spends working. The host's time is kept
    // as `measured`.
    Finding& f = out.findings.back();
    f.measured = double(f.timeNs);
    TimeNs idle = 0;
    for (const GpuGap& g : findGaps(trace, kDefaultIdleThresholdNs).gaps)
        if (g.cause == GapCause::Sync)
            idle = saturatingAdd(idle, g.duration());
    f.timeNs = idle;
    f.sharePercent = f.baseNs > 0 ? 100.0 * double(f.timeNs) / double(f.baseNs) : 0;
}

// The GPU work of one process on one GPU, as nsys's gpu_gaps and gpu_time_util group it: its
// kernel, memcpy, memset and migration lanes.
struct GpuGroup {
    std::uint32_t deviceId = 0;
    std::uint32_t pid = 0;
    std::vector<std::uint32_t> lanes;
    TimeRange span{kMaxTime, kMinTime};
};

std::vector<GpuGroup> gpuGroups(const Trace& trace) {
    std::map<std::pair<std::uint32_t, std::uint32_t>, GpuGroup> groups;
    for (std::uint32_t li = 0; li < trace.lanes().size(); ++li) {
        const Lane& l = trace.lane(li);
        if (!isGpuLane(l.kind()) || l.isEmpty())
            continue;
        // Migrations count to the process of the stream their record names (the GPU's first).
        const std::uint32_t stream =
            l.kind() == LaneKind::Uvm ? trace.memcpys()[l.payload(0)].stream : l.owner();
        if (stream >= trace.streams().size())
            continue;
        const StreamInfo& s = trace.streams()[stream];
        const std::uint32_t device = l.kind() == LaneKind::Uvm ? l.owner() : s.deviceId;
        GpuGroup& g = groups[{device, s.pid}];
        g.deviceId = device;
        g.pid = s.pid;
        g.lanes.push_back(li);
        for (std::uint32_t i = 0; i < l.size(); ++i) {
            g.span.start = std::min(g.span.start, l.start(i));
            g.span.end = std::max(g.span.end, l.end(i));
        }
    }
    std::vector<GpuGroup> out;
    out.reserve(groups.size());
    for (auto& [key, g] : groups)
        out.push_back(std::move(g));
    return out;
}

// Calls fn(start, end) for every operation of the group in start order (a merge of its lanes).
template <typename Fn> void forEachInStartOrder(const Trace& trace, const GpuGroup& g, Fn&& fn) {
    using Head = std::tuple<TimeNs, std::uint32_t, std::uint32_t>; // start, lane, index
    std::priority_queue<Head, std::vector<Head>, std::greater<>> heads;
    for (const std::uint32_t li : g.lanes)
        heads.emplace(trace.lane(li).start(0), li, 0);
    while (!heads.empty()) {
        const auto [start, li, i] = heads.top();
        heads.pop();
        const Lane& l = trace.lane(li);
        fn(start, l.end(i));
        if (i + 1 < l.size())
            heads.emplace(l.start(i + 1), li, i + 1);
    }
}

// What the per-GPU rules found on one GPU, over all its processes.
struct DeviceRows {
    std::vector<FindingEvidence> rows;
    TimeRange span{kMaxTime, kMinTime};
    TimeNs timeNs = 0;
    std::uint64_t count = 0;
    double measured = 0;
    double weight = 0; // gpu_time_util: the low chunks' summed length, for their mean in-use
};

void pushDeviceFindings(FindingRule rule, std::map<std::uint32_t, DeviceRows>& byDevice,
                        double threshold, Sink& out) {
    for (auto& [device, d] : byDevice) {
        if (d.rows.empty())
            continue;
        Finding f;
        f.rule = rule;
        f.deviceId = device;
        f.base = ShareBase::Span;
        f.baseNs = d.span.duration();
        f.timeNs = d.timeNs;
        f.sharePercent = f.baseNs > 0 ? 100.0 * double(f.timeNs) / double(f.baseNs) : 0;
        f.count = d.count;
        f.measured =
            rule == FindingRule::GpuTimeUtil && d.weight > 0 ? d.measured / d.weight : d.measured;
        f.threshold = threshold;
        if (rule == FindingRule::GpuGaps)
            std::sort(d.rows.begin(), d.rows.end(),
                      [](const FindingEvidence& a, const FindingEvidence& b) {
                          return std::tuple(-a.range.duration(), a.range.start, a.pid) <
                                 std::tuple(-b.range.duration(), b.range.start, b.pid);
                      });
        else
            std::sort(d.rows.begin(), d.rows.end(),
                      [](const FindingEvidence& a, const FindingEvidence& b) {
                          // nsys orders by the in-use percent it prints, rounded to 0.1.
                          const auto shown = [](double v) { return std::round(v * 10); };
                          return std::tuple(shown(a.value), a.range.duration(), a.range.start,
                                            a.pid) < std::tuple(shown(b.value), b.range.duration(),
                                                                b.range.start, b.pid);
                      });
        d.rows.resize(std::min(d.rows.size(), kMaxEvidenceRows));
        f.evidence = std::move(d.rows);
        out.findings.push_back(std::move(f));
    }
}

void gapsRule(const Context& ctx, const std::vector<GpuGroup>& groups, Sink& out) {
    const Trace& trace = ctx.trace;
    const TimeNs minGap = std::max<TimeNs>(0, ctx.options.gpuGapMinNs);
    std::map<std::uint32_t, DeviceRows> byDevice;
    for (const GpuGroup& g : groups) {
        DeviceRows& d = byDevice[g.deviceId];
        d.span = {std::min(d.span.start, g.span.start), std::max(d.span.end, g.span.end)};
        bool first = true;
        TimeNs busyUntil = 0;
        forEachInStartOrder(trace, g, [&](TimeNs start, TimeNs end) {
            if (!first && start > busyUntil && saturatingSub(start, busyUntil) > minGap) {
                FindingEvidence e;
                e.range = {busyUntil, start};
                e.deviceId = g.deviceId;
                e.pid = g.pid;
                d.timeNs = saturatingAdd(d.timeNs, e.range.duration());
                d.measured = std::max(d.measured, double(e.range.duration()));
                ++d.count;
                d.rows.push_back(e);
            }
            busyUntil = first ? end : std::max(busyUntil, end);
            first = false;
        });
        if (ctx.stop())
            return;
    }
    pushDeviceFindings(FindingRule::GpuGaps, byDevice, double(minGap), out);
}

void timeUtilRule(const Context& ctx, const std::vector<GpuGroup>& groups, Sink& out) {
    const Trace& trace = ctx.trace;
    const int chunks = std::clamp(ctx.options.gpuTimeUtilChunks, 1, 1'000'000);
    const double threshold = ctx.options.gpuTimeUtilThresholdPercent;
    std::map<std::uint32_t, DeviceRows> byDevice;
    for (const GpuGroup& g : groups) {
        DeviceRows& d = byDevice[g.deviceId];
        d.span = {std::min(d.span.start, g.span.start), std::max(d.span.end, g.span.end)};
        const TimeNs length = g.span.duration();
        // Equal chunks, the length rounded up; the last may end early, and those past the span
        // are none (nsys's rounding).
        const TimeNs size = length / chunks + (length % chunks != 0 ? 1 : 0);
        if (size <= 0)
            continue;
        // Each chunk's busy time: the operations' lengths inside it, summed (concurrent work
        // counts twice, as in nsys). An operation adds its ends to the first and last chunk it
        // touches and one whole chunk to each between, counted in `whole` as differences: O(1)
        // per operation, whatever its length.
        std::vector<TimeNs> busy(std::size_t(chunks), 0);
        std::vector<std::int64_t> whole(std::size_t(chunks) + 1, 0);
        const auto chunkStart = [&](TimeNs c) { return g.span.start + c * size; };
        for (const std::uint32_t li : g.lanes) {
            const Lane& l = trace.lane(li);
            for (std::uint32_t i = 0; i < l.size(); ++i) {
                const TimeNs s = l.start(i), e = l.end(i);
                if (e <= s)
                    continue;
                const TimeNs first = (s - g.span.start) / size;
                const TimeNs last = (e - 1 - g.span.start) / size;
                auto& b0 = busy[std::size_t(first)];
                if (first == last) {
                    b0 = saturatingAdd(b0, e - s);
                    continue;
                }
                b0 = saturatingAdd(b0, chunkStart(first + 1) - s);
                auto& b1 = busy[std::size_t(last)];
                b1 = saturatingAdd(b1, e - chunkStart(last));
                ++whole[std::size_t(first + 1)];
                --whole[std::size_t(last)];
            }
        }
        std::int64_t covering = 0;
        for (std::size_t c = 0; c < busy.size(); ++c) {
            covering += whole[c];
            TimeNs add = 0;
            if (__builtin_mul_overflow(covering, size, &add))
                add = kMaxTime;
            busy[c] = saturatingAdd(busy[c], add);
        }
        // Low chunks, neighbours merged into one row with their length-weighted mean in-use.
        std::optional<FindingEvidence> open;
        double openWeighted = 0;
        const auto close = [&] {
            if (!open)
                return;
            open->value = openWeighted / double(open->range.duration());
            d.rows.push_back(*open);
            open.reset();
        };
        for (TimeNs c = 0; c < chunks; ++c) {
            const TimeNs cs = g.span.start + c * size;
            const TimeNs ce = std::min(cs + size, g.span.end);
            if (cs >= ce)
                break;
            const double percent = 100.0 * double(busy[std::size_t(c)]) / double(ce - cs);
            if (!(percent < threshold)) {
                close();
                continue;
            }
            if (!open) {
                open = FindingEvidence{};
                open->range = {cs, ce};
                open->deviceId = g.deviceId;
                open->pid = g.pid;
                openWeighted = 0;
            }
            open->range.end = ce;
            openWeighted += percent * double(ce - cs);
            d.measured += percent * double(ce - cs);
            d.weight += double(ce - cs);
            d.timeNs = saturatingAdd(d.timeNs, std::max<TimeNs>(0, ce - cs - busy[std::size_t(c)]));
            ++d.count;
        }
        close();
        if (ctx.stop())
            return;
    }
    pushDeviceFindings(FindingRule::GpuTimeUtil, byDevice, threshold, out);
}

} // namespace

void runExpertRules(const Context& ctx, Sink& out) {
    const Trace& trace = ctx.trace;
    const FindingOptions& o = ctx.options;
    const bool hasCalls =
        std::any_of(trace.lanes().begin(), trace.lanes().end(),
                    [](const Lane& l) { return l.kind() == LaneKind::CudaApi && !l.isEmpty(); });
    bool hostCopies = false, copyKinds = false;
    for (const MemcpyRecord& m : trace.memcpys()) {
        if (isMigration(m.copyKind))
            continue;
        hostCopies = true;
        if (m.srcKind != MemoryKind::Unknown || m.dstKind != MemoryKind::Unknown) {
            copyKinds = true;
            break;
        }
    }
    const bool setKinds =
        std::any_of(trace.memsets().begin(), trace.memsets().end(),
                    [](const MemsetRecord& m) { return m.memKind != MemoryKind::Unknown; });
    CallKinds kinds(trace);

    if (o.runs(FindingRule::CudaMemcpyAsync) && hostCopies) {
        if (!hasCalls)
            out.skip(FindingRule::CudaMemcpyAsync, MissingData::ApiCalls);
        else if (!copyKinds)
            out.skip(FindingRule::CudaMemcpyAsync, MissingData::MemoryKinds);
        else
            copyRule(
                ctx, FindingRule::CudaMemcpyAsync, kinds,
                [](const MemcpyRecord& m, CallKind k) {
                    return k == CallKind::MemcpyAsync &&
                           (m.srcKind == MemoryKind::Pageable || m.dstKind == MemoryKind::Pageable);
                },
                out);
    }
    if (ctx.stop())
        return;
    if (o.runs(FindingRule::CudaMemcpySync) && !trace.memcpys().empty()) {
        if (!hasCalls)
            out.skip(FindingRule::CudaMemcpySync, MissingData::ApiCalls);
        else
            copyRule(
                ctx, FindingRule::CudaMemcpySync, kinds,
                [](const MemcpyRecord& m, CallKind k) {
                    return k == CallKind::MemcpySync &&
                           !(m.copyKind == MemcpyKind::HtoD && m.bytes <= kSmallHostToDeviceBytes);
                },
                out);
    }
    if (ctx.stop())
        return;
    if (o.runs(FindingRule::CudaMemsetSync) && !trace.memsets().empty()) {
        if (!hasCalls)
            out.skip(FindingRule::CudaMemsetSync, MissingData::ApiCalls);
        else if (!setKinds)
            out.skip(FindingRule::CudaMemsetSync, MissingData::MemoryKinds);
        else
            memsetRule(ctx, kinds, out);
    }
    if (ctx.stop())
        return;
    if (o.runs(FindingRule::CudaApiSync)) {
        if (!hasCalls)
            out.skip(FindingRule::CudaApiSync, MissingData::ApiCalls);
        else
            apiSyncRule(ctx, kinds, out);
    }
    if (ctx.stop())
        return;
    if (o.runs(FindingRule::GpuGaps) || o.runs(FindingRule::GpuTimeUtil)) {
        const std::vector<GpuGroup> groups = gpuGroups(trace);
        for (const FindingRule rule : {FindingRule::GpuGaps, FindingRule::GpuTimeUtil}) {
            if (!o.runs(rule))
                continue;
            if (groups.empty())
                out.skip(rule, MissingData::GpuWork);
            else if (rule == FindingRule::GpuGaps)
                gapsRule(ctx, groups, out);
            else
                timeUtilRule(ctx, groups, out);
            if (ctx.stop())
                return;
        }
    }
    if (o.runs(FindingRule::PageableCopies) && hostCopies) {
        if (!copyKinds)
            out.skip(FindingRule::PageableCopies, MissingData::MemoryKinds);
        else
            copyRule(
                ctx, FindingRule::PageableCopies, kinds,
                [](const MemcpyRecord& m, CallKind) {
                    return m.copyKind == MemcpyKind::HtoD && m.srcKind == MemoryKind::Pageable;
                },
                out);
    }
}

} // namespace strobe::findingrules
