// SPDX-License-Identifier: MIT
#include "model/analysis/operators.h"

#include "model/rangename.h"

#include <QHash>
#include <algorithm>
#include <limits>
#include <map>
#include <unordered_map>

namespace strobe {

namespace {

bool isKineto(const Trace& trace) {
    return trace.metadata().format == QLatin1String("kineto-json");
}

// TensorBoard's create_operator_node and is_operator_node: operators it keeps out of its
// Operator view (data loading, the optimizer, the data-parallel wrappers).
bool isExcludedOperatorName(QStringView name) {
    return isDataLoaderRangeName(name) || name.startsWith(u"Optimizer.") ||
           name == u"DataParallel.forward" || name == u"DistributedDataParallel.forward";
}

// The record_function annotations TensorBoard's plugin makes nodes of: steps, data loading, the
// optimizer's step and the collectives. It passes over the others, whose ranges and children
// belong to what encloses them (Kineto gives their calls the enclosing operator's External id).
bool isKeptAnnotation(QStringView name) {
    return name.startsWith(u"ProfilerStep#") || isDataLoaderRangeName(name) ||
           name.startsWith(u"Optimizer.step") || isCollectiveOperatorName(name);
}

// PyTorch's NVTX ranges for operators carry its per-call ids (emit_nvtx, autograd-nvtx).
bool isPyTorchNvtxOperator(QStringView name) {
    return name.contains(u", seq = ") || name.contains(u", op_id = ");
}

// One candidate range before the forest is built.
struct Candidate {
    TimeNs start = 0, end = 0;
    EventRef event;
    std::uint8_t laneOrder = 0; // annotations (NVTX lanes) before operators at equal times
    std::uint32_t name = 0;
    StringId shapes = kNoString;
    OpNodeKind kind = OpNodeKind::Operator;
};

} // namespace

bool isDataLoaderRangeName(QStringView name) {
    return (name.startsWith(u"enumerate(DataLoader)#") && name.endsWith(u".__next__")) ||
           name.startsWith(u"enumerate(DataPipe)#");
}

bool isCollectiveOperatorName(QStringView name) {
    static constexpr QStringView kOps[] = {u"broadcast", u"reduce", u"all_reduce", u"all_gather",
                                           u"reduce_scatter"};
    for (const QStringView lib : {QStringView(u"nccl:"), QStringView(u"gloo:")}) {
        if (!name.startsWith(lib))
            continue;
        const QStringView op = name.mid(lib.size());
        for (const QStringView k : kOps)
            if (op == k)
                return true;
    }
    return false;
}

// Builds an OperatorForest thread by thread (see buildOperatorForest).
class OperatorForestBuilder {
public:
    OperatorForestBuilder(const Trace& trace, const AnalysisCancel& cancelled)
        : m_t(trace)
        , m_cancelled(cancelled)
        , m_kineto(isKineto(trace)) {}

    OperatorForest build();

private:
    struct NameInfo {
        std::uint32_t name = 0;
        OpNodeKind kind = OpNodeKind::Annotation;
        bool isNode = true; // false: a range the forest passes over
    };
    NameInfo nameInfo(StringId id, bool operatorLane);
    void collect(std::vector<std::vector<Candidate>>& byThread);
    void buildThread(std::uint32_t thread, std::vector<Candidate>& cands);
    void mergeRepeats(std::uint32_t first, std::uint32_t end);
    void attributeCalls(std::uint32_t thread, std::uint32_t first, std::uint32_t end);
    void attributeGpuOps();
    void sumDeviceTimes();
    bool cancelled() const { return m_cancelled && m_cancelled(); }

    const Trace& m_t;
    const AnalysisCancel& m_cancelled;
    const bool m_kineto;
    OperatorForest m_f;
    QHash<QString, std::uint32_t> m_nameIndex;
    // Per lane-local name id and lane kind: the name index and node kind, computed once.
    std::unordered_map<std::uint64_t, NameInfo> m_nameCache;
    // Per CUDA API lane: the node each call belongs to (kNoOpNode when none).
    std::unordered_map<std::uint32_t, std::vector<std::uint32_t>> m_callOwner;
    std::vector<std::vector<std::uint32_t>> m_apiLanesOfThread;
    std::vector<std::vector<std::size_t>> m_runStarts; // per thread: where each lane's run begins
    // Node -> the node it was merged into (itself when not merged), while building.
    std::vector<std::uint32_t> m_mergedInto;
    // Per node: it is a framework operator event (Kineto cpu_op), not an annotation or range.
    std::vector<bool> m_operatorEvent;
};

OperatorForestBuilder::NameInfo OperatorForestBuilder::nameInfo(StringId id, bool operatorLane) {
    const std::uint64_t key = (std::uint64_t(id) << 1) | (operatorLane ? 1 : 0);
    if (auto it = m_nameCache.find(key); it != m_nameCache.end())
        return it->second;
    const QString raw = m_t.string(id);
    NameInfo info;
    QString name = raw;
    if (raw.startsWith(u"ProfilerStep#")) {
        info.kind = OpNodeKind::Step;
    } else if (m_kineto) {
        info.kind = operatorLane && !isExcludedOperatorName(raw) ? OpNodeKind::Operator
                                                                 : OpNodeKind::Annotation;
        info.isNode = operatorLane || isKeptAnnotation(raw);
    } else {
        info.kind = isPyTorchNvtxOperator(raw) ? OpNodeKind::Operator : OpNodeKind::Annotation;
        name = groupedRangeName(raw);
        if (info.kind == OpNodeKind::Operator && isExcludedOperatorName(name))
            info.kind = OpNodeKind::Annotation;
    }
    auto it = m_nameIndex.constFind(name);
    if (it == m_nameIndex.constEnd()) {
        it = m_nameIndex.insert(name, std::uint32_t(m_f.m_names.size()));
        m_f.m_names.push_back(name);
    }
    info.name = it.value();
    m_nameCache.emplace(key, info);
    return info;
}

void OperatorForestBuilder::collect(std::vector<std::vector<Candidate>>& byThread) {
    const auto& lanes = m_t.lanes();
    m_f.m_laneBase.assign(lanes.size(), kNoOpNode);
    for (std::uint32_t l = 0; l < lanes.size(); ++l) {
        const Lane& lane = lanes[l];
        const LaneKind kind = lane.kind();
        if (kind == LaneKind::CudaApi) {
            if (lane.owner() < m_apiLanesOfThread.size())
                m_apiLanesOfThread[lane.owner()].push_back(l);
            continue;
        }
        if (kind != LaneKind::CpuOps && kind != LaneKind::Nvtx)
            continue;
        if (lane.owner() >= byThread.size())
            continue;
        const bool operatorLane = kind == LaneKind::CpuOps;
        m_f.m_laneBase[l] = std::uint32_t(m_f.m_nodeOfEvent.size());
        m_f.m_nodeOfEvent.resize(m_f.m_nodeOfEvent.size() + lane.size(), kNoOpNode);
        auto& out = byThread[lane.owner()];
        out.reserve(out.size() + lane.size());
        m_runStarts[lane.owner()].push_back(out.size());
        // The lane's records run from recordBase() in lane order: its shapes in one walk.
        std::vector<StringId> shapes;
        if (operatorLane) {
            shapes.assign(lane.size(), kNoString);
            const std::uint32_t base = lane.recordBase();
            m_t.forEachCpuOpInputShapes(
                base, base + lane.size(),
                [&](std::uint32_t rec, StringId s) { shapes[rec - base] = s; });
        }
        // A lane's events are in start order, longer first at equal starts: each lane is one
        // sorted run of its thread's candidates, merged in buildThread.
        for (std::uint32_t i = 0; i < lane.size(); ++i) {
            if (!operatorLane) {
                const std::uint32_t rec = lane.payload(i);
                if (m_t.nvtxStyle(rec) != NvtxStyle::PushPop || !m_t.nvtxHasEnd(rec))
                    continue;
            }
            const NameInfo info = nameInfo(lane.nameId(i), operatorLane);
            if (!info.isNode)
                continue;
            Candidate c;
            c.start = lane.start(i);
            c.end = lane.end(i);
            c.event = {l, i};
            c.laneOrder = operatorLane ? 1 : 0;
            if (operatorLane)
                c.shapes = shapes[i];
            c.name = info.name;
            c.kind = info.kind;
            out.push_back(c);
        }
    }
}

// TensorBoard's build_tree_relationship: ranges by start, longer first; a range inside the
// top of the stack becomes its child; one that starts inside it but ends after it crosses it
// and is left out.
void OperatorForestBuilder::buildThread(std::uint32_t thread, std::vector<Candidate>& cands) {
    // Merge the sorted runs (one per lane); at equal times annotations go first (they enclose),
    // then each lane's own order, which puts a parent before its child.
    const auto before = [](const Candidate& a, const Candidate& b) {
        if (a.start != b.start)
            return a.start < b.start;
        if (a.end != b.end)
            return a.end > b.end;
        if (a.laneOrder != b.laneOrder)
            return a.laneOrder < b.laneOrder;
        return a.event.lane != b.event.lane ? a.event.lane < b.event.lane
                                            : a.event.index < b.event.index;
    };
    std::vector<std::size_t> runs = m_runStarts[thread];
    runs.push_back(cands.size());
    while (runs.size() > 2) {
        std::vector<std::size_t> next;
        for (std::size_t k = 0; k + 1 < runs.size(); k += 2) {
            if (k + 2 < runs.size())
                std::inplace_merge(cands.begin() + std::ptrdiff_t(runs[k]),
                                   cands.begin() + std::ptrdiff_t(runs[k + 1]),
                                   cands.begin() + std::ptrdiff_t(runs[k + 2]), before);
            next.push_back(runs[k]);
        }
        next.push_back(cands.size());
        runs = std::move(next);
    }
    const auto first = std::uint32_t(m_f.m_nodes.size());
    std::vector<std::uint32_t> stack;
    std::vector<std::uint32_t> lastChild; // per node on the stack's path: its last child
    std::uint32_t lastRoot = kNoOpNode;
    for (const Candidate& c : cands) {
        while (!stack.empty() && !(c.start < m_f.m_nodes[stack.back()].end))
            stack.pop_back();
        if (!stack.empty() && c.end > m_f.m_nodes[stack.back()].end) {
            ++m_f.m_warnings.crossing;
            continue;
        }
        OpNode n;
        n.event = c.event;
        n.thread = thread;
        n.name = c.name;
        n.shapes = c.shapes;
        n.kind = c.kind;
        n.start = c.start;
        n.end = c.end;
        const auto idx = std::uint32_t(m_f.m_nodes.size());
        if (stack.empty()) {
            if (lastRoot != kNoOpNode)
                m_f.m_nodes[lastRoot].nextSibling = idx;
            else
                m_f.m_roots.push_back(idx);
            lastRoot = idx;
        } else {
            n.parent = stack.back();
        }
        m_f.m_nodes.push_back(n);
        m_operatorEvent.push_back(c.laneOrder == 1);
        lastChild.push_back(kNoOpNode);
        if (n.parent != kNoOpNode) {
            const std::uint32_t prev = lastChild[n.parent - first];
            if (prev == kNoOpNode)
                m_f.m_nodes[n.parent].firstChild = idx;
            else
                m_f.m_nodes[prev].nextSibling = idx;
            lastChild[n.parent - first] = idx;
        }
        stack.push_back(idx);
    }
    // Only the first root of the thread is listed; the others hang off it as siblings. Spell
    // them out so that roots() holds every root.
    if (first < m_f.m_nodes.size()) {
        std::uint32_t r = m_f.m_roots.back();
        while ((r = m_f.m_nodes[r].nextSibling) != kNoOpNode)
            m_f.m_roots.push_back(r);
    }
    m_mergedInto.resize(m_f.m_nodes.size());
    for (auto i = first; i < m_f.m_nodes.size(); ++i)
        m_mergedInto[i] = i;
    if (m_kineto) // PyTorch's profiler merges them; in nsys every NVTX range is a call
        mergeRepeats(first, std::uint32_t(m_f.m_nodes.size()));
}

// TensorBoard's remove_dup_nodes (after torch.autograd.profiler's _remove_dup_nodes): an
// operator whose only child is an operator of the same name is one call; the child's children
// become its own.
void OperatorForestBuilder::mergeRepeats(std::uint32_t first, std::uint32_t end) {
    auto& nodes = m_f.m_nodes;
    // Parents come before their children, so one pass in index order merges chains too.
    for (std::uint32_t i = first; i < end; ++i) {
        if (m_mergedInto[i] != i)
            continue;
        for (;;) {
            OpNode& n = nodes[i];
            const std::uint32_t c = n.firstChild;
            // The plugin compares event types: both cpu_ops (listed or not), steps excepted.
            if (!m_operatorEvent[i] || n.kind == OpNodeKind::Step || c == kNoOpNode ||
                nodes[c].nextSibling != kNoOpNode || !m_operatorEvent[c] ||
                nodes[c].kind == OpNodeKind::Step || nodes[c].name != n.name)
                break;
            m_mergedInto[c] = i;
            ++m_f.m_warnings.mergedRepeats;
            n.firstChild = nodes[c].firstChild;
            for (std::uint32_t g = n.firstChild; g != kNoOpNode; g = nodes[g].nextSibling)
                nodes[g].parent = i;
        }
    }
}

// Gives each CUDA API call of `thread` to the innermost node containing its start, and takes
// the calls' time out of that node's self time.
void OperatorForestBuilder::attributeCalls(std::uint32_t thread, std::uint32_t first,
                                           std::uint32_t end) {
    if (thread >= m_apiLanesOfThread.size())
        return;
    // The thread's live nodes in pre-order (start ascending, longer first).
    std::vector<std::uint32_t> order;
    order.reserve(end - first);
    for (std::uint32_t i = first; i < end; ++i)
        if (m_mergedInto[i] == i)
            order.push_back(i);
    const auto& nodes = m_f.m_nodes;
    for (const std::uint32_t l : m_apiLanesOfThread[thread]) {
        const Lane& lane = m_t.lane(l);
        auto& owner = m_callOwner[l];
        owner.assign(lane.size(), kNoOpNode);
        if (order.empty())
            continue;
        std::vector<std::uint32_t> stack;
        std::size_t next = 0;
        TimeNs outerEnd = std::numeric_limits<TimeNs>::min(); // nested calls count once
        for (std::uint32_t i = 0; i < lane.size(); ++i) {
            const TimeNs s = lane.start(i), e = lane.end(i);
            while (next < order.size() && nodes[order[next]].start <= s) {
                const std::uint32_t n = order[next++];
                while (!stack.empty() && nodes[stack.back()].end <= nodes[n].start)
                    stack.pop_back();
                stack.push_back(n);
            }
            while (!stack.empty() && nodes[stack.back()].end <= s)
                stack.pop_back();
            const bool nested = s < outerEnd;
            outerEnd = std::max(outerEnd, e);
            if (stack.empty())
                continue;
            // Kineto links a call to the innermost operator event around it (its External id),
            // through the annotations between them.
            std::uint32_t n = stack.back();
            if (m_kineto)
                for (auto it = stack.rbegin(); it != stack.rend(); ++it)
                    if (m_operatorEvent[*it]) {
                        n = *it;
                        break;
                    }
            owner[i] = n;
            // TensorBoard subtracts runtime calls (not driver calls, which it does not read)
            // from self time; for nsys, every outermost CUDA API call.
            const bool counts = m_kineto ? !m_t.apiIsDriver(lane.payload(i)) : !nested;
            if (counts)
                m_f.m_nodes[n].hostSelf = saturatingSub(m_f.m_nodes[n].hostSelf, e - s);
        }
    }
}

void OperatorForestBuilder::attributeGpuOps() {
    auto ownerOfCall = [&](EventRef api) -> std::uint32_t {
        if (!api.isValid())
            return kNoOpNode;
        const auto it = m_callOwner.find(api.lane);
        if (it == m_callOwner.end() || api.index >= it->second.size())
            return kNoOpNode;
        return it->second[api.index];
    };
    auto credit = [&](std::uint32_t node, EventRef self) {
        if (node == kNoOpNode) {
            ++m_f.m_warnings.noOperator;
            return;
        }
        const Lane& lane = m_t.lane(self.lane);
        OpNode& n = m_f.m_nodes[node];
        n.deviceSelf = saturatingAdd(n.deviceSelf, lane.end(self.index) - lane.start(self.index));
        ++n.launches;
        if (n.kind != OpNodeKind::Operator)
            ++m_f.m_warnings.noOperator;
    };
    m_f.m_owners.kernels.resize(m_t.kernelCount());
    for (std::size_t k = 0; k < m_t.kernelCount(); ++k) {
        const std::uint32_t o = ownerOfCall(m_t.kernelApi(k));
        m_f.m_owners.kernels[k] = o;
        credit(o, m_t.kernelRef(k));
    }
    m_f.m_owners.memcpys.resize(m_t.memcpys().size());
    for (std::size_t i = 0; i < m_t.memcpys().size(); ++i) {
        const MemcpyRecord& r = m_t.memcpys()[i];
        const std::uint32_t o = ownerOfCall(r.api);
        m_f.m_owners.memcpys[i] = o;
        credit(o, r.self);
    }
    m_f.m_owners.memsets.resize(m_t.memsets().size());
    for (std::size_t i = 0; i < m_t.memsets().size(); ++i) {
        const MemsetRecord& r = m_t.memsets()[i];
        const std::uint32_t o = ownerOfCall(r.api);
        m_f.m_owners.memsets[i] = o;
        credit(o, r.self);
    }
}

void OperatorForestBuilder::sumDeviceTimes() {
    auto& nodes = m_f.m_nodes;
    // Children have larger indices than their parents: one backward pass sums bottom-up.
    for (auto i = std::uint32_t(nodes.size()); i-- > 0;) {
        OpNode& n = nodes[i];
        n.deviceTotal = saturatingAdd(n.deviceTotal, n.deviceSelf);
        if (n.parent != kNoOpNode)
            nodes[n.parent].deviceTotal = saturatingAdd(nodes[n.parent].deviceTotal, n.deviceTotal);
    }
}

OperatorForest OperatorForestBuilder::build() {
    const std::size_t threads = m_t.threads().size();
    m_apiLanesOfThread.resize(threads);
    m_runStarts.resize(threads);
    std::vector<std::vector<Candidate>> byThread(threads);
    collect(byThread);
    std::size_t candidates = 0;
    for (const auto& c : byThread)
        candidates += c.size();
    m_f.m_nodes.reserve(candidates);
    m_operatorEvent.reserve(candidates);
    std::vector<std::pair<std::uint32_t, std::uint32_t>> spans(threads, {0, 0});
    for (std::uint32_t th = 0; th < threads; ++th) {
        if (cancelled())
            return {};
        const auto first = std::uint32_t(m_f.m_nodes.size());
        if (!byThread[th].empty())
            buildThread(th, byThread[th]);
        std::vector<Candidate>().swap(byThread[th]);
        spans[th] = {first, std::uint32_t(m_f.m_nodes.size())};
    }
    // Self time before the calls are taken out: duration minus the children's durations.
    for (std::uint32_t i = 0; i < m_f.m_nodes.size(); ++i) {
        OpNode& n = m_f.m_nodes[i];
        if (m_mergedInto[i] != i)
            continue;
        n.hostSelf = saturatingAdd(n.hostSelf, n.duration());
        if (n.parent != kNoOpNode)
            m_f.m_nodes[n.parent].hostSelf =
                saturatingSub(m_f.m_nodes[n.parent].hostSelf, n.duration());
    }
    for (std::uint32_t th = 0; th < threads; ++th) {
        if (cancelled())
            return {};
        attributeCalls(th, spans[th].first, spans[th].second);
    }
    // Merged children are not live nodes, so calls inside them went to the operator they
    // were merged into, which also keeps the calls made beside its child.
    attributeGpuOps();
    // Drop merged nodes: compact the node list, renumbering every reference.
    std::vector<std::uint32_t> newIndex(m_f.m_nodes.size(), kNoOpNode);
    std::uint32_t live = 0;
    for (std::uint32_t i = 0; i < m_f.m_nodes.size(); ++i)
        if (m_mergedInto[i] == i)
            newIndex[i] = live++;
    auto remap = [&](std::uint32_t& ref) {
        if (ref != kNoOpNode)
            ref = newIndex[m_mergedInto[ref]];
    };
    // A merged child's siblings are none (it was an only child), and its children were
    // re-parented: its place in a sibling chain is its parent's firstChild, already replaced.
    // In place: a live node's new index is never above its old one.
    std::uint32_t out = 0;
    for (std::uint32_t i = 0; i < m_f.m_nodes.size(); ++i) {
        const OpNode& n = m_f.m_nodes[i];
        m_f.m_nodeOfEvent[m_f.m_laneBase[n.event.lane] + n.event.index] = newIndex[m_mergedInto[i]];
        if (m_mergedInto[i] != i)
            continue;
        OpNode c = n;
        remap(c.parent);
        remap(c.firstChild);
        remap(c.nextSibling);
        if (c.kind == OpNodeKind::Operator)
            ++m_f.m_operatorCount;
        m_f.m_nodes[out++] = c;
    }
    m_f.m_nodes.resize(out);
    for (std::uint32_t& r : m_f.m_roots)
        remap(r);
    for (auto* v : {&m_f.m_owners.kernels, &m_f.m_owners.memcpys, &m_f.m_owners.memsets})
        for (std::uint32_t& o : *v)
            remap(o);
    sumDeviceTimes();
    return std::move(m_f);
}

OperatorForest buildOperatorForest(const Trace& trace, const AnalysisCancel& cancelled) {
    return OperatorForestBuilder(trace, cancelled).build();
}

std::optional<std::uint32_t> OperatorForest::nodeOf(EventRef event) const {
    if (event.lane >= m_laneBase.size() || m_laneBase[event.lane] == kNoOpNode)
        return std::nullopt;
    const std::size_t at = std::size_t(m_laneBase[event.lane]) + event.index;
    // A lane's slots end where the next lane's begin (or at the end).
    std::size_t end = m_nodeOfEvent.size();
    for (std::size_t l = event.lane + 1; l < m_laneBase.size(); ++l)
        if (m_laneBase[l] != kNoOpNode) {
            end = m_laneBase[l];
            break;
        }
    if (at >= end || m_nodeOfEvent[at] == kNoOpNode)
        return std::nullopt;
    return m_nodeOfEvent[at];
}

std::uint32_t OperatorForest::launcherOf(const Trace& trace, EventRef ref) const {
    if (!ref.isValid() || ref.lane >= trace.lanes().size())
        return kNoOpNode;
    const Lane& lane = trace.lane(ref.lane);
    if (ref.index >= lane.size())
        return kNoOpNode;
    const std::uint32_t rec = lane.payload(ref.index);
    switch (lane.kind()) {
    case LaneKind::Kernels:
        if (const auto k = trace.kernelIndexOf(ref); k && *k < m_owners.kernels.size())
            return m_owners.kernels[*k];
        return kNoOpNode;
    case LaneKind::Memcpy:
    case LaneKind::Uvm:
        return rec < m_owners.memcpys.size() ? m_owners.memcpys[rec] : kNoOpNode;
    case LaneKind::Memset:
        return rec < m_owners.memsets.size() ? m_owners.memsets[rec] : kNoOpNode;
    default:
        return kNoOpNode;
    }
}

std::vector<std::uint32_t> OperatorForest::operatorChain(std::uint32_t node) const {
    std::vector<std::uint32_t> out;
    for (std::uint32_t n = node; n != kNoOpNode && n < m_nodes.size(); n = m_nodes[n].parent)
        if (m_nodes[n].kind == OpNodeKind::Operator)
            out.push_back(n);
    return out;
}

std::uint32_t OperatorForest::innermostOperator(std::uint32_t node) const {
    for (std::uint32_t n = node; n != kNoOpNode && n < m_nodes.size(); n = m_nodes[n].parent)
        if (m_nodes[n].kind == OpNodeKind::Operator)
            return n;
    return kNoOpNode;
}

bool OperatorForest::isWithin(std::uint32_t node, std::uint32_t ancestor) const {
    for (std::uint32_t n = node; n != kNoOpNode && n < m_nodes.size(); n = m_nodes[n].parent)
        if (n == ancestor)
            return true;
    return false;
}

std::vector<std::uint32_t> OperatorForest::nodesAt(std::uint32_t thread, TimeNs t) const {
    std::vector<std::uint32_t> out;
    std::uint32_t level = kNoOpNode;
    for (const std::uint32_t r : m_roots) {
        if (m_nodes[r].thread != thread)
            continue;
        if (m_nodes[r].start <= t && t < m_nodes[r].end) {
            level = r;
            break;
        }
    }
    while (level != kNoOpNode) {
        out.push_back(level);
        std::uint32_t next = kNoOpNode;
        for (std::uint32_t c = m_nodes[level].firstChild; c != kNoOpNode;
             c = m_nodes[c].nextSibling)
            if (m_nodes[c].start <= t && t < m_nodes[c].end) {
                next = c;
                break;
            }
        level = next;
    }
    return out;
}

std::vector<EventRef> pythonFrames(const Trace& trace, std::uint32_t thread, TimeNs t) {
    std::vector<std::pair<std::uint16_t, EventRef>> found;
    const auto& lanes = trace.lanes();
    for (std::uint32_t l = 0; l < lanes.size(); ++l) {
        const Lane& lane = lanes[l];
        if (lane.kind() != LaneKind::Python || lane.owner() != thread)
            continue;
        lane.forEachOverlapping(t, t + 1, [&](std::uint32_t i) {
            if (lane.start(i) <= t && t < lane.end(i))
                found.emplace_back(lane.row(i), EventRef{l, i});
        });
    }
    std::sort(found.begin(), found.end(),
              [](const auto& a, const auto& b) { return a.first > b.first; });
    std::vector<EventRef> out;
    out.reserve(found.size());
    for (const auto& f : found)
        out.push_back(f.second);
    return out;
}

namespace {

// The time of the GPU operation at `self`.
TimeNs gpuDuration(const Trace& trace, EventRef self) {
    const Lane& lane = trace.lane(self.lane);
    return lane.end(self.index) - lane.start(self.index);
}

// The start of the call that launched a GPU operation, or the operation's own start.
TimeNs launchTime(const Trace& trace, EventRef api, EventRef self) {
    if (api.isValid())
        return trace.lane(api.lane).start(api.index);
    return trace.lane(self.lane).start(self.index);
}

bool inWindow(const std::optional<TimeRange>& w, TimeNs t) {
    return !w || (w->start <= t && t < w->end);
}

} // namespace

OperatorTable operatorTable(const Trace& trace, const OperatorForest& forest,
                            OperatorGrouping grouping, std::optional<TimeRange> window) {
    OperatorTable table;
    table.grouping = grouping;
    std::map<std::pair<std::uint32_t, StringId>, std::size_t> rowOf;
    const auto& nodes = forest.nodes();
    for (std::uint32_t i = 0; i < nodes.size(); ++i) {
        const OpNode& n = nodes[i];
        if (n.kind != OpNodeKind::Operator || !inWindow(window, n.start))
            continue;
        const StringId shapes = grouping == OperatorGrouping::NameAndShapes ? n.shapes : kNoString;
        auto [it, added] = rowOf.try_emplace({n.name, shapes}, table.rows.size());
        if (added) {
            OperatorRow row;
            row.name = forest.names()[n.name];
            if (grouping == OperatorGrouping::NameAndShapes)
                row.shapes = trace.string(shapes);
            table.rows.push_back(row);
        }
        OperatorRow& row = table.rows[it->second];
        ++row.calls;
        row.hostTotal = saturatingAdd(row.hostTotal, n.duration());
        row.hostSelf = saturatingAdd(row.hostSelf, n.hostSelf);
        row.deviceSelf = saturatingAdd(row.deviceSelf, n.deviceSelf);
        row.deviceTotal = saturatingAdd(row.deviceTotal, n.deviceTotal);
        if (row.longest == kNoOpNode || n.duration() > nodes[row.longest].duration())
            row.longest = i;
    }
    // GPU time counted, and the work no operator launched itself.
    OperatorRow none;
    none.name = QStringLiteral("(no operator)");
    none.noOperator = true;
    auto count = [&](std::uint32_t owner, EventRef api, EventRef self) {
        if (!inWindow(window, launchTime(trace, api, self)))
            return;
        const TimeNs d = gpuDuration(trace, self);
        table.deviceTime = saturatingAdd(table.deviceTime, d);
        if (owner == kNoOpNode || nodes[owner].kind != OpNodeKind::Operator) {
            ++none.calls;
            none.deviceSelf = saturatingAdd(none.deviceSelf, d);
            none.deviceTotal = saturatingAdd(none.deviceTotal, d);
        }
    };
    const auto& owners = forest.owners();
    for (std::size_t k = 0; k < owners.kernels.size() && k < trace.kernelCount(); ++k)
        count(owners.kernels[k], trace.kernelApi(k), trace.kernelRef(k));
    for (std::size_t i = 0; i < owners.memcpys.size(); ++i)
        count(owners.memcpys[i], trace.memcpys()[i].api, trace.memcpys()[i].self);
    for (std::size_t i = 0; i < owners.memsets.size(); ++i)
        count(owners.memsets[i], trace.memsets()[i].api, trace.memsets()[i].self);
    if (none.calls > 0)
        table.rows.push_back(none);
    for (OperatorRow& row : table.rows)
        row.devicePercent =
            table.deviceTime > 0 ? 100.0 * double(row.deviceSelf) / double(table.deviceTime) : 0.0;
    std::sort(table.rows.begin(), table.rows.end(), operatorRowBefore);
    return table;
}

bool operatorRowBefore(const OperatorRow& a, const OperatorRow& b) {
    if (a.deviceSelf != b.deviceSelf)
        return a.deviceSelf > b.deviceSelf;
    if (a.hostSelf != b.hostSelf)
        return a.hostSelf > b.hostSelf;
    if (a.name != b.name)
        return a.name < b.name;
    return a.shapes < b.shapes;
}

std::vector<OperatorKernelRow> kernelsOfOperator(const Trace& trace, const OperatorForest& forest,
                                                 const QString& name,
                                                 std::optional<QString> shapes) {
    const auto& names = forest.names();
    const auto nameIt = std::find(names.begin(), names.end(), name);
    if (nameIt == names.end())
        return {};
    const auto nameIndex = std::uint32_t(nameIt - names.begin());
    const auto& nodes = forest.nodes();
    auto matches = [&](std::uint32_t n) {
        return nodes[n].kind == OpNodeKind::Operator && nodes[n].name == nameIndex &&
               (!shapes || trace.string(nodes[n].shapes) == *shapes);
    };
    std::map<QString, OperatorKernelRow> rows;
    const auto& owners = forest.owners().kernels;
    for (std::size_t k = 0; k < owners.size() && k < trace.kernelCount(); ++k) {
        bool launched = false;
        for (std::uint32_t n = owners[k]; n != kNoOpNode; n = nodes[n].parent)
            if (matches(n)) {
                launched = true;
                break;
            }
        if (!launched)
            continue;
        const KernelLaunch kl = trace.kernelAt(k);
        const KernelConfig& cfg = trace.kernelConfigs()[trace.kernelConfigIndex(k)];
        QString kname = trace.string(cfg.demangledName);
        if (kname.isEmpty())
            kname = trace.string(cfg.shortName);
        OperatorKernelRow& row = rows[kname];
        row.kernel = kname;
        const TimeNs d = kl.duration();
        if (row.count++ == 0 || d > row.longest) {
            row.longest = d;
            row.longestLaunch = std::uint32_t(k);
        }
        row.total = saturatingAdd(row.total, d);
    }
    std::vector<OperatorKernelRow> out;
    out.reserve(rows.size());
    for (auto& [k, row] : rows)
        out.push_back(std::move(row));
    std::sort(out.begin(), out.end(), [](const OperatorKernelRow& a, const OperatorKernelRow& b) {
        return a.total != b.total ? a.total > b.total : a.kernel < b.kernel;
    });
    return out;
}

} // namespace strobe
