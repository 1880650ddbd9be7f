// SPDX-License-Identifier: MIT
#pragma once

// A top-down flame graph (icicle) of the CPU side: framework operators, record_function or
// NVTX ranges and Python frames, merged by call path per thread, over a window of time.

#include "model/analysis/operators.h"
#include "model/trace.h"

#include <QString>
#include <vector>

namespace strobe {

enum class FlameKind : std::uint8_t { Root, Thread, Operator, Annotation, Python };

struct FlameNode {
    QString name;
    FlameKind kind = FlameKind::Root;
    std::uint32_t parent = 0;            // the root is its own parent
    std::uint32_t depth = 0;             // the root is 0, threads 1
    std::vector<std::uint32_t> children; // by total descending, then name
    TimeNs total = 0;                    // time inside the window of every call on this path
    TimeNs self = 0;                     // total minus the children's totals
    std::uint64_t calls = 0;
    EventRef longest; // the longest call on this path (clicks select it)
    TimeRange longestRange;
};

struct FlameGraph {
    TimeRange window;
    std::vector<FlameNode> nodes; // nodes[0] is the root; empty when nothing ran in the window
    std::uint32_t maxDepth = 0;
    std::uint64_t crossing = 0;     // calls that crossed their enclosing range (thread level)
    std::uint64_t droppedCalls = 0; // calls past maxNodes, left in their parent's self time
    bool isEmpty() const { return nodes.size() <= 1; }
};

// The flame graph of every thread's CPU ranges (CpuOps, Python and push/pop NVTX lanes)
// clipped to `window`. Ranges that cross an enclosing one without nesting start a path of
// their own at the thread level. At most `maxNodes` paths are kept (the rest merge into their
// parent's self time), so a hostile trace stays bounded. Marks and NVTX ranges with no recorded
// end are left out. A cancelled build returns an empty graph. O(n log n) in the ranges.
FlameGraph buildFlameGraph(const Trace& trace, TimeRange window, std::size_t maxNodes = 200000,
                           const AnalysisCancel& cancelled = {});

} // namespace strobe
