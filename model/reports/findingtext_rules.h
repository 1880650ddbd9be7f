// SPDX-License-Identifier: MIT
#pragma once

// Each rule group's words (one source file per group, as in model/analysis/findingrules.h).
// Internal to model/reports: callers use findingtext.h.

#include "model/reports/findingtext.h"

namespace strobe::findingtext {

// experttext.cpp: nsys's six rules and pageable_copies.
QString expertTitle(FindingRule rule);
FindingWords expertWords(const Trace& trace, const Finding& finding);
QStringList expertEvidenceColumns(FindingRule rule);
std::vector<ReportCell> expertEvidenceRow(const Trace& trace, const Finding& finding,
                                          const FindingEvidence& row);

// recommendationtext.cpp: TensorBoard's five, exposed_communication, straggler.
QString recommendationTitle(FindingRule rule);
FindingWords recommendationWords(const Trace& trace, const Finding& finding);
QStringList recommendationEvidenceColumns(FindingRule rule);
std::vector<ReportCell> recommendationEvidenceRow(const Trace& trace, const Finding& finding,
                                                  const FindingEvidence& row);
// straggler's, which a job gives and which read no trace.
FindingWords stragglerWords(const Finding& finding);
std::vector<ReportCell> stragglerEvidenceRow(const FindingEvidence& row);

// launchtext.cpp: launch_overhead and small_grid.
QString launchTitle(FindingRule rule);
FindingWords launchWords(const Trace& trace, const Finding& finding);
QStringList launchEvidenceColumns(FindingRule rule);
std::vector<ReportCell> launchEvidenceRow(const Trace& trace, const Finding& finding,
                                          const FindingEvidence& row);

} // namespace strobe::findingtext
