// SPDX-License-Identifier: MIT
#include "model/analysis/steps.h"

#include "model/analysis/intervalset.h"
#include "model/analysis/iterations.h"

#include <algorithm>
#include <limits>
#include <map>
#include <unordered_map>

namespace strobe {

QString stepCategoryKey(StepCategory c) {
    switch (c) {
    case StepCategory::Kernel:
        return QStringLiteral("kernel");
    case StepCategory::Memcpy:
        return QStringLiteral("memcpy");
    case StepCategory::Memset:
        return QStringLiteral("memset");
    case StepCategory::Communication:
        return QStringLiteral("communication");
    case StepCategory::Runtime:
        return QStringLiteral("runtime");
    case StepCategory::DataLoader:
        return QStringLiteral("dataloader");
    case StepCategory::CpuExec:
        return QStringLiteral("cpu_exec");
    case StepCategory::Other:
        break;
    }
    return QStringLiteral("other");
}

// TensorBoard's data-loading ranges; in nsys exports, also NVTX ranges that name data loading
// (docs/OPERATORS.md lists the patterns).
bool isStepDataLoaderName(QStringView name, bool kineto) {
    if (isDataLoaderRangeName(name))
        return true;
    if (kineto)
        return false;
    for (const QStringView p :
         {QStringView(u"dataloader"), QStringView(u"data load"), QStringView(u"data_load"),
          QStringView(u"load batch"), QStringView(u"load_batch"), QStringView(u"next batch"),
          QStringView(u"next_batch"), QStringView(u"fetch batch"), QStringView(u"fetch_batch")})
        if (name.contains(p, Qt::CaseInsensitive))
            return true;
    return false;
}

namespace {

constexpr TimeNs kNoTime = std::numeric_limits<TimeNs>::max();

// "550" for "ProfilerStep#550"; the trailing number of other names, else "".
QString stepNumber(QStringView name) {
    const qsizetype hash = name.lastIndexOf(u'#');
    if (hash >= 0)
        return name.mid(hash + 1).toString();
    qsizetype i = name.size();
    while (i > 0 && name[i - 1].isDigit())
        --i;
    return name.mid(i).toString();
}

// A CUDA call and the GPU work it launched.
struct CallSpan {
    TimeNs start = 0, end = 0;
    TimeNs devStart = kNoTime, devEnd = std::numeric_limits<TimeNs>::min();
    std::uint32_t launched = 0;
};

struct HostStep {
    TimeRange host;
    EventRef event;
    QString name;
};

class StepComputation {
public:
    explicit StepComputation(const Trace& t)
        : m_t(t)
        , m_kineto(t.metadata().format == QLatin1String("kineto-json")) {}

    StepBreakdown run(const AnalysisCancel& cancelled);

private:
    // What a CPU-side range is to the steps, by its name (decided once per name).
    enum class RangeRole : std::uint8_t { Step, DataLoader, Collective, CpuExec };
    RangeRole roleOf(StringId name);
    void collectRoles();
    void findSteps(StepBreakdown& out);
    void moveToDevice(StepBreakdown& out);

    const Trace& m_t;
    const bool m_kineto;
    std::array<std::vector<TimeRange>, kStepCategoryCount - 1> m_roles;
    std::vector<HostStep> m_steps;
    std::vector<CallSpan> m_calls; // sorted by start
    TimeRange m_cpuExtent{kNoTime, std::numeric_limits<TimeNs>::min()};
    // The end of every GPU operation, for the first step's start.
    std::vector<TimeNs> m_gpuEnds;
    std::map<std::uint32_t, IntervalSet> m_collectivesOfThread; // collective ranges by thread
    std::unordered_map<StringId, RangeRole> m_roleOfName;
};

StepComputation::RangeRole StepComputation::roleOf(StringId name) {
    if (const auto it = m_roleOfName.find(name); it != m_roleOfName.end())
        return it->second;
    const QString text = m_t.string(name);
    const RangeRole role = text.startsWith(u"ProfilerStep#")      ? RangeRole::Step
                           : isStepDataLoaderName(text, m_kineto) ? RangeRole::DataLoader
                           : isCollectiveOperatorName(text)       ? RangeRole::Collective
                                                                  : RangeRole::CpuExec;
    m_roleOfName.emplace(name, role);
    return role;
}

void StepComputation::collectRoles() {
    auto role = [&](StepCategory c) -> std::vector<TimeRange>& { return m_roles[std::size_t(c)]; };
    const auto& lanes = m_t.lanes();
    std::map<std::uint32_t, std::vector<TimeRange>> collectives; // by thread
    // Each counted CUDA call's place in m_calls, by lane and index.
    std::vector<std::int64_t> callBase(lanes.size(), -1);
    for (std::uint32_t l = 0; l < lanes.size(); ++l) {
        const Lane& lane = lanes[l];
        switch (lane.kind()) {
        case LaneKind::CudaApi: {
            callBase[l] = std::int64_t(m_calls.size());
            for (std::uint32_t i = 0; i < lane.size(); ++i) {
                CallSpan c;
                c.start = lane.start(i);
                c.end = lane.end(i);
                // TensorBoard reads runtime calls, not driver calls; nsys: every CUDA call.
                if (m_kineto && m_t.apiIsDriver(lane.payload(i)))
                    c.start = kNoTime; // marked: not a runtime call
                else
                    role(StepCategory::Runtime).push_back({c.start, c.end});
                m_calls.push_back(c);
            }
            break;
        }
        case LaneKind::CpuOps:
        case LaneKind::Nvtx:
            for (std::uint32_t i = 0; i < lane.size(); ++i) {
                if (lane.kind() == LaneKind::Nvtx) {
                    const std::uint32_t rec = lane.payload(i);
                    if (m_t.nvtxStyle(rec) != NvtxStyle::PushPop || !m_t.nvtxHasEnd(rec))
                        continue;
                }
                const TimeRange r{lane.start(i), lane.end(i)};
                const RangeRole what = roleOf(lane.nameId(i));
                switch (what) {
                case RangeRole::Step:
                    m_steps.push_back({r, EventRef{l, i}, stepNumber(m_t.string(lane.nameId(i)))});
                    break;
                case RangeRole::DataLoader:
                    role(StepCategory::DataLoader).push_back(r);
                    break;
                case RangeRole::Collective:
                    role(StepCategory::Communication).push_back(r);
                    collectives[lane.owner()].push_back(r);
                    break;
                case RangeRole::CpuExec:
                    role(StepCategory::CpuExec).push_back(r);
                    break;
                }
                if (lane.kind() == LaneKind::CpuOps || what == RangeRole::Step) {
                    m_cpuExtent.start = std::min(m_cpuExtent.start, r.start);
                    m_cpuExtent.end = std::max(m_cpuExtent.end, r.end);
                }
            }
            break;
        default:
            break;
        }
    }
    for (auto& [thread, ranges] : collectives)
        m_collectivesOfThread.emplace(thread, merged(std::move(ranges)));
    // GPU work: its role, and its launching call's device span.
    auto launchedBy = [&](EventRef api) -> CallSpan* {
        if (!api.isValid() || api.lane >= callBase.size() || callBase[api.lane] < 0)
            return nullptr;
        CallSpan& c = m_calls[std::size_t(callBase[api.lane]) + api.index];
        return c.start == kNoTime ? nullptr : &c;
    };
    auto gpu = [&](StepCategory c, EventRef self, EventRef api) {
        const Lane& lane = m_t.lane(self.lane);
        const TimeRange r{lane.start(self.index), lane.end(self.index)};
        role(c).push_back(r);
        CallSpan* call = launchedBy(api);
        if (call) {
            call->devStart = std::min(call->devStart, r.start);
            call->devEnd = std::max(call->devEnd, r.end);
            ++call->launched;
        }
        m_gpuEnds.push_back(r.end);
    };
    // A kernel is communication when its launching call starts inside a collective's range on
    // its thread (current PyTorch launches NCCL kernels from record_param_comms, around the
    // nccl:all_reduce annotation, so the innermost operator alone does not say it).
    auto launchedInCollective = [&](EventRef api) {
        if (!api.isValid())
            return false;
        const Lane& lane = m_t.lane(api.lane);
        const auto it = m_collectivesOfThread.find(lane.owner());
        if (it == m_collectivesOfThread.end())
            return false;
        const TimeNs t = lane.start(api.index);
        const IntervalSet& set = it->second;
        const auto after = std::upper_bound(set.begin(), set.end(), t,
                                            [](TimeNs v, const TimeRange& r) { return v < r.end; });
        return after != set.end() && after->start <= t;
    };
    for (std::size_t k = 0; k < m_t.kernelCount(); ++k) {
        const EventRef api = m_t.kernelApi(k);
        gpu(launchedInCollective(api) ? StepCategory::Communication : StepCategory::Kernel,
            m_t.kernelRef(k), api);
    }
    for (const MemcpyRecord& m : m_t.memcpys())
        if (m_t.lane(m.self.lane).kind() == LaneKind::Memcpy) // migrations are not stream work
            gpu(StepCategory::Memcpy, m.self, m.api);
    for (const MemsetRecord& m : m_t.memsets())
        gpu(StepCategory::Memset, m.self, m.api);
    // Calls by start, counted ones only.
    std::erase_if(m_calls, [](const CallSpan& c) { return c.start == kNoTime; });
    std::stable_sort(m_calls.begin(), m_calls.end(),
                     [](const CallSpan& a, const CallSpan& b) { return a.start < b.start; });
}

void StepComputation::findSteps(StepBreakdown& out) {
    if (!m_steps.empty()) {
        out.source = StepSource::ProfilerSteps;
        out.family = QStringLiteral("ProfilerStep");
        std::stable_sort(m_steps.begin(), m_steps.end(), [](const HostStep& a, const HostStep& b) {
            return a.host.start < b.host.start;
        });
        return;
    }
    if (const auto iterations = detectIterationRange(m_t); iterations) {
        out.source = StepSource::Iterations;
        out.family = iterations->name;
        for (std::size_t i = 0; i < iterations->instances.size(); ++i)
            m_steps.push_back({iterations->instances[i], EventRef{}, iterations->labels[i]});
        return;
    }
    out.source = StepSource::WholeTrace;
    // The CPU side's extent, as the plugin; without CPU ranges, the extent of what the steps
    // count (GPU work and CUDA calls), not the trace's, which OS runtime calls and
    // synchronisation records may widen.
    TimeRange whole = m_cpuExtent;
    if (whole.start > whole.end) {
        for (const auto& ranges : m_roles)
            for (const TimeRange& r : ranges) {
                whole.start = std::min(whole.start, r.start);
                whole.end = std::max(whole.end, r.end);
            }
    }
    if (whole.start > whole.end)
        whole = {};
    m_steps.push_back({whole, EventRef{}, QStringLiteral("0")});
}

// TensorBoard's _find_device_steps and _update_steps_duration: a step ends when the GPU work
// its CPU side launched ends, and starts no earlier than the previous step's end.
void StepComputation::moveToDevice(StepBreakdown& out) {
    const std::size_t n = m_steps.size();
    std::vector<TimeRange> device(n, TimeRange{kNoTime, std::numeric_limits<TimeNs>::min()});
    std::vector<std::uint64_t> matched(n, 0);
    std::size_t s = 0, c = 0;
    std::uint64_t matchedTotal = 0;
    TimeRange current{kNoTime, std::numeric_limits<TimeNs>::min()};
    while (s < n && c < m_calls.size()) {
        const TimeRange host = m_steps[s].host;
        const CallSpan& call = m_calls[c];
        if (call.start >= host.start && call.end <= host.end) {
            if (call.launched > 0) {
                current.start = std::min(current.start, call.devStart);
                current.end = std::max(current.end, call.devEnd);
                matched[s] += call.launched;
                matchedTotal += call.launched;
            }
            ++c;
        } else if (call.start < host.end) { // before the step, or across its end: skipped
            ++c;
        } else {
            device[s++] = current;
            current = {kNoTime, std::numeric_limits<TimeNs>::min()};
        }
    }
    while (s < n) {
        device[s++] = current;
        current = {kNoTime, std::numeric_limits<TimeNs>::min()};
    }
    if (matchedTotal > 0) {
        TimeNs prevEnd = m_steps[0].host.start;
        if (device[0].start != kNoTime) {
            // GPU work no step launched that ended before the first step's GPU work began.
            // (TensorBoard checks every device node not matched to a step; those that were
            // matched all end at or after device[0].start, so the test below suffices.)
            for (const TimeNs end : m_gpuEnds)
                if (end < device[0].start)
                    prevEnd = std::max(prevEnd, end);
        }
        for (std::size_t i = 0; i < n; ++i) {
            const TimeNs start = std::max(prevEnd, m_steps[i].host.start);
            TimeNs end = m_steps[i].host.end;
            if (device[i].start == kNoTime)
                end = std::max(end, start);
            else
                end = std::max(std::max(end, device[i].end), start);
            device[i] = {start, end};
            prevEnd = end;
        }
        if (n > 1) {
            std::size_t last = n;
            while (last-- > 0)
                if (matched[last] > 0)
                    break;
            std::size_t keep = last + 1;
            if (last > 0 && double(matched[last - 1]) * 0.8 > double(matched[last]))
                keep = last;
            out.droppedTailSteps = std::uint32_t(n - keep);
            m_steps.resize(keep);
            device.resize(keep);
            matched.resize(keep);
        }
    } else {
        for (std::size_t i = 0; i < n; ++i)
            device[i] = m_steps[i].host;
    }
    for (std::size_t i = 0; i < m_steps.size(); ++i) {
        StepTimes st;
        st.name = m_steps[i].name;
        st.event = m_steps[i].event;
        st.host = m_steps[i].host;
        st.range = device[i];
        out.steps.push_back(st);
        if (matched[i] == 0)
            ++out.stepsWithoutGpuWork;
    }
}

StepBreakdown StepComputation::run(const AnalysisCancel& cancelled) {
    StepBreakdown out;
    collectRoles();
    if (cancelled && cancelled())
        return out;
    findSteps(out);
    moveToDevice(out);
    if (out.steps.empty() || (cancelled && cancelled()))
        return out;
    // TensorBoard's Statistics.create_from_range: each role takes what the roles before it
    // left of the steps; Other is what is left at the end.
    std::vector<TimeRange> stepRanges;
    for (const StepTimes& st : out.steps)
        stepRanges.push_back(st.range);
    IntervalSet unclaimed = merged(stepRanges);
    std::array<IntervalSet, kStepCategoryCount> cost;
    for (std::size_t c = 0; c + 1 < kStepCategoryCount; ++c) {
        cost[c] = intersection(unclaimed, merged(std::move(m_roles[c])));
        unclaimed = difference(unclaimed, cost[c]);
    }
    cost[kStepCategoryCount - 1] = std::move(unclaimed);
    for (StepTimes& st : out.steps)
        for (std::size_t c = 0; c < kStepCategoryCount; ++c)
            st.time[c] = length(clipped(cost[c], st.range));
    for (const StepTimes& st : out.steps) {
        for (std::size_t c = 0; c < kStepCategoryCount; ++c)
            out.average[c] += double(st.time[c]);
        out.averageTotal += double(st.total());
    }
    const auto steps = double(out.steps.size());
    for (double& a : out.average)
        a /= steps;
    out.averageTotal /= steps;
    return out;
}

} // namespace

StepBreakdown computeStepBreakdown(const Trace& trace, const AnalysisCancel& cancelled) {
    return StepComputation(trace).run(cancelled);
}

} // namespace strobe
