// SPDX-License-Identifier: MIT
#include "model/job/jobfindings.h"

#include <algorithm>

namespace strobe {

namespace {

// The mean of a rank's steps' host durations; nullopt without steps.
std::optional<TimeNs> meanStep(const RankSummary& s) {
    if (s.steps.empty())
        return std::nullopt;
    TimeNs sum = 0;
    for (const RankStep& st : s.steps)
        sum = saturatingAdd(sum, st.host.duration());
    return sum / TimeNs(s.steps.size());
}

} // namespace

Findings jobFindings(const Job& job, const JobAnalysis& a) {
    Findings out;
    if (a.match.matched.empty() || a.timings.size() != a.match.matched.size()) {
        out.skipped.push_back({FindingRule::Straggler, MissingData::Communication});
        return out;
    }
    if (!a.stragglers.rank)
        return out;
    const std::uint32_t rank = *a.stragglers.rank;
    const auto row = std::find_if(a.stragglers.rows.begin(), a.stragglers.rows.end(),
                                  [rank](const StragglerRow& r) { return r.rank == rank; });
    if (row == a.stragglers.rows.end())
        return out;

    Finding f;
    f.rule = FindingRule::Straggler;
    f.timeNs = row->waitCaused;
    f.subject = QStringLiteral("rank %1").arg(rank);
    f.measured = double(row->lateSteps);
    f.threshold = double(row->steps) / 2; // late in more than half the steps
    TimeNs steps = 0;
    TimeNs spans = 0;
    for (const RankSummary& s : job.ranks) {
        if (s.rank == rank)
            continue;
        for (const RankStep& st : s.steps)
            steps = saturatingAdd(steps, st.host.duration());
        spans = saturatingAdd(spans, s.gpuSpan.duration());
    }
    f.base = steps > 0 ? ShareBase::Step : ShareBase::Span;
    f.baseNs = steps > 0 ? steps : spans;
    f.sharePercent =
        f.baseNs > 0 ? std::min(100.0, 100.0 * double(f.timeNs) / double(f.baseNs)) : 0.0;

    for (std::size_t m = 0; m < a.match.matched.size(); ++m) {
        const MatchedCollective& mc = a.match.matched[m];
        const CollectiveTiming& t = a.timings[m];
        if (t.lastArriver >= mc.calls.size() || t.gpu.size() != mc.calls.size() ||
            t.wait.size() != mc.calls.size())
            continue;
        const std::uint32_t late = mc.calls[t.lastArriver].first;
        if (late >= job.ranks.size() || job.ranks[late].rank != rank)
            continue;
        TimeNs others = 0;
        TimeNs first = t.gpu[t.lastArriver].start;
        for (std::size_t i = 0; i < mc.calls.size(); ++i) {
            others = saturatingAdd(others, t.wait[i]);
            first = std::min(first, t.gpu[i].start);
        }
        if (others <= 0)
            continue;
        FindingEvidence e;
        e.range = {first, t.gpu[t.lastArriver].start};
        e.deviceId = job.ranks[late].deviceId;
        e.rank = rank;
        e.value = double(others);
        f.evidence.push_back(e);
        ++f.count;
    }
    out.findings.push_back(std::move(f));
    return out;
}

JobHeadline jobHeadline(const Job& job) {
    JobHeadline h;
    h.ranks = job.ranks.size();
    TimeNs mostExposed = 0;
    for (std::size_t r = 0; r < job.ranks.size(); ++r) {
        const RankSummary& s = job.ranks[r];
        if (s.worldSize)
            h.worldSize = std::max(h.worldSize.value_or(0), *s.worldSize);
        if (const auto mean = meanStep(s)) {
            if (!h.slowestRank || *mean > h.slowestMeanStep) {
                h.slowestRank = r;
                h.slowestMeanStep = *mean;
            }
            if (!h.fastestRank || *mean < h.fastestMeanStep) {
                h.fastestRank = r;
                h.fastestMeanStep = *mean;
            }
        }
        h.exposedCommunication =
            saturatingAdd(h.exposedCommunication, s.whole.exposedCommunication);
        h.span = saturatingAdd(h.span, s.whole.span);
        if (s.whole.exposedCommunication > mostExposed) {
            mostExposed = s.whole.exposedCommunication;
            h.mostExposedRank = r;
        }
    }
    return h;
}

} // namespace strobe
