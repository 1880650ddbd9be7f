// SPDX-License-Identifier: MIT
#include "model/reports/findingtext_rules.h"

namespace strobe::findingtext {

// Placeholders until the rules land (issue 43).
QString recommendationTitle(FindingRule rule) {
    return findingRuleId(rule);
}
FindingWords recommendationWords(const Trace& /*trace*/, const Finding& /*finding*/) {
    return {};
}
QStringList recommendationEvidenceColumns(FindingRule /*rule*/) {
    return {};
}
std::vector<ReportCell> recommendationEvidenceRow(const Trace& /*trace*/,
                                                  const Finding& /*finding*/,
                                                  const FindingEvidence& /*row*/) {
    return {};
}

} // namespace strobe::findingtext
