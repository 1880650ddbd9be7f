// SPDX-License-Identifier: MIT
#pragma once

// Framework operators (PyTorch's ATen operators and record_function ranges) as a forest per CPU
// thread, every GPU operation attributed to the node that launched it, and the operator
// statistics TensorBoard's PyTorch profiler plugin shows in its Operator view. The definitions,
// and where they come from, are in docs/OPERATORS.md.
//
// Nodes come from the CPU-side ranges of each thread:
//  - Kineto traces: `cpu_op`/`Operator` events (lanes CpuOps) and `user_annotation` ranges (the
//    thread's NVTX lanes); Python frames are not nodes (they are the call stack, pythonFrames);
//  - nsys exports: NVTX push/pop ranges; those PyTorch writes for its operators (a ", seq = " or
//    ", op_id = " suffix, `nsys profile --pytorch=autograd-nvtx`, `emit_nvtx`) are operators.
// A launch (kernel, memcpy, memset) belongs to the innermost node of its launching API call's
// thread whose range contains the call's start.

#include "model/trace.h"

#include <QString>
#include <functional>
#include <optional>
#include <vector>

namespace strobe {

enum class OpNodeKind : std::uint8_t {
    Operator,   // listed in the operator statistics
    Annotation, // record_function ranges, other NVTX ranges, and the operators TensorBoard
                // leaves out of its table (enumerate(DataLoader)#...__next__, Optimizer.*,
                // DataParallel.forward, DistributedDataParallel.forward)
    Step,       // ProfilerStep#N
};

inline constexpr std::uint32_t kNoOpNode = 0xFFFFFFFF;

struct OpNode {
    EventRef event;                   // the range on its lane (CpuOps or Nvtx)
    std::uint32_t parent = kNoOpNode; // enclosing node on the same thread
    std::uint32_t firstChild = kNoOpNode;
    std::uint32_t nextSibling = kNoOpNode; // children are in start order
    std::uint32_t thread = 0;              // index into Trace::threads()
    std::uint32_t name = 0;                // index into OperatorForest::names()
    StringId shapes = kNoString;           // recorded input shapes ("[[32, 3, 224, 224], []]")
    OpNodeKind kind = OpNodeKind::Operator;
    TimeNs start = 0, end = 0;
    TimeNs hostSelf = 0;        // duration minus its children's and its own API calls'
    TimeNs deviceSelf = 0;      // GPU time of the operations it launched itself
    TimeNs deviceTotal = 0;     // ... and of those its descendants launched
    std::uint32_t launches = 0; // GPU operations it launched itself
    TimeNs duration() const { return saturatingSub(end, start); }
};

// Which node launched each GPU operation, by the operation's index in its table.
struct OpLaunchOwners {
    std::vector<std::uint32_t> kernels; // by Trace::kernelAt index; kNoOpNode when none
    std::vector<std::uint32_t> memcpys; // by Trace::memcpys() index
    std::vector<std::uint32_t> memsets; // by Trace::memsets() index
};

// Anomalies met while building, counted (docs/OPERATORS.md says what each does).
struct OperatorWarnings {
    std::uint64_t crossing = 0;      // ranges that overlap an earlier one without nesting: left out
    std::uint64_t mergedRepeats = 0; // an operator whose only child has its name: merged into it
    std::uint64_t noOperator = 0;    // GPU operations no operator launched
};

class OperatorForest {
public:
    const std::vector<OpNode>& nodes() const { return m_nodes; }
    const OpNode& node(std::uint32_t i) const { return m_nodes[i]; }
    // Distinct grouped names; OpNode::name indexes it.
    const std::vector<QString>& names() const { return m_names; }
    const QString& nameOf(std::uint32_t node) const { return m_names[m_nodes[node].name]; }
    // Roots of each thread's forest, thread by thread, each in start order.
    const std::vector<std::uint32_t>& roots() const { return m_roots; }
    const OpLaunchOwners& owners() const { return m_owners; }
    const OperatorWarnings& warnings() const { return m_warnings; }
    bool isEmpty() const { return m_nodes.empty(); }
    // True when some node is a PyTorch operator (the trace is a framework trace).
    bool hasOperators() const { return m_operatorCount > 0; }

    // The node of the range at `event`, if it is one.
    std::optional<std::uint32_t> nodeOf(EventRef event) const;
    // The node that launched the GPU operation at `ref` (kernel, memcpy or memset), or kNoOpNode.
    std::uint32_t launcherOf(const Trace& trace, EventRef ref) const;
    // `node` and its ancestors that are operators, innermost first (the chain
    // "aten::cudnn_convolution <- aten::_convolution <- aten::conv2d").
    std::vector<std::uint32_t> operatorChain(std::uint32_t node) const;
    // The innermost operator at or above `node`, or kNoOpNode.
    std::uint32_t innermostOperator(std::uint32_t node) const;
    // True when `node` is `ancestor` or lies below it.
    bool isWithin(std::uint32_t node, std::uint32_t ancestor) const;
    // Every node on `thread` whose range contains `t`, outermost first.
    std::vector<std::uint32_t> nodesAt(std::uint32_t thread, TimeNs t) const;

private:
    friend class OperatorForestBuilder;
    std::vector<OpNode> m_nodes;
    std::vector<QString> m_names;
    std::vector<std::uint32_t> m_roots;
    // The node of each range event: lane l's events from m_laneBase[l] (kNoOpNode: a lane of
    // no ranges); kNoOpNode for an event that is no node (a crossing range, an annotation the
    // forest passes over).
    std::vector<std::uint32_t> m_laneBase;
    std::vector<std::uint32_t> m_nodeOfEvent;
    OpLaunchOwners m_owners;
    OperatorWarnings m_warnings;
    std::uint64_t m_operatorCount = 0;
};

// Returns true to stop a long computation (a cancelled load or a closed trace).
using AnalysisCancel = std::function<bool()>;

// TensorBoard's data-loading ranges: enumerate(DataLoader)#...__next__, enumerate(DataPipe)#...
bool isDataLoaderRangeName(QStringView name);
// TensorBoard's NcclOpNameSet and GlooOpNameSet: nccl:/gloo: broadcast, reduce, all_reduce,
// all_gather, reduce_scatter.
bool isCollectiveOperatorName(QStringView name);

// Builds the forest of `trace`: O(n log n) in its ranges and API calls. Empty for traces with no
// CPU-side ranges. Throws nothing; a cancelled build returns what it has (check the flag).
OperatorForest buildOperatorForest(const Trace& trace, const AnalysisCancel& cancelled = {});

// The Python frames (Python lane) around time `t` on `thread`, innermost first; empty when the
// trace recorded none (`with_stack=True`).
std::vector<EventRef> pythonFrames(const Trace& trace, std::uint32_t thread, TimeNs t);

enum class OperatorGrouping : std::uint8_t { Name, NameAndShapes };

// One row of the operator table: every call of one operator name (and input shapes).
struct OperatorRow {
    QString name;   // "(no operator)" for the row of unattributed GPU work
    QString shapes; // NameAndShapes only: the recorded input shapes, "" when none
    bool noOperator = false;
    std::uint64_t calls = 0;
    TimeNs hostSelf = 0, hostTotal = 0;
    TimeNs deviceSelf = 0, deviceTotal = 0;
    double devicePercent = 0; // deviceSelf over the GPU time of every operation counted, 0..100
    std::uint32_t longest = kNoOpNode; // the longest call (double-click zooms to it)
};

struct OperatorTable {
    std::vector<OperatorRow> rows; // by device self descending, then host self, then name
    TimeNs deviceTime = 0;         // GPU time of every kernel, memcpy and memset counted
    OperatorGrouping grouping = OperatorGrouping::Name;
};

// The operator table's order: device self descending, then host self descending, then name and
// input shapes (a total order).
bool operatorRowBefore(const OperatorRow& a, const OperatorRow& b);

// The operator statistics. With `window`, only calls that start inside it, and the GPU
// operations launched from inside it, are counted. The "(no operator)" row holds the GPU work
// that no operator launched (it is never dropped); it is left out when there is none.
OperatorTable operatorTable(const Trace& trace, const OperatorForest& forest,
                            OperatorGrouping grouping = OperatorGrouping::Name,
                            std::optional<TimeRange> window = std::nullopt);

// The kernels launched by the calls of the operators named `name` (at any depth below them),
// grouped by kernel name: the Operators panel's second table.
struct OperatorKernelRow {
    QString kernel; // demangled name (the short name when none)
    std::uint64_t count = 0;
    TimeNs total = 0;
    TimeNs longest = 0;
    std::uint32_t longestLaunch = 0; // kernel index (Trace::kernelAt) of its first longest launch
};
std::vector<OperatorKernelRow> kernelsOfOperator(const Trace& trace, const OperatorForest& forest,
                                                 const QString& name,
                                                 std::optional<QString> shapes = std::nullopt);

} // namespace strobe
