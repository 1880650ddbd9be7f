// SPDX-License-Identifier: MIT
#include "bench/scale/scalepaint.h"

#include "bench/scale/scalecommon.h"
#include "formats/open.h"
#include "widgets/timeline/timelineview.h"
#include "widgets/viewstate.h"

#include <QElapsedTimer>
#include <QImage>
#include <QPainter>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <malloc.h>
#include <random>

namespace strobe::bench {
namespace {

// Indices of the frames, the slowest first.
std::vector<std::size_t> slowestFirst(const std::vector<double>& ms) {
    std::vector<std::size_t> order(ms.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::sort(order.begin(), order.end(),
              [&](std::size_t a, std::size_t b) { return ms[a] > ms[b]; });
    return order;
}

void printPaint(const char* what, const std::vector<double>& ms) {
    std::printf("%-34s frames %3zu  p50 %7.2f ms  p95 %7.2f ms  p99 %7.2f ms\n", what, ms.size(),
                percentile(ms, 50), percentile(ms, 95), percentile(ms, 99));
}

void printSlowestFrames(const PaintStats& s, std::size_t count) {
    const std::vector<std::size_t> order = slowestFirst(s.random);
    std::printf("slowest random frames:");
    for (std::size_t i = 0; i < std::min(count, order.size()); ++i) {
        const TimeRange w = s.randomWindows[order[i]];
        std::printf(" %.2f ms (%.3g s at %.3g s);", s.random[order[i]], double(w.duration()) / 1e9,
                    double(w.start) / 1e9);
    }
    std::printf("\n");
}

} // namespace

PaintStats measurePaint(std::shared_ptr<const Trace> trace, int replays) {
    PaintStats s;
    ViewState state;
    state.setTrace(trace);
    TimelineView view(&state);
    view.resize(kCanvas + QSize(TimelineView::kHeaderWidth + 20, TimelineView::kRulerHeight));
    QImage image(kCanvas, QImage::Format_ARGB32_Premultiplied);
    auto paintOnce = [&] {
        QElapsedTimer t;
        t.start();
        QPainter p(&image);
        view.paintCanvas(p, kCanvas, 1.0);
        p.end();
        return double(t.nsecsElapsed()) / 1e6;
    };
    const TimeRange all = trace->timeRange();
    paintOnce(); // first frame: lazily built per-trace state, measured as first paint elsewhere
    // Steady state: the per-row summaries build in the background within ~0.3 s of a new
    // trace; frames before that fold every row (measured by first paint, not here).
    view.waitForLevelOfDetail();
    for (int i = 0; i < 50; ++i) {
        state.setVisibleRange({all.start, all.end + 1 + i}, false); // new key: cold cache
        s.zoomOut.push_back(paintOnce());
    }
    std::mt19937_64 rng(7);
    const double minSpan = 10'000.0, maxSpan = std::max(minSpan * 2, double(all.duration()));
    std::uniform_real_distribution<double> logSpan(std::log(minSpan), std::log(maxSpan));
    std::vector<int> scrolls;
    for (int i = 0; i < 200; ++i) {
        const auto span = TimeNs(std::exp(logSpan(rng)));
        std::uniform_int_distribution<TimeNs> start(all.start, std::max(all.start, all.end - span));
        const TimeNs s0 = start(rng);
        state.setVisibleRange({s0, s0 + span}, false);
        const int scrollY = int(rng() % 400);
        view.setScrollY(scrollY);
        s.random.push_back(paintOnce());
        s.randomWindows.push_back({s0, s0 + span});
        scrolls.push_back(scrollY);
    }
    if (replays > 0) {
        std::vector<std::size_t> order = slowestFirst(s.random);
        order.resize(std::min<std::size_t>(order.size(), 10));
        double total = 0;
        for (int r = 0; r < replays; ++r) {
            for (std::size_t i : order) {
                const TimeRange w = s.randomWindows[i];
                state.setVisibleRange({w.start, w.end + 1 + (r % 2)}, false); // cold cache
                view.setScrollY(scrolls[i]);
                total += paintOnce();
            }
        }
        s.replayedMs = total / double(replays * int(order.size()));
    }
    return s;
}

PaintFigures measureBothPaints(std::shared_ptr<const Trace> trace, bool paintOnly,
                               std::uint64_t smallEvents, std::uint64_t seed) {
    PaintFigures f;
    const PaintStats big = measurePaint(trace, paintOnly ? 20 : 0);
    printPaint("paint full zoom-out (large)", big.zoomOut);
    printPaint("paint random zoom/pan (large)", big.random);
    if (paintOnly) {
        std::printf("first full zoom-out frames:");
        for (std::size_t i = 0; i < std::min<std::size_t>(5, big.zoomOut.size()); ++i)
            std::printf(" %.2f ms;", big.zoomOut[i]);
        std::printf("\n");
        printSlowestFrames(big, 12);
        std::printf("the ten slowest painted 20 times more: %.2f ms a frame\n", big.replayedMs);
    }
    trace.reset();
    malloc_trim(0);
    const QString smallPath = ensureTrace(smallEvents, seed);
    LoadResult small = loadTrace(smallPath);
    if (!small.ok()) {
        std::fprintf(stderr, "small load failed: %s\n", qPrintable(small.error));
        return f;
    }
    const PaintStats little = measurePaint(std::shared_ptr<const Trace>(std::move(small.trace)));
    printPaint("paint full zoom-out (small)", little.zoomOut);
    printPaint("paint random zoom/pan (small)", little.random);
    f.zoomOutP95 = percentile(big.zoomOut, 95);
    f.randomP99 = percentile(big.random, 99);
    f.scaling = percentile(big.random, 95) / std::max(1e-6, percentile(little.random, 95));
    std::printf("paint large / small (p95 random): %.2f\n", f.scaling);
    return f;
}

double measureWindowQuery(const Trace& t) {
    struct Query {
        const Lane* lane;
        std::uint16_t row;
        TimeNs a, b;
    };
    std::vector<std::pair<const Lane*, std::uint16_t>> rows;
    for (const Lane& l : t.lanes()) {
        for (std::uint16_t r = 0; r < l.rowCount(); ++r) {
            if (l.rowView(r).size() >= 1000)
                rows.emplace_back(&l, r);
        }
    }
    if (rows.empty())
        return 0;
    std::mt19937_64 rng(11);
    std::vector<Query> queries(400'000);
    for (Query& q : queries) {
        const auto& [lane, row] = rows[rng() % rows.size()];
        const TimeRange range = lane->timeRange();
        const double span = std::exp(std::uniform_real_distribution<double>(
            std::log(1e3), std::log(std::max(2e3, double(range.duration()))))(rng));
        const TimeNs a =
            range.start + TimeNs(rng() % std::uint64_t(std::max<TimeNs>(1, range.duration())));
        q = Query{lane, row, a, a + TimeNs(span)};
    }
    std::uint64_t sink = 0;
    QElapsedTimer timer;
    timer.start();
    for (const Query& q : queries) {
        const RowView row = q.lane->rowView(q.row);
        sink += row.firstEndingAfter(q.a) + row.firstStartingAtOrAfter(q.b);
    }
    const double us = double(timer.nsecsElapsed()) / 1e3 / double(queries.size());
    if (sink == 42)
        std::printf(" ");
    return us;
}

} // namespace strobe::bench
