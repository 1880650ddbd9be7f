// SPDX-License-Identifier: MIT
#include "model/reports/jobreports.h"

#include <QStringBuilder>
#include <algorithm>
#include <memory>

namespace strobe {

namespace {

ReportCell ns(TimeNs v) {
    return ReportCell::number(std::int64_t(v));
}
ReportCell num(std::uint64_t v) {
    return ReportCell::number(v);
}

// The breakdown columns both tables share, in the order.
void appendBreakdown(std::vector<ReportCell>& row, const RankBreakdown& b) {
    row.insert(row.end(), {ns(b.compute), ns(b.communication), ns(b.exposedCommunication),
                           ns(b.memory), ns(b.idle)});
}

// HTA's window beside each rank's own (docs/JOBS.md), null without two ProfilerSteps.
void appendHtaWindow(ReportTable& table, const Job& job) {
    table.columns << QStringLiteral("hta_compute_ns") << QStringLiteral("hta_communication_ns")
                  << QStringLiteral("hta_idle_ns") << QStringLiteral("hta_span_ns")
                  << QStringLiteral("hta_overlap_percent");
    for (std::size_t r = 0; r < job.ranks.size(); ++r) {
        const std::optional<RankBreakdown>& h = job.ranks[r].htaWindow;
        if (!h) {
            table.rows[r].insert(table.rows[r].end(), 5, ReportCell::null());
            continue;
        }
        table.rows[r].insert(table.rows[r].end(),
                             {ns(h->compute), ns(h->communication), ns(h->idle), ns(h->span),
                              ReportCell::number(h->overlapPercent(), 2)});
    }
}

} // namespace

ReportTable jobRanksTable(const Job& job, const JobAnalysis& a, bool htaWindow) {
    ReportTable table;
    table.columns = QStringList{QStringLiteral("rank"),
                                QStringLiteral("file"),
                                QStringLiteral("gpu"),
                                QStringLiteral("offset_ns"),
                                QStringLiteral("compute_ns"),
                                QStringLiteral("communication_ns"),
                                QStringLiteral("exposed_communication_ns"),
                                QStringLiteral("memory_ns"),
                                QStringLiteral("idle_ns"),
                                QStringLiteral("span_ns"),
                                QStringLiteral("overlap_percent"),
                                QStringLiteral("collective_wait_ns")};
    for (std::size_t r = 0; r < job.ranks.size(); ++r) {
        const RankSummary& s = job.ranks[r];
        std::vector<ReportCell> row{num(s.rank), ReportCell::string(s.file),
                                    ReportCell::string(s.gpu), ns(a.offsets[r])};
        appendBreakdown(row, s.whole);
        row.insert(row.end(), {ns(s.whole.span), ReportCell::number(s.whole.overlapPercent(), 2),
                               ns(a.waits[r].total)});
        table.rows.push_back(std::move(row));
    }
    if (htaWindow)
        appendHtaWindow(table, job);
    return table;
}

ReportTable jobStepsTable(const Job& job, const JobAnalysis& a) {
    ReportTable table;
    table.columns = QStringList{QStringLiteral("rank"),
                                QStringLiteral("step"),
                                QStringLiteral("start_ns"),
                                QStringLiteral("end_ns"),
                                QStringLiteral("compute_ns"),
                                QStringLiteral("communication_ns"),
                                QStringLiteral("exposed_communication_ns"),
                                QStringLiteral("memory_ns"),
                                QStringLiteral("idle_ns"),
                                QStringLiteral("collective_wait_ns")};
    // Row i is step i - first[r] of rank r: made when written (1,024 ranks of 831 steps each
    // are 850,944 rows).
    auto first = std::make_shared<std::vector<std::size_t>>(job.ranks.size() + 1, 0);
    for (std::size_t r = 0; r < job.ranks.size(); ++r)
        (*first)[r + 1] = (*first)[r] + job.ranks[r].steps.size();
    table.streamedRows = first->back();
    table.fillRow = [&job, &a, first](std::size_t i, std::vector<ReportCell>& row) {
        const auto r =
            std::size_t(std::upper_bound(first->begin(), first->end(), i) - first->begin()) - 1;
        const RankSummary& s = job.ranks[r];
        const RankStep& step = s.steps[i - (*first)[r]];
        const auto& perStep = a.waits[r].perStep; // by step number
        const auto it = std::lower_bound(
            perStep.begin(), perStep.end(), step.number,
            [](const std::pair<std::uint64_t, TimeNs>& w, std::uint64_t n) { return w.first < n; });
        const TimeNs wait = it != perStep.end() && it->first == step.number ? it->second : 0;
        row.insert(row.end(),
                   {num(s.rank), num(step.number), ns(saturatingAdd(step.host.start, a.offsets[r])),
                    ns(saturatingAdd(step.host.end, a.offsets[r]))});
        appendBreakdown(row, step.breakdown);
        row.push_back(ns(wait));
    };
    return table;
}

ReportTable jobCollectivesTable(const Job& job, const JobAnalysis& a) {
    ReportTable table;
    table.columns = QStringList{QStringLiteral("index"),       QStringLiteral("kind"),
                                QStringLiteral("rank"),        QStringLiteral("start_ns"),
                                QStringLiteral("end_ns"),      QStringLiteral("wait_ns"),
                                QStringLiteral("transfer_ns"), QStringLiteral("last_arriver")};
    // Row i is call k of matched collective m: `first[m]` is the rows before m's. A job of
    // 1,024 ranks has millions of rows: each is made when written, never all held.
    auto first = std::make_shared<std::vector<std::size_t>>(a.match.matched.size() + 1, 0);
    for (std::size_t m = 0; m < a.match.matched.size(); ++m)
        (*first)[m + 1] = (*first)[m] + a.match.matched[m].calls.size();
    table.streamedRows = first->back();
    table.fillRow = [&job, &a, first](std::size_t i, std::vector<ReportCell>& row) {
        const auto m =
            std::size_t(std::upper_bound(first->begin(), first->end(), i) - first->begin()) - 1;
        const std::size_t k = i - (*first)[m];
        const MatchedCollective& c = a.match.matched[m];
        const CollectiveTiming& timing = a.timings[m];
        const std::uint32_t last = job.ranks[c.calls[timing.lastArriver].first].rank;
        row.insert(row.end(),
                   {num(m), ReportCell::string(c.kind), num(job.ranks[c.calls[k].first].rank),
                    ns(timing.gpu[k].start), ns(timing.gpu[k].end), ns(timing.wait[k]),
                    ns(timing.transfer), num(last)});
    };
    return table;
}

ReportTable jobStragglersTable(const JobAnalysis& a) {
    const Stragglers& s = a.stragglers;
    ReportTable table;
    table.columns = QStringList{QStringLiteral("rank"), QStringLiteral("late_steps"),
                                QStringLiteral("steps"), QStringLiteral("wait_caused_ns")};
    for (const StragglerRow& r : s.rows)
        table.rows.push_back({num(r.rank), num(r.lateSteps), num(r.steps), ns(r.waitCaused)});
    return table;
}

QString unmatchedSentence(const Job& job, const JobAnalysis& a) {
    const auto& unmatched = a.match.unmatched;
    if (unmatched.empty())
        return {};
    QStringList listed;
    for (std::size_t i = 0; i < unmatched.size() && i < 8; ++i) {
        const auto [r, c] = unmatched[i];
        const RankCollective& call = job.ranks[r].collectives[c];
        listed << QStringLiteral("rank %1 %2 #%3 on stream %4")
                      .arg(job.ranks[r].rank)
                      .arg(job.ranks[r].kindOf(call))
                      .arg(call.order)
                      .arg(call.streamOrdinal);
    }
    if (unmatched.size() > 8)
        listed << QStringLiteral("%1 more").arg(unmatched.size() - 8);
    return QStringLiteral("%1 collectives have no partner on some rank and are left unmatched: "
                          "%2.")
        .arg(unmatched.size())
        .arg(listed.join(QStringLiteral(", ")));
}

QString stragglerVerdict(const Job& job, const JobAnalysis& a) {
    const Stragglers& s = a.stragglers;
    if (!s.rank)
        return QStringLiteral("no rank is consistently late");
    const auto row = std::find_if(s.rows.begin(), s.rows.end(),
                                  [&](const StragglerRow& r) { return r.rank == *s.rank; });
    // The wait each other rank spends on it per step.
    const double perStep = double(row->waitCaused) / double(row->steps) /
                           double(std::max<std::size_t>(1, job.ranks.size() - 1));
    return QStringLiteral("rank %1 starts its collectives last in %2 of %3 steps; the other ranks "
                          "wait %4 ms per step for it")
        .arg(*s.rank)
        .arg(row->lateSteps)
        .arg(row->steps)
        .arg(perStep / 1e6, 0, 'f', 1);
}

} // namespace strobe
