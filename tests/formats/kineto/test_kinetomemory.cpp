// SPDX-License-Identifier: MIT
// Kineto [memory] instants become each GPU's memory counter: against an independent DOM scan of
// the real file; the breakdown command and the Overview report the peak.
#include "app/cli/commands.h"
#include "formats/open.h"
#include "model/analysis/overview.h"
#include "model/reports/overviewtext.h"
#include "model/timeformat.h"
#include "tests/support/kinetoscan.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <gtest/gtest.h>
#include <map>

using namespace strobe;
using namespace strobe::test;

namespace {

TEST(KinetoMemory, LanePeakIsTheLargestTotalAllocatedOfTheFile) {
    const std::string path = kinetoFixturePath("hta-v100-memory-events.json.gz");
    const ScannedTrace scan = scanKineto(path);
    std::map<std::int64_t, std::int64_t> peak, count; // device -> max Total Allocated, samples
    for (const ScannedEvent& e : scan.events) {
        if (e.name != "[memory]" || e.memoryDeviceType != 1 || !e.totalAllocated)
            continue;
        peak[*e.memoryDeviceId] = std::max(peak[*e.memoryDeviceId], *e.totalAllocated);
        ++count[*e.memoryDeviceId];
    }
    ASSERT_EQ(peak.size(), 1u); // GPU 1 only; the CPU's [memory] events (Device Type 0) are not
    LoadResult r = loadTrace(QString::fromStdString(path));
    ASSERT_TRUE(r.ok()) << r.error.toStdString();
    ASSERT_EQ(r.trace->gpuMemory().size(), 1u);
    const GpuMemoryTrack& track = r.trace->gpuMemory().front();
    EXPECT_EQ(std::int64_t(track.deviceId), peak.begin()->first);
    EXPECT_EQ(std::int64_t(track.samples.size()), count.begin()->second);
    ASSERT_TRUE(track.peak());
    EXPECT_EQ(std::int64_t(track.peak()->allocated), peak.begin()->second);
    EXPECT_EQ(peak.begin()->second, 6629508096); // and by hand, once
    for (std::size_t i = 1; i < track.samples.size(); ++i)
        ASSERT_LE(track.samples[i - 1].time, track.samples[i].time);

    // The Overview says it, with the GPU's 32 GB from deviceProperties.
    const Overview o = buildOverview(*r.trace, KernelClassTable::defaults(), std::nullopt, 100'000);
    const auto f = std::find_if(o.findings.begin(), o.findings.end(),
                                [](const auto& x) { return x.target == FindingTarget::Moment; });
    ASSERT_NE(f, o.findings.end());
    EXPECT_EQ(f->time, track.peak()->time);
    const QString text = findingText(*r.trace, *f);
    EXPECT_TRUE(text.contains(QStringLiteral("peak GPU memory ") +
                              formatBytes(std::uint64_t(peak.begin()->second)) +
                              QStringLiteral(" of ")))
        << text.toStdString();

    // strobe-cli breakdown --format json carries the peak of the GPU that recorded it.
    QString out, err;
    QTextStream os(&out), es(&err);
    ASSERT_EQ(cli::runBreakdown({QString::fromStdString(path), QStringLiteral("--format"),
                                 QStringLiteral("json")},
                                cli::Io{os, es}),
              0)
        << err.toStdString();
    os.flush();
    bool found = false;
    for (const QJsonValue& v : QJsonDocument::fromJson(out.toUtf8()).array()) {
        const QJsonObject g = v.toObject();
        const QJsonValue m = g[QStringLiteral("memory_peak")];
        if (g[QStringLiteral("device_id")].toInt() != peak.begin()->first) {
            EXPECT_TRUE(m.isNull());
            continue;
        }
        found = true;
        EXPECT_EQ(qint64(m[QStringLiteral("allocated_bytes")].toDouble()), peak.begin()->second);
        // (JSON numbers past 2^53 arrive here as doubles: the text holds the exact value)
        EXPECT_NEAR(m[QStringLiteral("time_ns")].toDouble(), double(track.peak()->time), 1024.0);
        EXPECT_TRUE(out.contains(QString::number(track.peak()->time)));
        EXPECT_GT(m[QStringLiteral("total_bytes")].toDouble(), 3e10);
    }
    EXPECT_TRUE(found);
}

TEST(KinetoMemory, ATraceWithoutMemoryEventsSaysHowToRecordThem) {
    LoadResult r =
        loadTrace(QString::fromStdString(kinetoFixturePath("hta-a100-nccl-ddp.json.gz")));
    ASSERT_TRUE(r.ok());
    EXPECT_TRUE(r.trace->gpuMemory().empty());
    const Overview o = buildOverview(*r.trace, KernelClassTable::defaults(), std::nullopt, 100'000);
    bool says = false;
    for (const OverviewFinding& f : o.findings)
        says |= findingText(*r.trace, f)
                    .contains(QStringLiteral("torch.profiler(profile_memory=True)"));
    EXPECT_TRUE(says);
}

} // namespace
