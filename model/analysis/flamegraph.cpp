// SPDX-License-Identifier: MIT
#include "model/analysis/flamegraph.h"

#include "model/analysis/nvtxstats.h"
#include "model/analysis/rangegrouping.h"
#include "model/rangename.h"

#include <QHash>
#include <algorithm>
#include <unordered_map>

namespace strobe {

namespace {

// One CPU range of a thread, clipped to the window for its time but nested by its recorded
// range.
struct Call {
    TimeNs start = 0, end = 0; // as recorded
    TimeNs clipped = 0;        // its time inside the window
    EventRef ref;
    FlameKind kind = FlameKind::Operator;
    std::uint32_t name = 0; // index into Builder::m_names
};

// At one start and end, the annotation encloses the Python frame, which encloses the operator.
int kindRank(FlameKind k) {
    return k == FlameKind::Annotation ? 0 : k == FlameKind::Python ? 1 : 2;
}

struct PathKey {
    std::uint32_t parent = 0;
    std::uint32_t name = 0;
    FlameKind kind = FlameKind::Operator;
    friend bool operator==(const PathKey&, const PathKey&) = default;
};
struct PathKeyHash {
    std::size_t operator()(const PathKey& k) const noexcept {
        const std::uint64_t v = (std::uint64_t(k.parent) << 32) ^
                                (std::uint64_t(k.name) * 0x9E3779B97F4A7C15ull) ^
                                std::uint64_t(k.kind);
        return std::hash<std::uint64_t>()(v);
    }
};

class Builder {
public:
    Builder(const Trace& trace, TimeRange window, std::size_t maxNodes,
            const AnalysisCancel& cancelled)
        : m_trace(trace)
        , m_window(window)
        , m_maxNodes(maxNodes)
        , m_cancelled(cancelled) {}

    FlameGraph build() {
        FlameGraph out;
        out.window = m_window;
        if (m_window.isEmpty())
            return out;
        std::vector<std::vector<std::uint32_t>> lanesOfThread(m_trace.threads().size());
        for (std::uint32_t li = 0; li < m_trace.lanes().size(); ++li) {
            const Lane& l = m_trace.lane(li);
            const LaneKind k = l.kind();
            if ((k == LaneKind::CpuOps || k == LaneKind::Python || k == LaneKind::Nvtx) &&
                l.owner() < lanesOfThread.size())
                lanesOfThread[l.owner()].push_back(li);
        }
        std::vector<Call> calls;
        for (std::uint32_t t = 0; t < lanesOfThread.size(); ++t) {
            if (lanesOfThread[t].empty())
                continue;
            calls.clear();
            for (std::uint32_t li : lanesOfThread[t]) {
                if (isCancelled())
                    return cancelledGraph();
                collect(li, calls);
            }
            if (!calls.empty())
                addThread(t, calls);
            if (isCancelled())
                return cancelledGraph();
        }
        if (m_nodes.size() <= 1)
            return out;
        finish();
        out.nodes = std::move(m_nodes);
        out.maxDepth = m_maxDepth;
        out.crossing = m_crossing;
        out.droppedCalls = m_dropped;
        return out;
    }

private:
    static constexpr std::uint32_t kDropped = 0xFFFFFFFF;

    FlameGraph cancelledGraph() const {
        FlameGraph g;
        g.window = m_window;
        return g;
    }

    bool isCancelled() const { return m_cancelled && m_cancelled(); }

    std::uint32_t internName(QString name) {
        const auto it = m_nameIndex.constFind(name);
        if (it != m_nameIndex.constEnd())
            return *it;
        const auto i = std::uint32_t(m_names.size());
        m_nameIndex.insert(name, i);
        m_names.push_back(std::move(name));
        return i;
    }

    // The index into m_names of a recorded name: NVTX ranges by their grouped, domain-qualified
    // name, every ProfilerStep#N as one "ProfilerStep" (so the steps merge into one profile);
    // operators and Python frames as recorded, old traces' ProfilerStep operators folded the
    // same way. Each recorded name is built once.
    std::uint32_t nameOf(const Lane& lane, std::uint32_t i) {
        const StringId id = lane.nameId(i);
        const bool nvtx = lane.kind() == LaneKind::Nvtx;
        const std::uint64_t key = (std::uint64_t(nvtx ? lane.domain() : 0) << 36) |
                                  (std::uint64_t(lane.kind()) << 32) | std::uint64_t(id);
        const auto it = m_nameOfString.find(key);
        if (it != m_nameOfString.end())
            return it->second;
        const std::uint32_t n =
            nvtx ? internName(summaryRangeName(nvtxRangeName(m_trace, lane.domain(), id),
                                               RangeNaming::Grouped))
            : lane.kind() == LaneKind::CpuOps
                ? internName(summaryRangeName(m_trace.string(id), RangeNaming::Grouped))
                : internName(m_trace.string(id));
        m_nameOfString.emplace(key, n);
        return n;
    }

    void collect(std::uint32_t li, std::vector<Call>& calls) {
        const Lane& lane = m_trace.lane(li);
        const FlameKind kind = lane.kind() == LaneKind::Nvtx     ? FlameKind::Annotation
                               : lane.kind() == LaneKind::Python ? FlameKind::Python
                                                                 : FlameKind::Operator;
        lane.forEachOverlapping(m_window.start, m_window.end, [&](std::uint32_t i) {
            if (kind == FlameKind::Annotation) {
                const std::uint32_t p = lane.payload(i);
                // Marks are instants; a range with no recorded end has no known time.
                if (m_trace.nvtxStyle(p) == NvtxStyle::Mark || !m_trace.nvtxHasEnd(p))
                    return;
            }
            Call c;
            c.start = lane.start(i);
            c.end = std::max(c.start, lane.end(i)); // an inverted range is a point
            c.clipped = clippedTime({c.start, c.end});
            c.ref = EventRef{li, i};
            c.kind = kind;
            c.name = nameOf(lane, i);
            calls.push_back(c);
        });
    }

    // The node of path (parent, kind, name), made when new; kDropped past maxNodes.
    std::uint32_t nodeFor(std::uint32_t parent, FlameKind kind, std::uint32_t name) {
        const PathKey key{parent, name, kind};
        const auto it = m_paths.find(key);
        if (it != m_paths.end())
            return it->second;
        if (m_nodes.size() >= m_maxNodes)
            return kDropped;
        const auto n = std::uint32_t(m_nodes.size());
        FlameNode node;
        node.name = m_names[name];
        node.kind = kind;
        node.parent = parent;
        node.depth = m_nodes[parent].depth + 1;
        m_maxDepth = std::max(m_maxDepth, node.depth);
        m_nodes.push_back(std::move(node));
        m_paths.emplace(key, n);
        return n;
    }

    void account(std::uint32_t node, const Call& c) {
        FlameNode& f = m_nodes[node];
        f.total = saturatingAdd(f.total, c.clipped);
        ++f.calls;
        noteLongest(f, c);
    }

    // The longest call by its time inside the window; the first of equal ones.
    void noteLongest(FlameNode& f, const Call& c) const {
        if (!f.longest.isValid() || c.clipped > clippedTime(f.longestRange)) {
            f.longest = c.ref;
            f.longestRange = {c.start, c.end};
        }
    }

    TimeNs clippedTime(TimeRange r) const {
        return std::max<TimeNs>(
            0, saturatingSub(std::min(r.end, m_window.end), std::max(r.start, m_window.start)));
    }

    void addThread(std::uint32_t thread, std::vector<Call>& calls) {
        std::sort(calls.begin(), calls.end(), [](const Call& a, const Call& b) {
            if (a.start != b.start)
                return a.start < b.start;
            if (a.end != b.end)
                return a.end > b.end;
            if (a.kind != b.kind)
                return kindRank(a.kind) < kindRank(b.kind);
            if (a.ref.lane != b.ref.lane)
                return a.ref.lane < b.ref.lane;
            return a.ref.index < b.ref.index;
        });
        if (m_nodes.empty()) {
            if (m_maxNodes == 0) {
                m_dropped += calls.size();
                return;
            }
            FlameNode root;
            root.name = QStringLiteral("All threads");
            m_nodes.push_back(std::move(root));
        }
        const std::uint32_t threadNode =
            nodeFor(0, FlameKind::Thread, internName(m_trace.threadLabel(thread)));
        if (threadNode == kDropped) {
            m_dropped += calls.size();
            return;
        }
        struct Open {
            TimeNs end;
            std::uint32_t node; // kDropped: left in its nearest kept ancestor's self time
        };
        std::vector<Open> stack;
        std::size_t done = 0;
        for (const Call& c : calls) {
            if ((++done & 0xFFF) == 0 && isCancelled())
                return;
            // Touching ranges are siblings (a range starting at an end is outside it), and a
            // point encloses nothing.
            while (!stack.empty() && stack.back().end <= c.start)
                stack.pop_back();
            std::uint32_t parent = threadNode;
            if (!stack.empty()) {
                if (c.end <= stack.back().end) {
                    parent = stack.back().node;
                } else {
                    ++m_crossing; // crosses its enclosing range: a path of its own
                }
            }
            std::uint32_t node = kDropped;
            if (parent != kDropped)
                node = nodeFor(parent, c.kind, c.name);
            if (node == kDropped) {
                ++m_dropped;
            } else {
                account(node, c);
                if (parent == threadNode) {
                    FlameNode& t = m_nodes[threadNode];
                    ++t.calls;
                    noteLongest(t, c);
                    ++m_nodes[0].calls;
                    noteLongest(m_nodes[0], c);
                }
            }
            stack.push_back({c.end, node});
        }
    }

    // Totals of the root and the threads from their children, self times, sorted children.
    void finish() {
        std::vector<TimeNs> childSum(m_nodes.size(), 0);
        for (std::size_t i = m_nodes.size(); i-- > 0;) {
            FlameNode& f = m_nodes[i];
            if (f.kind == FlameKind::Root || f.kind == FlameKind::Thread)
                f.total = childSum[i];
            f.self = std::max<TimeNs>(0, saturatingSub(f.total, childSum[i]));
            if (i > 0)
                childSum[f.parent] = saturatingAdd(childSum[f.parent], f.total);
        }
        for (std::uint32_t i = 1; i < m_nodes.size(); ++i)
            m_nodes[m_nodes[i].parent].children.push_back(i);
        for (FlameNode& f : m_nodes)
            std::sort(f.children.begin(), f.children.end(),
                      [this](std::uint32_t a, std::uint32_t b) {
                          const FlameNode& x = m_nodes[a];
                          const FlameNode& y = m_nodes[b];
                          if (x.total != y.total)
                              return x.total > y.total;
                          if (x.name != y.name)
                              return x.name < y.name;
                          return a < b;
                      });
    }

    const Trace& m_trace;
    TimeRange m_window;
    std::size_t m_maxNodes;
    const AnalysisCancel& m_cancelled;
    std::vector<FlameNode> m_nodes;
    std::vector<QString> m_names;
    QHash<QString, std::uint32_t> m_nameIndex;
    std::unordered_map<std::uint64_t, std::uint32_t> m_nameOfString;
    std::unordered_map<PathKey, std::uint32_t, PathKeyHash> m_paths;
    std::uint32_t m_maxDepth = 0;
    std::uint64_t m_crossing = 0;
    std::uint64_t m_dropped = 0;
};

} // namespace

FlameGraph buildFlameGraph(const Trace& trace, TimeRange window, std::size_t maxNodes,
                           const AnalysisCancel& cancelled) {
    return Builder(trace, window, maxNodes, cancelled).build();
}

} // namespace strobe
