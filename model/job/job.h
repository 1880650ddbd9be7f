// SPDX-License-Identifier: MIT
#pragma once

// A distributed job: its ranks' summaries on one clock, their collectives matched across ranks,
// the wait each rank spends on the others and the straggler that causes it. Every definition is
// in docs/JOBS.md (TensorBoard's distributed view and HTA's, and where this differs).

#include "model/job/ranksummary.h"

#include <QStringList>
#include <optional>
#include <vector>

namespace strobe {

struct Job {
    std::vector<RankSummary> ranks; // by rank number, each number once
    // Duplicate ranks, world sizes that disagree, missing ranks, mixed jobs, traces that failed
    // to load or carry no rank, and each rank's own warnings: one sentence each.
    QStringList warnings;
};

// The job of these summaries (any order): sorted by rank; a second summary claiming a rank is
// left out with a warning naming both files. `failures` (one sentence per file that did not
// open) become warnings.
Job makeJob(std::vector<RankSummary> summaries, const QStringList& failures = {});

// How the ranks' clocks are put on the job's: rank time + offset = job time.
struct Alignment {
    enum class Kind : std::uint8_t {
        Wall,       // the recorded clocks: each rank's origin minus the earliest origin
        Step,       // every rank's ProfilerStep#step starts when the first rank's does
        Collective, // every rank's first matched collective ends when the first rank's does
    };
    Kind kind = Kind::Wall;
    std::uint64_t step = 0;
};
// "wall", "step:N", "collective"; nullopt otherwise.
std::optional<Alignment> parseAlignment(QStringView text);

// One collective matched across ranks: the k-th call of its kind in its process group (or, when
// no group is recorded, on its stream) on every rank that made one.
struct MatchedCollective {
    QString kind;
    std::optional<QString> processGroup;
    // (index into Job::ranks, index into that rank's collectives), by rank.
    std::vector<std::pair<std::uint32_t, std::uint32_t>> calls;
};

struct CollectiveMatch {
    std::vector<MatchedCollective> matched; // by their first call's start on the wall clock
    // Calls with no partner on some rank (index into Job::ranks, index into its collectives).
    std::vector<std::pair<std::uint32_t, std::uint32_t>> unmatched;
};

// Matches by process group when recorded, kind and order; never pairs by time. O(n log n).
CollectiveMatch matchCollectives(const Job& job);

// Per rank (Job::ranks order), the offset `alignment` gives. A rank the alignment cannot place
// (no such step, no matched collective) keeps its wall-clock offset, with a sentence in `notes`.
std::vector<TimeNs> alignmentOffsets(const Job& job, const CollectiveMatch& match,
                                     Alignment alignment, QStringList* notes);

// A matched collective on the job's clock.
struct CollectiveTiming {
    std::vector<TimeRange> gpu;        // per call of MatchedCollective::calls, offsets applied
    std::vector<TimeNs> wait;          // the last arrival minus each call's start
    std::size_t lastArriver = 0;       // index into calls (the lowest rank among equal starts)
    TimeNs transfer = 0;               // the shortest call: TensorBoard's transfer time
    std::optional<std::uint64_t> step; // of the lowest rank's call (stepOf)
};
std::vector<CollectiveTiming> timeCollectives(const Job& job, const CollectiveMatch& match,
                                              const std::vector<TimeNs>& offsets);

// The step a collective of `rank` belongs to: the last ProfilerStep whose host start is at or
// before its GPU start (GPU work runs after its launch); nullopt before the first step.
// O(log steps): RankSummary::steps is in start order.
std::optional<std::uint64_t> stepOf(const RankSummary& rank, const RankCollective& call);

// Per rank (Job::ranks order), its wait summed over the matched collectives: in all, and per
// step (stepOf its own call).
struct RankWaits {
    TimeNs total = 0;
    std::vector<std::pair<std::uint64_t, TimeNs>> perStep; // by step number
};
std::vector<RankWaits> rankWaits(const Job& job, const CollectiveMatch& match,
                                 const std::vector<CollectiveTiming>& timings);

struct StragglerRow {
    std::uint32_t rank = 0;
    std::uint32_t lateSteps = 0; // steps in which it caused the most wait
    std::uint32_t steps = 0;     // steps with matched collectives
    TimeNs waitCaused = 0;       // the others' waits on the collectives it arrived last at
};
struct Stragglers {
    std::vector<StragglerRow> rows;    // by waitCaused, largest first (then rank)
    std::optional<std::uint32_t> rank; // late in more than half the steps; else none
};
Stragglers findStragglers(const Job& job, const CollectiveMatch& match,
                          const std::vector<CollectiveTiming>& timings);

// Everything the job's tables show for one alignment, computed once (the steps above in order).
struct JobAnalysis {
    CollectiveMatch match;
    std::vector<TimeNs> offsets; // per rank, Job::ranks order
    std::vector<CollectiveTiming> timings;
    std::vector<RankWaits> waits;
    Stragglers stragglers;
    QStringList notes; // ranks the alignment could not place
};
JobAnalysis analyseJob(const Job& job, Alignment alignment);

} // namespace strobe
