// SPDX-License-Identifier: MIT
// Folding over compressed lanes never loses an event: at any zoom, the draw items of a row cover
// every event that overlaps the view exactly once, in order.
#include "model/lane.h"
#include "model/lod/foldruns.h"

#include <cmath>
#include <gtest/gtest.h>
#include <random>

using namespace strobe;

TEST(FoldCoverage, EveryVisibleEventIsCoveredOnce) {
    std::mt19937_64 rng(5);
    Lane l(LaneKind::Kernels, 0);
    TimeNs t = -1'000'000;
    for (int i = 0; i < 200'000; ++i) {
        t += TimeNs(rng() % 3000); // bursts of tiny kernels with the odd long one
        const TimeNs d = rng() % 50 == 0 ? TimeNs(rng() % 5'000'000) : TimeNs(rng() % 800);
        l.append(t, t + d, 0, std::uint32_t(i));
        if (rng() % 1000 == 0)
            t += 6'000'000'000; // gaps longer than 32 bits of nanoseconds
    }
    l.finalize(RowPolicy::FirstFit);
    const TimeRange all = l.timeRange();
    std::uniform_real_distribution<double> logSpan(std::log(1e3), std::log(double(all.duration())));
    for (int q = 0; q < 300; ++q) {
        const int width = 200 + int(rng() % 2400);
        const double span = std::exp(logSpan(rng));
        const TimeNs viewStart = all.start + TimeNs(rng() % std::uint64_t(all.duration()));
        const double nsPerPx = span / width;
        const TimeNs viewEnd = viewStart + TimeNs(std::ceil(double(width) * nsPerPx));
        for (std::uint16_t r = 0; r < l.rowCount(); ++r) {
            const RowView row = l.rowView(r);
            const auto items = foldRuns(row, viewStart, nsPerPx, width, 3.0);
            const std::uint32_t first = row.firstEndingAfter(viewStart);
            const std::uint32_t last = row.firstStartingAtOrAfter(viewEnd);
            std::uint32_t next = first;
            for (const DrawItem& it : items) {
                ASSERT_EQ(it.first, next) << "query " << q << " row " << r;
                ASSERT_GE(it.count, 1u);
                next += it.count;
            }
            ASSERT_EQ(next, std::max(first, last)) << "query " << q << " row " << r;
        }
    }
}
