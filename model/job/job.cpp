// SPDX-License-Identifier: MIT
#include "model/job/job.h"

#include <QFileInfo>
#include <QStringBuilder>
#include <algorithm>
#include <map>
#include <numeric>
#include <set>

namespace strobe {

namespace {

constexpr std::size_t kListed = 16; // numbers a warning lists

// "0, 1, 5 and 7 more" for a warning: at most kListed of `n`, whose whole count is `total`.
QString numberList(const std::vector<std::uint32_t>& n, std::size_t total) {
    QStringList parts;
    for (std::size_t i = 0; i < n.size() && i < kListed; ++i)
        parts << QString::number(n[i]);
    QString text = parts.join(QStringLiteral(", "));
    if (total > kListed)
        text += QStringLiteral(" and %1 more").arg(total - kListed);
    return text;
}
QString numberList(const std::vector<std::uint32_t>& n) {
    return numberList(n, n.size());
}

QString fileName(const RankSummary& s) {
    const QString name = QFileInfo(s.file).fileName();
    return s.pid ? name % QStringLiteral(" (pid ") % QString::number(*s.pid) % u')' : name;
}

// `r` moved by `offset`, saturated: sums of hostile times never overflow.
TimeRange shifted(TimeRange r, TimeNs offset) {
    return {saturatingAdd(r.start, offset), saturatingAdd(r.end, offset)};
}

// Each rank's clock origin minus the earliest; 0 for a rank that records none.
std::vector<TimeNs> wallOffsets(const Job& job) {
    std::optional<std::int64_t> earliest;
    for (const RankSummary& r : job.ranks) {
        if (r.clockOriginNs && (!earliest || *r.clockOriginNs < *earliest))
            earliest = r.clockOriginNs;
    }
    std::vector<TimeNs> out;
    for (const RankSummary& r : job.ranks)
        out.push_back(r.clockOriginNs ? clampTime(saturatingSub(*r.clockOriginNs, *earliest)) : 0);
    return out;
}

void warnMixed(Job& job) {
    std::map<std::uint32_t, std::vector<std::uint32_t>> bySize;
    std::set<QString> formats;
    std::uint32_t worldSize = 0;
    for (const RankSummary& r : job.ranks) {
        formats.insert(r.format);
        if (r.worldSize) {
            bySize[*r.worldSize].push_back(r.rank);
            worldSize = std::max(worldSize, *r.worldSize);
        }
    }
    if (bySize.size() > 1) {
        QStringList parts;
        for (const auto& [size, ranks] : bySize)
            parts << QString::number(size) % QStringLiteral(" (rank ") % numberList(ranks) % u')';
        job.warnings << QStringLiteral("The ranks disagree on the world size: ") %
                            parts.join(QStringLiteral(", ")) % u'.';
    }
    if (worldSize > 0) {
        // Counted, and the first few listed, without walking a world size a file may inflate.
        const auto present =
            std::size_t(std::count_if(job.ranks.begin(), job.ranks.end(),
                                      [&](const RankSummary& r) { return r.rank < worldSize; }));
        const std::size_t missing = worldSize - present;
        std::vector<std::uint32_t> listed;
        std::size_t next = 0;
        for (std::uint32_t r = 0; r < worldSize && listed.size() <= kListed; ++r) {
            while (next < job.ranks.size() && job.ranks[next].rank < r)
                ++next;
            if (next == job.ranks.size() || job.ranks[next].rank != r)
                listed.push_back(r);
        }
        if (missing > 0)
            job.warnings << QStringLiteral("%1 of %2 ranks are missing: %3.")
                                .arg(missing)
                                .arg(worldSize)
                                .arg(numberList(listed, missing));
    }
    if (formats.size() > 1)
        job.warnings
            << QStringLiteral("The job mixes trace formats (%1): its ranks may come "
                              "from different runs.")
                   .arg(QStringList(formats.begin(), formats.end()).join(QStringLiteral(", ")));
    // A rank whose GPU work does not overlap any other rank's on the wall clock is from
    // another run.
    const std::vector<TimeNs> wall = wallOffsets(job);
    for (std::size_t i = 0; i < job.ranks.size() && job.ranks.size() > 1; ++i) {
        const TimeRange a = shifted(job.ranks[i].gpuSpan, wall[i]);
        bool overlaps = a.isEmpty();
        for (std::size_t j = 0; j < job.ranks.size() && !overlaps; ++j) {
            const TimeRange b = shifted(job.ranks[j].gpuSpan, wall[j]);
            overlaps = j != i && !b.isEmpty() && a.start < b.end && b.start < a.end;
        }
        if (!overlaps)
            job.warnings << QStringLiteral("Rank %1 (%2) overlaps no other rank in time: it "
                                           "may belong to another job.")
                                .arg(job.ranks[i].rank)
                                .arg(fileName(job.ranks[i]));
    }
}

} // namespace

Job makeJob(std::vector<RankSummary> summaries, const QStringList& failures) {
    Job job;
    job.warnings = failures;
    std::stable_sort(summaries.begin(), summaries.end(),
                     [](const RankSummary& a, const RankSummary& b) { return a.rank < b.rank; });
    for (RankSummary& s : summaries) {
        if (!job.ranks.empty() && job.ranks.back().rank == s.rank) {
            job.warnings << QStringLiteral("%1 and %2 both claim rank %3; %2 is left out.")
                                .arg(fileName(job.ranks.back()), fileName(s))
                                .arg(s.rank);
            continue;
        }
        for (const QString& w : s.warnings)
            job.warnings << QStringLiteral("Rank %1 (%2): %3").arg(s.rank).arg(fileName(s), w);
        job.ranks.push_back(std::move(s));
    }
    warnMixed(job);
    return job;
}

std::optional<Alignment> parseAlignment(QStringView text) {
    if (text == u"wall")
        return Alignment{Alignment::Kind::Wall, 0};
    if (text == u"collective")
        return Alignment{Alignment::Kind::Collective, 0};
    if (text.startsWith(u"step:")) {
        bool ok = false;
        const qulonglong n = text.mid(5).toULongLong(&ok);
        if (ok && !text.mid(5).startsWith(u'+'))
            return Alignment{Alignment::Kind::Step, n};
    }
    return std::nullopt;
}

namespace {

// A match key: (process group, or the stream's ordinal when none; kind), its names job-wide.
struct MatchKey {
    QString group; // empty: none recorded
    std::uint32_t stream = 0;
    QString kind;
};

// Every call's key as an index into `keys`, rank after rank (each rank's calls in order). The
// names are told apart once per rank and name, not per call.
std::vector<std::uint32_t> keyOfEachCall(const Job& job, std::vector<MatchKey>& keys) {
    std::size_t total = 0;
    for (const RankSummary& r : job.ranks)
        total += r.collectives.size();
    std::vector<std::uint32_t> out;
    out.reserve(total);
    std::map<std::tuple<QString, std::uint32_t, QString>, std::uint32_t> ids;
    for (const RankSummary& r : job.ranks) {
        // This rank's (group index + 1 or 0, stream when no group, kind index) -> key id: a
        // rank has a handful, so a list searched from the last hit.
        using Local = std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>;
        std::vector<std::pair<Local, std::uint32_t>> local;
        std::size_t last = 0;
        for (const RankCollective& c : r.collectives) {
            const Local l = c.processGroup ? Local{*c.processGroup + 1, 0, c.kind}
                                           : Local{0, c.streamOrdinal, c.kind};
            if (last >= local.size() || local[last].first != l) {
                last = std::size_t(std::find_if(local.begin(), local.end(),
                                                [&](const auto& e) { return e.first == l; }) -
                                   local.begin());
                if (last == local.size()) {
                    const std::optional<QString> group = r.processGroupOf(c);
                    const QString& kind = r.kindOf(c);
                    const std::uint32_t stream = group ? 0 : c.streamOrdinal;
                    const auto [it, added] = ids.try_emplace(
                        {group.value_or(QString()), stream, kind}, std::uint32_t(keys.size()));
                    if (added)
                        keys.push_back({group.value_or(QString()), stream, kind});
                    local.emplace_back(l, it->second);
                }
            }
            out.push_back(local[last].second);
        }
    }
    return out;
}

} // namespace

CollectiveMatch matchCollectives(const Job& job) {
    // Each rank's calls of a key in order; the k-th calls of every rank that has the key form a
    // match. A key missing on some rank, or a rank with fewer calls, leaves the extra calls
    // unmatched. Keys are numbered once, then the calls bucketed by key (counting sort): linear
    // in the calls but for the keys' and the matches' sorts.
    std::vector<MatchKey> keys;
    const std::vector<std::uint32_t> keyOf = keyOfEachCall(job, keys);
    std::vector<std::size_t> first(keys.size() + 1, 0); // key -> its calls' start in `calls`
    for (const std::uint32_t k : keyOf)
        ++first[k + 1];
    for (std::size_t k = 0; k < keys.size(); ++k)
        first[k + 1] += first[k];
    // (rank index, call index) by key, then rank, then call: ranks are walked in order.
    std::vector<std::pair<std::uint32_t, std::uint32_t>> calls(keyOf.size());
    {
        std::vector<std::size_t> next(first.begin(), first.end() - 1);
        std::size_t n = 0;
        for (std::uint32_t r = 0; r < job.ranks.size(); ++r) {
            for (std::uint32_t i = 0; i < job.ranks[r].collectives.size(); ++i)
                calls[next[keyOf[n++]]++] = {r, i};
        }
    }
    // The keys in the order of their names, so that collectives starting together come out in
    // the same order whatever order the ranks named them in.
    std::vector<std::uint32_t> byName(keys.size());
    std::iota(byName.begin(), byName.end(), 0u);
    std::sort(byName.begin(), byName.end(), [&](std::uint32_t a, std::uint32_t b) {
        return std::tie(keys[a].group, keys[a].stream, keys[a].kind) <
               std::tie(keys[b].group, keys[b].stream, keys[b].kind);
    });
    const std::vector<TimeNs> wall = wallOffsets(job);
    CollectiveMatch out;
    // One key's calls split by rank: [begin, end) of `calls` each.
    std::vector<std::pair<std::size_t, std::size_t>> runs;
    for (const std::uint32_t k : byName) {
        runs.clear();
        for (std::size_t i = first[k]; i < first[k + 1]; ++i) {
            if (runs.empty() || calls[i].first != calls[runs.back().first].first)
                runs.emplace_back(i, i);
            runs.back().second = i + 1;
        }
        // Without a recorded group every rank takes part; with one, the ranks that call it
        // (the group's members are not recorded apart from its calls).
        const bool everyRank = keys[k].group.isEmpty();
        std::size_t common = std::numeric_limits<std::size_t>::max();
        for (const auto& [b, e] : runs)
            common = std::min(common, e - b);
        if (runs.size() < 2 || (everyRank && runs.size() < job.ranks.size()))
            common = 0;
        for (std::size_t c = 0; c < common; ++c) {
            MatchedCollective m;
            m.kind = keys[k].kind;
            if (!everyRank)
                m.processGroup = keys[k].group;
            m.calls.reserve(runs.size());
            for (const auto& [b, e] : runs)
                m.calls.push_back(calls[b + c]);
            out.matched.push_back(std::move(m));
        }
        for (const auto& [b, e] : runs)
            out.unmatched.insert(out.unmatched.end(), calls.begin() + std::ptrdiff_t(b + common),
                                 calls.begin() + std::ptrdiff_t(e));
    }
    const auto firstStart = [&](const MatchedCollective& m) {
        const auto [r, i] = m.calls.front();
        return saturatingAdd(job.ranks[r].collectives[i].gpu.start, wall[r]);
    };
    std::stable_sort(out.matched.begin(), out.matched.end(),
                     [&](const MatchedCollective& a, const MatchedCollective& b) {
                         return firstStart(a) < firstStart(b);
                     });
    std::sort(out.unmatched.begin(), out.unmatched.end());
    return out;
}

std::vector<TimeNs> alignmentOffsets(const Job& job, const CollectiveMatch& match,
                                     Alignment alignment, QStringList* notes) {
    std::vector<TimeNs> offsets = wallOffsets(job);
    if (alignment.kind == Alignment::Kind::Wall)
        return offsets;
    const std::vector<TimeNs> wall = offsets;
    // Per rank, the instant to line up (its own clock), when it has one.
    std::vector<std::optional<TimeNs>> mark(job.ranks.size());
    if (alignment.kind == Alignment::Kind::Step) {
        for (std::size_t r = 0; r < job.ranks.size(); ++r) {
            for (const RankStep& s : job.ranks[r].steps) {
                if (s.number == alignment.step)
                    mark[r] = s.host.start;
            }
        }
    } else {
        // The first matched collective each rank takes part in: every rank's first one in
        // the common case.
        for (const MatchedCollective& m : match.matched) {
            for (const auto& [r, i] : m.calls) {
                if (!mark[r])
                    mark[r] = job.ranks[r].collectives[i].gpu.end;
            }
        }
    }
    std::optional<std::size_t> ref;
    for (std::size_t r = 0; r < mark.size() && !ref; ++r) {
        if (mark[r])
            ref = r;
    }
    std::vector<std::uint32_t> unplaced;
    for (std::size_t r = 0; r < job.ranks.size(); ++r) {
        if (ref && mark[r])
            offsets[r] = saturatingSub(saturatingAdd(*mark[*ref], wall[*ref]), *mark[r]);
        else
            unplaced.push_back(job.ranks[r].rank);
    }
    if (!unplaced.empty() && notes) {
        const QString what = alignment.kind == Alignment::Kind::Step
                                 ? QStringLiteral("no ProfilerStep#%1").arg(alignment.step)
                                 : QStringLiteral("no matched collective");
        *notes << QStringLiteral("Rank %1 has %2: aligned on the wall clock instead.")
                      .arg(numberList(unplaced), what);
    }
    return offsets;
}

std::optional<std::uint64_t> stepOf(const RankSummary& rank, const RankCollective& call) {
    const auto after =
        std::upper_bound(rank.steps.begin(), rank.steps.end(), call.gpu.start,
                         [](TimeNs t, const RankStep& s) { return t < s.host.start; });
    if (after == rank.steps.begin())
        return std::nullopt;
    return std::prev(after)->number;
}

std::vector<CollectiveTiming> timeCollectives(const Job& job, const CollectiveMatch& match,
                                              const std::vector<TimeNs>& offsets) {
    std::vector<CollectiveTiming> out;
    out.reserve(match.matched.size());
    for (const MatchedCollective& m : match.matched) {
        CollectiveTiming t;
        TimeNs last = std::numeric_limits<TimeNs>::min();
        t.transfer = std::numeric_limits<TimeNs>::max();
        for (std::size_t k = 0; k < m.calls.size(); ++k) {
            const auto [r, i] = m.calls[k];
            const TimeRange g = job.ranks[r].collectives[i].gpu;
            t.gpu.push_back(shifted(g, offsets[r]));
            if (t.gpu.back().start > last) {
                last = t.gpu.back().start;
                t.lastArriver = k;
            }
            t.transfer = std::min(t.transfer, g.duration());
        }
        for (const TimeRange& g : t.gpu)
            t.wait.push_back(saturatingSub(last, g.start));
        const auto [r0, i0] = m.calls.front();
        t.step = stepOf(job.ranks[r0], job.ranks[r0].collectives[i0]);
        out.push_back(std::move(t));
    }
    return out;
}

std::vector<RankWaits> rankWaits(const Job& job, const CollectiveMatch& match,
                                 const std::vector<CollectiveTiming>& timings) {
    // Per rank, the wait summed per step index (RankSummary::steps) and whether a call fell in
    // it; turned into step numbers at the end (a damaged file may repeat a number).
    std::vector<std::vector<TimeNs>> perStep(job.ranks.size());
    std::vector<std::vector<bool>> called(job.ranks.size());
    for (std::size_t r = 0; r < job.ranks.size(); ++r) {
        perStep[r].assign(job.ranks[r].steps.size(), 0);
        called[r].assign(job.ranks[r].steps.size(), false);
    }
    // Each call's step index by stepOf's rule (the last step whose host start is at or before
    // the call's start), found rank by rank so that each rank's steps stay in cache;
    // kNoStep before the first.
    constexpr std::uint32_t kNoStep = std::numeric_limits<std::uint32_t>::max();
    std::vector<std::vector<std::uint32_t>> stepOfCall(job.ranks.size());
    for (std::size_t r = 0; r < job.ranks.size(); ++r) {
        const RankSummary& rank = job.ranks[r];
        stepOfCall[r].reserve(rank.collectives.size());
        for (const RankCollective& c : rank.collectives) {
            const auto after =
                std::upper_bound(rank.steps.begin(), rank.steps.end(), c.gpu.start,
                                 [](TimeNs t, const RankStep& s) { return t < s.host.start; });
            stepOfCall[r].push_back(after == rank.steps.begin()
                                        ? kNoStep
                                        : std::uint32_t(after - rank.steps.begin() - 1));
        }
    }
    std::vector<RankWaits> out(job.ranks.size());
    for (std::size_t m = 0; m < match.matched.size(); ++m) {
        for (std::size_t k = 0; k < match.matched[m].calls.size(); ++k) {
            const auto [r, i] = match.matched[m].calls[k];
            out[r].total = saturatingAdd(out[r].total, timings[m].wait[k]);
            const std::uint32_t s = stepOfCall[r][i];
            if (s == kNoStep)
                continue;
            perStep[r][s] = saturatingAdd(perStep[r][s], timings[m].wait[k]);
            called[r][s] = true;
        }
    }
    for (std::size_t r = 0; r < out.size(); ++r) {
        std::map<std::uint64_t, TimeNs> byNumber;
        for (std::size_t s = 0; s < perStep[r].size(); ++s) {
            if (called[r][s]) {
                TimeNs& w = byNumber[job.ranks[r].steps[s].number];
                w = saturatingAdd(w, perStep[r][s]);
            }
        }
        out[r].perStep.assign(byNumber.begin(), byNumber.end());
    }
    return out;
}

Stragglers findStragglers(const Job& job, const CollectiveMatch& match,
                          const std::vector<CollectiveTiming>& timings) {
    // step -> rank index -> the wait it caused in that step
    std::map<std::uint64_t, std::map<std::uint32_t, TimeNs>> caused;
    std::vector<TimeNs> total(job.ranks.size(), 0);
    for (std::size_t m = 0; m < match.matched.size(); ++m) {
        const CollectiveTiming& t = timings[m];
        TimeNs others = 0;
        for (TimeNs w : t.wait)
            others = saturatingAdd(others, w);
        const std::uint32_t late = match.matched[m].calls[t.lastArriver].first;
        total[late] = saturatingAdd(total[late], others);
        if (t.step) {
            auto& step = caused[*t.step];
            step[late] = saturatingAdd(step[late], others);
        }
    }
    Stragglers out;
    std::vector<std::uint32_t> lateSteps(job.ranks.size(), 0);
    for (const auto& [step, byRank] : caused) {
        std::optional<std::uint32_t> worst;
        for (const auto& [r, w] : byRank) {
            if (w > 0 && (!worst || w > byRank.at(*worst)))
                worst = r;
        }
        if (worst)
            ++lateSteps[*worst];
    }
    const auto steps = std::uint32_t(caused.size());
    for (std::uint32_t r = 0; r < job.ranks.size(); ++r) {
        out.rows.push_back({job.ranks[r].rank, lateSteps[r], steps, total[r]});
        if (steps > 0 && 2 * std::uint64_t(lateSteps[r]) > steps)
            out.rank = job.ranks[r].rank;
    }
    std::stable_sort(
        out.rows.begin(), out.rows.end(),
        [](const StragglerRow& a, const StragglerRow& b) { return a.waitCaused > b.waitCaused; });
    return out;
}

JobAnalysis analyseJob(const Job& job, Alignment alignment) {
    JobAnalysis a;
    a.match = matchCollectives(job);
    a.offsets = alignmentOffsets(job, a.match, alignment, &a.notes);
    a.timings = timeCollectives(job, a.match, a.offsets);
    a.waits = rankWaits(job, a.match, a.timings);
    a.stragglers = findStragglers(job, a.match, a.timings);
    return a;
}

} // namespace strobe
