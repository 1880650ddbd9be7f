// SPDX-License-Identifier: MIT
#include "model/reports/findingtext.h"

#include "model/reports/findingtext_rules.h"

namespace strobe {

namespace {

enum class Group : std::uint8_t { Expert, Recommendation, Launch };

Group groupOf(FindingRule rule) {
    switch (rule) {
    case FindingRule::CudaMemcpyAsync:
    case FindingRule::CudaMemcpySync:
    case FindingRule::CudaMemsetSync:
    case FindingRule::CudaApiSync:
    case FindingRule::GpuGaps:
    case FindingRule::GpuTimeUtil:
    case FindingRule::PageableCopies:
        return Group::Expert;
    case FindingRule::LaunchOverhead:
    case FindingRule::SmallGrid:
        return Group::Launch;
    case FindingRule::DataLoading:
    case FindingRule::Communication:
    case FindingRule::GpuUtilization:
    case FindingRule::TensorCores:
    case FindingRule::MemoryPeak:
    case FindingRule::ExposedCommunication:
    case FindingRule::Straggler:
        return Group::Recommendation;
    }
    return Group::Recommendation;
}

// What a rule lacks, as the object of "needs ...".
QString missingPhrase(MissingData missing) {
    switch (missing) {
    case MissingData::MemoryKinds:
        return QStringLiteral("the host memory kind (pageable or pinned) of its copies");
    case MissingData::ApiCalls:
        return QStringLiteral("the CUDA API calls");
    case MissingData::GpuWork:
        return QStringLiteral("GPU work (kernels, copies or memsets)");
    case MissingData::Steps:
        return QStringLiteral("training steps or CPU operators to take a step breakdown from");
    case MissingData::Communication:
        return QStringLiteral("communication kernels");
    case MissingData::SmCount:
        return QStringLiteral("the GPU's SM count (its name is not in Strobe's table either)");
    case MissingData::ComputeCapability:
        return QStringLiteral("the GPU's compute capability");
    case MissingData::MemoryRecord:
        return QStringLiteral("the GPU memory allocations and the GPU's memory size");
    case MissingData::Job:
        return QStringLiteral("every rank's trace of one job (open a job, not one trace)");
    }
    return {};
}

} // namespace

QString findingRuleTitle(FindingRule rule) {
    switch (groupOf(rule)) {
    case Group::Expert:
        return findingtext::expertTitle(rule);
    case Group::Launch:
        return findingtext::launchTitle(rule);
    case Group::Recommendation:
        break;
    }
    return findingtext::recommendationTitle(rule);
}

FindingWords findingWords(const Trace& trace, const Finding& finding) {
    switch (groupOf(finding.rule)) {
    case Group::Expert:
        return findingtext::expertWords(trace, finding);
    case Group::Launch:
        return findingtext::launchWords(trace, finding);
    case Group::Recommendation:
        break;
    }
    return findingtext::recommendationWords(trace, finding);
}

QString skippedRuleText(const SkippedRule& skipped) {
    return QStringLiteral("%1 needs %2, which this trace does not record.")
        .arg(findingRuleId(skipped.rule), missingPhrase(skipped.missing));
}

ReportTable findingsTable(const Trace& trace, const Findings& findings) {
    ReportTable table;
    table.columns = {QStringLiteral("position"), QStringLiteral("rule"),
                     QStringLiteral("time_ns"),  QStringLiteral("share_percent"),
                     QStringLiteral("finding"),  QStringLiteral("next_step")};
    std::uint64_t position = 0;
    for (const Finding& f : findings.findings) {
        const FindingWords words = findingWords(trace, f);
        table.rows.push_back(
            {ReportCell::number(++position), ReportCell::string(findingRuleId(f.rule)),
             ReportCell::number(std::int64_t(f.timeNs)), ReportCell::number(f.sharePercent, 2),
             ReportCell::string(words.finding), ReportCell::string(words.nextStep)});
    }
    return table;
}

QStringList evidenceColumns(FindingRule rule) {
    switch (groupOf(rule)) {
    case Group::Expert:
        return findingtext::expertEvidenceColumns(rule);
    case Group::Launch:
        return findingtext::launchEvidenceColumns(rule);
    case Group::Recommendation:
        break;
    }
    return findingtext::recommendationEvidenceColumns(rule);
}

ReportTable evidenceTable(const Trace& trace, const Finding& finding) {
    ReportTable table;
    table.columns = evidenceColumns(finding.rule);
    const Group group = groupOf(finding.rule);
    for (const FindingEvidence& row : finding.evidence) {
        switch (group) {
        case Group::Expert:
            table.rows.push_back(findingtext::expertEvidenceRow(trace, finding, row));
            break;
        case Group::Launch:
            table.rows.push_back(findingtext::launchEvidenceRow(trace, finding, row));
            break;
        case Group::Recommendation:
            table.rows.push_back(findingtext::recommendationEvidenceRow(trace, finding, row));
            break;
        }
    }
    return table;
}

FindingWords jobFindingWords(const Finding& finding) {
    if (finding.rule == FindingRule::Straggler)
        return findingtext::stragglerWords(finding);
    return {};
}

QString jobSkippedRuleText(const SkippedRule& skipped) {
    if (skipped.rule == FindingRule::Straggler && skipped.missing == MissingData::Communication)
        return QStringLiteral("straggler needs collectives matched across the ranks, which this "
                              "job does not have.");
    return QStringLiteral("%1 needs %2, which this job does not record.")
        .arg(findingRuleId(skipped.rule), missingPhrase(skipped.missing));
}

ReportTable jobEvidenceTable(const Finding& finding) {
    ReportTable table;
    if (finding.rule != FindingRule::Straggler)
        return table;
    table.columns = evidenceColumns(finding.rule);
    for (const FindingEvidence& row : finding.evidence)
        table.rows.push_back(findingtext::stragglerEvidenceRow(row));
    return table;
}

} // namespace strobe
