// SPDX-License-Identifier: MIT
#include "model/job/ranksummary.h"

#include "model/analysis/breakdown.h"

#include <QFileInfo>
#include <QRegularExpression>
#include <QStringBuilder>
#include <algorithm>
#include <map>
#include <set>

namespace strobe {

QString rankSourceKey(RankSource s) {
    switch (s) {
    case RankSource::Recorded:
        return QStringLiteral("recorded");
    case RankSource::FileName:
        return QStringLiteral("file-name");
    case RankSource::Order:
        break;
    }
    return QStringLiteral("order");
}

std::optional<RankSource> rankSourceFromKey(QStringView key) {
    for (RankSource s : {RankSource::Recorded, RankSource::FileName, RankSource::Order}) {
        if (key == rankSourceKey(s))
            return s;
    }
    return std::nullopt;
}

namespace {

const QString& nameAt(const QStringList& names, std::uint32_t i) {
    static const QString none;
    return i < std::size_t(names.size()) ? names[qsizetype(i)] : none;
}

std::uint32_t indexIn(QStringList& names, const QString& name) {
    qsizetype i = names.indexOf(name);
    if (i < 0) {
        i = names.size();
        names << name;
    }
    return std::uint32_t(i);
}

} // namespace

const QString& RankSummary::kindOf(const RankCollective& c) const {
    return nameAt(collectiveKinds, c.kind);
}

std::optional<QString> RankSummary::processGroupOf(const RankCollective& c) const {
    if (!c.processGroup)
        return std::nullopt;
    return nameAt(processGroups, *c.processGroup);
}

std::uint32_t RankSummary::kindIndex(const QString& name) {
    return indexIn(collectiveKinds, name);
}

std::uint32_t RankSummary::processGroupIndex(const QString& name) {
    return indexIn(processGroups, name);
}

double RankBreakdown::overlapPercent() const {
    return communication > 0
               ? 100.0 * double(communication - exposedCommunication) / double(communication)
               : 0.0;
}

std::optional<QString> collectiveKindOf(const QString& name) {
    // nccl / rccl, then "Kernel_" or "DevKernel_", then the kind up to the next '_' or '('.
    static const QRegularExpression re(QStringLiteral("^[nr]ccl(?:Dev)?Kernel_([A-Za-z]+)"),
                                       QRegularExpression::CaseInsensitiveOption);
    const QRegularExpressionMatch m = re.match(name);
    if (!m.hasMatch())
        return std::nullopt;
    return m.captured(1);
}

QString hostFromFileName(const QString& path) {
    // torch.profiler's worker name is f"{socket.gethostname()}_{os.getpid()}", then
    // f".{time.time_ns()}.pt.trace.json" (tensorboard_trace_handler); the host is the part
    // before the last '_' of the worker name.
    static const QRegularExpression re(
        QStringLiteral("^(.+)_\\d{1,10}\\.\\d{10,}\\.pt\\.trace\\.json(?:\\.gz)?$"),
        QRegularExpression::CaseInsensitiveOption);
    const QRegularExpressionMatch m = re.match(QFileInfo(path).fileName());
    return m.hasMatch() ? m.captured(1) : QString();
}

std::optional<std::uint32_t> rankFromFileName(const QString& path) {
    const QString name = QFileInfo(path).fileName();
    // "rank-3", "rank_3", "rank3" first; else a number between '_' and '.' ("trace_3.json").
    static const QRegularExpression named(QStringLiteral("rank[-_]?(\\d{1,9})(?!\\d)"),
                                          QRegularExpression::CaseInsensitiveOption);
    // Not tensorboard_trace_handler's HOST_PID.TIMESTAMP: a number before a timestamp is a pid.
    static const QRegularExpression bare(QStringLiteral("_(\\d{1,9})\\.(?!\\d{10})"));
    for (const QRegularExpression* re : {&named, &bare}) {
        if (const QRegularExpressionMatch m = re->match(name); m.hasMatch())
            return std::uint32_t(m.captured(1).toULong());
    }
    return std::nullopt;
}

namespace {

RankBreakdown headline(const GpuBreakdown& g) {
    return {g.compute, g.communication, g.exposedCommunication,
            g.memory,  g.idle,          g.span.duration()};
}

// The breakdown of `device`, or an all-idle one over `window` when the device has no work.
RankBreakdown breakdownOf(const BreakdownSource& source, std::uint32_t device,
                          std::optional<TimeRange> window) {
    for (const GpuBreakdown& g : source.breakdown(window)) {
        if (g.deviceId == device)
            return headline(g);
    }
    RankBreakdown none;
    if (window)
        none.idle = none.span = window->duration();
    return none;
}

// Which rank a trace's events belong to: every event, or those of one process.
struct RankScope {
    std::optional<std::uint32_t> pid;
    bool holds(std::uint32_t eventPid) const { return !pid || *pid == eventPid; }
};

// pid of the thread or process owning a CPU lane.
std::uint32_t pidOfCpuLane(const Trace& trace, const Lane& lane) {
    if (ownerOf(lane.kind()) == LaneOwner::Process)
        return lane.owner() < trace.processes().size() ? trace.processes()[lane.owner()].pid : 0;
    return lane.owner() < trace.threads().size() ? trace.threads()[lane.owner()].pid : 0;
}

// N of "ProfilerStep#N" (1 to 18 digits); nullopt for other names.
std::optional<std::uint64_t> stepNumber(std::string_view name) {
    constexpr std::string_view prefix = "ProfilerStep#";
    if (!name.starts_with(prefix) || name.size() == prefix.size() ||
        name.size() > prefix.size() + 18)
        return std::nullopt;
    std::uint64_t n = 0;
    for (char c : name.substr(prefix.size())) {
        if (c < '0' || c > '9')
            return std::nullopt;
        n = n * 10 + std::uint64_t(c - '0');
    }
    return n;
}

// ProfilerStep#N ranges of the scope (Kineto user annotations or operators, NVTX), one per N.
std::vector<RankStep> stepsOf(const Trace& trace, RankScope scope) {
    std::map<std::uint64_t, TimeRange> byNumber;
    for (const Lane& lane : trace.lanes()) {
        if (lane.kind() != LaneKind::Nvtx && lane.kind() != LaneKind::NvtxStartEnd &&
            lane.kind() != LaneKind::CpuOps)
            continue;
        if (!scope.holds(pidOfCpuLane(trace, lane)))
            continue;
        for (std::uint32_t i = 0; i < lane.size(); ++i) {
            const std::optional<std::uint64_t> n = stepNumber(trace.strings().view(lane.nameId(i)));
            if (n && lane.end(i) > lane.start(i))
                byNumber.try_emplace(*n, TimeRange{lane.start(i), lane.end(i)});
        }
    }
    std::vector<RankStep> steps;
    steps.reserve(byNumber.size());
    for (const auto& [n, host] : byNumber)
        steps.push_back({n, host, {}});
    std::sort(steps.begin(), steps.end(), [](const RankStep& a, const RankStep& b) {
        return a.host.start != b.host.start ? a.host.start < b.host.start : a.number < b.number;
    });
    return steps;
}

// The scope's collectives into `s` (with their names).
void collectivesOf(const Trace& trace, RankScope scope, RankSummary& s) {
    std::vector<RankCollective>& out = s.collectives;
    std::map<std::uint32_t, std::uint32_t> ordinalOfStream; // stream index -> ordinal
    std::map<std::uint32_t, std::uint32_t> countOfStream;
    std::map<StringId, std::optional<std::uint32_t>> kindOfName; // parsed once per name
    std::map<StringId, std::uint32_t> groupOfName;
    for (std::size_t i = 0; i < trace.kernelCount(); ++i) {
        const std::uint32_t stream = trace.kernelStreamIndex(i);
        if (!scope.holds(trace.streams()[stream].pid))
            continue;
        const StringId nameId = trace.kernelConfigs()[trace.kernelConfigIndex(i)].shortName;
        auto it = kindOfName.find(nameId);
        if (it == kindOfName.end()) {
            const std::optional<QString> kind = collectiveKindOf(trace.string(nameId));
            it = kindOfName.emplace(nameId, kind ? std::optional(s.kindIndex(*kind)) : std::nullopt)
                     .first;
        }
        if (!it->second)
            continue;
        const auto ordinal =
            ordinalOfStream.try_emplace(stream, std::uint32_t(ordinalOfStream.size())).first;
        const EventRef self = trace.kernelRef(i);
        const Lane& lane = trace.lane(self.lane);
        RankCollective c;
        c.kind = *it->second;
        c.streamOrdinal = ordinal->second;
        c.order = countOfStream[stream]++;
        c.gpu = {lane.start(self.index), std::max(lane.start(self.index), lane.end(self.index))};
        const KernelRecord rec = trace.kernels()[i];
        if (rec.processGroup != kNoString) {
            auto group = groupOfName.find(rec.processGroup);
            if (group == groupOfName.end())
                group = groupOfName
                            .emplace(rec.processGroup,
                                     s.processGroupIndex(trace.string(rec.processGroup)))
                            .first;
            c.processGroup = group->second;
        }
        c.bytes = rec.messageBytes;
        out.push_back(c);
    }
}

// The device the scope's kernels run on most; nullopt without kernels.
std::optional<std::uint32_t> mainDevice(const Trace& trace, RankScope scope,
                                        std::set<std::uint32_t>* devices) {
    std::map<std::uint32_t, std::size_t> kernels;
    for (std::size_t i = 0; i < trace.kernelCount(); ++i) {
        const StreamInfo& s = trace.streams()[trace.kernelStreamIndex(i)];
        if (scope.holds(s.pid))
            ++kernels[s.deviceId];
    }
    std::optional<std::uint32_t> best;
    for (const auto& [id, n] : kernels) {
        devices->insert(id);
        if (!best || n > kernels[*best])
            best = id;
    }
    return best;
}

RankSummary summarizeScope(const Trace& trace, const BreakdownSource& whole,
                           const std::optional<BreakdownSource>& hta, RankScope scope) {
    RankSummary s;
    const TraceMetadata& meta = trace.metadata();
    s.file = trace.filePath();
    s.pid = scope.pid;
    s.format = meta.format;
    s.backend = meta.distributedBackend;
    s.worldSize = meta.worldSize;
    s.clockOriginNs = meta.sessionStartUtcNs;
    s.host = hostFromFileName(s.file);
    if (meta.rank && !scope.pid) {
        s.rank = *meta.rank;
        s.rankSource = RankSource::Recorded;
    } else if (const auto r = rankFromFileName(s.file); r && !scope.pid) {
        s.rank = *r;
        s.rankSource = RankSource::FileName;
    }
    std::set<std::uint32_t> devices;
    s.deviceId = mainDevice(trace, scope, &devices);
    if (devices.size() > 1)
        s.warnings << QStringLiteral("The rank runs kernels on %1 GPUs; its summary counts "
                                     "GPU %2, where most of them run.")
                          .arg(devices.size())
                          .arg(*s.deviceId);
    for (const TraceWarning& w : trace.warnings())
        s.warnings << w.message;
    s.steps = stepsOf(trace, scope);
    collectivesOf(trace, scope, s);
    if (!s.deviceId)
        return s;
    const std::uint32_t device = *s.deviceId;
    s.gpu = trace.gpuLabel(device);
    s.whole = breakdownOf(whole, device, std::nullopt);
    for (const GpuBreakdown& g : whole.breakdown()) {
        if (g.deviceId == device)
            s.gpuSpan = g.span;
    }
    if (hta && s.steps.size() >= 2)
        s.htaWindow = breakdownOf(*hta, device, std::nullopt);
    for (RankStep& step : s.steps)
        step.breakdown = breakdownOf(whole, device, step.host);
    const TimeNs d = s.gpuSpan.duration();
    s.busy.reserve(kUtilisationBuckets);
    for (int i = 0; i < kUtilisationBuckets; ++i) {
        // 128-bit products: a span of 2^62 ns times 512 overflows 64 bits.
        const auto edge = [&](int k) {
            return s.gpuSpan.start + TimeNs(__int128(d) * k / kUtilisationBuckets);
        };
        const TimeRange bucket{edge(i), edge(i + 1)};
        const RankBreakdown b = breakdownOf(whole, device, bucket);
        s.busy.push_back(bucket.duration() - b.idle);
    }
    return s;
}

// Processes whose streams ran GPU work, by the lowest device they used.
std::vector<std::uint32_t> gpuProcesses(const Trace& trace) {
    std::map<std::uint32_t, std::uint32_t> firstDevice; // pid -> lowest device id
    for (const Lane& lane : trace.lanes()) {
        if (ownerOf(lane.kind()) != LaneOwner::Stream || lane.size() == 0)
            continue;
        const StreamInfo& s = trace.streams()[lane.owner()];
        auto [it, added] = firstDevice.try_emplace(s.pid, s.deviceId);
        if (!added)
            it->second = std::min(it->second, s.deviceId);
    }
    std::vector<std::pair<std::uint32_t, std::uint32_t>> order; // (device, pid)
    order.reserve(firstDevice.size());
    for (const auto& [pid, device] : firstDevice)
        order.emplace_back(device, pid);
    std::sort(order.begin(), order.end());
    std::vector<std::uint32_t> pids;
    pids.reserve(order.size());
    for (const auto& [device, pid] : order)
        pids.push_back(pid);
    return pids;
}

// The start of the last ProfilerStep of the whole trace, HTA's end of the window.
std::optional<TimeNs> lastStepStart(const Trace& trace) {
    const std::vector<RankStep> steps = stepsOf(trace, {});
    if (steps.size() < 2)
        return std::nullopt;
    return steps.back().host.start;
}

} // namespace

std::vector<RankSummary> summarizeTrace(const Trace& trace, const KernelClassTable& table) {
    const BreakdownSource whole(trace, table);
    const bool nsys = trace.metadata().format != QLatin1String("kineto-json");
    const std::vector<std::uint32_t> pids =
        nsys ? gpuProcesses(trace) : std::vector<std::uint32_t>{};
    std::vector<RankSummary> out;
    if (pids.size() <= 1) {
        std::optional<BreakdownSource> hta;
        if (const auto end = lastStepStart(trace))
            hta.emplace(trace, table, end);
        out.push_back(summarizeScope(trace, whole, hta, {}));
        return out;
    }
    for (std::size_t i = 0; i < pids.size(); ++i) {
        // HTA reads one trace per rank; per process, its own last step ends the window.
        const RankScope scope{pids[i]};
        const std::vector<RankStep> steps = stepsOf(trace, scope);
        std::optional<BreakdownSource> hta;
        if (steps.size() >= 2)
            hta.emplace(trace, table, steps.back().host.start);
        RankSummary s = summarizeScope(trace, whole, hta, scope);
        s.rank = std::uint32_t(i);
        s.rankSource = RankSource::Order;
        s.worldSize = std::uint32_t(pids.size());
        s.warnings << QStringLiteral("The report holds %1 processes with GPU work; process %2 is "
                                     "rank %3 by the order of their GPUs (the report records no "
                                     "rank).")
                          .arg(pids.size())
                          .arg(pids[i])
                          .arg(i);
        out.push_back(std::move(s));
    }
    return out;
}

} // namespace strobe
