// SPDX-License-Identifier: MIT
#include "model/reports/findingtext_rules.h"

namespace strobe::findingtext {

// Placeholders until the rules land (issue 43).
QString launchTitle(FindingRule rule) {
    return findingRuleId(rule);
}
FindingWords launchWords(const Trace& /*trace*/, const Finding& /*finding*/) {
    return {};
}
QStringList launchEvidenceColumns(FindingRule /*rule*/) {
    return {};
}
std::vector<ReportCell> launchEvidenceRow(const Trace& /*trace*/, const Finding& /*finding*/,
                                          const FindingEvidence& /*row*/) {
    return {};
}

} // namespace strobe::findingtext
