// SPDX-License-Identifier: MIT
#include "model/reports/findingtext_rules.h"

namespace strobe::findingtext {

// Placeholders until the rules land (issue 43).
QString expertTitle(FindingRule rule) {
    return findingRuleId(rule);
}
FindingWords expertWords(const Trace& /*trace*/, const Finding& /*finding*/) {
    return {};
}
QStringList expertEvidenceColumns(FindingRule /*rule*/) {
    return {};
}
std::vector<ReportCell> expertEvidenceRow(const Trace& /*trace*/, const Finding& /*finding*/,
                                          const FindingEvidence& /*row*/) {
    return {};
}

} // namespace strobe::findingtext
