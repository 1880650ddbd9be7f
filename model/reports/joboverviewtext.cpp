// SPDX-License-Identifier: MIT
#include "model/reports/joboverviewtext.h"

#include "model/timeformat.h"

namespace strobe {

QString jobRanksText(const Job& job, const JobHeadline& h) {
    QString backend;
    for (const RankSummary& s : job.ranks)
        if (!s.backend.isEmpty()) {
            backend = s.backend;
            break;
        }
    QString text;
    if (h.worldSize && *h.worldSize != h.ranks)
        text = QStringLiteral("%1 of %2 ranks, world size %2").arg(h.ranks).arg(*h.worldSize);
    else if (h.worldSize)
        text = QStringLiteral("%1 ranks, world size %2").arg(h.ranks).arg(*h.worldSize);
    else
        text = h.ranks == 1 ? QStringLiteral("1 rank") : QStringLiteral("%1 ranks").arg(h.ranks);
    if (!backend.isEmpty())
        text += QStringLiteral(" (%1)").arg(backend);
    return text;
}

QString slowestRankText(const Job& job, const JobHeadline& h) {
    if (!h.slowestRank || !h.fastestRank || *h.slowestRank >= job.ranks.size() ||
        *h.fastestRank >= job.ranks.size())
        return QStringLiteral("No rank records ProfilerStep ranges, so the ranks' step times are "
                              "not known.");
    if (h.slowestMeanStep == h.fastestMeanStep)
        return QStringLiteral("Every rank's steps take %1 on average.")
            .arg(formatDuration(h.slowestMeanStep));
    return QStringLiteral("rank %1 has the slowest steps: %2 on average (rank %3 the fastest: "
                          "%4).")
        .arg(job.ranks[*h.slowestRank].rank)
        .arg(formatDuration(h.slowestMeanStep))
        .arg(job.ranks[*h.fastestRank].rank)
        .arg(formatDuration(h.fastestMeanStep));
}

QString exposedCommunicationText(const Job& job, const JobHeadline& h) {
    if (h.exposedCommunication <= 0 || !h.mostExposedRank || *h.mostExposedRank >= job.ranks.size())
        return QStringLiteral("No communication is exposed: every rank's collectives run under "
                              "its compute, or it has none.");
    const RankSummary& most = job.ranks[*h.mostExposedRank];
    const double share = h.span > 0 ? 100.0 * double(h.exposedCommunication) / double(h.span) : 0;
    return QStringLiteral("Exposed communication (not hidden under compute): %1 over the ranks, "
                          "%2 % of their GPU time; most on rank %3 (%4).")
        .arg(formatDuration(h.exposedCommunication))
        .arg(share, 0, 'f', 1)
        .arg(most.rank)
        .arg(formatDuration(most.whole.exposedCommunication));
}

} // namespace strobe
