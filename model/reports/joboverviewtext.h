// SPDX-License-Identifier: MIT
#pragma once

// The sentences the Overview shows for a job (model/job/jobfindings.h's JobHeadline); the
// straggler verdict itself is jobreports.h's stragglerVerdict.

#include "model/job/jobfindings.h"

namespace strobe {

// "8 ranks, world size 8 (nccl)"; "2 of 128 ranks, world size 128 (nccl)" when ranks are
// missing; "3 ranks" when no world size is recorded.
QString jobRanksText(const Job& job, const JobHeadline& h);
// "rank 5 has the slowest steps: 12.3 ms on average (rank 0 the fastest: 9.30 ms).";
// "Every rank's steps take 9.30 ms on average." when the means are equal; a sentence saying so
// when no rank records steps.
QString slowestRankText(const Job& job, const JobHeadline& h);
// "Exposed communication (not hidden under compute): 12.3 ms over the ranks, 4.5 % of their
// GPU time; most on rank 3 (2.10 ms)."; or that none is exposed.
QString exposedCommunicationText(const Job& job, const JobHeadline& h);

} // namespace strobe
