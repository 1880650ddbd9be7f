// SPDX-License-Identifier: MIT
// The synthetic trace generator and the embedded sample, read back with plain SQL.
#include "formats/nsys/synth/sampletrace.h"
#include "formats/nsys/synth/synthrows.h"
#include "formats/nsys/synth/synthtrace.h"
#include "tests/support/sqlitequery.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <tuple>

using namespace strobe;
using strobe::test::query;
using strobe::test::queryInt;
namespace fs = std::filesystem;

namespace {

class TempDir {
public:
    TempDir() {
        std::string tmpl = (fs::temp_directory_path() / "strobe-synth-XXXXXX").string();
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

const char* kEventTables[] = {"CUPTI_ACTIVITY_KIND_KERNEL",
                              "CUPTI_ACTIVITY_KIND_MEMCPY",
                              "CUPTI_ACTIVITY_KIND_MEMSET",
                              "CUPTI_ACTIVITY_KIND_RUNTIME",
                              "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION",
                              "NVTX_EVENTS",
                              "OSRT_API"};

std::int64_t eventRows(const std::string& path) {
    std::int64_t n = 0;
    for (const char* t : kEventTables)
        if (strobe::test::hasTable(path, t))
            n += queryInt(path, std::string("SELECT count(*) FROM ") + t);
    return n;
}

// All rows of a table with their string ids resolved, in table order.
std::vector<std::vector<std::string>> contents(const std::string& path, const std::string& table) {
    return query(path, "SELECT * FROM " + table);
}

std::string writeSynth(const TempDir& dir, const std::string& name, std::uint64_t events,
                       std::uint64_t seed = 1,
                       nsys::SchemaFlavor flavor = nsys::SchemaFlavor::V3_13,
                       synth::SynthStats* stats = nullptr) {
    const std::string path = dir.file(name);
    std::string error;
    synth::SynthOptions o;
    o.events = events;
    o.seed = seed;
    o.flavor = flavor;
    EXPECT_TRUE(synth::writeSynthTrace(path, o, &error, {}, stats)) << error;
    return path;
}

// Deepest push/pop nesting on one thread, rebuilt by time containment.
int maxNvtxDepth(const std::string& path, std::int64_t globalTid) {
    const auto rows =
        query(path, "SELECT start, end FROM NVTX_EVENTS WHERE eventType = 59 AND globalTid = " +
                        std::to_string(globalTid) + " ORDER BY start, end DESC");
    std::vector<std::int64_t> ends;
    int depth = 0;
    for (const auto& r : rows) {
        const std::int64_t start = std::stoll(r[0]), end = std::stoll(r[1]);
        while (!ends.empty() && ends.back() <= start)
            ends.pop_back();
        ends.push_back(end);
        depth = std::max(depth, int(ends.size()));
    }
    return depth;
}

} // namespace

// --- synth ------------------------------------------------------------------------------------

TEST(SynthTrace, EventCountCloseToRequested) {
    TempDir dir;
    for (std::uint64_t n : {5000ull, 20000ull, 60000ull}) {
        synth::SynthStats stats;
        const std::string path = writeSynth(dir, "n" + std::to_string(n) + ".sqlite", n, 1,
                                            nsys::SchemaFlavor::V3_13, &stats);
        const std::int64_t rows = eventRows(path);
        EXPECT_EQ(std::uint64_t(rows), stats.events);
        EXPECT_LE(rows, std::int64_t(n));
        EXPECT_GE(double(rows), 0.98 * double(n)) << n;
        EXPECT_EQ(stats.kernels + stats.memcpys + stats.memsets + stats.apiCalls + stats.syncs +
                      stats.nvtx + stats.osrt,
                  stats.events);
    }
}

TEST(SynthTrace, SameSeedSameRowsOtherSeedOtherRows) {
    TempDir dir;
    const std::string a = writeSynth(dir, "a.sqlite", 8000, 7);
    const std::string b = writeSynth(dir, "b.sqlite", 8000, 7);
    const std::string c = writeSynth(dir, "c.sqlite", 8000, 8);
    for (const char* t : kEventTables)
        EXPECT_EQ(contents(a, t), contents(b, t)) << t;
    EXPECT_EQ(contents(a, "StringIds"), contents(b, "StringIds"));
    EXPECT_NE(contents(a, "CUPTI_ACTIVITY_KIND_KERNEL"), contents(c, "CUPTI_ACTIVITY_KIND_KERNEL"));
    EXPECT_NE(contents(a, "NVTX_EVENTS"), contents(c, "NVTX_EVENTS"));
}

TEST(SynthTrace, ProcessesThreadsGpusAndStreams) {
    TempDir dir;
    const std::string p = writeSynth(dir, "s.sqlite", 10000);
    EXPECT_EQ(queryInt(p, "SELECT count(*) FROM PROCESSES"), 2);
    EXPECT_EQ(queryInt(p, "SELECT count(*) FROM ThreadNames"), 8);
    EXPECT_EQ(queryInt(p, "SELECT count(*) FROM TARGET_INFO_GPU WHERE smCount = 132 AND "
                          "computeMajor = 9 AND maxShmemPerSm = 233472 AND maxWarpsPerSm = 64"),
              2);
    EXPECT_EQ(queryInt(p, "SELECT count(*) FROM TARGET_INFO_CUDA_STREAM"), 8);
    // Both GPUs work on all their streams; stream 13 only copies.
    EXPECT_EQ(queryInt(p, "SELECT count(*) FROM (SELECT DISTINCT deviceId, streamId FROM "
                          "CUPTI_ACTIVITY_KIND_KERNEL UNION SELECT DISTINCT deviceId, streamId "
                          "FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE copyKind < 11)"),
              8);
    EXPECT_EQ(queryInt(p, "SELECT count(DISTINCT globalTid) FROM CUPTI_ACTIVITY_KIND_RUNTIME"), 4);
}

TEST(SynthTrace, EveryGpuOperationHasItsLaunchCallFirst) {
    TempDir dir;
    const std::string p = writeSynth(dir, "corr.sqlite", 20000);
    const std::string join =
        " g JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = g.correlationId AND "
        "g.globalPid = (r.globalTid & 0xFFFFFFFFFF000000) JOIN StringIds s ON s.id = r.nameId";
    struct Case {
        const char* table;
        const char* api;
        const char* where;
    };
    for (const Case& c :
         {Case{"CUPTI_ACTIVITY_KIND_KERNEL", "cudaLaunchKernel_v7000", "1"},
          Case{"CUPTI_ACTIVITY_KIND_MEMCPY", "cudaMemcpyAsync_v3020", "g.copyKind < 11"},
          Case{"CUPTI_ACTIVITY_KIND_MEMSET", "cudaMemsetAsync_v3020", "1"}}) {
        const std::string table = c.table;
        const std::int64_t total =
            queryInt(p, "SELECT count(*) FROM " + table + " g WHERE " + c.where);
        EXPECT_GT(total, 0) << table;
        EXPECT_EQ(queryInt(p, "SELECT count(*) FROM " + table + join + " WHERE " + c.where +
                                  " AND s.value = '" + c.api + "' AND r.start < g.start"),
                  total)
            << table;
    }
    // Unified-memory migrations have no API call.
    EXPECT_GT(queryInt(p, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE copyKind IN "
                          "(11, 12) AND correlationId = 0"),
              0);
    EXPECT_EQ(query(p, "SELECT DISTINCT copyKind FROM CUPTI_ACTIVITY_KIND_MEMCPY ORDER BY 1"),
              (std::vector<std::vector<std::string>>{{"1"}, {"2"}, {"8"}, {"10"}, {"11"}, {"12"}}));
}

TEST(SynthTrace, StreamsOverlapOnlyWhereDeliberate) {
    TempDir dir;
    const std::string p = writeSynth(dir, "ovl.sqlite", 30000);
    const auto rows = query(
        p, "WITH g AS (SELECT start, end, globalPid, streamId FROM CUPTI_ACTIVITY_KIND_KERNEL "
           "UNION ALL SELECT start, end, globalPid, streamId FROM CUPTI_ACTIVITY_KIND_MEMCPY "
           "WHERE copyKind < 11 UNION ALL SELECT start, end, globalPid, streamId FROM "
           "CUPTI_ACTIVITY_KIND_MEMSET), o AS (SELECT globalPid, streamId, start, max(end) OVER "
           "(PARTITION BY globalPid, streamId ORDER BY start ROWS BETWEEN UNBOUNDED PRECEDING "
           "AND 1 PRECEDING) AS prevEnd FROM g) SELECT (globalPid >> 24) & 0xFFFFFF, streamId, "
           "count(*) FROM o WHERE prevEnd > start GROUP BY 1, 2");
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0][0], "4101");
    EXPECT_EQ(rows[0][1], "14");
    EXPECT_GE(std::stoll(rows[0][2]), 2);
    EXPECT_EQ(queryInt(p, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE end <= start"), 0);
}

TEST(SynthTrace, NvtxNestsFourDeepOnSeveralThreads) {
    TempDir dir;
    const std::string p = writeSynth(dir, "nvtx.sqlite", 20000);
    int fourDeep = 0;
    for (const auto& r : query(p, "SELECT DISTINCT globalTid FROM NVTX_EVENTS"))
        fourDeep += maxNvtxDepth(p, std::stoll(r[0])) >= 4;
    EXPECT_GE(fourDeep, 4); // main and autograd threads of both ranks
    // The loader threads use a named domain with registered strings.
    EXPECT_EQ(queryInt(p, "SELECT count(*) FROM NVTX_EVENTS WHERE eventType = 75 AND text = "
                          "'DataLoader'"),
              2);
    EXPECT_GT(queryInt(p, "SELECT count(*) FROM NVTX_EVENTS WHERE textId IS NOT NULL"), 0);
}

TEST(SynthTrace, HeavyTailedKernelsAndIdleGaps) {
    TempDir dir;
    synth::SynthStats stats;
    const std::string p =
        writeSynth(dir, "tail.sqlite", 40000, 3, nsys::SchemaFlavor::V3_13, &stats);
    // Some kernel's slowest run is many times its typical run.
    std::vector<std::int64_t> d;
    for (const auto& r : query(p, "SELECT end - start FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN "
                                  "StringIds s ON s.id = k.shortName WHERE s.value = "
                                  "'vectorized_elementwise_kernel'"))
        d.push_back(std::stoll(r[0]));
    ASSERT_GT(d.size(), 100u);
    std::sort(d.begin(), d.end());
    EXPECT_GT(double(d.back()) / double(d[d.size() / 2]), 5.0);
    // Every step leaves the GPU idle for milliseconds while data loads.
    const std::int64_t gaps = queryInt(
        p, "WITH g AS (SELECT start, end, deviceId FROM CUPTI_ACTIVITY_KIND_KERNEL UNION ALL "
           "SELECT start, end, deviceId FROM CUPTI_ACTIVITY_KIND_MEMCPY UNION ALL SELECT start, "
           "end, deviceId FROM CUPTI_ACTIVITY_KIND_MEMSET), o AS (SELECT start, max(end) OVER "
           "(PARTITION BY deviceId ORDER BY start ROWS BETWEEN UNBOUNDED PRECEDING AND 1 "
           "PRECEDING) AS prevEnd FROM g) SELECT count(*) FROM o WHERE start - prevEnd > 2000000");
    EXPECT_GE(gaps, std::int64_t(stats.steps) - 2); // a budget-cut last step may have none
    EXPECT_GT(stats.steps, 10u);
    // OS runtime calls, syncs with their API calls.
    EXPECT_EQ(query(p, "SELECT DISTINCT s.value FROM OSRT_API o JOIN StringIds s ON s.id = "
                       "o.nameId ORDER BY 1"),
              (std::vector<std::vector<std::string>>{
                  {"close"}, {"open64"}, {"pthread_cond_wait"}, {"read"}}));
    EXPECT_EQ(queryInt(p, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION y JOIN "
                          "CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = y.correlationId "
                          "AND y.globalPid = (r.globalTid & 0xFFFFFFFFFF000000)"),
              queryInt(p, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION"));
}

TEST(SynthTrace, FlavorSelectsSchemaVersion) {
    TempDir dir;
    const std::string old = writeSynth(dir, "old.sqlite", 3000, 1, nsys::SchemaFlavor::V2_9);
    const std::string now = writeSynth(dir, "new.sqlite", 3000, 1, nsys::SchemaFlavor::V3_25);
    EXPECT_EQ(query(old, "SELECT value FROM EXPORT_META_DATA WHERE name = "
                         "'EXPORT_SCHEMA_VERSION'")[0][0],
              "2.9.1");
    EXPECT_EQ(query(now, "SELECT value FROM META_DATA_EXPORT WHERE name = "
                         "'EXPORT_SCHEMA_VERSION'")[0][0],
              "3.25.0");
    // The event rows themselves do not depend on the flavor.
    EXPECT_EQ(eventRows(old), eventRows(now));
}

TEST(SynthTrace, ProgressIsMonotonicAndEndsAtOne) {
    TempDir dir;
    std::vector<double> seen;
    synth::SynthOptions o;
    o.events = 100000;
    std::string error;
    ASSERT_TRUE(synth::writeSynthTrace(dir.file("p.sqlite"), o, &error,
                                       [&](double f) { seen.push_back(f); }));
    ASSERT_GT(seen.size(), 3u);
    EXPECT_TRUE(std::is_sorted(seen.begin(), seen.end()));
    EXPECT_DOUBLE_EQ(seen.back(), 1.0);
}

TEST(SynthTrace, UnwritablePathFailsWithTheName) {
    synth::SynthOptions o;
    o.events = 100;
    std::string error;
    EXPECT_FALSE(synth::writeSynthTrace("/nonexistent-strobe-dir/x.sqlite", o, &error));
    EXPECT_NE(error.find("/nonexistent-strobe-dir/x.sqlite"), std::string::npos) << error;
}

// --- the embedded sample ----------------------------------------------------------------------

class SampleTrace : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        s_dir = new TempDir;
        std::string error;
        ASSERT_TRUE(sample::writeSampleTrace(s_dir->file("sample.sqlite"), &error)) << error;
    }
    static void TearDownTestSuite() { delete s_dir; }
    static std::string path() { return s_dir->file("sample.sqlite"); }
    static TempDir* s_dir;
};
TempDir* SampleTrace::s_dir = nullptr;

TEST_F(SampleTrace, SmallAndDeterministic) {
    const std::int64_t n = eventRows(path());
    EXPECT_GE(n, 20000);
    EXPECT_LE(n, 40000);
    EXPECT_EQ(n, 23050); // the number the header documents
    std::string error;
    const std::string again = s_dir->file("again.sqlite");
    ASSERT_TRUE(sample::writeSampleTrace(again, &error)) << error;
    for (const char* t : kEventTables)
        EXPECT_EQ(contents(path(), t), contents(again, t)) << t;
    EXPECT_EQ(query(path(), "SELECT value FROM META_DATA_EXPORT WHERE name = "
                            "'EXPORT_PRODUCT_NAME'")[0][0],
              "Strobe sample");
    EXPECT_EQ(query(path(), "SELECT name, pid FROM PROCESSES"),
              (std::vector<std::vector<std::string>>{{"python train.py", "4242"}}));
}

TEST_F(SampleTrace, GpuLimitsAndTheSoftmaxLaunch) {
    EXPECT_EQ(query(path(), "SELECT name, smCount, maxRegistersPerSm, maxShmemPerSm, "
                            "maxShmemPerBlockOptin, maxWarpsPerSm, maxBlocksPerSm, computeMajor, "
                            "computeMinor FROM TARGET_INFO_GPU"),
              (std::vector<std::vector<std::string>>{{"NVIDIA H100 80GB HBM3", "132", "65536",
                                                      "233472", "232448", "64", "32", "9", "0"}}));
    EXPECT_EQ(query(path(), "SELECT DISTINCT gridX, gridY, gridZ, blockX, blockY, blockZ FROM "
                            "CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.shortName "
                            "WHERE s.value = 'softmax_warp_forward'"),
              (std::vector<std::vector<std::string>>{{"4", "1", "1", "128", "1", "1"}}));
}

TEST_F(SampleTrace, DataLoadingStarvesTheGpu) {
    const std::string p = path();
    EXPECT_EQ(queryInt(p, "SELECT count(*) FROM NVTX_EVENTS WHERE text LIKE 'Epoch %'"), 2);
    EXPECT_EQ(queryInt(p, "SELECT count(*) FROM NVTX_EVENTS WHERE text LIKE 'Iteration %'"), 20);
    EXPECT_EQ(maxNvtxDepth(p, nsys::globalTid(4242, 4242)), 5);
    // The documented share: "Data Load" is 27.5% of an iteration.
    const auto share = query(p, "SELECT (SELECT sum(end - start) FROM NVTX_EVENTS WHERE text = "
                                "'Data Load') * 1000 / (SELECT sum(end - start) FROM NVTX_EVENTS "
                                "WHERE text LIKE 'Iteration %')");
    EXPECT_EQ(share[0][0], "274"); // per mille, truncated
    // The GPU idles for more than 10 ms once per iteration (the first data load comes before
    // any GPU work, so it is no gap).
    EXPECT_EQ(queryInt(p, "WITH g AS (SELECT start, end FROM CUPTI_ACTIVITY_KIND_KERNEL UNION ALL "
                          "SELECT start, end FROM CUPTI_ACTIVITY_KIND_MEMCPY UNION ALL SELECT "
                          "start, end FROM CUPTI_ACTIVITY_KIND_MEMSET), o AS (SELECT start, "
                          "max(end) OVER (ORDER BY start ROWS BETWEEN UNBOUNDED PRECEDING AND 1 "
                          "PRECEDING) AS prevEnd FROM g) SELECT count(*) FROM o WHERE start - "
                          "prevEnd > 10000000"),
              19);
    // Reads on the loader thread; pageable batch copies; a device sync per iteration.
    EXPECT_EQ(queryInt(p, "SELECT count(*) FROM OSRT_API o JOIN StringIds s ON s.id = o.nameId "
                          "WHERE s.value = 'read' AND o.globalTid = " +
                              std::to_string(nsys::globalTid(4242, 4263))),
              200);
    EXPECT_EQ(queryInt(p, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE copyKind = 1 AND "
                          "srcKind = 0"),
              40);
    EXPECT_EQ(queryInt(p, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION"), 20);
}

TEST_F(SampleTrace, ConvolutionsAndGemmsDominateAndStreamsOverlap) {
    const std::string p = path();
    const std::int64_t perMille = queryInt(
        p, "SELECT sum(CASE WHEN s.value IN ('implicit_convolve_sgemm', 'fprop_implicit_gemm', "
           "'dgrad_engine', 'wgrad_alg0_engine') OR s.value LIKE '%gemm%' THEN end - start ELSE 0 "
           "END) * 1000 / sum(end - start) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON "
           "s.id = k.shortName");
    EXPECT_GE(perMille, 800); // the small-grid softmax takes 8 % of the rest
    // The metrics kernel on stream 13 runs while stream 7 computes.
    EXPECT_EQ(queryInt(p, "SELECT count(DISTINCT a.rowid) FROM CUPTI_ACTIVITY_KIND_KERNEL a JOIN "
                          "CUPTI_ACTIVITY_KIND_KERNEL b ON a.streamId = 13 AND b.streamId = 7 AND "
                          "a.start < b.end AND b.start < a.end"),
              20);
}

TEST(SynthRows, TheH100IsOnTheFirstBusOrTheSecond) {
    const nsys::GpuRow first = synth::h100Gpu(0), second = synth::h100Gpu(1);
    EXPECT_EQ(first.id, 0u);
    EXPECT_EQ(second.id, 1u);
    EXPECT_EQ(first.busLocation, "0000:18:00.0");
    EXPECT_EQ(second.busLocation, "0000:2a:00.0");
    EXPECT_EQ(synth::h100Gpu(5).busLocation, "0000:2a:00.0");
    EXPECT_EQ(first.name, "NVIDIA H100 80GB HBM3");
    EXPECT_EQ(std::tie(first.smCount, first.computeMajor, first.computeMinor,
                       first.maxShmemPerBlockOptin, first.maxShmemPerSm),
              std::make_tuple(132u, 9u, 0u, 232448u, 233472u));
    EXPECT_EQ(std::tie(first.totalMemory, first.memoryBandwidth, first.clockRate),
              std::make_tuple(std::uint64_t(85031714816), std::uint64_t(3352320000000),
                              std::uint64_t(1980000000)));
}

TEST(SynthRows, AnApiCallStartsAtTheClockAndMovesItPastItsEnd) {
    TempDir dir;
    const std::string path = dir.file("api.sqlite");
    std::string error;
    auto w = nsys::Writer::create(path, nsys::SchemaFlavor::V3_13, &error);
    ASSERT_TRUE(w) << error;
    w->addProcess({7, "p"});
    w->addThread({7, 8, "t"});
    synth::Rng rng(99), oracle(99);
    std::int64_t now = 5000;
    synth::writeApiCall(*w, rng, {.sigma = 0.25, .pauseMin = 800, .pauseMax = 4000},
                        {.pid = 7, .tid = 8, .correlationId = 41, .name = "cudaMalloc_v3020"}, now,
                        20000);
    // The length first, then the pause: the order a seed's trace depends on.
    const std::int64_t end = 5000 + oracle.heavyTailNs(20000, 0.25);
    const std::int64_t pause = oracle.range(800, 4000);
    EXPECT_EQ(now, end + pause);
    ASSERT_TRUE(w->commit(&error)) << error;
    EXPECT_EQ(query(path, "SELECT r.start, r.end, r.correlationId, s.value FROM "
                          "CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s ON s.id = r.nameId"),
              (std::vector<std::vector<std::string>>{
                  {"5000", std::to_string(end), "41", "cudaMalloc_v3020"}}));
}
