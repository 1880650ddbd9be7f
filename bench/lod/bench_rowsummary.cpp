// SPDX-License-Identifier: MIT
// RowSummary::columns, the per-row cost of a summarised timeline row (most of a full zoom-out
// frame of a 10M-event trace): a row of a million kernel-like events (5 to 200 us each, 1 to
// 250 us apart, about 229 s in all, like a GPU stream of the scale benchmark's trace), summarised
// once, then its 2560 columns computed 3000 times at each of three zooms (the whole row, a
// quarter, a twentieth), panned by 997 ns each time. Prints the mean microseconds per row.
//
//   bench_rowsummary
#include "model/lod/rowsummary.h"

#include <chrono>
#include <cstdio>
#include <random>

using namespace strobe;

int main() {
    std::mt19937_64 rng(1);
    std::uniform_int_distribution<TimeNs> length(5'000, 200'000), gap(1'000, 250'000);
    Lane lane(LaneKind::Kernels, 0);
    TimeNs t = 0;
    for (std::uint32_t i = 0; i < 1'000'000; ++i) {
        const TimeNs start = t + gap(rng), end = start + length(rng);
        lane.append(start, end, 0, i);
        t = end;
    }
    lane.finalize(RowPolicy::FirstFit);
    const RowView row = lane.rowView(0);
    const RowSummary summary = RowSummary::build(row);
    constexpr int kColumns = 2560, kRepeats = 3000;
    std::vector<SummaryColumn> out;
    double checksum = 0; // keeps the columns from being optimised away
    for (const double share : {1.0, 0.25, 0.05}) {
        const double nsPerColumn = double(t) * share / kColumns;
        const int level = summary.levelFor(nsPerColumn).value_or(0);
        const auto start = std::chrono::steady_clock::now();
        for (int r = 0; r < kRepeats; ++r) {
            summary.columns(row, TimeNs(r) * 997, nsPerColumn, kColumns, level, out);
            checksum += out[100].busy;
        }
        const double us =
            std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start)
                .count() /
            kRepeats;
        std::printf("%4.0f%% of the row in %d columns (level %d): %.1f us per row\n", share * 100,
                    kColumns, level, us);
    }
    std::printf("checksum %.3f\n", checksum);
    return 0;
}
