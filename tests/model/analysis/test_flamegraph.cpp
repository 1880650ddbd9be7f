// SPDX-License-Identifier: MIT
// The flame graph: a hand-built trace with known totals, self times and calls (nesting across
// the three kinds of lane, equal starts, points, touching ends, a crossing range, window
// clipping, the node bound, cancellation), and the resnet50 Kineto fixture against sums
// computed from an independent scan of its JSON.
#include "formats/open.h"
#include "model/analysis/flamegraph.h"
#include "model/tracebuilder.h"
#include "tests/support/kinetoscan.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>

using namespace strobe;
using namespace strobe::test;

namespace {

// Thread "main" [10] of pid 1:
//   NVTX     "forward, op_id = 5" [0, 600)   and "forward, op_id = 9" [700, 900); a mark at 100
//   Python   "train.py(10): step" [0, 500)
//   CpuOps   aten::conv2d [10, 110) > aten::convolution [20, 100)
//            aten::empty [110, 110)   (a point at conv2d's end: its sibling)
//            aten::conv2d [200, 260) > aten::convolution [200, 250)   (equal starts)
//            aten::relu [300, 300)    (a point)
//            aten::add [550, 650)     (crosses "forward" [0, 600))
//            aten::relu [750, 800)    (under the second "forward")
// Thread "worker" [20]:
//   NVTX     "aten::mm, op_id = 3" [100, 400)
//   CpuOps   aten::mm [100, 400)      (the same range: the annotation encloses the operator)
std::unique_ptr<Trace> handTrace() {
    TraceBuilder b(QStringLiteral("synthetic"));
    b.setThreadName(1, 10, b.intern("main"));
    b.setThreadName(1, 20, b.intern("worker"));
    NvtxRecord pp;
    NvtxRecord mark;
    mark.style = NvtxStyle::Mark;
    b.addNvtx(1, 10, kNoString, 0, 600, b.intern("forward, op_id = 5"), pp, std::nullopt);
    b.addNvtx(1, 10, kNoString, 700, 900, b.intern("forward, op_id = 9"), pp, std::nullopt);
    b.addNvtx(1, 10, kNoString, 100, 100, b.intern("tick"), mark, std::nullopt);
    b.addCpuOp(LaneKind::Python, 1, 10, 0, 500, b.intern("train.py(10): step"), {});
    auto op = [&](std::uint32_t tid, TimeNs s, TimeNs e, const char* name) {
        b.addCpuOp(LaneKind::CpuOps, 1, tid, s, e, b.intern(name), {});
    };
    op(10, 10, 110, "aten::conv2d");
    op(10, 20, 100, "aten::convolution");
    op(10, 110, 110, "aten::empty");
    op(10, 200, 260, "aten::conv2d");
    op(10, 200, 250, "aten::convolution");
    op(10, 300, 300, "aten::relu");
    op(10, 550, 650, "aten::add");
    op(10, 750, 800, "aten::relu");
    b.addNvtx(1, 20, kNoString, 100, 400, b.intern("aten::mm, op_id = 3"), pp, std::nullopt);
    op(20, 100, 400, "aten::mm");
    return b.finish();
}

// The child of `parent` with this name and kind; fails the test when there is none.
const FlameNode& child(const FlameGraph& g, const FlameNode& parent, const QString& name,
                       FlameKind kind) {
    for (std::uint32_t c : parent.children) {
        if (g.nodes[c].name == name && g.nodes[c].kind == kind)
            return g.nodes[c];
    }
    ADD_FAILURE() << "no child " << name.toStdString() << " under " << parent.name.toStdString();
    static const FlameNode none;
    return none;
}

std::vector<QString> childNames(const FlameGraph& g, const FlameNode& n) {
    std::vector<QString> out;
    for (std::uint32_t c : n.children)
        out.push_back(g.nodes[c].name);
    return out;
}

QString label(const Trace& t, std::uint32_t tid) {
    for (std::uint32_t i = 0; i < t.threads().size(); ++i) {
        if (t.threads()[i].tid == tid)
            return t.threadLabel(i);
    }
    return {};
}

// The event of `ref` has this name on its lane.
QString nameAt(const Trace& t, EventRef ref) {
    return t.string(t.lane(ref.lane).nameId(ref.index));
}

} // namespace

TEST(FlameGraph, HandBuiltTotalsSelfAndCalls) {
    const auto t = handTrace();
    const FlameGraph g = buildFlameGraph(*t, {0, 1000});
    ASSERT_FALSE(g.isEmpty());
    EXPECT_EQ(g.window, (TimeRange{0, 1000}));
    EXPECT_EQ(g.crossing, 1u);
    EXPECT_EQ(g.droppedCalls, 0u);
    // root, 2 threads, forward, step, conv2d, convolution, empty, relu (x2 paths), add,
    // mm (annotation), mm (operator)
    EXPECT_EQ(g.nodes.size(), 13u);
    EXPECT_EQ(g.maxDepth, 5u); // root > main > forward > step > conv2d > convolution

    const FlameNode& root = g.nodes[0];
    EXPECT_EQ(root.kind, FlameKind::Root);
    EXPECT_EQ(root.total, 1200);
    EXPECT_EQ(root.self, 0);
    EXPECT_EQ(childNames(g, root), (std::vector<QString>{label(*t, 10), label(*t, 20)}));
    EXPECT_EQ(label(*t, 10), QStringLiteral("main [10]"));

    const FlameNode& main = child(g, root, QStringLiteral("main [10]"), FlameKind::Thread);
    EXPECT_EQ(main.depth, 1u);
    EXPECT_EQ(main.total, 900); // forward 600 + 200, and the crossing add 100
    EXPECT_EQ(main.self, 0);
    EXPECT_EQ(childNames(g, main),
              (std::vector<QString>{QStringLiteral("forward"), QStringLiteral("aten::add")}));

    const FlameNode& fwd = child(g, main, QStringLiteral("forward"), FlameKind::Annotation);
    EXPECT_EQ(fwd.total, 800);
    EXPECT_EQ(fwd.calls, 2u);
    EXPECT_EQ(fwd.self, 250); // minus step 500 and relu 50
    EXPECT_EQ(fwd.longestRange, (TimeRange{0, 600}));
    EXPECT_EQ(nameAt(*t, fwd.longest), QStringLiteral("forward, op_id = 5"));

    const FlameNode& add = child(g, main, QStringLiteral("aten::add"), FlameKind::Operator);
    EXPECT_EQ(add.total, 100);
    EXPECT_EQ(add.self, 100);
    EXPECT_EQ(add.depth, 2u);

    const FlameNode& step = child(g, fwd, QStringLiteral("train.py(10): step"), FlameKind::Python);
    EXPECT_EQ(step.total, 500);
    EXPECT_EQ(step.self, 340);
    EXPECT_EQ(step.calls, 1u);
    // By total, then name: the two points (0 ns) after conv2d, alphabetically.
    EXPECT_EQ(childNames(g, step),
              (std::vector<QString>{QStringLiteral("aten::conv2d"), QStringLiteral("aten::empty"),
                                    QStringLiteral("aten::relu")}));
    const FlameNode& relu0 = child(g, step, QStringLiteral("aten::relu"), FlameKind::Operator);
    EXPECT_EQ(relu0.total, 0);
    EXPECT_EQ(relu0.calls, 1u);
    EXPECT_TRUE(relu0.children.empty());

    const FlameNode& conv = child(g, step, QStringLiteral("aten::conv2d"), FlameKind::Operator);
    EXPECT_EQ(conv.total, 160);
    EXPECT_EQ(conv.calls, 2u);
    EXPECT_EQ(conv.self, 30);
    EXPECT_EQ(conv.longestRange, (TimeRange{10, 110}));
    ASSERT_EQ(conv.children.size(), 1u); // the point at its end is not inside it
    const FlameNode& convolution = g.nodes[conv.children[0]];
    EXPECT_EQ(convolution.name, QStringLiteral("aten::convolution"));
    EXPECT_EQ(convolution.total, 130);
    EXPECT_EQ(convolution.calls, 2u);
    EXPECT_EQ(convolution.depth, 5u);
    EXPECT_EQ(g.nodes[convolution.parent].name, QStringLiteral("aten::conv2d"));

    const FlameNode& relu1 = child(g, fwd, QStringLiteral("aten::relu"), FlameKind::Operator);
    EXPECT_EQ(relu1.total, 50);
    EXPECT_EQ(relu1.longestRange, (TimeRange{750, 800}));

    // The annotation and the operator of one range: two paths of different kinds.
    const FlameNode& worker = child(g, root, QStringLiteral("worker [20]"), FlameKind::Thread);
    EXPECT_EQ(worker.total, 300);
    const FlameNode& mmA = child(g, worker, QStringLiteral("aten::mm"), FlameKind::Annotation);
    EXPECT_EQ(mmA.total, 300);
    EXPECT_EQ(mmA.self, 0);
    const FlameNode& mmO = child(g, mmA, QStringLiteral("aten::mm"), FlameKind::Operator);
    EXPECT_EQ(mmO.total, 300);
    EXPECT_EQ(mmO.self, 300);
    EXPECT_EQ(nameAt(*t, mmO.longest), QStringLiteral("aten::mm"));
    EXPECT_EQ(t->lane(mmO.longest.lane).kind(), LaneKind::CpuOps);
}

TEST(FlameGraph, WindowClipsEveryCall) {
    const auto t = handTrace();
    const FlameGraph g = buildFlameGraph(*t, {50, 250});
    ASSERT_FALSE(g.isEmpty());
    EXPECT_EQ(g.crossing, 0u); // aten::add lies outside
    const FlameNode& root = g.nodes[0];
    EXPECT_EQ(root.total, 350); // main 200, worker 150
    const FlameNode& main = child(g, root, QStringLiteral("main [10]"), FlameKind::Thread);
    EXPECT_EQ(main.total, 200);
    ASSERT_EQ(main.children.size(), 1u);
    const FlameNode& fwd = g.nodes[main.children[0]];
    EXPECT_EQ(fwd.calls, 1u); // the second forward is outside
    EXPECT_EQ(fwd.total, 200);
    EXPECT_EQ(fwd.self, 0);
    const FlameNode& step = child(g, fwd, QStringLiteral("train.py(10): step"), FlameKind::Python);
    EXPECT_EQ(step.total, 200);
    EXPECT_EQ(step.self, 90);
    EXPECT_EQ(childNames(g, step), (std::vector<QString>{QStringLiteral("aten::conv2d"),
                                                         QStringLiteral("aten::empty")}));
    const FlameNode& conv = child(g, step, QStringLiteral("aten::conv2d"), FlameKind::Operator);
    EXPECT_EQ(conv.total, 110); // [50, 110) and [200, 250)
    EXPECT_EQ(conv.self, 10);
    EXPECT_EQ(conv.calls, 2u);
    // The longest inside the window, reported with its recorded range.
    EXPECT_EQ(conv.longestRange, (TimeRange{10, 110}));
    EXPECT_EQ(g.nodes[conv.children[0]].total, 100); // [50, 100) and [200, 250)
    const FlameNode& worker = child(g, root, QStringLiteral("worker [20]"), FlameKind::Thread);
    EXPECT_EQ(worker.total, 150);
}

TEST(FlameGraph, EmptyWindowsAndCancellation) {
    const auto t = handTrace();
    EXPECT_TRUE(buildFlameGraph(*t, {2000, 3000}).nodes.empty());
    EXPECT_TRUE(buildFlameGraph(*t, {500, 500}).nodes.empty());
    EXPECT_TRUE(buildFlameGraph(*t, {600, 400}).nodes.empty());
    // One nanosecond: forward, step and conv2d on main (convolution ends at 100), both mm on
    // worker.
    const FlameGraph one = buildFlameGraph(*t, {100, 101});
    EXPECT_EQ(one.nodes.size(), 8u);
    EXPECT_EQ(one.nodes[0].total, 2);
    int asked = 0;
    const FlameGraph c = buildFlameGraph(*t, {0, 1000}, 200000, [&] { return ++asked > 0; });
    EXPECT_TRUE(c.nodes.empty());
    EXPECT_GT(asked, 0);
    EXPECT_EQ(c.window, (TimeRange{0, 1000}));
}

TEST(FlameGraph, NodeBoundLeavesTheRestInTheParentsSelf) {
    const auto t = handTrace();
    const FlameGraph g = buildFlameGraph(*t, {0, 1000}, 4);
    // root, main, forward, step; the rest (8 calls on main, 2 on worker) dropped.
    ASSERT_EQ(g.nodes.size(), 4u);
    EXPECT_EQ(g.droppedCalls, 10u);
    EXPECT_EQ(g.nodes[0].total, 800);
    const FlameNode& fwd = g.nodes[2];
    EXPECT_EQ(fwd.name, QStringLiteral("forward"));
    EXPECT_EQ(fwd.total, 800);
    EXPECT_EQ(fwd.self, 300);
    EXPECT_EQ(g.nodes[3].total, 500);
    EXPECT_EQ(g.nodes[3].self, 500);
    EXPECT_EQ(g.maxDepth, 3u);
    EXPECT_TRUE(buildFlameGraph(*t, {0, 1000}, 0).nodes.empty());
}

namespace {

struct Range {
    std::int64_t start, end;
};

// Sum of the lengths of the union of `v`.
std::int64_t unionLength(std::vector<Range> v) {
    std::sort(v.begin(), v.end(), [](Range a, Range b) { return a.start < b.start; });
    std::int64_t total = 0, s = 0, e = 0;
    bool open = false;
    for (const Range& r : v) {
        if (open && r.start <= e) {
            e = std::max(e, r.end);
            continue;
        }
        if (open)
            total += e - s;
        s = r.start, e = r.end, open = true;
    }
    return open ? total + e - s : total;
}

struct NameSums {
    std::int64_t total = 0;
    std::uint64_t calls = 0;
};

// Checks the flame graph of `window` against the JSON's CPU ranges: per thread the union of
// its ranges (none cross in this file), per name the clipped time and the calls of every node
// of that name, and self times that add up to the root's total.
void checkAgainstJson(const Trace& trace, const ScannedTrace& scan, TimeRange window) {
    std::map<std::int64_t, std::vector<Range>> byThread;
    std::map<QString, NameSums> byName;
    for (const ScannedEvent& e : scan.events) {
        if (e.ph != "X" || !(e.cat == "cpu_op" || e.cat == "Operator" ||
                             e.cat == "user_annotation" || e.cat == "python_function"))
            continue;
        ASSERT_TRUE(e.tsInt && e.durInt && e.tid); // this file writes whole microseconds
        const std::int64_t s = *e.tsInt * 1000, en = s + *e.durInt * 1000;
        const bool overlaps = s < window.end && std::max(en, s + 1) > window.start;
        if (!overlaps)
            continue;
        const Range clipped{std::max(s, window.start), std::min(en, window.end)};
        byThread[*e.tid].push_back(clipped);
        // Every ProfilerStep#N is one "ProfilerStep" path, so the steps merge into one profile.
        const std::string name = e.name.rfind("ProfilerStep#", 0) == 0 ? "ProfilerStep" : e.name;
        NameSums& n = byName[QString::fromStdString(name)];
        n.total += std::max<std::int64_t>(0, clipped.end - clipped.start);
        ++n.calls;
    }
    const FlameGraph g = buildFlameGraph(trace, window);
    ASSERT_FALSE(g.isEmpty());
    EXPECT_EQ(g.crossing, 0u);
    EXPECT_EQ(g.droppedCalls, 0u);
    std::int64_t unions = 0;
    ASSERT_EQ(g.nodes[0].children.size(), byThread.size());
    for (const auto& [tid, ranges] : byThread) {
        const std::int64_t u = unionLength(ranges);
        unions += u;
        bool found = false;
        for (std::uint32_t c : g.nodes[0].children) {
            if (g.nodes[c].name.endsWith(u'[' + QString::number(tid) + u']')) {
                EXPECT_EQ(g.nodes[c].total, u) << tid;
                found = true;
            }
        }
        EXPECT_TRUE(found) << tid;
    }
    EXPECT_EQ(g.nodes[0].total, unions);
    std::map<QString, NameSums> got;
    std::int64_t selfSum = 0;
    for (const FlameNode& n : g.nodes) {
        selfSum += n.self;
        TimeNs children = 0;
        for (std::uint32_t c : n.children) {
            children += g.nodes[c].total;
            EXPECT_EQ(g.nodes[c].depth, n.depth + 1);
        }
        EXPECT_LE(children, n.total) << n.name.toStdString();
        for (std::size_t i = 1; i < n.children.size(); ++i)
            EXPECT_GE(g.nodes[n.children[i - 1]].total, g.nodes[n.children[i]].total);
        if (n.kind == FlameKind::Root || n.kind == FlameKind::Thread)
            continue;
        EXPECT_EQ(n.kind, FlameKind::Operator); // PyTorch 1.8: every range is an "Operator"
        got[n.name].total += n.total;
        got[n.name].calls += n.calls;
    }
    EXPECT_EQ(selfSum, g.nodes[0].total);
    ASSERT_EQ(got.size(), byName.size());
    for (const auto& [name, want] : byName) {
        EXPECT_EQ(got[name].total, want.total) << name.toStdString();
        EXPECT_EQ(got[name].calls, want.calls) << name.toStdString();
    }
}

} // namespace

TEST(FlameGraph, Resnet50AgreesWithTheJson) {
    const std::string path = kinetoFixturePath("resnet50-kineto-2021.pt.trace.json.gz");
    const ScannedTrace scan = scanKineto(path);
    LoadResult r = loadTrace(QString::fromStdString(path));
    ASSERT_TRUE(r.ok()) << r.error.toStdString();
    const Trace& t = *r.trace;
    checkAgainstJson(t, scan, t.timeRange());
    // A window through the middle cuts calls at both ends.
    const TimeRange all = t.timeRange();
    const TimeNs third = all.duration() / 3;
    checkAgainstJson(t, scan, {all.start + third, all.end - third});

    // The six steps are one path, ProfilerStep, with six calls; its longest call is one of them.
    const FlameGraph g = buildFlameGraph(t, all);
    std::uint32_t steps = 0;
    for (const FlameNode& n : g.nodes) {
        EXPECT_FALSE(n.name.startsWith(QStringLiteral("ProfilerStep#"))) << n.name.toStdString();
        if (n.name == QStringLiteral("ProfilerStep")) {
            ++steps;
            EXPECT_EQ(n.depth, 2u);
            EXPECT_EQ(n.calls, 6u);
            EXPECT_LT(n.longestRange.duration(), n.total);
            EXPECT_TRUE(nameAt(t, n.longest).startsWith(QStringLiteral("ProfilerStep#")));
        }
    }
    EXPECT_EQ(steps, 1u);
}
