// SPDX-License-Identifier: MIT
// A synthetic job (writeKinetoJob, docs/SYNTH.md) read back through Strobe's Kineto reader: each
// rank's file carries its rank and world size, its collectives sit on the NCCL stream in every
// ProfilerStep, and the k-th collective of every rank is one collective whose arrivals, ends and
// transfer time are the documented ones. The relation is computed here from the loaded kernels
// (last arriver's start minus each start; shortest duration), not by any job code.
#include "formats/kineto/synth/kinetosynth.h"
#include "formats/open.h"

#include <gtest/gtest.h>

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <algorithm>
#include <map>
#include <set>

using namespace strobe;
using strobe::kinetosynth::KinetoJobOptions;
using strobe::kinetosynth::KinetoJobStats;

namespace {

constexpr std::uint32_t kMainTid = 3141592;
constexpr std::uint32_t kNcclStream = 20;
constexpr std::int64_t kMiB = 1 << 20;

// docs/SYNTH.md's transfer time, written out again: a ring all-reduce moves 2 (N - 1) / N of the
// bytes; 100 bytes per ns; 20 us of latency.
std::int64_t documentedTransfer(std::int64_t bytes, std::int64_t ranks) {
    return 20000 + 2 * (ranks - 1) * bytes / (100 * ranks);
}

struct Collective {
    std::string name;
    TimeNs start = 0, end = 0;
};

// One rank's trace as the tests need it: its metadata, and per ProfilerStep#N its collectives in
// start order.
struct RankView {
    std::optional<std::uint32_t> rank, worldSize;
    QString backend;
    std::set<std::uint32_t> ncclDevices;
    std::map<std::string, TimeNs> stepStarts;
    std::vector<std::pair<std::string, std::vector<Collective>>> steps;
};

RankView viewOf(const QString& path) {
    RankView v;
    LoadResult r = loadTrace(path);
    EXPECT_TRUE(r.ok()) << path.toStdString() << ": " << r.error.toStdString();
    if (!r.ok())
        return v;
    const Trace& t = *r.trace;
    EXPECT_TRUE(t.warnings().empty()) << t.warnings().front().message.toStdString();
    v.rank = t.metadata().rank;
    v.worldSize = t.metadata().worldSize;
    v.backend = t.metadata().distributedBackend;
    struct Step {
        std::string name;
        TimeNs start, end;
    };
    std::vector<Step> steps;
    for (const Lane& l : t.lanes()) {
        if (l.kind() != LaneKind::Nvtx || t.threads()[l.owner()].tid != kMainTid)
            continue;
        for (std::uint32_t i = 0; i < l.size(); ++i) {
            const std::string_view n = t.strings().view(l.nameId(i));
            if (n.substr(0, 13) == "ProfilerStep#")
                steps.push_back({std::string(n), l.start(i), l.end(i)});
        }
    }
    std::sort(steps.begin(), steps.end(),
              [](const Step& a, const Step& b) { return a.start < b.start; });
    for (const Step& s : steps) {
        v.steps.emplace_back(s.name, std::vector<Collective>{});
        v.stepStarts[s.name] = s.start;
    }
    for (const KernelRecord& k : t.kernels()) {
        const StreamInfo& stream = t.streams()[k.stream];
        const Lane& lane = t.lane(k.self.lane);
        const std::string name(t.strings().view(lane.nameId(k.self.index)));
        const bool nccl = name.rfind("ncclDevKernel_", 0) == 0;
        EXPECT_EQ(nccl, stream.streamId == kNcclStream) << name;
        if (!nccl)
            continue;
        v.ncclDevices.insert(stream.deviceId);
        const Collective c{name, lane.start(k.self.index), lane.end(k.self.index)};
        // The step whose host range holds the launch: the step synchronises before it ends, so
        // the kernel also ends inside it.
        const auto in = std::find_if(steps.begin(), steps.end(), [&](const Step& s) {
            return s.start <= c.start && c.end <= s.end;
        });
        EXPECT_NE(in, steps.end()) << name << " at " << c.start;
        if (in != steps.end())
            v.steps[std::size_t(in - steps.begin())].second.push_back(c);
    }
    for (auto& [name, collectives] : v.steps)
        std::sort(collectives.begin(), collectives.end(),
                  [](const Collective& a, const Collective& b) { return a.start < b.start; });
    return v;
}

std::vector<RankView> writeAndRead(const QTemporaryDir& dir, const KinetoJobOptions& o,
                                   KinetoJobStats* stats = nullptr) {
    std::string error;
    EXPECT_TRUE(kinetosynth::writeKinetoJob(dir.path().toStdString(), o, &error, stats)) << error;
    std::vector<RankView> views;
    for (std::uint32_t r = 0; r < o.ranks; ++r)
        views.push_back(
            viewOf(dir.filePath(QString::fromStdString(kinetosynth::jobFileName(r, o.gzip)))));
    return views;
}

QByteArray bytesOf(const QString& path) {
    QFile f(path);
    EXPECT_TRUE(f.open(QIODevice::ReadOnly)) << path.toStdString();
    return f.readAll();
}

KinetoJobOptions smallJob() {
    KinetoJobOptions o;
    o.ranks = 4;
    o.events = 12000;
    o.seed = 2;
    o.gzip = false;
    return o;
}

// The matched collectives, step by step and k-th by k-th, with each rank's start and end.
struct Matched {
    std::string step, name;
    std::vector<TimeNs> starts, ends;
};

std::vector<Matched> matchByOrder(const std::vector<RankView>& ranks) {
    std::vector<Matched> out;
    const RankView& first = ranks.front();
    for (std::size_t s = 0; s < first.steps.size(); ++s) {
        for (std::size_t k = 0; k < first.steps[s].second.size(); ++k) {
            Matched m{first.steps[s].first, first.steps[s].second[k].name, {}, {}};
            for (const RankView& r : ranks) {
                EXPECT_EQ(r.steps[s].first, m.step);
                EXPECT_EQ(r.steps[s].second.size(), first.steps[s].second.size()) << m.step;
                const Collective& c = r.steps[s].second.at(k);
                EXPECT_EQ(c.name, m.name);
                m.starts.push_back(c.start);
                m.ends.push_back(c.end);
            }
            out.push_back(std::move(m));
        }
    }
    return out;
}

} // namespace

TEST(KinetoJob, EveryRankKnowsItsRankWorldSizeAndGpu) {
    QTemporaryDir dir;
    KinetoJobOptions o = smallJob();
    o.ranks = 10; // past one host's eight GPUs
    o.events = 3000;
    o.gzip = true;
    KinetoJobStats stats;
    const std::vector<RankView> ranks = writeAndRead(dir, o, &stats);
    ASSERT_EQ(ranks.size(), 10u);
    ASSERT_EQ(stats.ranks.size(), 10u);
    EXPECT_EQ(QDir(dir.path()).entryList(QDir::Files).size(), 10);
    for (std::uint32_t r = 0; r < 10; ++r) {
        EXPECT_TRUE(QFile::exists(dir.filePath(QStringLiteral("rank-%1.json.gz").arg(r))));
        EXPECT_EQ(ranks[r].rank, r);
        EXPECT_EQ(ranks[r].worldSize, 10u);
        EXPECT_EQ(ranks[r].backend, QStringLiteral("nccl"));
        EXPECT_EQ(ranks[r].ncclDevices, std::set<std::uint32_t>{r % 8});
        EXPECT_EQ(stats.ranks[r].events, stats.ranks[0].events);
        EXPECT_GE(stats.ranks[r].events, 3000u);
    }
}

// No straggler: every rank's k-th collective starts and ends at the same nanosecond, so every
// wait is 0 and every duration is the documented transfer time of its bucket.
TEST(KinetoJob, WithoutAStragglerTheRanksArriveTogether) {
    QTemporaryDir dir;
    const KinetoJobOptions o = smallJob();
    KinetoJobStats stats;
    const std::vector<RankView> ranks = writeAndRead(dir, o, &stats);
    const std::vector<Matched> matched = matchByOrder(ranks);
    ASSERT_EQ(matched.size(), stats.ranks[0].collectives);
    ASSERT_GT(stats.ranks[0].steps, 3u);
    const std::set<std::int64_t> transfers = {documentedTransfer(8 * kMiB, 4),
                                              documentedTransfer(16 * kMiB, 4),
                                              documentedTransfer(24 * kMiB, 4)};
    std::map<TimeNs, int> durations;
    for (const Matched& m : matched) {
        EXPECT_EQ(m.name, "ncclDevKernel_AllReduce_Sum_f32_RING_LL"); // the name without arguments
        for (std::size_t r = 0; r < m.starts.size(); ++r) {
            EXPECT_EQ(m.starts[r], m.starts[0]) << m.step << " rank " << r;
            EXPECT_EQ(m.ends[r], m.ends[0]) << m.step << " rank " << r;
        }
        const TimeNs d = m.ends[0] - m.starts[0];
        EXPECT_TRUE(transfers.count(d)) << m.step << ": " << d;
        ++durations[d];
    }
    // Full buckets (three weights, 24 MiB) are most of them.
    EXPECT_GT(durations[documentedTransfer(24 * kMiB, 4)], int(matched.size() / 2));
    // Every step but a cut-short last one has the same collectives.
    for (std::size_t s = 0; s + 1 < ranks[0].steps.size(); ++s)
        EXPECT_EQ(ranks[0].steps[s].second.size(), ranks[0].steps[0].second.size());
}

// Rank 2 arrives 2.5 ms late: in every collective each other rank waits exactly 2.5 ms (the last
// arriver's start minus its own), the straggler 0, all end together, and the transfer time (the
// shortest duration) is the same as in the job without a straggler.
TEST(KinetoJob, TheStragglersDelayIsEveryOtherRanksWait) {
    QTemporaryDir calm, late;
    KinetoJobOptions o = smallJob();
    const std::vector<Matched> together = matchByOrder(writeAndRead(calm, o));
    o.straggler = 2;
    o.delayNs = 2'500'000;
    const std::vector<Matched> matched = matchByOrder(writeAndRead(late, o));
    ASSERT_EQ(matched.size(), together.size());
    ASSERT_GT(matched.size(), 20u);
    for (std::size_t i = 0; i < matched.size(); ++i) {
        const Matched& m = matched[i];
        const TimeNs last = *std::max_element(m.starts.begin(), m.starts.end());
        EXPECT_EQ(m.starts[2], last) << m.step;
        TimeNs transfer = m.ends[0] - m.starts[0];
        for (std::size_t r = 0; r < m.starts.size(); ++r) {
            EXPECT_EQ(last - m.starts[r], r == 2 ? 0 : 2'500'000) << m.step << " rank " << r;
            EXPECT_EQ(m.ends[r], m.ends[0]) << m.step << " rank " << r;
            transfer = std::min(transfer, m.ends[r] - m.starts[r]);
        }
        EXPECT_EQ(transfer, together[i].ends[0] - together[i].starts[0]) << m.step;
        EXPECT_EQ(m.ends[0] - last, transfer) << m.step;
    }
}

// --clock-skew: rank r's every timestamp moves by r times the skew, so aligning on a step or on
// a collective's end recovers exactly that offset.
TEST(KinetoJob, ClockSkewShiftsEachRankByItsMultiple) {
    QTemporaryDir plain, skewed;
    KinetoJobOptions o = smallJob();
    o.ranks = 3;
    o.events = 4000;
    o.straggler = 1;
    o.delayNs = 1'000'000;
    const std::vector<RankView> a = writeAndRead(plain, o);
    o.clockSkewNs = -750'000;
    const std::vector<RankView> b = writeAndRead(skewed, o);
    for (std::uint32_t r = 0; r < 3; ++r) {
        const TimeNs offset = -750'000 * TimeNs(r);
        ASSERT_EQ(a[r].steps.size(), b[r].steps.size());
        for (std::size_t s = 0; s < a[r].steps.size(); ++s) {
            const std::string& step = a[r].steps[s].first;
            EXPECT_EQ(b[r].stepStarts.at(step) - a[r].stepStarts.at(step), offset);
            EXPECT_EQ(a[r].stepStarts.at(step), a[0].stepStarts.at(step)); // one clock unskewed
            const auto& ca = a[r].steps[s].second;
            const auto& cb = b[r].steps[s].second;
            ASSERT_EQ(ca.size(), cb.size());
            for (std::size_t k = 0; k < ca.size(); ++k) {
                EXPECT_EQ(cb[k].start - ca[k].start, offset);
                EXPECT_EQ(cb[k].end - ca[k].end, offset);
            }
        }
    }
}

TEST(KinetoJob, SameSeedSameBytesAnotherSeedAnotherJob) {
    QTemporaryDir one, two, three;
    KinetoJobOptions o = smallJob();
    o.ranks = 3;
    o.events = 3000;
    o.gzip = true;
    o.straggler = 0;
    o.delayNs = 4'000'000;
    o.threads = 3;
    std::string error;
    ASSERT_TRUE(kinetosynth::writeKinetoJob(one.path().toStdString(), o, &error)) << error;
    o.threads = 1;
    ASSERT_TRUE(kinetosynth::writeKinetoJob(two.path().toStdString(), o, &error)) << error;
    o.seed = 3;
    ASSERT_TRUE(kinetosynth::writeKinetoJob(three.path().toStdString(), o, &error)) << error;
    for (std::uint32_t r = 0; r < 3; ++r) {
        const QString name = QStringLiteral("rank-%1.json.gz").arg(r);
        const QByteArray a = bytesOf(one.filePath(name));
        EXPECT_GT(a.size(), 1000);
        EXPECT_EQ(a, bytesOf(two.filePath(name))) << name.toStdString();
        EXPECT_NE(a, bytesOf(three.filePath(name))) << name.toStdString();
    }
}

TEST(KinetoJob, AFolderThatCannotBeMadeIsOneSentence) {
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("plain-file"));
    QFile f(file);
    ASSERT_TRUE(f.open(QIODevice::WriteOnly));
    f.close();
    std::string error;
    EXPECT_FALSE(kinetosynth::writeKinetoJob(file.toStdString(), smallJob(), &error));
    EXPECT_EQ(error, "cannot create the folder " + file.toStdString());
}
