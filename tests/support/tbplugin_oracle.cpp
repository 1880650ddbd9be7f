// SPDX-License-Identifier: MIT
#include "tests/support/tbplugin_oracle.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <map>
#include <stdexcept>

namespace strobe::test {

namespace {

constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max(); // sys.maxsize
constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min(); // -sys.maxsize - 1

// trace.py EventTypes (the ones this oracle meets).
enum class Type : std::uint8_t {
    Trace,
    Operator,
    ProfilerStep,
    Runtime,
    Kernel,
    Memcpy,
    Memset,
    Python,
    PythonFunction,
    Module,
    UserAnnotation,
};

std::string lowerCase(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    return s;
}

// trace.py EventTypeMap, keyed by the lower-cased category.
std::optional<Type> typeOfCategory(const std::string& category) {
    const std::string cat = lowerCase(category);
    static const std::map<std::string, Type> kMap = {
        {"trace", Type::Trace},
        {"cpu_op", Type::Operator},
        {"operator", Type::Operator},
        {"runtime", Type::Runtime},
        {"cuda_runtime", Type::Runtime},
        {"mtia_runtime", Type::Runtime},
        {"glow_runtime", Type::Runtime},
        {"xpu_runtime", Type::Runtime},
        {"privateuse1_runtime", Type::Runtime},
        {"kernel", Type::Kernel},
        {"memcpy", Type::Memcpy},
        {"gpu_memcpy", Type::Memcpy},
        {"memset", Type::Memset},
        {"gpu_memset", Type::Memset},
        {"python", Type::Python},
        {"python_function", Type::PythonFunction},
        {"user_annotation", Type::UserAnnotation},
        {"gpu_user_annotation", Type::UserAnnotation},
    };
    const auto it = kMap.find(cat);
    return it == kMap.end() ? std::nullopt : std::optional<Type>(it->second);
}

bool startsWith(const std::string& s, const char* p) {
    return s.rfind(p, 0) == 0;
}
bool endsWith(const std::string& s, const std::string& p) {
    return s.size() >= p.size() && s.compare(s.size() - p.size(), p.size(), p) == 0;
}
bool isCommunicationName(const std::string& n) { // NcclOpNameSet, GlooOpNameSet
    static const char* const kNames[] = {
        "nccl:broadcast",      "nccl:reduce",        "nccl:all_reduce", "nccl:all_gather",
        "nccl:reduce_scatter", "gloo:broadcast",     "gloo:reduce",     "gloo:all_reduce",
        "gloo:all_gather",     "gloo:reduce_scatter"};
    return std::any_of(std::begin(kNames), std::end(kNames), [&](const char* k) { return n == k; });
}
bool isDataLoaderName(const std::string& n) {
    return (startsWith(n, "enumerate(DataLoader)#") && endsWith(n, ".__next__")) ||
           startsWith(n, "enumerate(DataPipe)#");
}

// One duration event as the plugin holds it (DurationEvent and its subclasses).
struct Event {
    Type type = Type::Trace;
    const ScannedEvent* src = nullptr;
    std::int64_t ts = 0, end = 0;
    std::optional<std::int64_t> externalId, correlation;
    std::int64_t step = 0; // ProfilerStepEvent.step
};

// node.py's classes: which one a node is decides is_operator_node and remove_dup_nodes.
enum class NodeClass : std::uint8_t { Operator, ProfilerStep, Module, DataLoader, Optimizer };

struct DeviceNode {
    Type type = Type::Kernel;
    std::int64_t start = 0, end = 0;
    std::optional<std::size_t> runtime; // the call that launched it, when one did
};

struct RuntimeNode {
    bool timed = true; // the dummy runtime of the staled kernels has start_time None
    std::int64_t start = 0, end = 0;
    std::optional<std::int64_t> externalId;
    std::int64_t tid = 0;
    bool inCollective = false; // starts inside a range named like NcclOpNameSet on its thread
    std::vector<std::size_t> devices; // into Oracle::m_devices
    std::int64_t deviceDuration = 0;
};

struct OpNode {
    NodeClass cls = NodeClass::Operator;
    Type type = Type::Operator;
    const std::string* name = nullptr;
    std::string shapes = "[]";
    std::int64_t start = 0, end = 0;
    std::optional<std::int64_t> externalId;
    std::vector<std::size_t> children; // into Oracle::m_ops
    std::vector<std::size_t> runtimes; // into Oracle::m_runtimes
    std::int64_t selfHost = 0, deviceDuration = 0, selfDevice = 0;
    std::int64_t duration() const { return end - start; }
};

const std::string kRootName = "CallTreeRoot";

class Oracle {
public:
    Oracle(const ScannedTrace& trace, const TbOptions& options);
    TbResult run();

private:
    void parseNodes();
    void buildTrees();
    std::size_t buildTree(std::int64_t tid, const std::vector<std::size_t>& ops,
                          std::vector<std::size_t> zeroRts, const std::vector<std::size_t>& staled);
    void attachByContainment(std::size_t root, std::size_t runtime);
    void removeDupNodes(std::size_t node);
    void fillStats(std::size_t node);
    void fillRuntime(std::size_t rt);
    void collectOperators(std::size_t node, std::vector<std::size_t>& out) const;
    void aggregate();
    void parseSteps();
    void updateDeviceSteps();
    void overall();

    std::vector<Event> m_events;         // sorted by ts, stable (RunProfileData)
    std::vector<std::size_t> m_deviceOf; // kernels, memcpys, memsets: their DeviceNode
    std::deque<OpNode> m_ops;
    std::deque<RuntimeNode> m_runtimes;
    std::deque<DeviceNode> m_devices;
    // tid2list in insertion order (a Python dict keeps it); tid2zero_rt_list.
    std::vector<std::pair<std::int64_t, std::vector<std::size_t>>> m_tidLists;
    std::map<std::int64_t, std::vector<std::size_t>> m_zeroRuntimes;
    std::map<std::int64_t, std::vector<std::size_t>> m_unmatched; // by tid, in time order
    std::vector<std::size_t> m_staled;                            // staled kernels
    std::vector<std::size_t> m_runtimeList;                       // runtime_node_list
    std::vector<std::optional<std::int64_t>> m_commIds;           // communication_data's keys
    std::vector<std::size_t> m_roots;                             // tid2tree, in tid2list's order
    // StepParser
    std::array<TbRanges, kTbRoles - 1> m_roleRanges;
    TbRanges m_steps;
    std::vector<std::string> m_stepNames;
    TbResult m_result;
    TbOptions m_options;
};

Oracle::Oracle(const ScannedTrace& trace, const TbOptions& options)
    : m_options(options) {
    // data.py: ph 'X' events of a known category become events (fwdbwd flows are 's'/'f');
    // '[memory]' instants are left out of everything this oracle follows.
    for (const ScannedEvent& e : trace.events) {
        if (e.ph != "X")
            continue;
        std::optional<Type> type = typeOfCategory(e.cat);
        if (!type)
            continue;
        if (!options.gpuUserAnnotations && e.cat == "gpu_user_annotation")
            continue;
        Event ev;
        ev.src = &e;
        if ((*type == Type::UserAnnotation || *type == Type::Operator) &&
            startsWith(e.name, "ProfilerStep#")) {
            *type = Type::ProfilerStep;
            ev.step = std::stoll(e.name.substr(e.name.find('#') + 1));
        }
        if (*type == Type::PythonFunction && e.pythonModuleId) {
            *type = Type::Module;
            m_result.hasModuleFrames = true;
        }
        ev.type = *type;
        const auto ts = exactNs(e.tsInt, e.ts);
        const auto dur = exactNs(e.durInt, e.dur);
        if (!ts || !dur)
            throw std::runtime_error("a duration event without ts or dur: " + e.name);
        ev.ts = *ts;
        ev.end = *ts + *dur;
        ev.externalId = e.externalId;
        ev.correlation = e.correlation;
        m_events.push_back(ev);
    }
    std::stable_sort(m_events.begin(), m_events.end(),
                     [](const Event& a, const Event& b) { return a.ts < b.ts; });
}

TbResult Oracle::run() {
    parseNodes();
    buildTrees();
    aggregate();
    parseSteps();
    updateDeviceSteps();
    overall();
    return std::move(m_result);
}

// NodeParserMixin.parse_nodes and _parse_node. Python dict keys may be None: std::optional keys
// order None first, which changes nothing since only membership and pops are used.
void Oracle::parseNodes() {
    m_deviceOf.assign(m_events.size(), 0);
    using Key = std::optional<std::int64_t>;
    std::map<Key, std::vector<std::size_t>> corrToDevice, externalToRuntime;
    std::map<Key, std::size_t> corrToRuntime;
    auto tidList = [this](std::int64_t tid) -> std::vector<std::size_t>& {
        for (auto& [t, list] : m_tidLists)
            if (t == tid)
                return list;
        m_tidLists.emplace_back(tid, std::vector<std::size_t>{});
        return m_tidLists.back().second;
    };
    for (const Event& e : m_events) {
        const ScannedEvent& s = *e.src;
        if (e.type == Type::Kernel || e.type == Type::Memcpy || e.type == Type::Memset) {
            m_devices.push_back({e.type, e.ts, e.end, std::nullopt});
            const std::size_t d = m_devices.size() - 1;
            m_deviceOf[std::size_t(&e - m_events.data())] = d;
            m_result.deviceTime += e.end - e.ts;
            if (const auto it = corrToRuntime.find(e.correlation); it != corrToRuntime.end()) {
                m_runtimes[it->second].devices.push_back(d); // not popped: more may follow
                m_devices[d].runtime = it->second;
            } else {
                corrToDevice[e.correlation].push_back(d);
            }
        } else if (e.type == Type::Runtime) {
            RuntimeNode rt;
            rt.start = e.ts;
            rt.end = e.end;
            rt.externalId = e.externalId;
            if (!s.tid)
                throw std::runtime_error("a runtime call without tid: " + s.name);
            rt.tid = *s.tid;
            if (const auto it = corrToDevice.find(e.correlation); it != corrToDevice.end()) {
                rt.devices = std::move(it->second);
                corrToDevice.erase(it);
                for (std::size_t d : rt.devices)
                    m_devices[d].runtime = m_runtimes.size();
            }
            m_runtimes.push_back(std::move(rt));
            const std::size_t r = m_runtimes.size() - 1;
            corrToRuntime[e.correlation] = r;
            externalToRuntime[e.externalId].push_back(r);
            if (e.externalId == std::int64_t(0) && !m_options.unmatchedRuntimesByContainment)
                m_zeroRuntimes[*s.tid].push_back(r); // None == 0 is False
            m_runtimeList.push_back(r);
        } else if (e.type == Type::Python || e.type == Type::Operator ||
                   e.type == Type::ProfilerStep || e.type == Type::Module ||
                   e.type == Type::UserAnnotation) {
            OpNode op;
            op.type = e.type;
            op.name = &s.name;
            op.start = e.ts;
            op.end = e.end;
            op.externalId = e.externalId;
            op.shapes = s.inputDims.value_or("[]"); // OperatorEvent: args.get('Input dims', [])
            bool created = true;
            if (e.type == Type::ProfilerStep) {
                op.cls = NodeClass::ProfilerStep;
            } else if (e.type == Type::Module) {
                op.cls = NodeClass::Module;
                op.externalId.reset();             // ModuleNode.create pops external_id
            } else if (isDataLoaderName(s.name)) { // create_operator_node
                op.cls = NodeClass::DataLoader;
            } else if (startsWith(s.name, "Optimizer.step")) {
                op.cls = NodeClass::Optimizer;
            } else if (e.type == Type::UserAnnotation) {
                created = isCommunicationName(s.name);
            }
            if (isCommunicationName(s.name))
                m_commIds.push_back(op.externalId);
            if (created) {
                if (!s.tid)
                    throw std::runtime_error("an operator without tid: " + s.name);
                m_ops.push_back(std::move(op));
                tidList(*s.tid).push_back(m_ops.size() - 1);
            }
        }
    }
    // TbOptions::collectiveKernelsByContainment: calls inside a collective's range.
    std::map<std::int64_t, TbRanges> collectives;
    for (const Event& e : m_events)
        if ((e.type == Type::Operator || e.type == Type::UserAnnotation) &&
            isCommunicationName(e.src->name) && e.src->tid)
            collectives[*e.src->tid].emplace_back(e.ts, e.end);
    for (RuntimeNode& rt : m_runtimes)
        if (const auto it = collectives.find(rt.tid); it != collectives.end())
            rt.inCollective = std::any_of(it->second.begin(), it->second.end(), [&](const auto& c) {
                return c.first <= rt.start && rt.start < c.second;
            });
    // Runtimes go to the first operator, thread by thread in first-seen order and in time order
    // within a thread, whose external id equals theirs (dict.pop): with two operators sharing an
    // id, the earlier takes them all; a None id (no "External id") matches operators without one.
    for (auto& [tid, list] : m_tidLists) {
        for (std::size_t o : list) {
            OpNode& op = m_ops[o];
            const auto it = externalToRuntime.find(op.externalId);
            if (it == externalToRuntime.end())
                continue;
            op.runtimes.insert(op.runtimes.end(), it->second.begin(), it->second.end());
            externalToRuntime.erase(it);
        }
    }
    for (const auto& [id, rts] : externalToRuntime) {
        if (id != std::int64_t(0))
            m_result.counts.orphanRuntimes += rts.size();
        if (m_options.unmatchedRuntimesByContainment)
            for (std::size_t r : rts)
                m_unmatched[m_runtimes[r].tid].push_back(r);
    }
    for (const auto& [corr, devices] : corrToDevice)
        for (std::size_t d : devices)
            if (m_devices[d].type == Type::Kernel)
                m_staled.push_back(d);
    m_result.counts.staledKernels = m_staled.size();
}

// OpTreeBuilder._build_tree (no backward-module rebuild: the fixtures have no module frames).
void Oracle::buildTrees() {
    for (auto& [tid, list] : m_tidLists) {
        std::stable_sort(list.begin(), list.end(), [this](std::size_t a, std::size_t b) {
            const OpNode &x = m_ops[a], &y = m_ops[b];
            return x.start != y.start ? x.start < y.start : x.end > y.end;
        });
        const bool main = std::any_of(list.begin(), list.end(), [this](std::size_t o) {
            return startsWith(*m_ops[o].name, "ProfilerStep#");
        });
        const auto zero = m_zeroRuntimes.find(tid);
        m_roots.push_back(buildTree(
            tid, list, zero == m_zeroRuntimes.end() ? std::vector<std::size_t>{} : zero->second,
            main ? m_staled : std::vector<std::size_t>{}));
    }
}

// TbOptions::unmatchedRuntimesByContainment: the innermost node whose [start, end) holds the
// call's start (children are in start order and do not overlap).
void Oracle::attachByContainment(std::size_t root, std::size_t r) {
    // What Kineto's External id names: the innermost cpu_op around the call, through the
    // annotations (collectives, data loading) between them; the innermost node when no cpu_op
    // contains it.
    const std::int64_t t = m_runtimes[r].start;
    std::vector<std::size_t> path{root};
    for (bool deeper = true; deeper;) {
        deeper = false;
        for (std::size_t c : m_ops[path.back()].children) {
            if (m_ops[c].start <= t && t < m_ops[c].end) {
                path.push_back(c);
                deeper = true;
                break;
            }
        }
    }
    std::size_t node = path.back();
    for (auto it = path.rbegin(); it != path.rend(); ++it)
        if (*it != root && m_ops[*it].type == Type::Operator) {
            node = *it;
            break;
        }
    m_ops[node].runtimes.push_back(r);
}

std::size_t Oracle::buildTree(std::int64_t tid, const std::vector<std::size_t>& ops,
                              std::vector<std::size_t> zeroRts,
                              const std::vector<std::size_t>& staled) {
    // build_tree_relationship
    if (!staled.empty()) {
        RuntimeNode dummy;
        dummy.timed = false;
        dummy.devices = staled;
        m_runtimes.push_back(std::move(dummy));
        fillRuntime(m_runtimes.size() - 1); // dummpy_rt[0].fill_stats()
        zeroRts.push_back(m_runtimes.size() - 1);
    }
    OpNode root;
    root.type = Type::Python;
    root.name = &kRootName;
    root.start = kMin;
    root.end = kMax;
    root.runtimes = std::move(zeroRts);
    m_ops.push_back(std::move(root));
    const std::size_t rootIndex = m_ops.size() - 1;
    std::vector<std::size_t> stack{rootIndex};
    for (std::size_t n : ops) {
        const OpNode& node = m_ops[n];
        while (true) {
            OpNode& tail = m_ops[stack.back()];
            if (node.start < tail.end) {
                if (node.end <= tail.end) {
                    tail.children.push_back(n);
                    stack.push_back(n);
                } else {
                    ++m_result.counts.crossing; // logger.error, and the node is left out
                }
                break;
            }
            stack.pop_back();
        }
    }
    if (const auto it = m_unmatched.find(tid); it != m_unmatched.end())
        for (std::size_t r : it->second)
            attachByContainment(rootIndex, r);
    removeDupNodes(rootIndex);
    fillStats(rootIndex);
    return rootIndex;
}

// remove_dup_nodes: an operator whose single child is an operator of the same name takes the
// child's children and runtimes (its own runtimes are dropped, as in the autograd profiler).
void Oracle::removeDupNodes(std::size_t n) {
    OpNode& node = m_ops[n];
    if (node.children.size() == 1) {
        const OpNode& child = m_ops[node.children[0]];
        if (*node.name == *child.name && node.type == Type::Operator &&
            child.type == Type::Operator) {
            ++m_result.counts.mergedRepeats;
            m_result.counts.lostRuntimes += node.runtimes.size();
            std::vector<std::size_t> children = child.children;
            node.runtimes = child.runtimes;
            node.children = std::move(children);
            removeDupNodes(n);
            return;
        }
    }
    for (std::size_t c : std::vector<std::size_t>(node.children))
        removeDupNodes(c);
}

// RuntimeNode.fill_stats: adds its device nodes' time each time it is called.
void Oracle::fillRuntime(std::size_t r) {
    RuntimeNode& rt = m_runtimes[r];
    for (std::size_t d : rt.devices)
        rt.deviceDuration += m_devices[d].end - m_devices[d].start;
}

// OperatorNode.fill_stats.
void Oracle::fillStats(std::size_t n) {
    for (std::size_t c : m_ops[n].children)
        fillStats(c);
    for (std::size_t r : m_ops[n].runtimes)
        fillRuntime(r);
    OpNode& node = m_ops[n];
    if (node.name == &kRootName) // its sentinel times would overflow; it is no operator
        return;
    node.selfHost = node.end - node.start;
    for (std::size_t c : node.children) {
        const OpNode& child = m_ops[c];
        node.deviceDuration += child.deviceDuration;
        node.selfHost -= child.end - child.start;
    }
    for (std::size_t r : node.runtimes) {
        const RuntimeNode& rt = m_runtimes[r];
        if (rt.timed)
            node.selfHost -= rt.end - rt.start;
        node.deviceDuration += rt.deviceDuration;
        node.selfDevice += rt.deviceDuration;
    }
    if (node.cls == NodeClass::Module) // ModuleNode.fill_stats
        for (std::size_t c : node.children) {
            const OpNode& child = m_ops[c];
            if (child.cls == NodeClass::Operator && child.type == Type::Operator)
                node.selfDevice += child.deviceDuration;
        }
}

// get_operator_and_kernels: children first, then the node itself (is_operator_node).
void Oracle::collectOperators(std::size_t n, std::vector<std::size_t>& out) const {
    const OpNode& node = m_ops[n];
    for (std::size_t c : node.children)
        collectOperators(c, out);
    const std::string& name = *node.name;
    if (node.cls == NodeClass::Operator && node.type == Type::Operator &&
        name != "DataParallel.forward" && name != "DistributedDataParallel.forward" &&
        !startsWith(name, "Optimizer."))
        out.push_back(n);
}

// ModuleAggregator.aggregate / aggregate_ops, by name and by name###str(input_shape).
void Oracle::aggregate() {
    std::vector<std::size_t> ops;
    for (std::size_t root : m_roots)
        collectOperators(root, ops);
    auto add = [](std::vector<TbOperatorRow>& rows, std::map<std::string, std::size_t>& index,
                  const std::string& key, const OpNode& op, bool shapes) {
        auto [it, fresh] = index.emplace(key, rows.size());
        if (fresh) {
            rows.emplace_back();
            rows.back().name = *op.name;
            rows.back().shapes = shapes ? op.shapes : std::string();
        }
        TbOperatorRow& row = rows[it->second];
        ++row.calls;
        row.hostTotal += op.duration();
        row.deviceTotal += op.deviceDuration;
        row.hostSelf += op.selfHost;
        row.deviceSelf += op.selfDevice;
    };
    std::map<std::string, std::size_t> byName, byShapes;
    for (std::size_t o : ops) {
        const OpNode& op = m_ops[o];
        add(m_result.byName, byName, *op.name, op, false);
        add(m_result.byNameAndShapes, byShapes, *op.name + "###" + op.shapes, op, true);
        m_result.operatorDevice += op.selfDevice;
    }
}

// StepParser.parse_steps and _parse_step.
void Oracle::parseSteps() {
    std::int64_t cpuMin = kMax, cpuMax = kMin;
    const auto commIs = [this](const std::optional<std::int64_t>& id) {
        return std::find(m_commIds.begin(), m_commIds.end(), id) != m_commIds.end();
    };
    auto role = [this](TbRole r) -> TbRanges& { return m_roleRanges[std::size_t(r)]; };
    for (const Event& e : m_events) {
        const std::string& name = e.src->name;
        const std::pair<std::int64_t, std::int64_t> r{e.ts, e.end};
        if (e.type == Type::Kernel) {
            const std::optional<std::size_t> rt =
                m_devices[m_deviceOf[std::size_t(&e - m_events.data())]].runtime;
            const bool comm = m_options.collectiveKernelsByContainment
                                  ? rt && m_runtimes[*rt].inCollective
                                  : commIs(e.externalId);
            role(comm ? TbRole::Communication : TbRole::Kernel).push_back(r);
        } else if (e.type == Type::Memcpy) {
            role(TbRole::Memcpy).push_back(r);
        } else if (e.type == Type::Memset) {
            role(TbRole::Memset).push_back(r);
        } else if (e.type == Type::Runtime) {
            role(TbRole::Runtime).push_back(r);
        } else if ((e.type == Type::Operator || e.type == Type::UserAnnotation) &&
                   isDataLoaderName(name)) {
            role(TbRole::DataLoader).push_back(r);
        } else if (e.type == Type::ProfilerStep) {
            m_steps.push_back(r);
            m_stepNames.push_back(std::to_string(e.step));
        } else if (e.type == Type::Python || e.type == Type::Operator ||
                   e.type == Type::UserAnnotation) {
            role(isCommunicationName(name) ? TbRole::Communication : TbRole::CpuOp).push_back(r);
        }
        if (e.type == Type::Python || e.type == Type::Operator || e.type == Type::ProfilerStep) {
            cpuMin = std::min(cpuMin, e.ts);
            cpuMax = std::max(cpuMax, e.end);
        }
    }
    if (m_steps.empty()) {
        m_steps.emplace_back(cpuMin, cpuMax);
        m_stepNames.emplace_back("0");
    }
    for (TbRanges& r : m_roleRanges)
        r = tbMergeRanges(std::move(r));
}

// StepParser._find_device_steps and _update_steps_duration.
void Oracle::updateDeviceSteps() {
    std::vector<std::size_t> rts = m_runtimeList;
    std::stable_sort(rts.begin(), rts.end(), [this](std::size_t a, std::size_t b) {
        return m_runtimes[a].start < m_runtimes[b].start;
    });
    const std::size_t nSteps = m_steps.size();
    TbRanges stepsDevice(nSteps, {kMax, kMin});
    std::vector<std::int64_t> matchedCount(nSteps, 0);
    std::vector<bool> matched(m_devices.size(), false);
    bool anyMatched = false;
    std::size_t iStep = 0, iRt = 0;
    std::int64_t devMin = kMax, devMax = kMin;
    while (iStep < nSteps && iRt < rts.size()) {
        const auto [hostStart, hostEnd] = m_steps[iStep];
        const RuntimeNode& rt = m_runtimes[rts[iRt]];
        if (rt.start < hostStart) {
            ++iRt;
        } else if (rt.end <= hostEnd) {
            for (std::size_t d : rt.devices) {
                devMin = std::min(m_devices[d].start, devMin);
                devMax = std::max(m_devices[d].end, devMax);
                matched[d] = true;
                anyMatched = true;
                ++matchedCount[iStep];
            }
            ++iRt;
        } else if (rt.start < hostEnd) {
            ++iRt;
        } else {
            stepsDevice[iStep] = {devMin, devMax};
            ++iStep;
            devMin = kMax;
            devMax = kMin;
        }
    }
    while (iStep < nSteps) {
        stepsDevice[iStep] = {devMin, devMax};
        devMin = kMax;
        devMax = kMin;
        ++iStep;
    }
    std::optional<std::int64_t> prevEnd;
    if (anyMatched) {
        prevEnd = m_steps[0].first;
        if (stepsDevice[0].first != kMax)
            for (std::size_t d = 0; d < m_devices.size(); ++d)
                if (!matched[d] && m_devices[d].end < stepsDevice[0].first)
                    prevEnd = std::max(*prevEnd, m_devices[d].end);
    }
    // _update_steps_duration
    const bool useGpu = prevEnd.has_value();
    if (useGpu) {
        for (std::size_t i = 0; i < nSteps; ++i) {
            const std::int64_t start = std::max(*prevEnd, m_steps[i].first);
            std::int64_t end = m_steps[i].second;
            if (stepsDevice[i].first == kMax) {
                end = std::max(end, start);
            } else {
                end = std::max(end, stepsDevice[i].second);
                if (end < start)
                    end = start; // logger.warning('Abnormal step_end_time ...')
            }
            m_steps[i] = {start, end};
            prevEnd = end;
        }
    }
    if (useGpu && nSteps > 1) {
        std::ptrdiff_t i = std::ptrdiff_t(nSteps) - 1;
        while (i >= 0 && matchedCount[std::size_t(i)] == 0)
            --i;
        if (i >= 0) {
            std::size_t keep = std::size_t(i) + 1;
            if (i > 0 && double(matchedCount[std::size_t(i) - 1]) * 0.8 >
                             double(matchedCount[std::size_t(i)]))
                keep = std::size_t(i);
            if (keep < nSteps) {
                m_result.removedTailSteps = std::uint32_t(nSteps - keep);
                m_steps.resize(keep);
                m_stepNames.resize(keep);
            }
        }
    }
}

// OverallParser.aggregate: Statistics.create_from_range, then intersection_with_step per step.
void Oracle::overall() {
    std::array<TbRanges, kTbRoles> cost;
    TbRanges slots;
    for (std::size_t r = 0; r + 1 < kTbRoles; ++r) {
        TbRanges range;
        if (!slots.empty()) {
            range = tbIntersection(slots, m_roleRanges[r]);
        } else {
            // Python's `if slots:`: the first role, and any role after the slots ran out, is
            // taken whole, and the slots start again from the steps.
            range = m_roleRanges[r];
            slots = tbMergeRanges(m_steps);
        }
        cost[r] = range;
        slots = tbSubtraction(slots, range);
    }
    cost[kTbRoles - 1] = slots;
    for (std::size_t i = 0; i < m_steps.size(); ++i) {
        TbStep step;
        step.name = m_stepNames[i];
        step.start = m_steps[i].first;
        step.end = m_steps[i].second;
        for (std::size_t r = 0; r < kTbRoles; ++r)
            for (const auto& [a, b] : tbIntersection({m_steps[i]}, cost[r]))
                step.cost[r] += b - a;
        m_result.steps.push_back(std::move(step));
    }
}

} // namespace

std::optional<std::int64_t> exactNs(const std::optional<std::int64_t>& whole,
                                    const std::optional<double>& value) {
    if (whole)
        return *whole * 1000;
    if (!value)
        return std::nullopt;
    // The JSON's decimal, at most three fractional digits: the integer n whose n / 1000 parses
    // to the same double (division and parsing both round correctly). Unique while the doubles
    // there are closer than 0.001 apart (|value| < 2^43 us, about 100 days).
    const double v = *value;
    if (!(std::fabs(v) < 8.796e12))
        throw std::runtime_error("a decimal time too large to convert exactly");
    const std::int64_t n = std::llround(v * 1000.0);
    for (std::int64_t c : {n, n - 1, n + 1})
        if (double(c) / 1000.0 == v)
            return c;
    throw std::runtime_error("a time with more than three fractional digits: " + std::to_string(v));
}

TbRanges tbMergeRanges(TbRanges src) { // merge_ranges(src_ranges, is_sorted=False)
    if (src.empty())
        return {};
    std::stable_sort(src.begin(), src.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    TbRanges merged{src[0]};
    for (std::size_t i = 1; i < src.size(); ++i) {
        if (src[i].second > merged.back().second) {
            if (src[i].first <= merged.back().second)
                merged.back().second = src[i].second;
            else
                merged.push_back(src[i]);
        }
    }
    return merged;
}

TbRanges tbIntersection(const TbRanges& l1, const TbRanges& l2) { // intersection_ranges_lists
    TbRanges dst;
    if (l1.empty() || l2.empty())
        return dst;
    auto r1 = l1[0], r2 = l2[0];
    std::size_t i1 = 0, i2 = 0;
    auto pop1 = [&] {
        if (++i1 < l1.size())
            r1 = l1[i1];
    };
    auto pop2 = [&] {
        if (++i2 < l2.size())
            r2 = l2[i2];
    };
    while (i1 < l1.size()) {
        if (i2 == l2.size()) {
            break;
        } else if (r2.second <= r1.first) {
            pop2();
        } else if (r2.first <= r1.first && r2.second < r1.second) {
            dst.emplace_back(r1.first, r2.second);
            r1 = {r2.second, r1.second};
            pop2();
        } else if (r2.first <= r1.first) {
            dst.push_back(r1);
            r2 = {r1.second, r2.second};
            pop1();
        } else if (r2.second < r1.second) {
            dst.push_back(r2);
            r1 = {r2.second, r1.second};
            pop2();
        } else if (r2.first < r1.second) {
            dst.emplace_back(r2.first, r1.second);
            r2 = {r1.second, r2.second};
            pop1();
        } else {
            pop1();
        }
    }
    return dst;
}

TbRanges tbSubtraction(const TbRanges& l1, const TbRanges& l2) { // subtract_ranges_lists
    TbRanges dst;
    if (l1.empty())
        return dst;
    if (l2.empty())
        return l1;
    auto r1 = l1[0], r2 = l2[0];
    std::size_t i1 = 0, i2 = 0;
    auto pop1 = [&] {
        if (++i1 < l1.size())
            r1 = l1[i1];
    };
    auto pop2 = [&] {
        if (++i2 < l2.size())
            r2 = l2[i2];
    };
    while (i1 < l1.size()) {
        if (i2 == l2.size()) {
            dst.push_back(r1);
            pop1();
        } else if (r2.second <= r1.first) {
            pop2();
        } else if (r2.first <= r1.first && r2.second < r1.second) {
            r1 = {r2.second, r1.second};
            pop2();
        } else if (r2.first <= r1.first) {
            r2 = {r1.second, r2.second};
            pop1();
        } else if (r2.first < r1.second) {
            dst.emplace_back(r1.first, r2.first);
            r1 = {r2.first, r1.second};
        } else {
            dst.push_back(r1);
            pop1();
        }
    }
    return dst;
}

TbResult tensorBoardOracle(const ScannedTrace& trace, const TbOptions& options) {
    return Oracle(trace, options).run();
}

} // namespace strobe::test
