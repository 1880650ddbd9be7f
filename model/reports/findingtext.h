// SPDX-License-Identifier: MIT
#pragma once

// The words of the findings (model/analysis/findings.h): each finding's sentence saying what the
// data shows and one saying what to try, the table `strobe-cli analyze` prints, and each rule's
// evidence table (for nsys's rules, the columns `nsys analyze` prints).

#include "model/analysis/findings.h"
#include "model/reports/reporttable.h"

namespace strobe {

struct FindingWords {
    QString
        finding; // what the data shows: "softmax_kernel: 4 blocks on 132 SMs, 30 % of GPU time."
    QString nextStep; // what to try
};

// A rule's title for people ("Asynchronous memcpy with pageable memory").
QString findingRuleTitle(FindingRule rule);
FindingWords findingWords(const Trace& trace, const Finding& finding);
// "small_grid needs the GPU's SM count, which this trace does not record." One sentence.
QString skippedRuleText(const SkippedRule& skipped);

// position,rule,time_ns,share_percent,finding,next_step: one row per finding, ranked.
ReportTable findingsTable(const Trace& trace, const Findings& findings);
// The rows of `finding.evidence` with the rule's columns (docs/FINDINGS.md).
ReportTable evidenceTable(const Trace& trace, const Finding& finding);
// The columns evidenceTable gives findings of `rule` (also when there are none).
QStringList evidenceColumns(FindingRule rule);

// A job's findings (model/job/jobfindings.h), which read no trace: their words and evidence
// table, as findingWords and evidenceTable give a trace's; empty for a rule a job never gives.
FindingWords jobFindingWords(const Finding& finding);
ReportTable jobEvidenceTable(const Finding& finding);
// "straggler needs collectives matched across the ranks, which this job does not have."
QString jobSkippedRuleText(const SkippedRule& skipped);

} // namespace strobe
