// SPDX-License-Identifier: MIT
#pragma once

// Rank summaries of a made-up job with known answers: every rank runs `steps` ProfilerSteps with
// `perStep` all-reduces each; on the true clock every step starts at the same instant on every
// rank, each collective starts at the same instant except on the straggler (`delay` later), and
// all calls of a collective end together, `transfer` after the last one starts. Rank r's clock
// reads true time minus skew[r], and records its origin (base + skew[r]) when `origins`.

#include "model/job/ranksummary.h"

#include <QString>
#include <optional>
#include <vector>

namespace strobe::test {

struct SynthJob {
    std::uint32_t ranks = 2;
    std::uint32_t steps = 4;
    std::uint32_t perStep = 3;
    std::optional<std::uint32_t> straggler;
    TimeNs delay = 0;
    TimeNs transfer = 250'000;
    std::vector<TimeNs> skew; // per rank; empty: none
    bool origins = true;
    std::optional<QString> processGroup;

    static constexpr TimeNs kStep = 100'000'000; // 100 ms
    static constexpr std::int64_t kBase = 1'700'000'000'000'000'000;
    static constexpr std::uint64_t kFirstStep = 10;

    TimeNs skewOf(std::uint32_t r) const { return r < skew.size() ? skew[r] : 0; }
    // True start of collective j of step k on rank r.
    TimeNs trueStart(std::uint32_t r, std::uint32_t k, std::uint32_t j) const {
        return TimeNs(k) * kStep + 1'000'000 + TimeNs(j) * 10'000'000 +
               (straggler && *straggler == r ? delay : 0);
    }
    TimeNs trueEnd(std::uint32_t k, std::uint32_t j) const {
        return TimeNs(k) * kStep + 1'000'000 + TimeNs(j) * 10'000'000 + (straggler ? delay : 0) +
               transfer;
    }

    std::vector<RankSummary> summaries() const {
        std::vector<RankSummary> out;
        for (std::uint32_t r = 0; r < ranks; ++r) {
            const TimeNs shift = skewOf(r);
            RankSummary s;
            s.file = QStringLiteral("rank-%1.pt.trace.json.gz").arg(r);
            s.rank = r;
            s.rankSource = RankSource::Recorded;
            s.worldSize = ranks;
            s.backend = QStringLiteral("nccl");
            s.format = QStringLiteral("kineto-json");
            s.deviceId = r;
            s.gpu = QStringLiteral("GPU %1").arg(r);
            if (origins)
                s.clockOriginNs = kBase + shift;
            s.gpuSpan = {-shift, TimeNs(steps) * kStep - shift};
            for (std::uint32_t k = 0; k < steps; ++k) {
                RankStep step;
                step.number = kFirstStep + k;
                step.host = {TimeNs(k) * kStep - shift, TimeNs(k + 1) * kStep - shift};
                s.steps.push_back(step);
                for (std::uint32_t j = 0; j < perStep; ++j) {
                    RankCollective c;
                    c.kind = s.kindIndex(QStringLiteral("AllReduce"));
                    if (processGroup)
                        c.processGroup = s.processGroupIndex(*processGroup);
                    c.order = k * perStep + j;
                    c.gpu = {trueStart(r, k, j) - shift, trueEnd(k, j) - shift};
                    c.bytes = 4096;
                    s.collectives.push_back(c);
                }
            }
            out.push_back(std::move(s));
        }
        return out;
    }
};

} // namespace strobe::test
