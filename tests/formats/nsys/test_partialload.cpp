// SPDX-License-Identifier: MIT
// LoadOptions::parts on the nsys reader: a partial load holds exactly the parts asked for, equal
// to those of a full load, says what it read, and never queries the tables of the other parts.
#include "formats/nsys/synth/synthtrace.h"
#include "formats/open.h"
#include "model/trace.h"
#include "tests/support/sqlitequery.h"

#include <gtest/gtest.h>

#include <QTemporaryDir>
#include <algorithm>

using namespace strobe;
using strobe::test::fixturePath;
using strobe::test::hasTable;
using strobe::test::query;
using strobe::test::queryInt;

namespace {

const std::string kKernelTable = "CUPTI_ACTIVITY_KIND_KERNEL";

LoadResult loadParts(const std::string& path, TraceParts parts) {
    LoadOptions o;
    o.parts = parts;
    return loadTrace(QString::fromStdString(path), o);
}

bool hasWarning(const Trace& t, const char* kind) {
    return std::any_of(t.warnings().begin(), t.warnings().end(),
                       [&](const TraceWarning& w) { return w.kind == QLatin1String(kind); });
}

// (start, end, demangled name) of every kernel, in the trace's kernel order.
std::vector<std::tuple<TimeNs, TimeNs, QString>> kernelTimes(const Trace& t) {
    std::vector<std::tuple<TimeNs, TimeNs, QString>> out;
    for (std::size_t i = 0; i < t.kernelCount(); ++i) {
        const KernelLaunch k = t.kernelAt(i);
        out.emplace_back(k.start, k.end, t.string(k.config->demangledName));
    }
    return out;
}

// Per NVTX lane, (start, end) of its events; an open range's end (the trace's end, which the
// other parts move) as -1.
std::vector<std::vector<std::pair<TimeNs, TimeNs>>> nvtxLanes(const Trace& t) {
    std::vector<std::vector<std::pair<TimeNs, TimeNs>>> out;
    for (const Lane& l : t.lanes()) {
        if (l.kind() != LaneKind::Nvtx && l.kind() != LaneKind::NvtxStartEnd)
            continue;
        out.emplace_back();
        for (std::uint32_t i = 0; i < l.size(); ++i)
            out.back().emplace_back(l.start(i),
                                    t.nvtx()[l.payload(i)].hasEnd ? l.end(i) : TimeNs(-1));
    }
    return out;
}

class EveryFixture : public ::testing::TestWithParam<std::string> {
protected:
    std::string path() const { return fixturePath(GetParam()); }
};

// A synthetic trace of every table the generator writes, in a temporary folder.
std::string writeSynth(const QTemporaryDir& dir) {
    const std::string path = dir.filePath(QStringLiteral("t.sqlite")).toStdString();
    synth::SynthOptions o;
    o.events = 20'000;
    std::string error;
    EXPECT_TRUE(synth::writeSynthTrace(path, o, &error)) << error;
    return path;
}

} // namespace

TEST_P(EveryFixture, KernelsAloneEqualThoseOfAFullLoad) {
    LoadResult full = loadParts(path(), kAllTraceParts);
    LoadResult part = loadParts(path(), TracePart::Kernels);
    ASSERT_TRUE(full.ok()) << full.error.toStdString();
    ASSERT_TRUE(part.ok()) << part.error.toStdString();
    const Trace& t = *part.trace;
    EXPECT_EQ(t.metadata().loadedParts, TraceParts(TracePart::Kernels));
    EXPECT_EQ(full.trace->metadata().loadedParts, kAllTraceParts);
    const std::int64_t kernels = hasTable(path(), kKernelTable)
                                     ? queryInt(path(), "SELECT count(*) FROM " + kKernelTable)
                                     : 0;
    EXPECT_EQ(std::int64_t(t.counts().kernels), kernels);
    EXPECT_EQ(t.counts().memcpys + t.counts().memsets + t.counts().cudaApiCalls +
                  t.counts().nvtxRanges + t.counts().nvtxMarks + t.counts().osrtCalls +
                  t.counts().syncs,
              0u);
    for (const Lane& l : t.lanes())
        EXPECT_EQ(l.kind(), LaneKind::Kernels);
    EXPECT_TRUE(t.apiCalls().empty());
    EXPECT_TRUE(t.nvtx().empty());
    EXPECT_TRUE(t.memcpys().empty());
    EXPECT_TRUE(t.syncs().empty());
    EXPECT_TRUE(t.gpuMemory().empty());
    // Unread API calls are not "dangling correlations"; an empty part is not "no events".
    EXPECT_FALSE(hasWarning(t, "dangling-correlation"));
    EXPECT_FALSE(hasWarning(t, "no-events"));
    EXPECT_EQ(kernelTimes(t), kernelTimes(*full.trace));
    // Without KernelDetail: no launch configuration, no correlation, no launching call.
    for (const KernelRecord& k : t.kernels()) {
        EXPECT_FALSE(k.correlationId.has_value());
        EXPECT_FALSE(k.api.isValid());
        EXPECT_EQ(t.kernelConfigs()[k.config].detail, LaunchDetail::None);
    }
}

TEST_P(EveryFixture, KernelDetailGivesTheFullLaunchConfiguration) {
    LoadResult full = loadParts(path(), kAllTraceParts);
    LoadResult part = loadParts(path(), TracePart::Kernels | TracePart::KernelDetail);
    ASSERT_TRUE(full.ok() && part.ok());
    ASSERT_EQ(part.trace->kernelCount(), full.trace->kernelCount());
    for (std::size_t i = 0; i < part.trace->kernelCount(); ++i) {
        const KernelLaunch a = part.trace->kernelAt(i), b = full.trace->kernelAt(i);
        ASSERT_EQ(a.config->grid, b.config->grid) << i;
        ASSERT_EQ(a.config->block, b.config->block) << i;
        ASSERT_EQ(a.config->registersPerThread, b.config->registersPerThread) << i;
        ASSERT_EQ(a.config->dynamicSharedBytes, b.config->dynamicSharedBytes) << i;
        ASSERT_EQ(a.config->detail, b.config->detail) << i;
        ASSERT_EQ(a.record.correlationId, b.record.correlationId) << i;
    }
}

TEST_P(EveryFixture, NvtxAloneEqualsThatOfAFullLoad) {
    LoadResult full = loadParts(path(), kAllTraceParts);
    LoadResult part = loadParts(path(), TracePart::Nvtx);
    ASSERT_TRUE(full.ok() && part.ok());
    const Trace& t = *part.trace;
    EXPECT_EQ(t.counts().nvtxRanges, full.trace->counts().nvtxRanges);
    EXPECT_EQ(t.counts().nvtxMarks, full.trace->counts().nvtxMarks);
    EXPECT_EQ(t.counts().kernels + t.counts().cudaApiCalls + t.counts().osrtCalls, 0u);
    const std::int64_t ranges =
        hasTable(path(), "NVTX_EVENTS")
            ? queryInt(path(), "SELECT count(*) FROM NVTX_EVENTS WHERE eventType IN (59,60,70,71)")
            : 0;
    EXPECT_EQ(std::int64_t(t.counts().nvtxRanges), ranges);
    for (const Lane& l : t.lanes())
        EXPECT_TRUE(l.kind() == LaneKind::Nvtx || l.kind() == LaneKind::NvtxStartEnd);
    EXPECT_EQ(nvtxLanes(t), nvtxLanes(*full.trace));
}

INSTANTIATE_TEST_SUITE_P(Fixtures, EveryFixture, ::testing::ValuesIn(test::nsysFixtures()),
                         [](const auto& info) {
                             std::string n = info.param;
                             for (char& c : n) {
                                 if (!std::isalnum(static_cast<unsigned char>(c)))
                                     c = '_';
                             }
                             return n;
                         });

// Any read of a damaged table fails the load, so a load that succeeds never queried them.
TEST(PartialLoad, SkippedTablesAreNeverQueried) {
    QTemporaryDir dir;
    const std::string path = writeSynth(dir);
    const std::int64_t kernels = queryInt(path, "SELECT count(*) FROM " + kKernelTable);
    ASSERT_GT(kernels, 0);
    for (const char* t :
         {"CUPTI_ACTIVITY_KIND_RUNTIME", "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET",
          "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", "NVTX_EVENTS", "OSRT_API"})
        test::damageTable(path, t);
    const LoadResult full = loadParts(path, kAllTraceParts);
    EXPECT_FALSE(full.ok());
    EXPECT_TRUE(full.error.contains(QLatin1String("damaged"))) << full.error.toStdString();
    const LoadResult part = loadParts(path, TracePart::Kernels | TracePart::KernelDetail);
    ASSERT_TRUE(part.ok()) << part.error.toStdString();
    EXPECT_EQ(std::int64_t(part.trace->counts().kernels), kernels);
}

TEST(PartialLoad, ADamagedTableOfARequestedPartFailsWithASentence) {
    QTemporaryDir dir;
    const std::string path = writeSynth(dir);
    const std::int64_t ranges =
        queryInt(path, "SELECT count(*) FROM NVTX_EVENTS WHERE eventType IN (59,60,70,71)");
    test::damageTable(path, kKernelTable);
    const LoadResult nvtx = loadParts(path, TracePart::Nvtx);
    ASSERT_TRUE(nvtx.ok()) << nvtx.error.toStdString();
    EXPECT_EQ(std::int64_t(nvtx.trace->counts().nvtxRanges), ranges);
    const LoadResult kernels = loadParts(path, TracePart::Kernels);
    EXPECT_FALSE(kernels.ok());
    EXPECT_TRUE(kernels.error.startsWith(QLatin1String("Cannot read 't.sqlite'")))
        << kernels.error.toStdString();
    EXPECT_TRUE(kernels.error.contains(QString::fromStdString(kKernelTable)))
        << kernels.error.toStdString();
}

// The Kineto reader parses its JSON whole: of the parts not asked for it leaves out operators
// (but the ProfilerStep#N steps), syncs and memory samples, and keeps every other part whatever
// was asked (tests/formats/kineto/test_kinetoparts.cpp has the rest). The trace says which.
TEST(PartialLoad, KinetoLeavesOutOperatorsSyncsAndMemorySamplesAndSaysSo) {
    const QString path = QStringLiteral(STROBE_FIXTURES_DIR "/kineto/small-before-fix.trace.json");
    LoadOptions o;
    o.parts = TracePart::Kernels;
    const LoadResult part = loadTrace(path, o);
    const LoadResult full = loadTrace(path);
    ASSERT_TRUE(part.ok()) << part.error.toStdString();
    ASSERT_TRUE(full.ok()) << full.error.toStdString();
    EXPECT_EQ(full.trace->metadata().loadedParts, kAllTraceParts);
    const TraceParts leftOut = TracePart::CpuOps | TracePart::Syncs | TracePart::GpuMemory;
    EXPECT_EQ(part.trace->metadata().loadedParts, kAllTraceParts & ~leftOut);
    EXPECT_GT(part.trace->counts().cudaApiCalls, 0u);
    EXPECT_EQ(part.trace->counts().cudaApiCalls, full.trace->counts().cudaApiCalls);
    EXPECT_EQ(part.trace->counts().kernels, full.trace->counts().kernels);
    EXPECT_GT(full.trace->counts().cpuOps, 0u);
    EXPECT_EQ(part.trace->counts().cpuOps, 0u); // this trace's steps are annotations
    EXPECT_EQ(part.trace->lanes().size() + 1, full.trace->lanes().size()); // no operator lane
}
