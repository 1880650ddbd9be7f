// SPDX-License-Identifier: MIT
#pragma once

// What a job's analysis says in the findings' terms (model/analysis/findings.h) and in the
// Overview's headline: the straggler finding, which needs every rank and so is skipped on a
// single trace, and the numbers the Overview leads with. Typed results; the sentences are
// model/reports' (findingtext.h's jobFindingWords, joboverviewtext.h). docs/FINDINGS.md and
// docs/JOBS.md define them.

#include "model/analysis/findings.h"
#include "model/job/job.h"

namespace strobe {

// The job's findings: `straggler` when analysis names a straggler (Stragglers::rank). Its time
// at stake is the wait it caused the others (its row's waitCaused in the stragglers table); the
// share is of the other ranks' steps' time summed (ShareBase::Step), or of their GPU spans
// summed when no rank records steps (ShareBase::Span). Its evidence: one row per matched
// collective it arrived last at with someone waiting, in the collectives' order: the rank, the
// stretch from the first arrival to its own (job clock), and the others' waits summed (value),
// so the rows sum to the time at stake. Without matched collectives the rule is skipped with
// MissingData::Communication. O(collectives).
Findings jobFindings(const Job& job, const JobAnalysis& analysis);

// The Overview's headline of a job.
struct JobHeadline {
    std::size_t ranks = 0;
    std::optional<std::uint32_t> worldSize; // the largest any rank records
    // The ranks (indices into Job::ranks) with the longest and the shortest mean step (the
    // mean of their ProfilerSteps' host durations; the lowest index among equals), and those
    // means; none when no rank records steps.
    std::optional<std::size_t> slowestRank;
    TimeNs slowestMeanStep = 0;
    std::optional<std::size_t> fastestRank;
    TimeNs fastestMeanStep = 0;
    // Exposed communication and GPU span (RankSummary::whole) summed over the ranks, and the
    // rank with the most exposed communication (none when no rank has any).
    TimeNs exposedCommunication = 0;
    TimeNs span = 0;
    std::optional<std::size_t> mostExposedRank;
};
JobHeadline jobHeadline(const Job& job);

} // namespace strobe
