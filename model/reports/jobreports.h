// SPDX-License-Identifier: MIT
#pragma once

// A job's tables and sentences: what `strobe-cli job` prints (docs/CLI.md, the column contract)
// and what the job view's Ranks panel and Overview will show, from one JobAnalysis.

#include "model/job/job.h"
#include "model/reports/reporttable.h"

namespace strobe {

// rank,file,gpu,offset_ns,compute_ns,...,overlap_percent,collective_wait_ns; with
// `htaWindow`, HTA's window's columns after them (docs/JOBS.md).
ReportTable jobRanksTable(const Job& job, const JobAnalysis& a, bool htaWindow = false);
// rank,step,start_ns,end_ns,compute_ns,...,idle_ns,collective_wait_ns: one row per rank and step.
// Streamed, as the collectives table below.
ReportTable jobStepsTable(const Job& job, const JobAnalysis& a);
// index,kind,rank,start_ns,end_ns,wait_ns,transfer_ns,last_arriver: a row per call of each
// matched collective. Streamed (ReportTable::fillRow): rows are made as they are written, from
// `job` and `a`, which must outlive the table; O(log matched) a row.
ReportTable jobCollectivesTable(const Job& job, const JobAnalysis& a);
// rank,late_steps,steps,wait_caused_ns, the most wait caused first.
ReportTable jobStragglersTable(const JobAnalysis& a);

// "rank 5 starts its collectives last in 9 of 10 steps; the other ranks wait 23.4 ms per step
// for it", or "no rank is consistently late".
QString stragglerVerdict(const Job& job, const JobAnalysis& a);
// "N collectives have no partner on some rank and are left unmatched: rank 0 AllReduce #3 on
// stream 0, ..." (the first eight); empty when every call is matched.
QString unmatchedSentence(const Job& job, const JobAnalysis& a);

} // namespace strobe
