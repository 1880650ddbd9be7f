// SPDX-License-Identifier: MIT
// Rows in through nsys::Writer, Strobe's loader out: the same events, parameters and links.
#include "formats/nsys/synth/sampletrace.h"
#include "formats/nsys/synth/synthtrace.h"
#include "formats/open.h"
#include "model/cudaapi.h"
#include "model/trace.h"
#include "tests/fixtures/synthfixtures.h"

#include <gtest/gtest.h>

#include <algorithm>

#include <QString>
#include <filesystem>
#include <map>

using namespace strobe;
namespace fs = std::filesystem;

namespace {

class TempDir {
public:
    TempDir() {
        std::string tmpl = (fs::temp_directory_path() / "strobe-roundtrip-XXXXXX").string();
        m_path = mkdtemp(tmpl.data()) ? tmpl : std::string();
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(m_path, ec);
    }
    std::string file(const std::string& name) const { return m_path + "/" + name; }

private:
    std::string m_path;
};

std::unique_ptr<Trace> load(const std::string& path) {
    LoadResult r = loadTrace(QString::fromStdString(path));
    EXPECT_TRUE(r.ok()) << r.error.toStdString();
    return std::move(r.trace);
}

std::string str(const Trace& t, StringId id) {
    return t.string(id).toStdString();
}

// Name -> depth of every NVTX push/pop range, per thread id.
std::multimap<std::string, int> nvtxDepths(const Trace& t, std::uint32_t tid) {
    std::multimap<std::string, int> out;
    for (const Lane& lane : t.lanes()) {
        if (lane.kind() != LaneKind::Nvtx || t.threads()[lane.owner()].tid != tid)
            continue;
        for (std::uint32_t i = 0; i < lane.size(); ++i) {
            const NvtxRecord& r = t.nvtx()[lane.payload(i)];
            if (r.style == NvtxStyle::PushPop)
                out.emplace(str(t, lane.nameId(i)), r.depth);
        }
    }
    return out;
}

// The thread id and (suffix-free) name of the API call that launched kernel `i`.
std::pair<std::uint32_t, std::string> launcher(const Trace& t, std::size_t i) {
    const EventRef api = t.kernelAt(i).record.api;
    if (!api.isValid())
        return {0, "<none>"};
    const Lane& lane = t.lane(api.lane);
    EXPECT_EQ(lane.kind(), LaneKind::CudaApi);
    return {t.threads()[lane.owner()].tid,
            cudaapi::displayName(t.string(lane.nameId(api.index))).toStdString()};
}

} // namespace

TEST(WriterRoundTrip, KernelsKeepLaunchParametersAndLauncher) {
    TempDir dir;
    const std::string path = dir.file("rt.sqlite");
    std::string error;
    auto written = fixtures::writeRoundTripTrace(path, &error);
    ASSERT_TRUE(written) << error;
    auto t = load(path);
    ASSERT_TRUE(t);
    const TraceCounts& c = t->counts();
    EXPECT_EQ(c.kernels, written->kernels.size());
    EXPECT_EQ(c.memcpys, written->memcpys.size());
    EXPECT_EQ(c.memsets, written->memsets.size());
    EXPECT_EQ(c.cudaApiCalls, written->apiCalls.size());
    EXPECT_EQ(c.nvtxRanges, written->nvtx.size());
    EXPECT_EQ(c.osrtCalls, written->osrt.size());

    ASSERT_EQ(t->kernelCount(), written->kernels.size());
    std::map<std::int64_t, const nsys::KernelRow*> byStart;
    std::map<std::uint32_t, std::uint32_t> launchTid; // correlation id -> thread
    for (const auto& k : written->kernels)
        byStart[k.start] = &k;
    for (const auto& a : written->apiCalls)
        launchTid[a.correlationId] = a.tid;
    for (std::size_t i = 0; i < t->kernelCount(); ++i) {
        const KernelLaunch k = t->kernelAt(i);
        ASSERT_TRUE(byStart.count(k.start)) << k.start;
        const nsys::KernelRow& w = *byStart[k.start];
        EXPECT_EQ(k.end, w.end);
        EXPECT_EQ(str(*t, k.config->shortName), w.shortName);
        EXPECT_EQ(str(*t, k.config->demangledName),
                  w.demangledName.empty() ? w.shortName : w.demangledName);
        EXPECT_EQ(k.config->grid, w.grid);
        EXPECT_EQ(k.config->block, w.block);
        EXPECT_EQ(k.config->registersPerThread, w.registersPerThread);
        EXPECT_EQ(k.config->staticSharedBytes, w.staticShared);
        EXPECT_EQ(k.config->dynamicSharedBytes, w.dynamicShared);
        EXPECT_EQ(k.stream->streamId, w.streamId);
        EXPECT_EQ(k.record.correlationId, w.correlationId);
        const auto [tid, api] = launcher(*t, i);
        EXPECT_EQ(tid, launchTid[*w.correlationId]) << w.shortName;
        EXPECT_EQ(api, "cudaLaunchKernel");
    }
}

TEST(WriterRoundTrip, NamesGpuAndNesting) {
    TempDir dir;
    const std::string path = dir.file("names.sqlite");
    auto written = fixtures::writeRoundTripTrace(path);
    ASSERT_TRUE(written);
    auto t = load(path);
    ASSERT_TRUE(t);
    std::map<std::uint32_t, std::string> names;
    for (const ThreadInfo& th : t->threads())
        names[th.tid] = str(*t, th.name);
    EXPECT_EQ(names[7000], "main");
    EXPECT_EQ(names[7001], "worker");
    ASSERT_EQ(t->processes().size(), 1u);
    EXPECT_EQ(str(*t, t->processes()[0].name), "roundtrip");
    ASSERT_EQ(t->gpus().size(), 1u);
    EXPECT_EQ(str(*t, t->gpus()[0].name), "NVIDIA H100 80GB HBM3");
    EXPECT_EQ(t->gpus()[0].smCount, 132u);
    EXPECT_TRUE(t->gpus()[0].hasLimits());
    EXPECT_EQ(nvtxDepths(*t, 7000),
              (std::multimap<std::string, int>{{"inner", 2}, {"middle", 1}, {"outer", 0}}));
    EXPECT_EQ(t->metadata().schemaVersion.value_or(QString()).toStdString(), "3.25.0");
}

TEST(WriterRoundTrip, NvtxEdgeCases) {
    TempDir dir;
    const std::string path = dir.file("nvtx.sqlite");
    auto written = fixtures::writeNvtxEdgeCases(path);
    ASSERT_TRUE(written);
    auto t = load(path);
    ASSERT_TRUE(t);
    // 12 levels with equal starts at several depths: depth i for "depth i".
    const auto main = nvtxDepths(*t, 5000);
    for (int d = 0; d < 12; ++d) {
        const auto it = main.find("depth " + std::to_string(d));
        ASSERT_NE(it, main.end()) << d;
        EXPECT_EQ(it->second, d) << d;
    }
    // Registered strings in their own domain: the default-domain range on the same thread does
    // not nest under them.
    const auto worker = nvtxDepths(*t, 5001);
    EXPECT_EQ(worker.find("registered outer")->second, 0);
    EXPECT_EQ(worker.find("registered inner")->second, 1);
    EXPECT_EQ(worker.find("default domain on worker")->second, 0);
    // The unterminated range keeps hasEnd == false; the cross-thread range knows its end thread.
    bool sawOpen = false, sawCrossing = false;
    for (const NvtxRecord& r : t->nvtx()) {
        if (!r.hasEnd && r.style == NvtxStyle::PushPop)
            sawOpen = true;
        if (r.style == NvtxStyle::StartEnd && r.endThread &&
            t->threads()[*r.endThread].tid == 5001 && t->threads()[r.thread].tid == 5000)
            sawCrossing = true;
    }
    EXPECT_TRUE(sawOpen);
    EXPECT_TRUE(sawCrossing);
}

TEST(WriterRoundTrip, GpuEdgeCases) {
    TempDir dir;
    const std::string path = dir.file("gpu.sqlite");
    auto written = fixtures::writeGpuEdgeCases(path);
    ASSERT_TRUE(written);
    auto t = load(path);
    ASSERT_TRUE(t);
    std::size_t apiCalls = 0; // the eventClass 67 backtrace row is not an API call of its own
    for (const auto& a : written->apiCalls)
        apiCalls += a.eventClass <= 1;
    EXPECT_EQ(t->counts().cudaApiCalls, apiCalls);
    EXPECT_EQ(t->counts().kernels, written->kernels.size());
    EXPECT_EQ(t->counts().memcpys, written->memcpys.size());
    EXPECT_EQ(t->counts().memsets, written->memsets.size());
    EXPECT_EQ(t->timeRange().start, -7000);
    // Overlapping kernels on one stream spread over rows; nothing dropped.
    int stream7 = 0;
    for (const Lane& lane : t->lanes()) {
        if (lane.kind() == LaneKind::Kernels && t->streams()[lane.owner()].streamId == 7) {
            EXPECT_GE(lane.rowCount(), 2);
            ++stream7;
        }
    }
    EXPECT_EQ(stream7, 1) << "the check above ran on stream 7's kernel lane";
    // The orphan keeps its correlation id and has no launcher.
    std::size_t orphans = 0, driverKernels = 0;
    for (std::size_t i = 0; i < t->kernelCount(); ++i) {
        const KernelLaunch k = t->kernelAt(i);
        if (str(*t, k.config->shortName) == "orphan_kernel") {
            EXPECT_FALSE(k.record.api.isValid());
            ++orphans;
        }
        if (str(*t, k.config->shortName) == "driver_kernel") {
            EXPECT_EQ(launcher(*t, i),
                      (std::pair<std::uint32_t, std::string>{6001, "cuLaunchKernel"}));
            ++driverKernels;
        }
    }
    // Both checks ran, once per such kernel the fixture wrote.
    auto written_ = [&](const std::string& name) {
        return std::size_t(std::count_if(written->kernels.begin(), written->kernels.end(),
                                         [&](const auto& w) { return w.shortName == name; }));
    };
    EXPECT_EQ(orphans, written_("orphan_kernel"));
    EXPECT_EQ(driverKernels, written_("driver_kernel"));
    EXPECT_GT(orphans, 0u);
    EXPECT_GT(driverKernels, 0u);
}

TEST(WriterRoundTrip, EmptyExportLoadsWithNoEvents) {
    TempDir dir;
    const std::string path = dir.file("empty.sqlite");
    ASSERT_TRUE(fixtures::writeEmptyExport(path));
    LoadResult r = loadTrace(QString::fromStdString(path));
    // A valid export that recorded nothing opens as a clean, empty trace.
    ASSERT_TRUE(r.ok()) << r.error.toStdString();
    EXPECT_EQ(r.trace->kernelCount(), 0u);
    EXPECT_TRUE(r.trace->lanes().empty());
    EXPECT_TRUE(r.trace->threads().empty()) << "threads without events are not kept";
    EXPECT_EQ(r.trace->metadata().productName.toStdString(), "Strobe test fixture");
}

TEST(WriterRoundTrip, SynthAndSampleLoadCompletely) {
    TempDir dir;
    synth::SynthOptions o;
    o.events = 20000;
    synth::SynthStats stats;
    std::string error;
    const std::string synthPath = dir.file("synth.sqlite");
    ASSERT_TRUE(synth::writeSynthTrace(synthPath, o, &error, {}, &stats)) << error;
    auto t = load(synthPath);
    ASSERT_TRUE(t);
    EXPECT_EQ(t->counts().kernels, stats.kernels);
    EXPECT_EQ(t->counts().memcpys, stats.memcpys);
    EXPECT_EQ(t->counts().memsets, stats.memsets);
    EXPECT_EQ(t->counts().cudaApiCalls, stats.apiCalls);
    EXPECT_EQ(t->counts().osrtCalls, stats.osrt);
    for (std::size_t i = 0; i < t->kernelCount(); ++i)
        ASSERT_TRUE(t->kernelAt(i).record.api.isValid()) << i;
    EXPECT_EQ(t->gpus().size(), 2u);

    const std::string samplePath = dir.file("sample.sqlite");
    ASSERT_TRUE(sample::writeSampleTrace(samplePath, &error)) << error;
    auto s = load(samplePath);
    ASSERT_TRUE(s);
    EXPECT_EQ(s->metadata().productName.toStdString(), "Strobe sample");
    bool sawSoftmax = false;
    for (std::size_t i = 0; i < s->kernelCount(); ++i) {
        const KernelLaunch k = s->kernelAt(i);
        if (str(*s, k.config->shortName) == "softmax_warp_forward") {
            sawSoftmax = true;
            EXPECT_EQ(k.config->grid, (std::array<std::int32_t, 3>{4, 1, 1}));
            EXPECT_EQ(k.config->block, (std::array<std::int32_t, 3>{128, 1, 1}));
        }
    }
    EXPECT_TRUE(sawSoftmax);
}
