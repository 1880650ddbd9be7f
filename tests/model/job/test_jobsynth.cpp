// SPDX-License-Identifier: MIT
// Whole jobs of real traces from the Kineto job writer (strobe-cli synth --ranks), opened as the
// CLI and the viewer open them (load, summarise on all cores, match): the injected straggler,
// its delay as every other rank's wait to the nanosecond, and the clock skew as the offsets.
#include "formats/kineto/synth/kinetosynth.h"
#include "formats/open.h"
#include "model/job/jobopen.h"

#include <QDir>
#include <QTemporaryDir>
#include <gtest/gtest.h>

using namespace strobe;

namespace {

struct Written {
    QTemporaryDir dir;
    kinetosynth::KinetoJobStats stats;
};

std::unique_ptr<Written> writeJob(const kinetosynth::KinetoJobOptions& o) {
    auto w = std::make_unique<Written>();
    std::string error;
    EXPECT_TRUE(kinetosynth::writeKinetoJob(w->dir.path().toStdString(), o, &error, &w->stats))
        << error;
    return w;
}

Job open(const Written& w) {
    const TraceLoader load = [](const QString& path, QString* error) {
        LoadResult r = loadTrace(path, LoadOptions{});
        if (!r.ok())
            *error = r.error;
        return std::move(r.trace);
    };
    return openJob(findJobFiles(w.dir.path()), load, KernelClassTable::defaults(), 4);
}

class SynthJob : public ::testing::TestWithParam<std::uint32_t> {};

} // namespace

TEST_P(SynthJob, TheInjectedStragglerIsNamedAndEveryWaitIsItsDelay) {
    kinetosynth::KinetoJobOptions o;
    o.ranks = GetParam();
    o.events = 3'000;
    o.straggler = o.ranks - 1;
    o.delayNs = 4'321'000;
    const auto written = writeJob(o);
    const Job job = open(*written);
    ASSERT_EQ(job.ranks.size(), o.ranks);
    EXPECT_TRUE(job.warnings.isEmpty()) << job.warnings.join(u' ').toStdString();
    const CollectiveMatch match = matchCollectives(job);
    EXPECT_TRUE(match.unmatched.empty());
    ASSERT_EQ(match.matched.size(), written->stats.ranks[0].collectives);
    const auto offsets = alignmentOffsets(job, match, {}, nullptr);
    EXPECT_EQ(offsets, std::vector<TimeNs>(o.ranks, 0));
    const auto timings = timeCollectives(job, match, offsets);
    for (std::size_t m = 0; m < timings.size(); ++m) {
        ASSERT_EQ(match.matched[m].calls.size(), o.ranks);
        EXPECT_EQ(match.matched[m].calls[timings[m].lastArriver].first, *o.straggler);
        for (std::size_t k = 0; k < o.ranks; ++k)
            ASSERT_EQ(timings[m].wait[k], k == *o.straggler ? 0 : o.delayNs)
                << "collective " << m << " rank " << k;
    }
    const Stragglers s = findStragglers(job, match, timings);
    EXPECT_EQ(s.rank, o.straggler);
    EXPECT_EQ(s.rows.front().rank, *o.straggler);
    EXPECT_EQ(s.rows.front().lateSteps, s.rows.front().steps);
    EXPECT_EQ(s.rows.front().waitCaused,
              TimeNs(o.ranks - 1) * o.delayNs * TimeNs(match.matched.size()));
}

TEST_P(SynthJob, NoneInjectedNoneNamed) {
    kinetosynth::KinetoJobOptions o;
    o.ranks = GetParam();
    o.events = 3'000;
    const auto written = writeJob(o);
    const Job job = open(*written);
    const CollectiveMatch match = matchCollectives(job);
    ASSERT_FALSE(match.matched.empty());
    const auto timings = timeCollectives(job, match, alignmentOffsets(job, match, {}, nullptr));
    EXPECT_FALSE(findStragglers(job, match, timings).rank.has_value());
    for (const CollectiveTiming& t : timings) {
        for (TimeNs w : t.wait)
            ASSERT_EQ(w, 0);
    }
}

INSTANTIATE_TEST_SUITE_P(Ranks, SynthJob, ::testing::Values(2u, 8u, 64u));

TEST(SynthJobClocks, StepAndCollectiveAlignmentsUndoTheSkew) {
    kinetosynth::KinetoJobOptions o;
    o.ranks = 8;
    o.events = 3'000;
    o.clockSkewNs = 1'500'000;
    o.straggler = 2;
    o.delayNs = 1'000'000;
    const auto written = writeJob(o);
    const Job job = open(*written);
    const CollectiveMatch match = matchCollectives(job);
    std::vector<TimeNs> skew;
    for (std::uint32_t r = 0; r < o.ranks; ++r)
        skew.push_back(-TimeNs(r) * o.clockSkewNs);
    QStringList notes;
    const std::uint64_t firstStep = job.ranks[0].steps.at(1).number;
    for (const Alignment a :
         {Alignment{Alignment::Kind::Step, firstStep}, Alignment{Alignment::Kind::Collective, 0}}) {
        const auto offsets = alignmentOffsets(job, match, a, &notes);
        EXPECT_EQ(offsets, skew);
        for (const CollectiveTiming& t : timeCollectives(job, match, offsets)) {
            for (std::size_t k = 0; k < t.wait.size(); ++k)
                ASSERT_EQ(t.wait[k], k == 2 ? 0 : o.delayNs);
        }
    }
    EXPECT_TRUE(notes.isEmpty());
}
